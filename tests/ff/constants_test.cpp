// Every constant of the fields, derived again with GMP (an independent big-integer library) from
// the curve parameter z, and the constants printed into headers derived again from definitions.

#include <gmpxx.h>
#include <gtest/gtest.h>

#include "ff/bls12_381.hpp"
#include "ff/frobenius.hpp"
#include "support/format.hpp"

namespace cuzk::ff {
namespace {

template <size_t N>
mpz_class mpz(const BigInt<N>& v) {
  return mpz_class(test::hex(v), 16);
}

const mpz_class kZ = -mpz_class("d201000000010000", 16);

TEST(Constants, ModuliFromZ) {
  const mpz_class r = kZ * kZ * kZ * kZ - kZ * kZ + 1;
  const mpz_class p = (kZ - 1) * (kZ - 1) * r / 3 + kZ;
  EXPECT_EQ(mpz(Fr::kModulus), r);
  EXPECT_EQ(mpz(Fp::kModulus), p);
  EXPECT_EQ(mpz_probab_prime_p(r.get_mpz_t(), 40), 1);
  EXPECT_EQ(mpz_probab_prime_p(p.get_mpz_t(), 40), 1);
  EXPECT_EQ(Fp::kBits, 381u);
  EXPECT_EQ(Fr::kBits, 255u);
}

template <class F>
void check_montgomery_constants() {
  const mpz_class m = mpz(F::kModulus);
  const mpz_class r = mpz_class(1) << (64 * F::kLimbs);
  EXPECT_EQ(mpz(F::kR), r % m);
  EXPECT_EQ(mpz(F::kR2), (r * r) % m);
  // kNegInv * M = -1 mod 2^64
  const mpz_class two64 = mpz_class(1) << 64;
  const mpz_class prod = (mpz_class(std::to_string(F::kNegInv)) * m) % two64;
  EXPECT_EQ(prod, two64 - 1);
  EXPECT_EQ(mpz(F::kHalfModulus), (m - 1) / 2);
  EXPECT_EQ(mpz(F::kModulusMinus2), m - 2);
  mpz_class odd = m - 1;
  size_t s = 0;
  while (odd % 2 == 0) odd /= 2, ++s;
  EXPECT_EQ(F::kTwoAdicity, s);
  EXPECT_EQ(mpz(F::kOddPart), odd);
}

TEST(Constants, MontgomeryFp) { check_montgomery_constants<Fp>(); }
TEST(Constants, MontgomeryFr) { check_montgomery_constants<Fr>(); }

TEST(Constants, FrNonResidueAndTwoAdicity) {
  EXPECT_EQ(Fr::kTwoAdicity, 32u);  // bellperson's S = 32: NTT domains up to 2^32
  EXPECT_EQ(Fr::from_uint(FrConfig::kNonResidue).legendre(), -1);
  // 7 generates Fr^*: 7^((r-1)/q) != 1 for each prime q | r - 1. The factorisation is checked
  // here (product and primality), not trusted.
  const mpz_class r = mpz(Fr::kModulus);
  const std::vector<std::pair<const char*, int>> factors{
      {"2", 32},      {"3", 1},       {"11", 1},      {"19", 1},       {"10177", 1},    {"125527", 1},
      {"859267", 1},  {"906349", 2},  {"2508409", 1}, {"2529403", 1},  {"52437899", 1}, {"254760293", 2}};
  mpz_class product = 1;
  for (const auto& [q, e] : factors) {
    const mpz_class prime(q);
    EXPECT_GT(mpz_probab_prime_p(prime.get_mpz_t(), 40), 0) << q;
    for (int i = 0; i < e; ++i) product *= prime;
    mpz_class power, exponent = (r - 1) / prime;
    mpz_powm(power.get_mpz_t(), mpz_class(7).get_mpz_t(), exponent.get_mpz_t(), r.get_mpz_t());
    EXPECT_NE(power, 1) << "the order of 7 divides (r-1)/" << q;
  }
  EXPECT_EQ(product, r - 1);
}

// gamma_i = xi^(i(p-1)/6), recomputed by exponentiation in Fp2.
TEST(Constants, FrobeniusGammas) {
  BigInt<6> e = Fp::kModulus;
  sub_in_place(e, BigInt<6>(1));
  e = div_small(e, 6);
  const Fp2 xi{Fp::one(), Fp::one()};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(kFrobeniusGamma[i], xi.pow(e).pow(BigInt<1>(i))) << "gamma_" << i;
  }
}

}  // namespace
}  // namespace cuzk::ff
