#include "support/format.hpp"

#include "core/hex.hpp"

namespace cuzk::test {

namespace {
std::string hex6(const ff::Fp6& v) { return hex(v.c0) + " " + hex(v.c1) + " " + hex(v.c2); }
}  // namespace

std::string hex(const ff::Fp12& v) { return hex6(v.c0) + " " + hex6(v.c1); }

ff::Fp12 parse_fp12(const std::vector<std::string>& t, size_t o) {
  auto fp2 = [&](size_t i) { return ff::Fp2{parse<ff::Fp>(t.at(o + 2 * i)), parse<ff::Fp>(t.at(o + 2 * i + 1))}; };
  return {{fp2(0), fp2(1), fp2(2)}, {fp2(3), fp2(4), fp2(5)}};
}

std::string bytes_hex(std::span<const uint8_t> bytes) { return to_hex(bytes); }
std::vector<uint8_t> hex_bytes(const std::string& text) { return from_hex(text).value(); }

}  // namespace cuzk::test
