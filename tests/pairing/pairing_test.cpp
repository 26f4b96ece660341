// The pairing against @noble/curves (the value itself, not only its properties), bilinearity, the
// product check with prepared G2 points, and the final exponentiation's exponent pinned with GMP.

#include <gmpxx.h>
#include <gtest/gtest.h>

#include "ec/scalar_mul.hpp"
#include "pairing/pairing.hpp"
#include "support/format.hpp"
#include "support/oracle.hpp"
#include "support/random.hpp"

namespace cuzk::pairing {
namespace {

using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::Fr;

mpz_class from_int(const auto& v) {
  mpz_class z;
  mpz_set_str(z.get_mpz_t(), test::hex(v).c_str(), 16);
  return z;
}

G1Affine random_g1(std::mt19937_64& g) {
  return ec::scalar_mul(G1Jacobian::generator(), test::random_element<Fr>(g)).to_affine();
}
G2Affine random_g2(std::mt19937_64& g) {
  return ec::scalar_mul(G2Jacobian::generator(), test::random_element<Fr>(g)).to_affine();
}

// The exponent identity the final exponentiation relies on, in integers:
//   3 (p^4 - p^2 + 1)/r = (z - 1)^2 (z + p) (z^2 + p^2 - 1) + 3, with r | p^4 - p^2 + 1.
TEST(FinalExponentiation, HardPartIdentity) {
  const mpz_class p = from_int(ff::Fp::kModulus), r = from_int(Fr::kModulus);
  const mpz_class z = -mpz_class(std::to_string(ff::kBlsX));
  const mpz_class phi = p * p * p * p - p * p + 1;
  ASSERT_EQ(mpz_class(phi % r), 0);
  EXPECT_EQ(3 * (phi / r), (z - 1) * (z - 1) * (z + p) * (z * z + p * p - 1) + 3);
}

// final_exponentiation(f) = f^(3 (p^12 - 1)/r) computed by plain exponentiation with the exponent
// from GMP: the same fixed power of the reduced pairing as @noble/curves and blst use (checked
// against noble below).
TEST(FinalExponentiation, MatchesPlainExponentiation) {
  const mpz_class p = from_int(ff::Fp::kModulus), r = from_int(Fr::kModulus);
  const mpz_class e = 3 * ((p * p * p * p - p * p + 1) / r);
  const ff::BigInt<20> hard = ff::BigInt<20>::from_hex(e.get_str(16));
  auto g = test::rng(1);
  for (int i = 0; i < 2; ++i) {
    const Fp12 f = miller_loop(random_g1(g), random_g2(g));
    Fp12 easy = f.conjugate() * f.inverse();
    easy = easy.frobenius(2) * easy;
    EXPECT_EQ(final_exponentiation(f), easy.pow(hard));
  }
}

TEST(Pairing, MatchesNoble) {
  auto g = test::rng(2);
  auto oracle = test::bls12_381_oracle();
  std::vector<std::pair<G1Affine, G2Affine>> cases{{G1Affine::generator(), G2Affine::generator()}};
  for (int i = 0; i < 4; ++i) cases.emplace_back(random_g1(g), random_g2(g));
  for (const auto& [p, q] : cases) {
    oracle.ask("pairing " + test::bytes_hex(ec::to_compressed(p)) + " " + test::bytes_hex(ec::to_compressed(q)));
    oracle.ask("fp12_final_exp " + test::hex(miller_loop(p, q)));
  }
  oracle.run();
  for (size_t i = 0; i < cases.size(); ++i) {
    const Fp12 ours = pairing(cases[i].first, cases[i].second);
    EXPECT_EQ(ours, test::parse_fp12(oracle.values(2 * i))) << "pairing case " << i;
    // noble's final exponentiation of our Miller loop value: isolates the final exponentiation.
    EXPECT_EQ(ours, test::parse_fp12(oracle.values(2 * i + 1))) << "final exponentiation case " << i;
  }
}

TEST(Pairing, Bilinearity) {
  auto g = test::rng(3);
  const G1Affine p = random_g1(g);
  const G2Affine q = random_g2(g);
  const Fr a = test::random_element<Fr>(g), b = test::random_element<Fr>(g);
  const G1Affine ap = ec::scalar_mul(G1Jacobian::from_affine(p), a).to_affine();
  const G2Affine bq = ec::scalar_mul(G2Jacobian::from_affine(q), b).to_affine();
  const Fp12 e = pairing(p, q);
  EXPECT_EQ(pairing(ap, bq), e.pow((a * b).to_int()));  // e(aP, bQ) = e(P, Q)^(ab)
  EXPECT_EQ(pairing(ap, q), pairing(p, ec::scalar_mul(G2Jacobian::from_affine(q), a).to_affine()));
  EXPECT_FALSE(e.is_one());                             // non-degenerate
  EXPECT_TRUE(e.pow(Fr::kModulus).is_one());            // lands in the order-r subgroup GT
  EXPECT_TRUE(pairing(G1Affine::identity(), q).is_one());
  EXPECT_TRUE(pairing(p, G2Affine::identity()).is_one());
}

// e(aP, Q) e(-P, aQ) = 1 in one multi-Miller loop; a changed point breaks it.
TEST(Pairing, ProductCheck) {
  auto g = test::rng(4);
  const G1Affine p = random_g1(g);
  const G2Affine q = random_g2(g);
  const Fr a = test::random_element<Fr>(g);
  const G2Prepared q_prep(q);
  const G2Prepared aq_prep(ec::scalar_mul(G2Jacobian::from_affine(q), a).to_affine());
  const G1Affine ap = ec::scalar_mul(G1Jacobian::from_affine(p), a).to_affine();
  std::vector<std::pair<G1Affine, const G2Prepared*>> pairs{{ap, &q_prep}, {-p, &aq_prep}};
  EXPECT_TRUE(pairing_product_is_one(pairs));
  pairs[1].first = -random_g1(g);
  EXPECT_FALSE(pairing_product_is_one(pairs));
  // the multi-loop equals the product of single loops (after final exponentiation)
  EXPECT_EQ(final_exponentiation(miller_loop(pairs)), pairing(pairs[0].first, q) * pairing(pairs[1].first, ec::scalar_mul(G2Jacobian::from_affine(q), a).to_affine()));
}

}  // namespace
}  // namespace cuzk::pairing
