#pragma once
// Points in Jacobian coordinates: (X, Y, Z) is the affine point (X/Z^2, Y/Z^3); Z = 0 is the
// point at infinity. Formulas for a = 0 from the Explicit-Formulas Database (EFD),
// https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html, named below.

#include "ec/affine.hpp"

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

  // dbl-2009-l: 2M + 5S.
  constexpr Jacobian dbl() const {
    if (is_identity()) return *this;
    const Field a = x.square();                     // A = X1^2
    const Field b = y.square();                     // B = Y1^2
    const Field c = b.square();                     // C = B^2
    const Field d = ((x + b).square() - a - c).dbl();  // D = 2((X1+B)^2 - A - C)
    const Field e = a.dbl() + a;                    // E = 3A
    const Field f = e.square();                     // F = E^2
    Jacobian r;
    r.x = f - d.dbl();                              // X3 = F - 2D
    r.y = e * (d - r.x) - c.dbl().dbl().dbl();      // Y3 = E(D - X3) - 8C
    r.z = (y * z).dbl();                            // Z3 = 2 Y1 Z1
    return r;
  }

  // add-2007-bl: 11M + 5S; falls back to doubling when the inputs are equal.
  constexpr Jacobian operator+(const Jacobian& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field z1z1 = z.square();                  // Z1Z1 = Z1^2
    const Field z2z2 = q.z.square();                // Z2Z2 = Z2^2
    const Field u1 = x * z2z2;                      // U1 = X1 Z2Z2
    const Field u2 = q.x * z1z1;                    // U2 = X2 Z1Z1
    const Field s1 = y * q.z * z2z2;                // S1 = Y1 Z2 Z2Z2
    const Field s2 = q.y * z * z1z1;                // S2 = Y2 Z1 Z1Z1
    const Field h = u2 - u1;                        // H = U2 - U1
    const Field rr = (s2 - s1).dbl();               // r = 2(S2 - S1)
    if (h.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field i = h.dbl().square();               // I = (2H)^2
    const Field j = h * i;                          // J = H I
    const Field v = u1 * i;                         // V = U1 I
    Jacobian r;
    r.x = rr.square() - j - v.dbl();                // X3 = r^2 - J - 2V
    r.y = rr * (v - r.x) - (s1 * j).dbl();          // Y3 = r(V - X3) - 2 S1 J
    r.z = ((z + q.z).square() - z1z1 - z2z2) * h;   // Z3 = ((Z1+Z2)^2 - Z1Z1 - Z2Z2) H
    return r;
  }

  // madd-2007-bl (Z2 = 1): 7M + 4S.
  constexpr Jacobian operator+(const Affine<Curve>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field z1z1 = z.square();                  // Z1Z1 = Z1^2
    const Field u2 = q.x * z1z1;                    // U2 = X2 Z1Z1
    const Field s2 = q.y * z * z1z1;                // S2 = Y2 Z1 Z1Z1
    const Field h = u2 - x;                         // H = U2 - X1
    const Field rr = (s2 - y).dbl();                // r = 2(S2 - Y1)
    if (h.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field hh = h.square();                    // HH = H^2
    const Field i = hh.dbl().dbl();                 // I = 4 HH
    const Field j = h * i;                          // J = H I
    const Field v = x * i;                          // V = X1 I
    Jacobian r;
    r.x = rr.square() - j - v.dbl();                // X3 = r^2 - J - 2V
    r.y = rr * (v - r.x) - (y * j).dbl();           // Y3 = r(V - X3) - 2 Y1 J
    r.z = (z + h).square() - z1z1 - hh;             // Z3 = (Z1+H)^2 - Z1Z1 - HH
    return r;
  }

  constexpr Jacobian operator-(const Jacobian& q) const { return *this + -q; }
  constexpr Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  constexpr Jacobian& operator+=(const Affine<Curve>& q) { return *this = *this + q; }
};

}  // namespace cuzk::ec
