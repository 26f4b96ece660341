#pragma once
// Modular addition and subtraction of fully reduced values for moduli with the top bit free
// (so a + b never carries out of N limbs), on x86-64 as inline assembly, every intermediate in
// registers (docs/PERF.md, optimisations 4 and 10):
//   add: t = a + b (one adc chain), a register copy of t, t - m (one sbb chain), and cmov picks
//        the copy when that borrowed;
//   sub: t = a - b (one sbb chain), then t + m limb by limb where a - b borrowed (cmov picks
//        m or 0 just before each adcx).
// Inline so that the tower's many additions cost no call. bigint.hpp's add_mod and sub_mod remain
// the constexpr and portable path. Field dispatches on the same start-up flag as the
// multiplication (kUseMontAsm), so CUZK_NO_ASM=1 runs, which the tests make for the ff and
// pairing suites, exercise the portable additions as well.
//
// The results leave as register outputs that the compiler stores to out; the inputs are named
// as memory operands, so the compiler knows what is read and written and needs no "memory"
// clobber. out may be a or b: the stores follow the asm.

#include <cstdint>

#include "ff/bigint.hpp"

#if defined(__x86_64__) && !defined(CUZK_NO_ASM)
#define CUZK_ADD_ASM 1
#endif

namespace cuzk::ff {

#ifdef CUZK_ADD_ASM

namespace detail {
// The N limbs at p as one memory operand, so that an asm reading them through a pointer
// register declares what it reads.
template <size_t N>
inline const uint64_t (&limbs_at(const uint64_t* p))[N] {
  return *reinterpret_cast<const uint64_t(*)[N]>(p);
}
}  // namespace detail

// The add-back shared by both operations: with ZF clear where the chain before borrowed, t += m
// limb by limb. cmov selects m_i or 0 and adcx adds it; adcx touches only CF and cmov no flag, so
// one scratch register k serves every limb. (ADX is part of kUseMontAsm's requirement.)
#define CUZK_ADD_BACK_LIMB(off, t) \
  "movq $0, %[k]\n\t cmovnzq " #off "(%[m]), %[k]\n\t adcxq %[k], %[" #t "]\n\t"
#define CUZK_ADD_BACK_IF_BORROW "sbbq %[k], %[k]\n\t testq %[k], %[k]\n\t"

// out = a + b mod m (6 limbs): t = a + b - m (adc chain, then sbb chain), and m added back if
// that borrowed.
inline void add_mod_6(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t k;
  asm("movq 0(%[a]), %[t0]\n\t addq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t adcq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t adcq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t adcq 24(%[b]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t adcq 32(%[b]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t adcq 40(%[b]), %[t5]\n\t"
      "subq 0(%[m]), %[t0]\n\t sbbq 8(%[m]), %[t1]\n\t sbbq 16(%[m]), %[t2]\n\t"
      "sbbq 24(%[m]), %[t3]\n\t sbbq 32(%[m]), %[t4]\n\t sbbq 40(%[m]), %[t5]\n\t"
      CUZK_ADD_BACK_IF_BORROW
      CUZK_ADD_BACK_LIMB(0, t0) CUZK_ADD_BACK_LIMB(8, t1) CUZK_ADD_BACK_LIMB(16, t2)
      CUZK_ADD_BACK_LIMB(24, t3) CUZK_ADD_BACK_LIMB(32, t4) CUZK_ADD_BACK_LIMB(40, t5)
      : [t0] "=&r"(out[0]), [t1] "=&r"(out[1]), [t2] "=&r"(out[2]), [t3] "=&r"(out[3]), [t4] "=&r"(out[4]),
        [t5] "=&r"(out[5]), [k] "=&r"(k)
      : [a] "r"(a), [b] "r"(b), [m] "r"(m), "m"(detail::limbs_at<6>(a)), "m"(detail::limbs_at<6>(b)),
        "m"(detail::limbs_at<6>(m))
      : "cc");
}

// out = a - b mod m (6 limbs): t = a - b (sbb chain), and m added back if that borrowed.
inline void sub_mod_6(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t k;
  asm("movq 0(%[a]), %[t0]\n\t subq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t sbbq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t sbbq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t sbbq 24(%[b]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t sbbq 32(%[b]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t sbbq 40(%[b]), %[t5]\n\t"
      CUZK_ADD_BACK_IF_BORROW
      CUZK_ADD_BACK_LIMB(0, t0) CUZK_ADD_BACK_LIMB(8, t1) CUZK_ADD_BACK_LIMB(16, t2)
      CUZK_ADD_BACK_LIMB(24, t3) CUZK_ADD_BACK_LIMB(32, t4) CUZK_ADD_BACK_LIMB(40, t5)
      : [t0] "=&r"(out[0]), [t1] "=&r"(out[1]), [t2] "=&r"(out[2]), [t3] "=&r"(out[3]), [t4] "=&r"(out[4]),
        [t5] "=&r"(out[5]), [k] "=&r"(k)
      : [a] "r"(a), [b] "r"(b), [m] "r"(m), "m"(detail::limbs_at<6>(a)), "m"(detail::limbs_at<6>(b)),
        "m"(detail::limbs_at<6>(m))
      : "cc");
}

// The same for 4 limbs.
inline void add_mod_4(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t k;
  asm("movq 0(%[a]), %[t0]\n\t addq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t adcq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t adcq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t adcq 24(%[b]), %[t3]\n\t"
      "subq 0(%[m]), %[t0]\n\t sbbq 8(%[m]), %[t1]\n\t sbbq 16(%[m]), %[t2]\n\t sbbq 24(%[m]), %[t3]\n\t"
      CUZK_ADD_BACK_IF_BORROW
      CUZK_ADD_BACK_LIMB(0, t0) CUZK_ADD_BACK_LIMB(8, t1) CUZK_ADD_BACK_LIMB(16, t2) CUZK_ADD_BACK_LIMB(24, t3)
      : [t0] "=&r"(out[0]), [t1] "=&r"(out[1]), [t2] "=&r"(out[2]), [t3] "=&r"(out[3]), [k] "=&r"(k)
      : [a] "r"(a), [b] "r"(b), [m] "r"(m), "m"(detail::limbs_at<4>(a)), "m"(detail::limbs_at<4>(b)),
        "m"(detail::limbs_at<4>(m))
      : "cc");
}

inline void sub_mod_4(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t k;
  asm("movq 0(%[a]), %[t0]\n\t subq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t sbbq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t sbbq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t sbbq 24(%[b]), %[t3]\n\t"
      CUZK_ADD_BACK_IF_BORROW
      CUZK_ADD_BACK_LIMB(0, t0) CUZK_ADD_BACK_LIMB(8, t1) CUZK_ADD_BACK_LIMB(16, t2) CUZK_ADD_BACK_LIMB(24, t3)
      : [t0] "=&r"(out[0]), [t1] "=&r"(out[1]), [t2] "=&r"(out[2]), [t3] "=&r"(out[3]), [k] "=&r"(k)
      : [a] "r"(a), [b] "r"(b), [m] "r"(m), "m"(detail::limbs_at<4>(a)), "m"(detail::limbs_at<4>(b)),
        "m"(detail::limbs_at<4>(m))
      : "cc");
}

#endif  // CUZK_ADD_ASM

}  // namespace cuzk::ff
