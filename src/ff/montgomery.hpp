#pragma once
// Montgomery arithmetic over an odd modulus M of N limbs, portable C++ (unsigned __int128).
// Elements are kept as aR mod M with R = 2^(64N). This is the constexpr path, the fallback on
// CPUs without BMI2/ADX, and the test oracle of the x86-64 assembly (ff/mont_x86_64.hpp).

#include <cstdint>

#include "ff/bigint.hpp"

namespace cuzk::ff {

// -M^-1 mod 2^64, by Newton's iteration x <- x(2 - Mx), which doubles the correct low bits each
// step: 1 -> 2 -> ... -> 64 bits in six steps (M odd, so x = 1 is right to one bit).
template <size_t N>
constexpr uint64_t mont_neg_inverse(const BigInt<N>& m) {
  uint64_t x = 1;
  for (int i = 0; i < 6; ++i) x *= 2 - m.limbs[0] * x;
  return ~x + 1;
}

// 2^k mod M by k modular doublings of 1 (k up to a few thousand: compile-time friendly).
template <size_t N>
constexpr BigInt<N> pow2_mod(size_t k, const BigInt<N>& m) {
  BigInt<N> x(1);
  for (size_t i = 0; i < k; ++i) x = add_mod(x, x, m);
  return x;
}

// CIOS Montgomery multiplication (Koc, Acar, Kaliski 1996, "Analyzing and comparing Montgomery
// multiplication algorithms", §4): returns a*b*R^-1 mod M for a, b < M.
template <size_t N>
constexpr BigInt<N> mont_mul_portable(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& m,
                                      uint64_t m_neg_inv) {
  uint64_t t[N + 2] = {};
  for (size_t i = 0; i < N; ++i) {
    // t += a * b[i]
    uint64_t carry = 0;
    for (size_t j = 0; j < N; ++j) {
      const u128 s = u128(a.limbs[j]) * b.limbs[i] + t[j] + carry;
      t[j] = uint64_t(s);
      carry = uint64_t(s >> 64);
    }
    u128 s = u128(t[N]) + carry;
    t[N] = uint64_t(s);
    t[N + 1] = uint64_t(s >> 64);
    // t = (t + q*M) / 2^64 with q chosen so that the low limb cancels
    const uint64_t q = t[0] * m_neg_inv;
    carry = uint64_t((u128(q) * m.limbs[0] + t[0]) >> 64);
    for (size_t j = 1; j < N; ++j) {
      s = u128(q) * m.limbs[j] + t[j] + carry;
      t[j - 1] = uint64_t(s);
      carry = uint64_t(s >> 64);
    }
    s = u128(t[N]) + carry;
    t[N - 1] = uint64_t(s);
    t[N] = t[N + 1] + uint64_t(s >> 64);
  }
  // t < 2M: one conditional subtraction.
  BigInt<N> r;
  for (size_t j = 0; j < N; ++j) r.limbs[j] = t[j];
  if (t[N] != 0 || r >= m) sub_in_place(r, m);
  return r;
}

}  // namespace cuzk::ff
