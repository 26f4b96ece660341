#pragma once
// Fp6 = Fp2[v] / (v^3 - xi), xi = 1 + u. Formulas: Devegili, O hEigeartaigh, Scott, Dahab,
// "Multiplication and Squaring on Pairing-Friendly Fields" (eprint 2006/471): Karatsuba
// multiplication (§4) and the CH-SQR2 squaring (§5.2).

#include "ff/frobenius.hpp"
#include "ff/fp2.hpp"
#include "ff/fp2_wide.hpp"

namespace cuzk::ff {

struct Fp6 {
  Fp2 c0, c1, c2;  // c0 + c1*v + c2*v^2

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fp2::one(), {}, {}}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const Fp6&, const Fp6&) = default;

  constexpr Fp6 operator+(const Fp6& b) const { return {c0 + b.c0, c1 + b.c1, c2 + b.c2}; }
  constexpr Fp6 operator-(const Fp6& b) const { return {c0 - b.c0, c1 - b.c1, c2 - b.c2}; }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  constexpr Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  constexpr Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

  // Karatsuba over three terms: six Fp2 products.
  constexpr Fp6 operator*(const Fp6& b) const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      // The same formulas on wide values: 6 Fp2 products, 3 Fp2 reductions instead of 6.
      using namespace lazy;
      const Fp2Wide t0 = mul(c0, b.c0), t1 = mul(c1, b.c1), t2 = mul(c2, b.c2);
      return {redc(xi_mul(mul(c1 + c2, b.c1 + b.c2) - t1 - t2) + t0),
              redc(mul(c0 + c1, b.c0 + b.c1) - t0 - t1 + xi_mul(t2)),
              redc(mul(c0 + c2, b.c0 + b.c2) - t0 - t2 + t1)};
    }
#endif
    const Fp2 t0 = c0 * b.c0, t1 = c1 * b.c1, t2 = c2 * b.c2;
    return {((c1 + c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0,
            (c0 + c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue(),
            (c0 + c2) * (b.c0 + b.c2) - t0 - t2 + t1};
  }
  constexpr Fp6 operator*(const Fp2& b) const { return {c0 * b, c1 * b, c2 * b}; }

  // CH-SQR2: two squarings and three products become s0..s4.
  constexpr Fp6 square() const {
    const Fp2 s0 = c0.square();
    const Fp2 s1 = (c0 * c1).dbl();
    const Fp2 s2 = (c0 - c1 + c2).square();
    const Fp2 s3 = (c1 * c2).dbl();
    const Fp2 s4 = c2.square();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }

  // Multiplication by v: (c0, c1, c2) -> (xi*c2, c0, c1).
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // this * (b0 + b1 v): the shape of a Miller-loop line's first half.
  constexpr Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
    const Fp2 t0 = c0 * b0, t1 = c1 * b1;
    return {((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0,
            (c0 + c1) * (b0 + b1) - t0 - t1,
            (c0 + c2) * b0 - t0 + t1};
  }
  // this * (b1 v).
  constexpr Fp6 mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  // 1/this: the adjugate over the norm to Fp2 (Devegili et al. §5; also Guide to Pairing-Based
  // Cryptography, Alg. 5.23).
  constexpr Fp6 inverse() const {
    const Fp2 a = c0.square() - (c1 * c2).mul_by_nonresidue();
    const Fp2 b = c2.square().mul_by_nonresidue() - c0 * c1;
    const Fp2 c = c1.square() - c0 * c2;
    const Fp2 norm = c0 * a + (c2 * b + c1 * c).mul_by_nonresidue();
    const Fp2 inv = norm.inverse();
    return {a * inv, b * inv, c * inv};
  }

  template <size_t M>
  constexpr Fp6 pow(const BigInt<M>& e) const {
    return ff::pow(*this, e);
  }

  // x -> x^p; v = w^2, so v^i picks gamma_(2i).
  constexpr Fp6 frobenius() const {
    return {c0.frobenius(), c1.frobenius() * kFrobeniusGamma[2], c2.frobenius() * kFrobeniusGamma[4]};
  }
};

}  // namespace cuzk::ff
