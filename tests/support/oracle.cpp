#include "support/oracle.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cuzk::test {

Oracle::Oracle(std::string script) : script_(std::move(script)) {}

size_t Oracle::ask(std::string request) {
  requests_.push_back(std::move(request));
  return requests_.size() - 1;
}

const std::vector<std::string>& Oracle::values(size_t i) const {
  const Answer& a = answers_.at(i);
  if (!a.ok) throw std::runtime_error("oracle request '" + requests_.at(i) + "' failed: " + a.error);
  return a.values;
}

void Oracle::run() {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem = "cuzk-oracle-" + std::to_string(::getpid()) + "-" + std::to_string(requests_.size());
  const auto in_path = dir / (stem + ".in");
  const auto out_path = dir / (stem + ".out");
  {
    std::ofstream in(in_path);
    for (const auto& r : requests_) in << r << '\n';
  }
  const std::string cmd = "node '" + script_ + "' < '" + in_path.string() + "' > '" + out_path.string() + "'";
  const int rc = std::system(cmd.c_str());
  std::ifstream out(out_path);
  std::string line;
  answers_.clear();
  while (std::getline(out, line)) {
    if (line.empty()) continue;
    std::istringstream tokens(line);
    std::string status;
    tokens >> status;
    Answer a;
    a.ok = status == "ok";
    if (a.ok) {
      for (std::string t; tokens >> t;) a.values.push_back(t);
    } else {
      std::getline(tokens, a.error);
    }
    answers_.push_back(std::move(a));
  }
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  if (rc != 0 || answers_.size() != requests_.size()) {
    throw std::runtime_error("oracle '" + cmd + "' exited with " + std::to_string(rc) + " after " +
                             std::to_string(answers_.size()) + " of " + std::to_string(requests_.size()) +
                             " answers (is node installed and tests/oracle's npm install done?)");
  }
}

Oracle bls12_381_oracle() { return Oracle(CUZK_ORACLE_DIR "/bls12_381.mjs"); }

}  // namespace cuzk::test
