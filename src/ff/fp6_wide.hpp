#pragma once
// Unreduced ("wide") Fp6 values: three wide Fp2 coefficients (ff/fp2_wide.hpp), for lazy
// reduction in Fp12 products on the assembly path.

#include "ff/fp6.hpp"

namespace cuzk::ff {

#ifdef CUZK_MONT_ASM
namespace lazy {

// An Fp6 element with unreduced coefficients, for Fp12 formulas that reduce once per output
// coefficient (Aranha et al., Eurocrypt 2011, §4).
struct Fp6Wide {
  Fp2Wide c0, c1, c2;
};

inline Fp6Wide operator+(const Fp6Wide& a, const Fp6Wide& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
inline Fp6Wide operator-(const Fp6Wide& a, const Fp6Wide& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
// Times v: (c0, c1, c2) -> (xi c2, c0, c1).
inline Fp6Wide v_mul(const Fp6Wide& a) { return {xi_mul(a.c2), a.c0, a.c1}; }
inline Fp6 redc(const Fp6Wide& a) { return {redc(a.c0), redc(a.c1), redc(a.c2)}; }

// Fp6::operator*'s Karatsuba without the final reductions.
inline Fp6Wide mul(const Fp6& a, const Fp6& b) {
  const Fp2Wide t0 = mul(a.c0, b.c0), t1 = mul(a.c1, b.c1), t2 = mul(a.c2, b.c2);
  return {xi_mul(mul(a.c1 + a.c2, b.c1 + b.c2) - t1 - t2) + t0,
          mul(a.c0 + a.c1, b.c0 + b.c1) - t0 - t1 + xi_mul(t2),
          mul(a.c0 + a.c2, b.c0 + b.c2) - t0 - t2 + t1};
}
// Fp6::mul_by_01 and Fp6::mul_by_1 without the final reductions.
inline Fp6Wide mul_by_01(const Fp6& a, const Fp2& b0, const Fp2& b1) {
  const Fp2Wide t0 = mul(a.c0, b0), t1 = mul(a.c1, b1);
  return {xi_mul(mul(a.c1 + a.c2, b1) - t1) + t0,
          mul(a.c0 + a.c1, b0 + b1) - t0 - t1,
          mul(a.c0 + a.c2, b0) - t0 + t1};
}
inline Fp6Wide mul_by_1(const Fp6& a, const Fp2& b1) { return {xi_mul(mul(a.c2, b1)), mul(a.c0, b1), mul(a.c1, b1)}; }

}  // namespace lazy
#endif  // CUZK_MONT_ASM

}  // namespace cuzk::ff
