#pragma once
// Points in Jacobian coordinates: (X, Y, Z) is the affine point (X/Z^2, Y/Z^3); Z = 0 is the
// point at infinity. The formulas (a = 0, from the Explicit-Formulas Database) are
// ec/formulas.hpp's, which the GPU's DeviceJacobian runs too.

#include "ec/affine.hpp"
#include "ec/formulas.hpp"

namespace cuzk::ec {

template <class Curve>
struct Jacobian {
  using Field = typename Curve::Field;
  Field x = Field::one(), y = Field::one(), z{};

  static constexpr Jacobian identity() { return {}; }
  static constexpr Jacobian generator() { return from_affine(Affine<Curve>::generator()); }
  static constexpr Jacobian from_affine(const Affine<Curve>& p) {
    return p.infinity ? identity() : Jacobian{p.x, p.y, Field::one()};
  }
  constexpr bool is_identity() const { return z.is_zero(); }

  constexpr Affine<Curve> to_affine() const {
    if (is_identity()) return Affine<Curve>::identity();
    const Field zinv = z.inverse(), zinv2 = zinv.square();
    return {x * zinv2, y * zinv2 * zinv, false};
  }

  // Projective equality: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3.
  friend constexpr bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    const Field za2 = a.z.square(), zb2 = b.z.square();
    return a.x * zb2 == b.x * za2 && a.y * zb2 * b.z == b.y * za2 * a.z;
  }

  constexpr Jacobian operator-() const { return {x, -y, z}; }

  // The formulas (ec/formulas.hpp): dbl-2009-l, add-2007-bl, madd-2007-bl; an addition of equal
  // inputs falls back to doubling.
  constexpr Jacobian dbl() const { return jacobian_dbl(*this); }
  constexpr Jacobian operator+(const Jacobian& q) const { return jacobian_add(*this, q); }
  constexpr Jacobian operator+(const Affine<Curve>& q) const { return jacobian_madd(*this, q); }

  constexpr Jacobian operator-(const Jacobian& q) const { return *this + -q; }
  constexpr Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  constexpr Jacobian& operator+=(const Affine<Curve>& q) { return *this = *this + q; }
};

}  // namespace cuzk::ec
