#pragma once
// The two cheap endomorphisms of BLS12-381 used for subgroup checks (and later GLV/GLS):
//   G1: sigma(x, y) = (beta x, y), beta = 2^((p-1)/3) a cube root of unity in Fp; on G1 it acts as
//       [-z^2] (the other root, beta^2, would act as [z^2 - 1]).
//   G2: psi = twist o Frobenius o untwist. With untwist (x, y) -> (x/w^2, y/w^3) (M-type),
//       psi(x, y) = (conj(x) xi^-((p-1)/3), conj(y) xi^-((p-1)/2)); on G2 it acts as [p] = [z].
// tests/ec/subgroup_test.cpp checks both actions against scalar multiplication.

#include "ec/bls12_381.hpp"
#include "ff/frobenius.hpp"

namespace cuzk::ec {

// beta = 2^((p-1)/3); the root that acts as [-z^2]. Printed from its definition;
// tests/ec/subgroup_test.cpp recomputes it and the psi constants.
inline constexpr Fp kG1Beta = Fp::from_hex(
    "5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");

// psi's constants 1/xi^((p-1)/3) = 1/gamma_2 and 1/xi^((p-1)/2) = 1/gamma_3 (ff/frobenius.hpp).
inline constexpr Fp2 kG2PsiX = {
    Fp::zero(),
    Fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad")};
inline constexpr Fp2 kG2PsiY = {
    Fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
    Fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")};

constexpr G1Jacobian sigma(const G1Jacobian& p) { return {p.x * kG1Beta, p.y, p.z}; }

// On Jacobian coordinates: (X, Y, Z) -> (conj(X) cx, conj(Y) cy, conj(Z)), since Frobenius is a
// field automorphism and the constants sit only on the affine x and y.
constexpr G2Jacobian psi(const G2Jacobian& p) {
  return {p.x.conjugate() * kG2PsiX, p.y.conjugate() * kG2PsiY, p.z.conjugate()};
}

}  // namespace cuzk::ec
