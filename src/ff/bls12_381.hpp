#pragma once
// The BLS12-381 base field Fp and scalar field Fr, and the curve parameter z.
// Source: the BLS12-381 definition (S. Bowe, "BLS12-381: New zk-SNARK Elliptic Curve
// Construction", 2017; draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1):
//   z = -0xd201000000010000
//   r = z^4 - z^2 + 1                  (255 bits)
//   p = (z - 1)^2 (z^4 - z^2 + 1)/3 + z (381 bits)
// tests/ff/constants_test.cpp recomputes r and p from z with GMP.

#include <cstdint>

#include "ff/field.hpp"

namespace cuzk::ff {

// |z|; z itself is negative.
inline constexpr uint64_t kBlsX = 0xd201000000010000ull;
inline constexpr bool kBlsXIsNegative = true;

struct FpConfig {
  static constexpr BigInt<6> kModulus = BigInt<6>::from_hex(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  static constexpr uint64_t kNonResidue = 2;  // p = 3 mod 8, so 2 is a non-square (unused: p = 3 mod 4)
  static constexpr const char* kName = "Fp";
};

struct FrConfig {
  static constexpr BigInt<4> kModulus =
      BigInt<4>::from_hex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
  // 7 generates Fr^* (bellperson's and blstrs's GENERATOR), hence is a non-square.
  static constexpr uint64_t kNonResidue = 7;
  static constexpr const char* kName = "Fr";
};

using Fp = Field<FpConfig>;
using Fr = Field<FrConfig>;

static_assert(Fp::kBits == 381 && Fp::kBytes == 48);
static_assert(Fr::kBits == 255 && Fr::kBytes == 32);
static_assert(Fr::kTwoAdicity == 32);

// Instantiated once in ff.cpp.
extern template class Field<FpConfig>;
extern template class Field<FrConfig>;

}  // namespace cuzk::ff
