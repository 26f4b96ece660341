#pragma once
// Fp2 = Fp[u] / (u^2 + 1), the field of G2's coordinates and the base of the tower.

#include <optional>
#include <type_traits>

#include "ff/bls12_381.hpp"

namespace cuzk::ff {

struct Fp2 {
  Fp c0, c1;  // c0 + c1*u

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp2&, const Fp2&) = default;

  constexpr Fp2 operator+(const Fp2& b) const { return {c0 + b.c0, c1 + b.c1}; }
  constexpr Fp2 operator-(const Fp2& b) const { return {c0 - b.c0, c1 - b.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: three Fp products. The assembly forms the three products unreduced and reduces
  // twice (ff/mont_x86_64.hpp).
  constexpr Fp2 operator*(const Fp2& b) const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      Fp2 r;
      cuzk_fp2_mul_6(r.limbs(), limbs(), b.limbs(), Fp::kModulus.limbs.data(), Fp::kNegInv);
      return r;
    }
#endif
    const Fp t0 = c0 * b.c0, t1 = c1 * b.c1;
    return {t0 - t1, (c0 + c1) * (b.c0 + b.c1) - t0 - t1};
  }
  constexpr Fp2 operator*(const Fp& b) const { return {c0 * b, c1 * b}; }
  constexpr Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  constexpr Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  constexpr Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: two Fp products.
  constexpr Fp2 square() const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      Fp2 r;
      cuzk_fp2_sqr_6(r.limbs(), limbs(), Fp::kModulus.limbs.data(), Fp::kNegInv);
      return r;
    }
#endif
    return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()};
  }
  constexpr Fp2 sqr() const { return square(); }  // the spelling of ec/formulas.hpp (ff::Field::sqr)
  // Multiplication by the tower's non-residue xi = 1 + u.
  constexpr Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  // x -> x^p is conjugation on Fp2 (u^p = -u since p = 3 mod 4).
  constexpr Fp2 frobenius() const { return conjugate(); }
  constexpr Fp norm() const { return c0.square() + c1.square(); }
  constexpr Fp2 inverse() const {
    const Fp inv = norm().inverse();
    return {c0 * inv, -(c1 * inv)};
  }

  template <size_t M>
  constexpr Fp2 pow(const BigInt<M>& e) const {
    return ff::pow(*this, e);
  }

  // A square root, if one exists. Algorithm 9 of Adj and Rodriguez-Henriquez, "Square root
  // computation over even extension fields" (eprint 2012/685), for p = 3 mod 4.
  constexpr std::optional<Fp2> sqrt() const {
    if (is_zero()) return zero();
    const Fp2 a1 = pow(kPMinus3Over4);
    const Fp2 alpha = a1.square() * *this;     // a^((p-1)/2)
    const Fp2 a0 = alpha.frobenius() * alpha;  // its norm: -1 iff a is a non-square
    if (a0 == -one()) return std::nullopt;
    const Fp2 x0 = a1 * *this;
    Fp2 x;
    if (alpha == -one()) {
      x = {-x0.c1, x0.c0};  // u * x0
    } else {
      x = (alpha + one()).pow(Fp::kHalfModulus) * x0;
    }
    if (x.square() != *this) return std::nullopt;
    return x;
  }

  // zcash serialisation rule: compare c1 first; c0 only when c1 is zero.
  constexpr bool is_lexicographically_largest() const {
    return c1.is_lexicographically_largest() || (c1.is_zero() && c0.is_lexicographically_largest());
  }

  // The 12 Montgomery limbs c0[0..5], c1[0..5], for the assembly.
  uint64_t* limbs() { return reinterpret_cast<uint64_t*>(this); }
  const uint64_t* limbs() const { return reinterpret_cast<const uint64_t*>(this); }

  static constexpr BigInt<6> kPMinus3Over4 = [] {
    BigInt<6> v = Fp::kModulus;
    sub_in_place(v, BigInt<6>(3));
    return shr1(shr1(v));
  }();
};

static_assert(sizeof(Fp2) == 12 * sizeof(uint64_t) && std::is_standard_layout_v<Fp2>,
              "Fp2 must be 12 contiguous limbs for the assembly");

}  // namespace cuzk::ff
