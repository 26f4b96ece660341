#pragma once
// The point formulas of y^2 = x^3 + b (a = 0), written once for the CPU and the GPU: each is a
// template over the point type, whose coordinates are of one field type F, so that the CPU's
// ec::XYZZ / ec::Jacobian (over ff::Fp, ff::Fp2) and the kernels' gpu::DeviceXYZZ /
// gpu::DeviceJacobian (over gpu::DeviceFp, DeviceFp2, and the lazily reduced field of the MSM's
// window sums) run the same steps, as sppark keeps one point type over the field for host and
// device. Under nvcc they are __host__ __device__ and forced inline (core/hd.hpp): a kernel does
// the same arithmetic as when its point type spelled the formulas out (docs/PERF.md 27).
// Formulas from the Explicit-Formulas Database (EFD), named at each:
//   XYZZ:     https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html
//   Jacobian: https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html
//
// A point type P offers its coordinates (x, y, zz, zzz for XYZZ; x, y, z for Jacobian), static
// identity(), is_identity() (ZZ = 0, resp. Z = 0) and dbl(); the mixed additions also take an
// affine type A (x, y, infinity) and P::from_affine. The exceptional cases, in every formula:
// an identity operand returns the other; in an addition, equal inputs (P = 0 and R = 0) go to
// dbl() and opposite ones (P = 0, R != 0) to the identity. P's own dbl() is called there, so a
// point type can prepare its operands for it (DeviceXYZZ's lazy form reduces them first).

#include <concepts>
#include <type_traits>

#include "core/hd.hpp"

