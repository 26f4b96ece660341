#pragma once
// Modular addition and subtraction of fully reduced values for moduli with the top bit free
// (so a + b never carries out of N limbs), on x86-64 as inline assembly: one adc (sbb) chain
// through registers, the candidate stored, a second chain for the correction, and cmov to pick.
// Inline so that the tower's many additions cost no call (docs/PERF.md, optimisation 4).
// bigint.hpp's add_mod and sub_mod remain the constexpr and portable path. Field dispatches on
// the same start-up flag as the multiplication (kUseMontAsm), so CUZK_NO_ASM=1 runs, which the
// tests make for the ff and pairing suites, exercise the portable additions as well.
//
// The results leave through memory only, hence `asm volatile` (a plain asm with unused outputs
// may be deleted).
//
// Aliasing: limb i of out is written only after limb i of a and b is read, so out may be a or b.

#include <cstdint>

#include "ff/bigint.hpp"

#if defined(__x86_64__) && !defined(CUZK_NO_ASM)
#define CUZK_ADD_ASM 1
#endif

namespace cuzk::ff {

#ifdef CUZK_ADD_ASM

// out = a + b mod m (6 limbs): t = a + b (stored to out), then t - m; keep t if that borrowed.
inline void add_mod_6(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t t0, t1, t2, t3, t4, t5;
  asm volatile("movq 0(%[a]), %[t0]\n\t addq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t adcq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t adcq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t adcq 24(%[b]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t adcq 32(%[b]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t adcq 40(%[b]), %[t5]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t"
      "movq %[t3], 24(%[out])\n\t movq %[t4], 32(%[out])\n\t movq %[t5], 40(%[out])\n\t"
      "subq 0(%[m]), %[t0]\n\t sbbq 8(%[m]), %[t1]\n\t sbbq 16(%[m]), %[t2]\n\t"
      "sbbq 24(%[m]), %[t3]\n\t sbbq 32(%[m]), %[t4]\n\t sbbq 40(%[m]), %[t5]\n\t"
      "cmovcq 0(%[out]), %[t0]\n\t cmovcq 8(%[out]), %[t1]\n\t cmovcq 16(%[out]), %[t2]\n\t"
      "cmovcq 24(%[out]), %[t3]\n\t cmovcq 32(%[out]), %[t4]\n\t cmovcq 40(%[out]), %[t5]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t"
      "movq %[t3], 24(%[out])\n\t movq %[t4], 32(%[out])\n\t movq %[t5], 40(%[out])"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5)
      : [out] "r"(out), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

// out = a - b mod m (6 limbs): t = a - b (stored to out) and its borrow as a mask, then t + m;
// keep t when there was no borrow.
inline void sub_mod_6(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t t0, t1, t2, t3, t4, t5, mask;
  asm volatile("movq 0(%[a]), %[t0]\n\t subq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t sbbq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t sbbq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t sbbq 24(%[b]), %[t3]\n\t"
      "movq 32(%[a]), %[t4]\n\t sbbq 32(%[b]), %[t4]\n\t"
      "movq 40(%[a]), %[t5]\n\t sbbq 40(%[b]), %[t5]\n\t"
      "sbbq %[mask], %[mask]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t"
      "movq %[t3], 24(%[out])\n\t movq %[t4], 32(%[out])\n\t movq %[t5], 40(%[out])\n\t"
      "addq 0(%[m]), %[t0]\n\t adcq 8(%[m]), %[t1]\n\t adcq 16(%[m]), %[t2]\n\t"
      "adcq 24(%[m]), %[t3]\n\t adcq 32(%[m]), %[t4]\n\t adcq 40(%[m]), %[t5]\n\t"
      "testq %[mask], %[mask]\n\t"
      "cmovzq 0(%[out]), %[t0]\n\t cmovzq 8(%[out]), %[t1]\n\t cmovzq 16(%[out]), %[t2]\n\t"
      "cmovzq 24(%[out]), %[t3]\n\t cmovzq 32(%[out]), %[t4]\n\t cmovzq 40(%[out]), %[t5]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t"
      "movq %[t3], 24(%[out])\n\t movq %[t4], 32(%[out])\n\t movq %[t5], 40(%[out])"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [mask] "=&r"(mask)
      : [out] "r"(out), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

// The same for 4 limbs.
inline void add_mod_4(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t t0, t1, t2, t3;
  asm volatile("movq 0(%[a]), %[t0]\n\t addq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t adcq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t adcq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t adcq 24(%[b]), %[t3]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t movq %[t3], 24(%[out])\n\t"
      "subq 0(%[m]), %[t0]\n\t sbbq 8(%[m]), %[t1]\n\t sbbq 16(%[m]), %[t2]\n\t sbbq 24(%[m]), %[t3]\n\t"
      "cmovcq 0(%[out]), %[t0]\n\t cmovcq 8(%[out]), %[t1]\n\t cmovcq 16(%[out]), %[t2]\n\t cmovcq 24(%[out]), %[t3]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t movq %[t3], 24(%[out])"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3)
      : [out] "r"(out), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

inline void sub_mod_4(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m) {
  uint64_t t0, t1, t2, t3, mask;
  asm volatile("movq 0(%[a]), %[t0]\n\t subq 0(%[b]), %[t0]\n\t"
      "movq 8(%[a]), %[t1]\n\t sbbq 8(%[b]), %[t1]\n\t"
      "movq 16(%[a]), %[t2]\n\t sbbq 16(%[b]), %[t2]\n\t"
      "movq 24(%[a]), %[t3]\n\t sbbq 24(%[b]), %[t3]\n\t"
      "sbbq %[mask], %[mask]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t movq %[t3], 24(%[out])\n\t"
      "addq 0(%[m]), %[t0]\n\t adcq 8(%[m]), %[t1]\n\t adcq 16(%[m]), %[t2]\n\t adcq 24(%[m]), %[t3]\n\t"
      "testq %[mask], %[mask]\n\t"
      "cmovzq 0(%[out]), %[t0]\n\t cmovzq 8(%[out]), %[t1]\n\t cmovzq 16(%[out]), %[t2]\n\t cmovzq 24(%[out]), %[t3]\n\t"
      "movq %[t0], 0(%[out])\n\t movq %[t1], 8(%[out])\n\t movq %[t2], 16(%[out])\n\t movq %[t3], 24(%[out])"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [mask] "=&r"(mask)
      : [out] "r"(out), [a] "r"(a), [b] "r"(b), [m] "r"(m)
      : "cc", "memory");
}

#endif  // CUZK_ADD_ASM

}  // namespace cuzk::ff
