#pragma once
// Decimal text for big integers: the form snarkjs and circom use for field elements and point
// coordinates in JSON ("123..."). Not constexpr-critical; plain schoolbook in base 10^19.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "ff/bigint.hpp"

namespace cuzk::ff {

template <size_t N>
std::string to_decimal(BigInt<N> v) {
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ull;  // 10^19, the largest power of 10 < 2^64
  std::string out;
  do {
    uint64_t rem = 0;
    v = div_small(v, kChunk, &rem);
    for (int i = 0; i < 19; ++i) {
      out.push_back(static_cast<char>('0' + rem % 10));
      rem /= 10;
      if (v.is_zero() && rem == 0) break;
    }
  } while (!v.is_zero());
  std::reverse(out.begin(), out.end());
  return out;
}

// Digits only (no sign, no spaces, at least one digit); nullopt when not a number or too wide.
template <size_t N>
std::optional<BigInt<N>> from_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20 * N) return std::nullopt;
  BigInt<N> v;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    // v = 10 v + d, watching for overflow out of N limbs
    u128 carry = static_cast<uint64_t>(c - '0');
    for (auto& limb : v.limbs) {
      const u128 t = u128(limb) * 10 + carry;
      limb = static_cast<uint64_t>(t);
      carry = t >> 64;
    }
    if (carry != 0) return std::nullopt;
  }
  return v;
}

}  // namespace cuzk::ff
