#pragma once
// What every `cuzk` command shares: failures carried as cuzk::Exception to the command's edge,
// where they become "cuzk <command>: <message>" and an exit code by whose fault they are; small
// file helpers.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/expected.hpp"
#include "core/hex.hpp"
#include "core/mapped_file.hpp"
#include "core/progress.hpp"
#include "engine/groth16_circuit.hpp"

namespace cuzk::app {

// Exit codes of every command (README, "Exit codes"): a failure's code says whose fault it is
// (cuzk::fault_of).
enum ExitCode : int {
  kExitOk = 0,
  kExitInvalid = 1,   // a proof checked and found invalid (verify)
  kExitBadInput = 2,  // the input's fault: a flag, a file, a field (the message names it)
  kExitFailure = 3,   // anything else: a device, out of memory, an internal error
};
inline int exit_code_of(const Error& e) {
  return fault_of(e.code) == Fault::input ? kExitBadInput : kExitFailure;
}

template <class T>
T must(Expected<T> v) {
  if (!v) throw Exception(std::move(v.error()));
  return std::move(*v);
}
inline void must(const Expected<void>& v) {
  if (!v) throw Exception(v.error());
}

// Runs a command: the one place where what it throws becomes a message and an exit code
// (cuzk::capture keeps a cuzk::Exception's code; any other exception is kInternal). Prints
// "cuzk <command>: <message>" once.
template <class Run>
int guarded(const char* command, Run&& run) {
  Expected<int> rc = capture(std::forward<Run>(run));
  if (rc) return *rc;
  fmt::print(stderr, "cuzk {}: {}\n", command, rc.error().message);
  return exit_code_of(rc.error());
}

// A setup's circuit compile shows its progress from engine::kCompileProgressFrom: a line
// rewritten on a terminal, plain lines in a log; nothing below.
inline ProgressStyle compile_progress_style(uint64_t sector_size) {
  return sector_size >= engine::kCompileProgressFrom ? Progress::stderr_style() : ProgressStyle::off;
}

// 32 bytes from a flag's hex (a commitment, randomness, a ticket): errors name the flag.
inline std::array<uint8_t, 32> hex32(const std::string& flag, const std::string& hex) {
  const Expected<std::vector<uint8_t>> bytes = from_hex(hex);
  if (!bytes) throw Exception(invalid_argument(flag + ": " + bytes.error().message));
  if (bytes->size() != 32) throw Exception(invalid_argument(flag + ": expected 32 bytes (64 hex digits)"));
  std::array<uint8_t, 32> out{};
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

inline std::string slurp(const std::string& path) {
  auto f = must(MappedFile::open(path));
  return {f.bytes().begin(), f.bytes().end()};
}

inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw Exception(Error{ErrorCode::kIo, path + ": could not write"});
}

}  // namespace cuzk::app
