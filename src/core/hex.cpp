#include "core/hex.hpp"

#include <fmt/format.h>

namespace cuzk {

namespace {
int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

Expected<std::vector<uint8_t>> from_hex(std::string_view text) {
  size_t offset = 0;
  if (text.starts_with("0x") || text.starts_with("0X")) offset = 2;
  if ((text.size() - offset) % 2 != 0) {
    return invalid_argument(fmt::format("hex: odd number of digits ({})", text.size() - offset));
  }
  std::vector<uint8_t> out((text.size() - offset) / 2);
  for (size_t i = offset; i < text.size(); i += 2) {
    const int hi = digit_value(text[i]);
    const int lo = digit_value(text[i + 1]);
    if (hi < 0 || lo < 0) {
      const size_t bad = hi < 0 ? i : i + 1;
      return invalid_argument(fmt::format("hex: not a hex digit at offset {}: '{}'", bad, text[bad]));
    }
    out[(i - offset) / 2] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return out;
}

}  // namespace cuzk
