#pragma once
// Scalar multiplication [k]P for secret scalars (Groth16's blinding r, s and r·s): the work and
// the memory touched do not depend on k.
//   - A fixed window of 4 bits over every bit of the scalar type (64 windows for 256 bits),
//     whatever k's length: 4 doublings and one addition per window, always.
//   - The window's table entry [d]P is read by scanning all 16 entries and keeping one with
//     a mask (no index into memory by d).
//   - The point formulas are complete (Renes, Costello, Batina, "Complete addition formulas for
//     prime order elliptic curves", EUROCRYPT 2016, Algorithm 7 for a = 0, homogeneous projective
//     coordinates): one formula for P + Q, P + P and P + O, so there is no branch on the
//     identity or on equal points, which the Jacobian formulas (jacobian.hpp) take. Doubling is
//     the same addition of a point to itself.
// The field arithmetic underneath is ff's. scalar_mul.hpp stays the variable-time version for
// public scalars (and is this one's oracle in tests).

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"

namespace cuzk::ec {

namespace ct_detail {

// (X : Y : Z) with x = X/Z, y = Y/Z; the identity is (0 : 1 : 0).
template <class Curve>
struct Projective {
  using Field = typename Curve::Field;
  Field x = Field::zero(), y = Field::one(), z = Field::zero();
};

// RCB16 Algorithm 7 (a = 0, b3 = 3b): 12M + 2 m_b3 + 19 add, complete.
template <class Curve>
constexpr Projective<Curve> add(const Projective<Curve>& p, const Projective<Curve>& q) {
  using Field = typename Curve::Field;
  constexpr Field b3 = Curve::kB + Curve::kB + Curve::kB;
  Field t0 = p.x * q.x;    // t0 = X1 X2
  Field t1 = p.y * q.y;    // t1 = Y1 Y2
  Field t2 = p.z * q.z;    // t2 = Z1 Z2
  Field t3 = p.x + p.y;    // t3 = X1 + Y1
  Field t4 = q.x + q.y;    // t4 = X2 + Y2
  t3 = t3 * t4;            // t3 = (X1 + Y1)(X2 + Y2)
  t4 = t0 + t1;            // t4 = X1 X2 + Y1 Y2
  t3 = t3 - t4;            // t3 = X1 Y2 + X2 Y1
  t4 = p.y + p.z;          // t4 = Y1 + Z1
  Field x3 = q.y + q.z;    // X3 = Y2 + Z2
  t4 = t4 * x3;            // t4 = (Y1 + Z1)(Y2 + Z2)
  x3 = t1 + t2;            // X3 = Y1 Y2 + Z1 Z2
  t4 = t4 - x3;            // t4 = Y1 Z2 + Y2 Z1
  x3 = p.x + p.z;          // X3 = X1 + Z1
  Field y3 = q.x + q.z;    // Y3 = X2 + Z2
  x3 = x3 * y3;            // X3 = (X1 + Z1)(X2 + Z2)
  y3 = t0 + t2;            // Y3 = X1 X2 + Z1 Z2
  y3 = x3 - y3;            // Y3 = X1 Z2 + X2 Z1
  x3 = t0 + t0;            // X3 = 2 X1 X2
  t0 = x3 + t0;            // t0 = 3 X1 X2
  t2 = b3 * t2;            // t2 = b3 Z1 Z2
  Field z3 = t1 + t2;      // Z3 = Y1 Y2 + b3 Z1 Z2
  t1 = t1 - t2;            // t1 = Y1 Y2 − b3 Z1 Z2
  y3 = b3 * y3;            // Y3 = b3 (X1 Z2 + X2 Z1)
  x3 = t4 * y3;            // X3 = t4 Y3
  t2 = t3 * t1;            // t2 = t3 t1
  x3 = t2 - x3;            // X3 = t3 t1 − t4 Y3
  y3 = y3 * t0;            // Y3 = Y3 t0
  t1 = t1 * z3;            // t1 = t1 Z3
  y3 = t1 + y3;            // Y3 = t1 Z3 + Y3 t0
  t0 = t0 * t3;            // t0 = t0 t3
  z3 = z3 * t4;            // Z3 = Z3 t4
  z3 = z3 + t0;            // Z3 = Z3 t4 + t0 t3
  return {x3, y3, z3};
}

// dst = mask ? src : dst, word by word (mask is all ones or zero).
template <class T>
void conditional_copy(T& dst, const T& src, uint64_t mask) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % sizeof(uint64_t) == 0);
  std::array<uint64_t, sizeof(T) / sizeof(uint64_t)> d, s;
  std::memcpy(d.data(), &dst, sizeof(T));
  std::memcpy(s.data(), &src, sizeof(T));
  for (size_t i = 0; i < d.size(); ++i) d[i] ^= (d[i] ^ s[i]) & mask;
  std::memcpy(static_cast<void*>(&dst), d.data(), sizeof(T));
}

// All ones when a == b, else zero, without a comparison the compiler could branch on.
constexpr uint64_t equal_mask(uint64_t a, uint64_t b) {
  const uint64_t x = a ^ b;
  return uint64_t{0} - (((x | (uint64_t{0} - x)) >> 63) ^ 1);
}

}  // namespace ct_detail

template <class Curve, size_t N>
Jacobian<Curve> scalar_mul_ct(const Jacobian<Curve>& p, const ff::BigInt<N>& k) {
  using Field = typename Curve::Field;
  using P = ct_detail::Projective<Curve>;
  constexpr int kWindow = 4;
  constexpr size_t kWindows = N * 64 / kWindow;
  // Jacobian (X, Y, Z) = (X/Z², Y/Z³) → projective (X Z : Y : Z³); the identity (Z = 0) → (0 : Y : 0).
  const Field z2 = p.z.square();
  const P base{p.x * p.z, p.y, z2 * p.z};
  std::array<P, 1 << kWindow> table{};  // table[i] = [i]P, table[0] = O
  table[1] = base;
  for (size_t i = 2; i < table.size(); ++i) table[i] = ct_detail::add(table[i - 1], base);
  P acc;
  for (size_t w = kWindows; w-- > 0;) {
    for (int i = 0; i < kWindow; ++i) acc = ct_detail::add(acc, acc);
    const uint64_t digit = (k.limbs[(w * kWindow) / 64] >> ((w * kWindow) % 64)) & ((1u << kWindow) - 1);
    P entry;
    for (size_t i = 0; i < table.size(); ++i) ct_detail::conditional_copy(entry, table[i], ct_detail::equal_mask(i, digit));
    acc = ct_detail::add(acc, entry);
  }
  // Back to Jacobian: (X Z, Y Z², Z). The result is not secret: its identity case may branch.
  if (acc.z.is_zero()) return Jacobian<Curve>{};
  Jacobian<Curve> out;
  out.x = acc.x * acc.z;
  out.y = acc.y * acc.z.square();
  out.z = acc.z;
  return out;
}

// [k]P for a secret scalar field element k (its canonical integer).
template <class Curve, class ScalarField>
  requires requires(const ScalarField& s) { s.to_int(); }
Jacobian<Curve> scalar_mul_ct(const Jacobian<Curve>& p, const ScalarField& k) {
  return scalar_mul_ct(p, k.to_int());
}

}  // namespace cuzk::ec
