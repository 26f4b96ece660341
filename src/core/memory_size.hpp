#pragma once
// Memory sizes as users write them (flags, environment, the daemon's config) and as messages
// print them.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk {

// A memory size: "16GiB", "512MiB", "24GB", a plain number of bytes (units case-insensitive);
// "" or "0": no limit (0). CUZK_GPU_MEMORY, the --gpu-memory flags and the config's sizes.
Expected<size_t> parse_memory_size(std::string_view text);

// "12.3 GiB", for messages.
std::string gib_text(size_t bytes);

// The exact size in the largest binary unit that divides it: "2KiB", "32GiB", "1000B"; as sector
// sizes are written in file names and flags.
std::string exact_size_text(uint64_t bytes);

// A sector size as flags take it: the exact_size_text of one of `known` in any case ("2kib"), or a
// decimal byte count, returned as given (the caller checks it is a size it knows and names what
// it knows); else kInvalidArgument "sector size '<text>': expected one of 2KiB, ... or a byte count".
Expected<uint64_t> parse_size_of(std::string_view text, std::span<const uint64_t> known);

}  // namespace cuzk
