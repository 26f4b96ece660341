// Subgroup membership: the fast endomorphism tests against the definition [r]P = O, on points in
// the subgroups and on curve points outside them; the endomorphism constants derived again.

#include <gmpxx.h>
#include <gtest/gtest.h>

#include "ec/subgroup.hpp"
#include "support/format.hpp"
#include "support/random.hpp"

namespace cuzk::ec {
namespace {

// A random point of the whole curve group E(Fp) or E'(Fp2): random x until x^3 + b is a square.
template <class Curve>
Jacobian<Curve> random_curve_point(std::mt19937_64& g) {
  for (;;) {
    const auto x = test::random_element<typename Curve::Field>(g);
    if (auto y = (x.square() * x + Curve::kB).sqrt()) return Jacobian<Curve>::from_affine({x, *y, false});
  }
}

ff::BigInt<8> to_bigint(const mpz_class& v) { return ff::BigInt<8>::from_hex(v.get_str(16)); }

// Cofactors from z (Bowe, "BLS12-381: New zk-SNARK Elliptic Curve Construction"; RFC 9380 §8.8):
//   h1 = (z - 1)^2 / 3,
//   h2 = (z^8 - 4z^7 + 5z^6 - 4z^4 + 6z^3 - 4z^2 - 4z + 13) / 9.
const mpz_class kZ = -mpz_class("d201000000010000", 16);
const mpz_class kH1 = (kZ - 1) * (kZ - 1) / 3;
const mpz_class kH2 = []() -> mpz_class {
  mpz_class z = kZ, z2 = z * z, z3 = z2 * z, z4 = z2 * z2;
  return (z4 * z4 - 4 * z4 * z3 + 5 * z3 * z3 - 4 * z4 + 6 * z3 - 4 * z2 - 4 * z + 13) / 9;
}();

TEST(Subgroup, EndomorphismConstants) {
  ff::BigInt<6> e = Fp::kModulus;
  ff::sub_in_place(e, ff::BigInt<6>(1));
  EXPECT_EQ(kG1Beta, Fp::from_uint(2).pow(ff::div_small(e, 3)));
  EXPECT_TRUE(kG1Beta.pow(3).is_one());
  EXPECT_FALSE(kG1Beta.is_one());
  EXPECT_EQ(kG2PsiX, ff::kFrobeniusGamma[2].inverse());
  EXPECT_EQ(kG2PsiY, ff::kFrobeniusGamma[3].inverse());
}

TEST(Subgroup, EndomorphismsActAsScalars) {
  auto g = test::rng(40);
  for (int i = 0; i < 5; ++i) {
    const auto p = scalar_mul(G1Jacobian::generator(), test::random_element<Fr>(g));
    const auto q = scalar_mul(G2Jacobian::generator(), test::random_element<Fr>(g));
    EXPECT_EQ(sigma(p), -mul_by_z(mul_by_z(p)));  // sigma = [-z^2] on G1
    EXPECT_EQ(psi(q), mul_by_z(q));               // psi = [z] on G2
    EXPECT_TRUE(in_subgroup(p));
    EXPECT_TRUE(in_subgroup(q));
  }
}

template <class Curve>
void check_membership(const mpz_class& cofactor, uint64_t salt) {
  auto g = test::rng(salt);
  int outside = 0;
  for (int i = 0; i < 6; ++i) {
    const auto p = random_curve_point<Curve>(g);
    const bool by_order = in_subgroup_by_order(p);
    EXPECT_EQ(in_subgroup(p), by_order);
    outside += !by_order;
    const auto cleared = scalar_mul(p, to_bigint(cofactor));  // [h]P lies in the subgroup
    EXPECT_TRUE(in_subgroup_by_order(cleared));
    EXPECT_TRUE(in_subgroup(cleared));
  }
  EXPECT_GT(outside, 0);  // a random curve point is outside with probability 1 - 1/h
}

TEST(Subgroup, G1FastCheckAgreesWithOrder) { check_membership<G1Curve>(kH1, 41); }
TEST(Subgroup, G2FastCheckAgreesWithOrder) { check_membership<G2Curve>(kH2, 42); }

}  // namespace
}  // namespace cuzk::ec
