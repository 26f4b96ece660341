#pragma once
// Running the Node.js oracles (snarkjs, tests/oracle/*.mjs) from tests: a command's exit code
// and its merged stdout/stderr.

#include <filesystem>
#include <string>

namespace cuzk::test {

struct Process {
  int rc = -1;
  std::string output;  // stdout and stderr
};

Process run(const std::string& command);
std::string quote(const std::filesystem::path& p);  // single-quoted for the shell
std::filesystem::path oracle_dir();                 // tests/oracle
Process snarkjs(const std::string& args);           // snarkjs 0.7.6's CLI from tests/oracle

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace cuzk::test
