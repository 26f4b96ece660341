#pragma once
// Unreduced ("wide") Fp2 values for lazy reduction on the assembly path: sums of Fp2 products
// kept as 768-bit integers and Montgomery-reduced once per result. Used by Fp6 and Fp12.

#include <cstdint>

#include "ff/fp2.hpp"

namespace cuzk::ff {

#ifdef CUZK_MONT_ASM
// Lazy reduction (Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for
// computing pairings over ordinary curves", Eurocrypt 2011, §3-4): sums of Fp2 products are
// formed on unreduced 768-bit values and Montgomery-reduced once per output coefficient. Only on
// the assembly path (kUseMontAsm); the portable and constexpr code keep the reduced formulas.
namespace lazy {

// Two 768-bit integers V0, V1 (12 limbs each), each kept in [0, p*2^384): the range
// cuzk_fp2_redc_6 accepts. They stand for the Fp2 value (V0 + V1 u) * 2^-384.
struct Fp2Wide {
  uint64_t l[24];
};

inline Fp2Wide mul(const Fp2& a, const Fp2& b) {
  Fp2Wide r;
  cuzk_fp2_mul_wide_6(r.l, a.limbs(), b.limbs(), Fp::kModulus.limbs.data());
  return r;
}
inline Fp2Wide sqr(const Fp2& a) {
  Fp2Wide r;
  cuzk_fp2_sqr_wide_6(r.l, a.limbs(), Fp::kModulus.limbs.data());
  return r;
}
inline Fp2 redc(const Fp2Wide& v) {
  Fp2 r;
  cuzk_fp2_redc_6(r.limbs(), v.l, Fp::kModulus.limbs.data(), Fp::kNegInv);
  return r;
}

// d = a + b mod p*2^384 on one 12-limb lane: a + b < 2p*2^384 < 2^768, and it is >= p*2^384
// exactly when its high half is >= p (the low half of p*2^384 is zero), so the correction is a
// conditional subtraction of p from the high half only. d may alias a or b.
inline void add_lane(uint64_t* d, const uint64_t* a, const uint64_t* b) {
  const uint64_t* m = Fp::kModulus.limbs.data();
  uint64_t t, h0, h1, h2, h3, h4, h5;
  asm volatile(
      "movq 0(%[a]), %[t]\n\t addq 0(%[b]), %[t]\n\t movq %[t], 0(%[d])\n\t"
      "movq 8(%[a]), %[t]\n\t adcq 8(%[b]), %[t]\n\t movq %[t], 8(%[d])\n\t"
      "movq 16(%[a]), %[t]\n\t adcq 16(%[b]), %[t]\n\t movq %[t], 16(%[d])\n\t"
      "movq 24(%[a]), %[t]\n\t adcq 24(%[b]), %[t]\n\t movq %[t], 24(%[d])\n\t"
      "movq 32(%[a]), %[t]\n\t adcq 32(%[b]), %[t]\n\t movq %[t], 32(%[d])\n\t"
      "movq 40(%[a]), %[t]\n\t adcq 40(%[b]), %[t]\n\t movq %[t], 40(%[d])\n\t"
      "movq 48(%[a]), %[h0]\n\t adcq 48(%[b]), %[h0]\n\t"
      "movq 56(%[a]), %[h1]\n\t adcq 56(%[b]), %[h1]\n\t"
      "movq 64(%[a]), %[h2]\n\t adcq 64(%[b]), %[h2]\n\t"
      "movq 72(%[a]), %[h3]\n\t adcq 72(%[b]), %[h3]\n\t"
      "movq 80(%[a]), %[h4]\n\t adcq 80(%[b]), %[h4]\n\t"
      "movq 88(%[a]), %[h5]\n\t adcq 88(%[b]), %[h5]\n\t"
      "movq %[h0], 48(%[d])\n\t movq %[h1], 56(%[d])\n\t movq %[h2], 64(%[d])\n\t"
      "movq %[h3], 72(%[d])\n\t movq %[h4], 80(%[d])\n\t movq %[h5], 88(%[d])\n\t"
      "subq 0(%[m]), %[h0]\n\t sbbq 8(%[m]), %[h1]\n\t sbbq 16(%[m]), %[h2]\n\t"
      "sbbq 24(%[m]), %[h3]\n\t sbbq 32(%[m]), %[h4]\n\t sbbq 40(%[m]), %[h5]\n\t"
      "cmovcq 48(%[d]), %[h0]\n\t cmovcq 56(%[d]), %[h1]\n\t cmovcq 64(%[d]), %[h2]\n\t"
      "cmovcq 72(%[d]), %[h3]\n\t cmovcq 80(%[d]), %[h4]\n\t cmovcq 88(%[d]), %[h5]\n\t"
      "movq %[h0], 48(%[d])\n\t movq %[h1], 56(%[d])\n\t movq %[h2], 64(%[d])\n\t"
      "movq %[h3], 72(%[d])\n\t movq %[h4], 80(%[d])\n\t movq %[h5], 88(%[d])"
      : [t] "=&r"(t), [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3), [h4] "=&r"(h4),
        [h5] "=&r"(h5)
      : [d] "r"(d), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

// d = a - b mod p*2^384 on one lane: if a - b borrows, adding p to the high half wraps it back
// into [0, p*2^384). d may alias a or b.
inline void sub_lane(uint64_t* d, const uint64_t* a, const uint64_t* b) {
  const uint64_t* m = Fp::kModulus.limbs.data();
  uint64_t t, h0, h1, h2, h3, h4, h5;
  asm volatile(
      "movq 0(%[a]), %[t]\n\t subq 0(%[b]), %[t]\n\t movq %[t], 0(%[d])\n\t"
      "movq 8(%[a]), %[t]\n\t sbbq 8(%[b]), %[t]\n\t movq %[t], 8(%[d])\n\t"
      "movq 16(%[a]), %[t]\n\t sbbq 16(%[b]), %[t]\n\t movq %[t], 16(%[d])\n\t"
      "movq 24(%[a]), %[t]\n\t sbbq 24(%[b]), %[t]\n\t movq %[t], 24(%[d])\n\t"
      "movq 32(%[a]), %[t]\n\t sbbq 32(%[b]), %[t]\n\t movq %[t], 32(%[d])\n\t"
      "movq 40(%[a]), %[t]\n\t sbbq 40(%[b]), %[t]\n\t movq %[t], 40(%[d])\n\t"
      "movq 48(%[a]), %[h0]\n\t sbbq 48(%[b]), %[h0]\n\t"
      "movq 56(%[a]), %[h1]\n\t sbbq 56(%[b]), %[h1]\n\t"
      "movq 64(%[a]), %[h2]\n\t sbbq 64(%[b]), %[h2]\n\t"
      "movq 72(%[a]), %[h3]\n\t sbbq 72(%[b]), %[h3]\n\t"
      "movq 80(%[a]), %[h4]\n\t sbbq 80(%[b]), %[h4]\n\t"
      "movq 88(%[a]), %[h5]\n\t sbbq 88(%[b]), %[h5]\n\t"
      "sbbq %[t], %[t]\n\t"
      "movq %[h0], 48(%[d])\n\t movq %[h1], 56(%[d])\n\t movq %[h2], 64(%[d])\n\t"
      "movq %[h3], 72(%[d])\n\t movq %[h4], 80(%[d])\n\t movq %[h5], 88(%[d])\n\t"
      "addq 0(%[m]), %[h0]\n\t adcq 8(%[m]), %[h1]\n\t adcq 16(%[m]), %[h2]\n\t"
      "adcq 24(%[m]), %[h3]\n\t adcq 32(%[m]), %[h4]\n\t adcq 40(%[m]), %[h5]\n\t"
      "testq %[t], %[t]\n\t"
      "cmovzq 48(%[d]), %[h0]\n\t cmovzq 56(%[d]), %[h1]\n\t cmovzq 64(%[d]), %[h2]\n\t"
      "cmovzq 72(%[d]), %[h3]\n\t cmovzq 80(%[d]), %[h4]\n\t cmovzq 88(%[d]), %[h5]\n\t"
      "movq %[h0], 48(%[d])\n\t movq %[h1], 56(%[d])\n\t movq %[h2], 64(%[d])\n\t"
      "movq %[h3], 72(%[d])\n\t movq %[h4], 80(%[d])\n\t movq %[h5], 88(%[d])"
      : [t] "=&r"(t), [h0] "=&r"(h0), [h1] "=&r"(h1), [h2] "=&r"(h2), [h3] "=&r"(h3), [h4] "=&r"(h4),
        [h5] "=&r"(h5)
      : [d] "r"(d), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

inline Fp2Wide operator+(const Fp2Wide& a, const Fp2Wide& b) {
  Fp2Wide r;
  add_lane(r.l, a.l, b.l);
  add_lane(r.l + 12, a.l + 12, b.l + 12);
  return r;
}
inline Fp2Wide operator-(const Fp2Wide& a, const Fp2Wide& b) {
  Fp2Wide r;
  sub_lane(r.l, a.l, b.l);
  sub_lane(r.l + 12, a.l + 12, b.l + 12);
  return r;
}
// Times xi = 1 + u: (V0 - V1) + (V0 + V1) u.
inline Fp2Wide xi_mul(const Fp2Wide& a) {
  Fp2Wide r;
  sub_lane(r.l, a.l, a.l + 12);
  add_lane(r.l + 12, a.l, a.l + 12);
  return r;
}

}  // namespace lazy
#endif  // CUZK_MONT_ASM

}  // namespace cuzk::ff
