#pragma once
// Fp12 = Fp6[w] / (w^2 - v), the target field of the pairing. As a vector over Fp2 an element is
//   c0.c0 + c1.c0 w + c0.c1 w^2 + c1.c1 w^3 + c0.c2 w^4 + c1.c2 w^5   (w^6 = xi).

#include "ff/fp6.hpp"
#include "ff/fp6_wide.hpp"

namespace cuzk::ff {

struct Fp12 {
  Fp6 c0, c1;  // c0 + c1*w

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fp6::one(), {}}; }
  constexpr bool is_one() const { return *this == one(); }
  friend constexpr bool operator==(const Fp12&, const Fp12&) = default;

  constexpr Fp12 operator+(const Fp12& b) const { return {c0 + b.c0, c1 + b.c1}; }
  constexpr Fp12 operator-(const Fp12& b) const { return {c0 - b.c0, c1 - b.c1}; }
  constexpr Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  // Karatsuba: three Fp6 products.
  constexpr Fp12 operator*(const Fp12& b) const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      // Lazy reduction: 6 Fp2 reductions instead of 9.
      using namespace lazy;
      const Fp6Wide t0 = mul(c0, b.c0), t1 = mul(c1, b.c1);
      return {redc(t0 + v_mul(t1)), redc(mul(c0 + c1, b.c0 + b.c1) - t0 - t1)};
    }
#endif
    const Fp6 t0 = c0 * b.c0, t1 = c1 * b.c1;
    return {t0 + t1.mul_by_nonresidue(), (c0 + c1) * (b.c0 + b.c1) - t0 - t1};
  }
  // Complex squaring: (c0 + c1 w)^2 = (c0 + c1)(c0 + v c1) - (1 + v) c0 c1 + 2 c0 c1 w.
  constexpr Fp12 square() const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      using namespace lazy;
      const Fp6Wide ab = mul(c0, c1);
      return {redc(mul(c0 + c1, c0 + c1.mul_by_nonresidue()) - ab - v_mul(ab)), redc(ab + ab)};
    }
#endif
    const Fp6 ab = c0 * c1;
    return {(c0 + c1) * (c0 + c1.mul_by_nonresidue()) - ab - ab.mul_by_nonresidue(), ab + ab};
  }

  // this * (o0 + o1 w^2 + o4 w^3): a Miller-loop line for the M-type twist of BLS12-381
  // (coefficients in slots 0, 1 and 4 of (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2)).
  constexpr Fp12 mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const {
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      // Lazy reduction: 13 Fp2 products, 6 reductions instead of 13.
      using namespace lazy;
      const Fp6Wide t0 = mul_by_01(c0, o0, o1), t1 = mul_by_1(c1, o4);
      return {redc(t0 + v_mul(t1)), redc(mul_by_01(c0 + c1, o0, o1 + o4) - t0 - t1)};
    }
