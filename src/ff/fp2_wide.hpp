#pragma once
// Unreduced ("wide") Fp2 values for lazy reduction on the assembly path: sums of Fp2 products
// kept as 768-bit integers and Montgomery-reduced once per result. Used by Fp6 and Fp12.

#include <cstdint>

#include "ff/fp2.hpp"
#include "ff/modular_add.hpp"  // the add-back of p (CUZK_ADD_BACK_*)

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

// The low six limbs of a lane pass through one scratch register straight to d; the high six stay
// in registers for the correction, which is ff/modular_add.hpp's add-back of p (cmov + adcx).
#define CUZK_LANE_LOW(op, off) \
  "movq " #off "(%[a]), %[k]\n\t " op " " #off "(%[b]), %[k]\n\t movq %[k], " #off "(%[d])\n\t"
#define CUZK_LANE_HIGH(op, off, t) "movq " #off "(%[a]), %[" #t "]\n\t " op " " #off "(%[b]), %[" #t "]\n\t"
#define CUZK_LANE_STORE_HIGH                                                                      \
  "movq %[t0], 48(%[d])\n\t movq %[t1], 56(%[d])\n\t movq %[t2], 64(%[d])\n\t"                  \
  "movq %[t3], 72(%[d])\n\t movq %[t4], 80(%[d])\n\t movq %[t5], 88(%[d])"
#define CUZK_LANE_ADD_BACK                                                                        \
  CUZK_ADD_BACK_IF_BORROW CUZK_ADD_BACK_LIMB(0, t0) CUZK_ADD_BACK_LIMB(8, t1) CUZK_ADD_BACK_LIMB(16, t2) \
      CUZK_ADD_BACK_LIMB(24, t3) CUZK_ADD_BACK_LIMB(32, t4) CUZK_ADD_BACK_LIMB(40, t5)

// d = a + b mod p*2^384 on one 12-limb lane: a + b < 2p*2^384 < 2^768, and it is >= p*2^384
// exactly when its high half is >= p (the low half of p*2^384 is zero), so the correction is a
// conditional subtraction of p from the high half only: subtract, and add back if that borrowed.
// d may alias a or b (limb i of d is written after limb i of a and b is read).
inline void add_lane(uint64_t* d, const uint64_t* a, const uint64_t* b) {
  const uint64_t* m = Fp::kModulus.limbs.data();
  uint64_t k, t0, t1, t2, t3, t4, t5;
  asm volatile(
      CUZK_LANE_LOW("addq", 0) CUZK_LANE_LOW("adcq", 8) CUZK_LANE_LOW("adcq", 16)
      CUZK_LANE_LOW("adcq", 24) CUZK_LANE_LOW("adcq", 32) CUZK_LANE_LOW("adcq", 40)
      CUZK_LANE_HIGH("adcq", 48, t0) CUZK_LANE_HIGH("adcq", 56, t1) CUZK_LANE_HIGH("adcq", 64, t2)
      CUZK_LANE_HIGH("adcq", 72, t3) CUZK_LANE_HIGH("adcq", 80, t4) CUZK_LANE_HIGH("adcq", 88, t5)
      "subq 0(%[m]), %[t0]\n\t sbbq 8(%[m]), %[t1]\n\t sbbq 16(%[m]), %[t2]\n\t"
      "sbbq 24(%[m]), %[t3]\n\t sbbq 32(%[m]), %[t4]\n\t sbbq 40(%[m]), %[t5]\n\t"
      CUZK_LANE_ADD_BACK CUZK_LANE_STORE_HIGH
      : [k] "=&r"(k), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5)
      : [d] "r"(d), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

// d = a - b mod p*2^384 on one lane: if a - b borrows, adding p to the high half wraps it back
// into [0, p*2^384). d may alias a or b.
inline void sub_lane(uint64_t* d, const uint64_t* a, const uint64_t* b) {
  const uint64_t* m = Fp::kModulus.limbs.data();
  uint64_t k, t0, t1, t2, t3, t4, t5;
  asm volatile(
      CUZK_LANE_LOW("subq", 0) CUZK_LANE_LOW("sbbq", 8) CUZK_LANE_LOW("sbbq", 16)
      CUZK_LANE_LOW("sbbq", 24) CUZK_LANE_LOW("sbbq", 32) CUZK_LANE_LOW("sbbq", 40)
      CUZK_LANE_HIGH("sbbq", 48, t0) CUZK_LANE_HIGH("sbbq", 56, t1) CUZK_LANE_HIGH("sbbq", 64, t2)
      CUZK_LANE_HIGH("sbbq", 72, t3) CUZK_LANE_HIGH("sbbq", 80, t4) CUZK_LANE_HIGH("sbbq", 88, t5)
      CUZK_LANE_ADD_BACK CUZK_LANE_STORE_HIGH
      : [k] "=&r"(k), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5)
      : [d] "r"(d), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

#undef CUZK_LANE_LOW
#undef CUZK_LANE_HIGH
#undef CUZK_LANE_STORE_HIGH
#undef CUZK_LANE_ADD_BACK

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
