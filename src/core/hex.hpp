#pragma once
// Hexadecimal text <-> bytes, as used in test vectors, logs and JSON.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace cuzk {

// Lower-case hex, two digits per byte, no prefix.
std::string to_hex(std::span<const uint8_t> bytes);

// Accepts an optional "0x" prefix and either case; rejects odd length and non-hex digits, naming
// the offset of the first bad character.
Expected<std::vector<uint8_t>> from_hex(std::string_view text);

}  // namespace cuzk