#endif
    const Fp6 t0 = c0.mul_by_01(o0, o1);
    const Fp6 t1 = c1.mul_by_1(o4);
    return {t0 + t1.mul_by_nonresidue(), (c0 + c1).mul_by_01(o0, o1 + o4) - t0 - t1};
  }

  // x -> x^(p^6): w -> -w. The inverse for elements of the cyclotomic subgroup.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }

  constexpr Fp12 inverse() const {
    const Fp6 inv = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return {c0 * inv, -(c1 * inv)};
  }

  // x -> x^p (see ff/frobenius.hpp for the gammas).
  constexpr Fp12 frobenius() const {
    return {c0.frobenius(),
            {c1.c0.frobenius() * kFrobeniusGamma[1], c1.c1.frobenius() * kFrobeniusGamma[3],
             c1.c2.frobenius() * kFrobeniusGamma[5]}};
  }
  constexpr Fp12 frobenius(int power) const {
    Fp12 r = *this;
    for (int i = 0; i < power; ++i) r = r.frobenius();
    return r;
  }

  // Squaring in the cyclotomic subgroup (x^(p^6+1) = 1). Granger and Scott, "Faster squaring in
  // the cyclotomic subgroup of sixth degree extensions" (eprint 2009/565), §3.1: with
  // Fp4 = Fp2[t]/(t^2 - xi), t = w^3, and x = A + B w + C w^2 over Fp4,
  //   x^2 = (3A^2 - 2 conj(A)) + (3 t C^2 + 2 conj(B)) w + (3B^2 - 2 conj(C)) w^2.
  // A = c0.c0 + c1.c1 t, B = c1.c0 + c0.c2 t, C = c0.c1 + c1.c2 t.
  constexpr Fp12 cyclotomic_square() const {
    Fp12 r;  // the only result object on both paths (NRVO): the assembly path writes into it
#ifdef CUZK_MONT_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm) {
      // Lazy reduction (Aranha et al., Eurocrypt 2011, §4): each Fp4 square from three wide
      // squarings and two Fp2 reductions, reduced straight into r; then 3s -+ 2z in place.
      using namespace lazy;
      const uint64_t* m = Fp::kModulus.limbs.data();
      // (x + y t)^2 = (x^2 + xi y^2) + 2xy t, 2xy = (x + y)^2 - x^2 - y^2
      const auto fp4_square = [m](Fp2& lo, Fp2& hi, const Fp2& x, const Fp2& y) {
        const Fp2Wide x2 = sqr(x), y2 = sqr(y);
        const Fp2Wide u = x2 + xi_mul(y2), v = sqr(x + y) - x2 - y2;
        cuzk_fp2_redc_6(lo.limbs(), u.l, m, Fp::kNegInv);
        cuzk_fp2_redc_6(hi.limbs(), v.l, m, Fp::kNegInv);
      };
      Fp2 c2y;
      fp4_square(r.c0.c0, r.c1.c1, c0.c0, c1.c1);  // A^2
      fp4_square(r.c0.c1, r.c1.c2, c1.c0, c0.c2);  // B^2
      fp4_square(r.c0.c2, c2y, c0.c1, c1.c2);      // C^2
      // r.c1.c0 = xi * (C^2)_t  (t * t = xi)
      sub_mod_6(r.c1.c0.limbs(), c2y.limbs(), c2y.limbs() + 6, m);
      add_mod_6(r.c1.c0.limbs() + 6, c2y.limbs(), c2y.limbs() + 6, m);
      // s <- 3s - 2z = 2(s - z) + s, or 3s + 2z = 2(s + z) + s, on each Fp half
      const auto combine = [m](Fp2& s, const Fp2& z, bool plus) {
        uint64_t t[6];
        for (int h = 0; h < 12; h += 6) {
          if (plus) add_mod_6(t, s.limbs() + h, z.limbs() + h, m);
          else sub_mod_6(t, s.limbs() + h, z.limbs() + h, m);
          add_mod_6(t, t, t, m);
          add_mod_6(s.limbs() + h, s.limbs() + h, t, m);
        }
      };
      combine(r.c0.c0, c0.c0, false);  // 3A^2 - 2conj(A), 1
      combine(r.c1.c1, c1.c1, true);   //                  t
      combine(r.c1.c0, c1.c0, true);   // 3tC^2 + 2conj(B), 1
      combine(r.c0.c2, c0.c2, false);  //                   t
      combine(r.c0.c1, c0.c1, false);  // 3B^2 - 2conj(C), 1
      combine(r.c1.c2, c1.c2, true);   //                  t
      return r;
    }
#endif
    struct Fp4 {
      Fp2 x, y;  // x + y t
    };
    // (x + y t)^2 = (x^2 + xi y^2) + 2xy t
    constexpr auto fp4_square = [](const Fp2& x, const Fp2& y) {
      const Fp2 x2 = x.square(), y2 = y.square();
      return Fp4{x2 + y2.mul_by_nonresidue(), (x + y).square() - x2 - y2};
    };
    const Fp4 a2 = fp4_square(c0.c0, c1.c1);
    const Fp4 b2 = fp4_square(c1.c0, c0.c2);
    const Fp4 c2 = fp4_square(c0.c1, c1.c2);
    // 3s - 2z = 2(s - z) + s;  3s + 2z = 2(s + z) + s
    constexpr auto minus = [](const Fp2& s, const Fp2& z) { return (s - z).dbl() + s; };
    constexpr auto plus = [](const Fp2& s, const Fp2& z) { return (s + z).dbl() + s; };
    r.c0.c0 = minus(a2.x, c0.c0);                        // 3A^2 - 2conj(A), 1
    r.c1.c1 = plus(a2.y, c1.c1);                         //                  t
    r.c1.c0 = plus(c2.y.mul_by_nonresidue(), c1.c0);     // 3tC^2 + 2conj(B), 1 (t*t = xi)
    r.c0.c2 = minus(c2.x, c0.c2);                        //                   t
    r.c0.c1 = minus(b2.x, c0.c1);                        // 3B^2 - 2conj(C), 1
    r.c1.c2 = plus(b2.y, c1.c2);                         //                  t
    return r;
  }

  // this^e for an element of the cyclotomic subgroup, by cyclotomic squarings.
  constexpr Fp12 cyclotomic_pow(uint64_t e) const {
    Fp12 r = one();
    for (int i = 63 - __builtin_clzll(e | 1); i >= 0; --i) {
      r = r.cyclotomic_square();
      if ((e >> i) & 1) r *= *this;
    }
    return r;
  }

  template <size_t M>
  constexpr Fp12 pow(const BigInt<M>& e) const {
    return ff::pow(*this, e);
  }
};

}  // namespace cuzk::ff
