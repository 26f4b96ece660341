#pragma once
// Points in extended Jacobian coordinates XYZZ: (X, Y, ZZ, ZZZ) is (X/ZZ, Y/ZZZ) with
// ZZ^3 = ZZZ^2; ZZ = 0 is the point at infinity. Cheap mixed additions make them the bucket type
// of Pippenger's MSM. The formulas (a = 0, from the EFD) are ec/formulas.hpp's, which the GPU's
// DeviceXYZZ runs too.

#include "ec/affine.hpp"
#include "ec/formulas.hpp"
#include "ec/jacobian.hpp"

namespace cuzk::ec {

template <class Curve>
struct XYZZ {
  using Field = typename Curve::Field;
  Field x = Field::one(), y = Field::one(), zz{}, zzz{};

  static constexpr XYZZ identity() { return {}; }
  static constexpr XYZZ from_affine(const Affine<Curve>& p) {
    return p.infinity ? identity() : XYZZ{p.x, p.y, Field::one(), Field::one()};
  }
  constexpr bool is_identity() const { return zz.is_zero(); }

  constexpr Affine<Curve> to_affine() const {
    if (is_identity()) return Affine<Curve>::identity();
    // One inversion: w = 1/ZZZ, and 1/ZZ = ZZ^2 w^2 because ZZ^3 = ZZZ^2.
    const Field w = zzz.inverse();
    const Field zz_inv = zz.square() * w.square();
    return {x * zz_inv, y * w, false};
  }
  // Jacobian with Z = ZZZ: x = X_J/ZZZ^2 = X/ZZ gives X_J = X ZZ^2 (ZZZ^2 = ZZ^3), and
  // y = Y_J/ZZZ^3 = Y/ZZZ gives Y_J = Y ZZZ^2.
  constexpr Jacobian<Curve> to_jacobian() const {
    if (is_identity()) return Jacobian<Curve>::identity();
    return {x * zz.square(), y * zzz.square(), zzz};
  }

  friend constexpr bool operator==(const XYZZ& a, const XYZZ& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
  }

  constexpr XYZZ operator-() const { return {x, -y, zz, zzz}; }

  // The formulas (ec/formulas.hpp): dbl-2008-s-1, add-2008-s, madd-2008-s.
  constexpr XYZZ dbl() const { return xyzz_dbl(*this); }
  constexpr XYZZ operator+(const XYZZ& q) const { return xyzz_add(*this, q); }
  constexpr XYZZ operator+(const Affine<Curve>& q) const { return xyzz_madd(*this, q); }

  constexpr XYZZ& operator+=(const XYZZ& q) { return *this = *this + q; }
  constexpr XYZZ& operator+=(const Affine<Curve>& q) { return *this = *this + q; }
};

}  // namespace cuzk::ec
