// The fuzz targets without libFuzzer (cmake/CuzkFuzz.cmake): `fuzz_<name> PATH...` feeds every
// file named, and every regular file inside each directory named, to the target's
// LLVMFuzzerTestOneInput, in name order. A path that does not exist is skipped (a target without
// regressions has no directory). A crash or broken property aborts inside the target, so the
// ctest test fails and names the input on its last "replay:" line.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include "fuzz/fuzz.hpp"

namespace {

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      inputs.push_back(arg);
    } else {
      std::printf("replay: %s: not there, skipped\n", argv[i]);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const auto& path : inputs) {
    std::printf("replay: %s\n", path.c_str());
    std::fflush(stdout);
    const std::vector<uint8_t> bytes = read_file(path);
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::printf("replay: %zu inputs, none crashed\n", inputs.size());
  return 0;
}
