#include "support/process.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <random>
#include <stdexcept>

namespace cuzk::test {

Process run(const std::string& command) {
  Process result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("popen failed: " + command);
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string quote(const std::filesystem::path& p) {
  std::string out = "'";
  out.append(p.string()).append("'");
  return out;
}

std::filesystem::path oracle_dir() { return CUZK_ORACLE_DIR; }

Process snarkjs(const std::string& args) {
  std::string cmd = "node ";
  cmd.append(quote(oracle_dir() / "node_modules/snarkjs/build/cli.cjs")).append(" ").append(args);
  return run(cmd);
}

TempDir::TempDir(const std::string& tag) {
  std::random_device rd;
  path_ = std::filesystem::temp_directory_path() /
          ("cuzk_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace cuzk::test
