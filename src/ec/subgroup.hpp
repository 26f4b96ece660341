#pragma once
// Membership of the prime-order subgroups G1 and G2 (points assumed on the curve).
// Fast tests from M. Scott, "A note on group membership tests for G1, G2 and GT on BLS
// pairing-friendly curves" (eprint 2021/1130): P in G1 iff sigma(P) = [-z^2]P, P in G2 iff
// psi(P) = [z]P. The slow definition [r]P = O is kept as their test oracle.

#include "ec/endomorphism.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::ec {

// [z]P for z = -|z|. |z| = 0xd201000000010000 has six set bits, so plain double-and-add
// (63 doublings, 5 additions) beats the windowed scalar_mul and its 14-point table.
template <class Curve>
constexpr Jacobian<Curve> mul_by_z(const Jacobian<Curve>& p) {
  static_assert(ff::kBlsXIsNegative);
  Jacobian<Curve> acc = p;
  for (int i = 62 - __builtin_clzll(ff::kBlsX); i >= 0; --i) {
    acc = acc.dbl();
    if ((ff::kBlsX >> i) & 1) acc += p;
  }
  return -acc;
}

constexpr bool in_subgroup(const G1Jacobian& p) {
  // sigma(P) + [z^2]P = O
  return (sigma(p) + mul_by_z(mul_by_z(p))).is_identity();
}
constexpr bool in_subgroup(const G2Jacobian& p) { return psi(p) == mul_by_z(p); }

template <class Curve>
constexpr bool in_subgroup(const Affine<Curve>& p) {
  return in_subgroup(Jacobian<Curve>::from_affine(p));
}

// [r]P = O, the definition.
template <class Curve>
constexpr bool in_subgroup_by_order(const Jacobian<Curve>& p) {
  return scalar_mul(p, Fr::kModulus).is_identity();
}

}  // namespace cuzk::ec
