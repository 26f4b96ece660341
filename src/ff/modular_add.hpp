#pragma once
// Modular addition and subtraction of fully reduced values for moduli with the top bit free
// (so a + b never carries out of N limbs). On x86-64, written with _addcarry_u64 /
// _subborrow_u64 so the compiler emits straight adc/sbb chains and a branch-free select: the
// unsigned __int128 form in bigint.hpp compiles to about three times the instructions
// (docs/PERF.md, "Fp add"). bigint.hpp's add_mod and sub_in_place remain the constexpr path.

#include <cstdint>

#include "ff/bigint.hpp"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace cuzk::ff {

#if defined(__x86_64__)

template <size_t N>
inline BigInt<N> add_mod_x86(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& m) {
  BigInt<N> s, t;
  unsigned char carry = 0, borrow = 0;
  for (size_t i = 0; i < N; ++i) {
    unsigned long long v;
    carry = _addcarry_u64(carry, a.limbs[i], b.limbs[i], &v);
    s.limbs[i] = v;
  }
  for (size_t i = 0; i < N; ++i) {
    unsigned long long v;
    borrow = _subborrow_u64(borrow, s.limbs[i], m.limbs[i], &v);
    t.limbs[i] = v;
  }
  // s < m exactly when the subtraction borrowed: keep s then, else s - m.
  const uint64_t keep_s = 0 - uint64_t(borrow);
  for (size_t i = 0; i < N; ++i) t.limbs[i] = (s.limbs[i] & keep_s) | (t.limbs[i] & ~keep_s);
  return t;
}

template <size_t N>
inline BigInt<N> sub_mod_x86(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& m) {
  BigInt<N> d;
  unsigned char borrow = 0, carry = 0;
  for (size_t i = 0; i < N; ++i) {
    unsigned long long v;
    borrow = _subborrow_u64(borrow, a.limbs[i], b.limbs[i], &v);
    d.limbs[i] = v;
  }
  // a < b: add m back.
  const uint64_t mask = 0 - uint64_t(borrow);
  for (size_t i = 0; i < N; ++i) {
    unsigned long long v;
    carry = _addcarry_u64(carry, d.limbs[i], m.limbs[i] & mask, &v);
    d.limbs[i] = v;
  }
  return d;
}

#endif

}  // namespace cuzk::ff
