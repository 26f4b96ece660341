// The domain's constants against GMP (7^t mod r and its powers), its size rule and its errors,
// and the vanishing polynomial on the coset.

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "poly/domain.hpp"
#include "support/format.hpp"
#include "support/random.hpp"

namespace cuzk::poly {
namespace {

using ff::Fr;
using Domain = EvaluationDomain<Fr>;

mpz_class mpz(const Fr& v) { return mpz_class(test::hex(v), 16); }
const mpz_class kR = mpz_class(test::hex(Fr::kModulus), 16);

mpz_class powm(const mpz_class& b, const mpz_class& e) {
  mpz_class out;
  mpz_powm(out.get_mpz_t(), b.get_mpz_t(), e.get_mpz_t(), kR.get_mpz_t());
  return out;
}

// t with r - 1 = 2^32 t.
mpz_class odd_part() {
  mpz_class t = kR - 1;
  int s = 0;
  while (t % 2 == 0) t /= 2, ++s;
  EXPECT_EQ(s, 32);
  return t;
}

TEST(RootOfUnity, IsSevenToTheOddPartOfOrderTwoToThe32) {
  const mpz_class root = powm(7, odd_part());
  EXPECT_EQ(mpz(TwoAdicRoot<Fr>::kRootOfUnity), root);
  EXPECT_EQ(mpz(root_of_unity<Fr>(32)), root);
  // Order exactly 2^32: root^(2^31) = -1 (so root^(2^32) = 1 and no smaller power of two works).
  EXPECT_EQ(powm(root, mpz_class(1) << 31), kR - 1);
  EXPECT_EQ(powm(root, mpz_class(1) << 32), 1);
  // 7 generates Fr^*: 7^((r-1)/q) != 1 for the prime 2 (7 is a non-residue).
  EXPECT_EQ(powm(7, (kR - 1) / 2), kR - 1);
  EXPECT_EQ(Domain::coset_generator(), Fr::from_uint(7));
}

TEST(Domain, OmegaHasOrderExactlyM) {
  const mpz_class root = powm(7, odd_part());
  for (unsigned log_m : {0u, 1u, 2u, 3u, 7u, 12u, 16u, 20u, 27u, 28u}) {
    SCOPED_TRACE(log_m);
    const Domain d = Domain::for_size(size_t{1} << log_m).value();
    ASSERT_EQ(d.log_size(), log_m);
    ASSERT_EQ(d.size(), size_t{1} << log_m);
    // bellperson's choice: ROOT_OF_UNITY^(2^(32 - log m)).
    EXPECT_EQ(mpz(d.omega()), powm(root, mpz_class(1) << (32 - log_m)));
    EXPECT_EQ(d.omega().pow(uint64_t{1} << log_m), Fr::one());
    if (log_m > 0) {
      EXPECT_EQ(d.omega().pow(uint64_t{1} << (log_m - 1)), -Fr::one());
    }
    EXPECT_EQ(d.omega() * d.omega_inv(), Fr::one());
    EXPECT_EQ(d.size_inv() * Fr::from_uint(d.size()), Fr::one());
  }
}

TEST(Domain, SizeIsNextPowerOfTwo) {
  const std::vector<std::pair<size_t, size_t>> cases = {
      {0, 1}, {1, 1}, {2, 2}, {3, 4}, {1000, 1024}, {1024, 1024}, {(1u << 20) + 1, 1u << 21}, {1u << 28, 1u << 28}};
  for (auto [min_size, m] : cases) EXPECT_EQ(Domain::for_size(min_size).value().size(), m) << min_size;
}

TEST(Domain, RejectsMoreThanTwoToThe28) {
  for (size_t n : {(size_t{1} << 28) + 1, size_t{1} << 29, size_t{1} << 32, SIZE_MAX}) {
    const auto d = Domain::for_size(n);
    ASSERT_FALSE(d.has_value());
    EXPECT_EQ(d.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(d.error().message.find(std::to_string(n)), std::string::npos) << d.error().message;
  }
}

TEST(Domain, WrongLengthThrows) {
  ThreadPool pool(1);
  const Domain d = Domain::for_size(8).value();
  std::vector<Fr> data(7);
  EXPECT_THROW(d.ntt(data, pool), Exception);
  EXPECT_THROW(d.coset_intt(data, pool), Exception);
}

TEST(Vanishing, IsConstantOnTheCoset) {
  auto g = test::rng(31);
  for (unsigned log_m : {0u, 1u, 5u, 10u, 16u}) {
    SCOPED_TRACE(log_m);
    const Domain d = Domain::for_size(size_t{1} << log_m).value();
    const uint64_t m = d.size();
    EXPECT_EQ(mpz(d.vanishing_on_coset()), (powm(7, m) + kR - 1) % kR);  // GMP: 7^m - 1
    for (int k = 0; k < 4; ++k) {
      const uint64_t i = g() % m;
      const Fr x = Domain::coset_generator() * d.omega().pow(i);
      EXPECT_EQ(x.pow(m) - Fr::one(), d.vanishing_on_coset()) << i;
    }
  }
}

TEST(Vanishing, DivideThenMultiplyRestores) {
  auto g = test::rng(32);
  ThreadPool pool(2);
  const Domain d = Domain::for_size(1u << 14).value();
  std::vector<Fr> data(d.size());
  for (auto& x : data) x = test::random_element<Fr>(g);
  const std::vector<Fr> original = data;
  d.divide_by_vanishing_on_coset(data, pool);
  EXPECT_NE(data[0], original[0]);
  for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(data[i] * d.vanishing_on_coset(), original[i]) << i;
}

}  // namespace
}  // namespace cuzk::poly
