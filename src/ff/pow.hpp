#pragma once
// x^e by left-to-right square-and-multiply, for any type with one(), square() and operator*
// (the prime fields and every tower level). Variable time in e.

#include "ff/bigint.hpp"

namespace cuzk::ff {

template <class T, size_t M>
constexpr T pow(const T& x, const BigInt<M>& e) {
  T r = T::one();
  for (size_t i = e.num_bits(); i-- > 0;) {
    r = r.square();
    if (e.bit(i)) r = r * x;
  }
  return r;
}

}  // namespace cuzk::ff
