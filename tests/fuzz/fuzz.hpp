#pragma once
// What the fuzz targets share (docs/fuzzing.md). Each target defines the libFuzzer entry point
// below and hands the bytes to one decoder; a decoder must answer any input with a value or an
// Error, never a crash, a sanitizer report, an uncaught exception, a hang or a huge allocation.
// Where a decoder accepts the input, the target also checks a property a wrong decoder would
// break (re-encoding gives the same bytes, a second parse gives the same value); check() aborts on
// a broken one, so libFuzzer (or replay_main.cpp) reports the input.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace cuzk::fuzz {

inline std::span<const uint8_t> bytes(const uint8_t* data, size_t size) { return {data, size}; }
inline std::string_view text(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

inline void check(bool ok, const char* property) {
  if (ok) return;
  std::fprintf(stderr, "fuzz: property broken: %s\n", property);
  std::abort();
}

// An error from a decoder given `source` as the input's name: it must name it (the project's rule
// for bad input: the message says which file) and say something after it.
inline void check_names_source(const Error& error, std::string_view source) {
  check(error.message.find(source) != std::string::npos, "the error message names the input");
  check(error.message.size() > source.size() + 2, "the error message says what is wrong");
}

}  // namespace cuzk::fuzz
