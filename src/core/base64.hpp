#pragma once
// Standard base64 (RFC 4648 §4: alphabet A-Z a-z 0-9 + /, '=' padding to a multiple of 4), as
// Go's encoding/json writes a []byte and Curio wraps a C1 output ("Phase1Out").

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace cuzk {

// Padded output, no line breaks.
std::string base64_encode(std::span<const uint8_t> bytes);

// Strict: the length must be a multiple of 4, padding only at the end (at most two '='), no
// whitespace, and the unused low bits of the last symbol must be zero (RFC 4648 §3.5), so every
// byte string has exactly one accepted encoding. Errors name the offset of the bad character.
Expected<std::vector<uint8_t>> base64_decode(std::string_view text);

}  // namespace cuzk
