#pragma once
// A client for the Node.js oracles under tests/oracle: queue requests, run the oracle once over
// all of them, read one answer per request. Protocol in tests/oracle/bls12_381.mjs.

#include <string>
#include <vector>

namespace cuzk::test {

class Oracle {
 public:
  explicit Oracle(std::string script);

  // Queues one request line ("fp_mul 3 5"); returns its index.
  size_t ask(std::string request);
  // Runs `node <script>` over the queued requests; throws if node fails or answers short.
  void run();

  bool ok(size_t i) const { return answers_.at(i).ok; }
  // The tokens of an "ok" answer, or the reason of an "error" one.
  const std::vector<std::string>& values(size_t i) const;
  const std::string& error(size_t i) const { return answers_.at(i).error; }

 private:
  struct Answer {
    bool ok = false;
    std::vector<std::string> values;
    std::string error;
  };
  std::string script_;
  std::vector<std::string> requests_;
  std::vector<Answer> answers_;
};

// The BLS12-381 oracle (@noble/curves).
Oracle bls12_381_oracle();

}  // namespace cuzk::test
