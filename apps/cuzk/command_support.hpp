#pragma once
// What every `cuzk` command shares: failures carried as one exception to the command's edge,
// where they become "cuzk <command>: <message>" and exit status 2; small file helpers.

#include <fmt/format.h>

#include <fstream>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/expected.hpp"
#include "core/mapped_file.hpp"

namespace cuzk::app {

struct Failed {
  Error error;
};

template <class T>
T must(Expected<T> v) {
  if (!v) throw Failed{v.error()};
  return std::move(*v);
}
inline void must(const Expected<void>& v) {
  if (!v) throw Failed{v.error()};
}

// Runs a command; any failure below is reported once, naming the command. Returns the exit code.
template <class Run>
int guarded(const char* command, Run&& run) {
  try {
    return run();
  } catch (const Failed& f) {
    fmt::print(stderr, "cuzk {}: {}\n", command, f.error.message);
  } catch (const Exception& e) {
    fmt::print(stderr, "cuzk {}: {}\n", command, e.error().message);
  }
  return 2;
}

inline std::string slurp(const std::string& path) {
  auto f = must(MappedFile::open(path));
  return {f.bytes().begin(), f.bytes().end()};
}

inline void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw Failed{Error{ErrorCode::kIo, path + ": could not write"}};
}

}  // namespace cuzk::app
