#pragma once
// x^e for any type with one(), square() and operator* (the prime fields and every tower level).
// Variable time in e. Short exponents use plain square-and-multiply; long ones a sliding window
// of up to 4 bits over the odd powers x, x^3, ..., x^15 (Menezes, van Oorschot, Vanstone,
// "Handbook of Applied Cryptography", Alg. 14.85): for a 381-bit exponent about 380 squarings
// and 84 multiplications instead of 190.

#include <array>

#include "ff/bigint.hpp"

namespace cuzk::ff {

template <class T, size_t M>
constexpr T pow(const T& x, const BigInt<M>& e) {
  const size_t bits = e.num_bits();
  T r = T::one();
  if (bits <= 64) {
    for (size_t i = bits; i-- > 0;) {
      r = r.square();
      if (e.bit(i)) r = r * x;
    }
    return r;
  }
  constexpr size_t kWindow = 4;
  std::array<T, 1 << (kWindow - 1)> odd{};  // odd[k] = x^(2k+1)
  odd[0] = x;
  const T x2 = x.square();
  for (size_t k = 1; k < odd.size(); ++k) odd[k] = odd[k - 1] * x2;
  for (size_t i = bits; i > 0;) {
    if (!e.bit(i - 1)) {
      r = r.square();
      --i;
      continue;
    }
    // The longest window e[i-1 .. j] of at most kWindow bits that ends in a set bit.
    size_t j = i > kWindow ? i - kWindow : 0;
    while (!e.bit(j)) ++j;
    unsigned digit = 0;
    for (size_t b = i; b-- > j;) {
      r = r.square();
      digit = digit << 1 | unsigned(e.bit(b));
    }
    r = r * odd[digit >> 1];
    i = j;
  }
  return r;
}

}  // namespace cuzk::ff