namespace cuzk::ec {

// The field operations the formulas use, under one spelling for every field type.
template <class F>
concept FormulaField = requires(const F& a, const F& b) {
  { a + b } -> std::same_as<F>;
  { a - b } -> std::same_as<F>;
  { a * b } -> std::same_as<F>;
  { a.dbl() } -> std::same_as<F>;
  { a.sqr() } -> std::same_as<F>;
  { a.is_zero() } -> std::same_as<bool>;
};

template <class P>
using FormulaFieldOf = std::remove_cvref_t<decltype(P::x)>;

// a b - c d, the shape of every XYZZ formula's Y3. A field may offer it as one operation
// (F::mul_sub: gpu::DeviceFp computes it as one Montgomery product of a sum, one reduction instead
// of two, docs/PERF.md 50); otherwise two products and a difference.
CUZK_NO_EXEC_CHECK
template <FormulaField F>
CUZK_HD constexpr F mul_sub(const F& a, const F& b, const F& c, const F& d) {
  if constexpr (requires { { F::mul_sub(a, b, c, d) } -> std::same_as<F>; }) return F::mul_sub(a, b, c, d);
  else return a * b - c * d;
}

// ---- XYZZ --------------------------------------------------------------------------------------

// dbl-2008-s-1: 6M + 3S.
CUZK_NO_EXEC_CHECK
template <class P, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P xyzz_dbl(const P& a) {
  if (a.is_identity()) return a;
  const F u = a.y.dbl();                          // U = 2 Y1
  const F v = u.sqr();                            // V = U^2
  const F w = u * v;                              // W = U V
  const F s = a.x * v;                            // S = X1 V
  const F xx = a.x.sqr();
  const F m = xx.dbl() + xx;                      // M = 3 X1^2
  P r;
  r.x = m.sqr() - s.dbl();                        // X3 = M^2 - 2S
  r.y = mul_sub(m, s - r.x, w, a.y);              // Y3 = M(S - X3) - W Y1
  r.zz = v * a.zz;                                // ZZ3 = V ZZ1
  r.zzz = w * a.zzz;                              // ZZZ3 = W ZZZ1
  return r;
}

// add-2008-s: 12M + 2S.
CUZK_NO_EXEC_CHECK
template <class P, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P xyzz_add(const P& a, const P& q) {
  if (a.is_identity()) return q;
  if (q.is_identity()) return a;
  const F u1 = a.x * q.zz;                        // U1 = X1 ZZ2
  const F u2 = q.x * a.zz;                        // U2 = X2 ZZ1
  const F s1 = a.y * q.zzz;                       // S1 = Y1 ZZZ2
  const F s2 = q.y * a.zzz;                       // S2 = Y2 ZZZ1
  const F p = u2 - u1;                            // P = U2 - U1
  const F rr = s2 - s1;                           // R = S2 - S1
  if (p.is_zero()) return rr.is_zero() ? a.dbl() : P::identity();
  const F pp = p.sqr();                           // PP = P^2
  const F ppp = p * pp;                           // PPP = P PP
  const F qq = u1 * pp;                           // Q = U1 PP
  P r;
  r.x = rr.sqr() - ppp - qq.dbl();                // X3 = R^2 - PPP - 2Q
  r.y = mul_sub(rr, qq - r.x, s1, ppp);           // Y3 = R(Q - X3) - S1 PPP
  r.zz = a.zz * q.zz * pp;                        // ZZ3 = ZZ1 ZZ2 PP
  r.zzz = a.zzz * q.zzz * ppp;                    // ZZZ3 = ZZZ1 ZZZ2 PPP
  return r;
}

// madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S.
CUZK_NO_EXEC_CHECK
template <class P, class A, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P xyzz_madd(const P& a, const A& q) {
  if (q.infinity) return a;
  if (a.is_identity()) return P::from_affine(q);
  const F u2 = q.x * a.zz;                        // U2 = X2 ZZ1
  const F s2 = q.y * a.zzz;                       // S2 = Y2 ZZZ1
  const F p = u2 - a.x;                           // P = U2 - X1
  const F rr = s2 - a.y;                          // R = S2 - Y1
  if (p.is_zero()) return rr.is_zero() ? P::from_affine(q).dbl() : P::identity();
  const F pp = p.sqr();                           // PP = P^2
  const F ppp = p * pp;                           // PPP = P PP
  const F qq = a.x * pp;                          // Q = X1 PP
  P r;
  r.x = rr.sqr() - ppp - qq.dbl();                // X3 = R^2 - PPP - 2Q
  r.y = mul_sub(rr, qq - r.x, a.y, ppp);          // Y3 = R(Q - X3) - Y1 PPP
  r.zz = a.zz * pp;                               // ZZ3 = ZZ1 PP
  r.zzz = a.zzz * ppp;                            // ZZZ3 = ZZZ1 PPP
  return r;
}

// ---- Jacobian ----------------------------------------------------------------------------------

// dbl-2009-l: 2M + 5S.
CUZK_NO_EXEC_CHECK
template <class P, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P jacobian_dbl(const P& a) {
  if (a.is_identity()) return a;
  const F aa = a.x.sqr();                         // A = X1^2
  const F b = a.y.sqr();                          // B = Y1^2
  const F c = b.sqr();                            // C = B^2
  const F d = ((a.x + b).sqr() - aa - c).dbl();   // D = 2((X1+B)^2 - A - C)
  const F e = aa.dbl() + aa;                      // E = 3A
  const F f = e.sqr();                            // F = E^2
  P r;
  r.x = f - d.dbl();                              // X3 = F - 2D
  r.y = e * (d - r.x) - c.dbl().dbl().dbl();      // Y3 = E(D - X3) - 8C
  r.z = (a.y * a.z).dbl();                        // Z3 = 2 Y1 Z1
  return r;
}

// add-2007-bl: 11M + 5S.
CUZK_NO_EXEC_CHECK
template <class P, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P jacobian_add(const P& a, const P& q) {
  if (a.is_identity()) return q;
  if (q.is_identity()) return a;
  const F z1z1 = a.z.sqr();                       // Z1Z1 = Z1^2
  const F z2z2 = q.z.sqr();                       // Z2Z2 = Z2^2
  const F u1 = a.x * z2z2;                        // U1 = X1 Z2Z2
  const F u2 = q.x * z1z1;                        // U2 = X2 Z1Z1
  const F s1 = a.y * q.z * z2z2;                  // S1 = Y1 Z2 Z2Z2
  const F s2 = q.y * a.z * z1z1;                  // S2 = Y2 Z1 Z1Z1
  const F h = u2 - u1;                            // H = U2 - U1
  const F rr = (s2 - s1).dbl();                   // r = 2(S2 - S1)
  if (h.is_zero()) return rr.is_zero() ? a.dbl() : P::identity();
  const F i = h.dbl().sqr();                      // I = (2H)^2
  const F j = h * i;                              // J = H I
  const F v = u1 * i;                             // V = U1 I
  P r;
  r.x = rr.sqr() - j - v.dbl();                   // X3 = r^2 - J - 2V
  r.y = rr * (v - r.x) - (s1 * j).dbl();          // Y3 = r(V - X3) - 2 S1 J
  r.z = ((a.z + q.z).sqr() - z1z1 - z2z2) * h;    // Z3 = ((Z1+Z2)^2 - Z1Z1 - Z2Z2) H
  return r;
}

// madd-2007-bl (Z2 = 1): 7M + 4S.
CUZK_NO_EXEC_CHECK
template <class P, class A, FormulaField F = FormulaFieldOf<P>>
CUZK_HD constexpr P jacobian_madd(const P& a, const A& q) {
  if (q.infinity) return a;
  if (a.is_identity()) return P::from_affine(q);
  const F z1z1 = a.z.sqr();                       // Z1Z1 = Z1^2
  const F u2 = q.x * z1z1;                        // U2 = X2 Z1Z1
  const F s2 = q.y * a.z * z1z1;                  // S2 = Y2 Z1 Z1Z1
  const F h = u2 - a.x;                           // H = U2 - X1
  const F rr = (s2 - a.y).dbl();                  // r = 2(S2 - Y1)
  if (h.is_zero()) return rr.is_zero() ? a.dbl() : P::identity();
  const F hh = h.sqr();                           // HH = H^2
  const F i = hh.dbl().dbl();                     // I = 4 HH
  const F j = h * i;                              // J = H I
  const F v = a.x * i;                            // V = X1 I
  P r;
  r.x = rr.sqr() - j - v.dbl();                   // X3 = r^2 - J - 2V
  r.y = rr * (v - r.x) - (a.y * j).dbl();         // Y3 = r(V - X3) - 2 Y1 J
  r.z = (a.z + h).sqr() - z1z1 - hh;              // Z3 = (Z1+H)^2 - Z1Z1 - HH
  return r;
}

}  // namespace cuzk::ec
