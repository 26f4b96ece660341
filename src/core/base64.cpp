#include "core/base64.hpp"

#include <array>

#include <fmt/format.h>

namespace cuzk {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Symbol value per byte, -1 for bytes outside the alphabet ('=' included: handled apart).
constexpr std::array<int8_t, 256> kValue = [] {
  std::array<int8_t, 256> v{};
  v.fill(-1);
  for (int i = 0; i < 64; ++i) v[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return v;
}();

}  // namespace

std::string base64_encode(std::span<const uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t w = uint32_t{bytes[i]} << 16 | uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    out.push_back(kAlphabet[w >> 18]);
    out.push_back(kAlphabet[(w >> 12) & 63]);
    out.push_back(kAlphabet[(w >> 6) & 63]);
    out.push_back(kAlphabet[w & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest != 0) {
    const uint32_t w = uint32_t{bytes[i]} << 16 | (rest == 2 ? uint32_t{bytes[i + 1]} << 8 : 0u);
    out.push_back(kAlphabet[w >> 18]);
    out.push_back(kAlphabet[(w >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(w >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Expected<std::vector<uint8_t>> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    return invalid_argument(fmt::format("base64: length {} is not a multiple of 4", text.size()));
  }
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::vector<uint8_t> out(text.size() / 4 * 3 - padding);
  const size_t symbols = text.size() - padding;
  size_t o = 0;
  uint32_t acc = 0;
  for (size_t i = 0; i < symbols; ++i) {
    const int8_t v = kValue[static_cast<uint8_t>(text[i])];
    if (v < 0) {
      const char c = text[i];
      if (c == '=') return invalid_argument(fmt::format("base64: '=' before the end at offset {}", i));
      if (c >= 0x21 && c < 0x7f) return invalid_argument(fmt::format("base64: bad character '{}' at offset {}", c, i));
      return invalid_argument(fmt::format("base64: bad byte 0x{:02x} at offset {}", static_cast<uint8_t>(c), i));
    }
    acc = acc << 6 | static_cast<uint32_t>(v);
    if (i % 4 == 3) {
      out[o++] = static_cast<uint8_t>(acc >> 16);
      out[o++] = static_cast<uint8_t>(acc >> 8);
      out[o++] = static_cast<uint8_t>(acc);
      acc = 0;
    }
  }
  if (padding != 0) {
    // The last group holds 4 − padding symbols: 2 symbols = 1 byte + 4 zero bits, 3 = 2 bytes + 2.
    const size_t last = symbols - 1;
    if (padding == 2) {
      if ((acc & 15) != 0) return invalid_argument(fmt::format("base64: nonzero trailing bits at offset {}", last));
      out[o++] = static_cast<uint8_t>(acc >> 4);
    } else {
      if ((acc & 3) != 0) return invalid_argument(fmt::format("base64: nonzero trailing bits at offset {}", last));
      out[o++] = static_cast<uint8_t>(acc >> 10);
      out[o++] = static_cast<uint8_t>(acc >> 2);
    }
  }
  return out;
}

}  // namespace cuzk
