#pragma once
// Points in extended Jacobian coordinates XYZZ: (X, Y, ZZ, ZZZ) is (X/ZZ, Y/ZZZ) with
// ZZ^3 = ZZZ^2; ZZ = 0 is the point at infinity. Cheap mixed additions make them the bucket type
// of Pippenger's MSM. Formulas for a = 0 from the EFD,
// https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html, named below.

#include "ec/affine.hpp"
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

  // dbl-2008-s-1: 6M + 3S.
  constexpr XYZZ dbl() const {
    if (is_identity()) return *this;
    const Field u = y.dbl();                        // U = 2 Y1
    const Field v = u.square();                     // V = U^2
    const Field w = u * v;                          // W = U V
    const Field s = x * v;                          // S = X1 V
    const Field xx = x.square();
    const Field m = xx.dbl() + xx;                  // M = 3 X1^2
    XYZZ r;
    r.x = m.square() - s.dbl();                     // X3 = M^2 - 2S
    r.y = m * (s - r.x) - w * y;                    // Y3 = M(S - X3) - W Y1
    r.zz = v * zz;                                  // ZZ3 = V ZZ1
    r.zzz = w * zzz;                                // ZZZ3 = W ZZZ1
    return r;
  }

  // add-2008-s: 12M + 2S.
  constexpr XYZZ operator+(const XYZZ& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field u1 = x * q.zz;                      // U1 = X1 ZZ2
    const Field u2 = q.x * zz;                      // U2 = X2 ZZ1
    const Field s1 = y * q.zzz;                     // S1 = Y1 ZZZ2
    const Field s2 = q.y * zzz;                     // S2 = Y2 ZZZ1
    const Field p = u2 - u1;                        // P = U2 - U1
    const Field rr = s2 - s1;                       // R = S2 - S1
    if (p.is_zero()) return rr.is_zero() ? dbl() : identity();
    const Field pp = p.square();                    // PP = P^2
    const Field ppp = p * pp;                       // PPP = P PP
    const Field qq = u1 * pp;                       // Q = U1 PP
    XYZZ r;
    r.x = rr.square() - ppp - qq.dbl();             // X3 = R^2 - PPP - 2Q
    r.y = rr * (qq - r.x) - s1 * ppp;               // Y3 = R(Q - X3) - S1 PPP
    r.zz = zz * q.zz * pp;                          // ZZ3 = ZZ1 ZZ2 PP
    r.zzz = zzz * q.zzz * ppp;                      // ZZZ3 = ZZZ1 ZZZ2 PPP
    return r;
  }

  // madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S.
  constexpr XYZZ operator+(const Affine<Curve>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field u2 = q.x * zz;                      // U2 = X2 ZZ1
    const Field s2 = q.y * zzz;                     // S2 = Y2 ZZZ1
    const Field p = u2 - x;                         // P = U2 - X1
    const Field rr = s2 - y;                        // R = S2 - Y1
    if (p.is_zero()) return rr.is_zero() ? from_affine(q).dbl() : identity();
    const Field pp = p.square();                    // PP = P^2
    const Field ppp = p * pp;                       // PPP = P PP
    const Field qq = x * pp;                        // Q = X1 PP
    XYZZ r;
    r.x = rr.square() - ppp - qq.dbl();             // X3 = R^2 - PPP - 2Q
    r.y = rr * (qq - r.x) - y * ppp;                // Y3 = R(Q - X3) - Y1 PPP
    r.zz = zz * pp;                                 // ZZ3 = ZZ1 PP
    r.zzz = zzz * ppp;                              // ZZZ3 = ZZZ1 PPP
    return r;
  }

  constexpr XYZZ& operator+=(const XYZZ& q) { return *this = *this + q; }
  constexpr XYZZ& operator+=(const Affine<Curve>& q) { return *this = *this + q; }
};

}  // namespace cuzk::ec
