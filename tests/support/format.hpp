#pragma once
// Conversions between cuzk values and the oracle's hex tokens.

#include <string>
#include <vector>

#include "ec/serialize.hpp"
#include "ff/fp12.hpp"

namespace cuzk::test {

// Big-endian hex of the canonical value, no prefix, no leading zeros ("0" for zero).
template <size_t N>
std::string hex(const ff::BigInt<N>& v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 64 * N; i > 0; i -= 4) s += kDigits[(v.limbs[(i - 4) / 64] >> ((i - 4) % 64)) & 15];
  const size_t first = s.find_first_not_of('0');
  return first == std::string::npos ? "0" : s.substr(first);
}
template <class F>
  requires requires(const F& f) { f.to_int(); }
std::string hex(const F& v) {
  return hex(v.to_int());
}
inline std::string hex(const ff::Fp2& v) { return hex(v.c0) + " " + hex(v.c1); }
std::string hex(const ff::Fp12& v);

template <class F>
F parse(const std::string& token) {
  return F::from_int(F::Int::from_hex(token));
}
// 12 tokens starting at values[offset], in the oracle's order (c0.c0.c0, c0.c0.c1, ...).
ff::Fp12 parse_fp12(const std::vector<std::string>& values, size_t offset = 0);

std::string bytes_hex(std::span<const uint8_t> bytes);
std::vector<uint8_t> hex_bytes(const std::string& text);

}  // namespace cuzk::test
