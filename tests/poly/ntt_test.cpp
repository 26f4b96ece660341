// The transforms against independent evaluations: a naive O(m^2) DFT for small m, Horner's rule
// at spot indices for the sizes where the blocked and radix-4 stages run, and round trips.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "poly/domain.hpp"
#include "support/random.hpp"

namespace cuzk::poly {
namespace {

using ff::Fr;
using Domain = EvaluationDomain<Fr>;

std::vector<Fr> random_vector(size_t n, std::mt19937_64& g) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = test::random_element<Fr>(g);
  return v;
}

// Σ coeffs[i] x^i.
Fr horner(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc;
  for (size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

// The table's layout: W[b] = ω^brv(b) with log m - 1 bits reversed, b < m/2.
TEST(Ntt, TwiddleTableIsBitReversedPowers) {
  ThreadPool pool(2);
  for (unsigned log_m : {0u, 1u, 2u, 5u, 14u}) {
    SCOPED_TRACE(log_m);
    const Fr omega = root_of_unity<Fr>(log_m);
    const std::vector<Fr> table = twiddle_table(omega, log_m, pool);
    ASSERT_EQ(table.size(), log_m == 0 ? 0 : size_t{1} << (log_m - 1));
    for (size_t b = 0; b < table.size(); b += 1 + b / 8) {
      size_t reversed = 0;
      for (unsigned bit = 0; bit + 1 < log_m; ++bit) reversed |= ((b >> bit) & 1) << (log_m - 2 - bit);
      ASSERT_EQ(table[b], omega.pow(uint64_t(reversed))) << "b=" << b;
    }
  }
}

TEST(Ntt, MatchesNaiveDft) {
  auto g = test::rng(41);
  for (unsigned threads : {1u, 2u}) {
    ThreadPool pool(threads);
    for (size_t m = 1; m <= 256; m *= 2) {
      SCOPED_TRACE(m);
      const Domain d = Domain::for_size(m).value();
      const std::vector<Fr> x = random_vector(m, g);
      std::vector<Fr> y = x;
      d.ntt(y, pool);
      // y_k = Σ_i x_i ω^(ik), ω^(ik) taken by running powers (no NTT structure).
      for (size_t k = 0; k < m; ++k) {
        const Fr wk = d.omega().pow(uint64_t(k));
        Fr acc, w = Fr::one();
        for (size_t i = 0; i < m; ++i, w *= wk) acc += x[i] * w;
        ASSERT_EQ(y[k], acc) << "k=" << k << " threads=" << threads;
      }
    }
  }
}

// 2^12 is one block; 2^13..2^16 add 1 to 4 stages after it (radix-2 alone, radix-4, both, 2x radix-4).
TEST(Ntt, MatchesHornerAtSpotIndicesOnLargeDomains) {
  auto g = test::rng(42);
  ThreadPool pool(2);
  for (unsigned log_m = 12; log_m <= 16; ++log_m) {
    SCOPED_TRACE(log_m);
    const Domain d = Domain::for_size(size_t{1} << log_m).value();
    const std::vector<Fr> x = random_vector(d.size(), g);
    std::vector<Fr> y = x;
    d.ntt(y, pool);
    std::vector<size_t> ks = {0, 1, d.size() / 2, d.size() - 1};
    for (int i = 0; i < 6; ++i) ks.push_back(g() % d.size());
    for (size_t k : ks) EXPECT_EQ(y[k], horner(x, d.omega().pow(uint64_t(k)))) << "k=" << k;
  }
}

TEST(Ntt, CosetNttMatchesHornerOnTheCoset) {
  auto g = test::rng(43);
  ThreadPool pool(2);
  for (unsigned log_m : {0u, 1u, 3u, 10u, 15u}) {
    SCOPED_TRACE(log_m);
    const Domain d = Domain::for_size(size_t{1} << log_m).value();
    const std::vector<Fr> x = random_vector(d.size(), g);
    std::vector<Fr> y = x;
    d.coset_ntt(y, pool);
    std::vector<size_t> ks = {0, d.size() - 1};
    for (int i = 0; i < 6; ++i) ks.push_back(g() % d.size());
    for (size_t k : ks)
      EXPECT_EQ(y[k], horner(x, Domain::coset_generator() * d.omega().pow(uint64_t(k)))) << "k=" << k;
  }
}

TEST(Ntt, InverseTransformsRoundTrip) {
  auto g = test::rng(44);
  for (unsigned threads : {1u, 2u}) {
    ThreadPool pool(threads);
    for (unsigned log_m = 0; log_m <= 16; ++log_m) {
      SCOPED_TRACE(log_m);
      const Domain d = Domain::for_size(size_t{1} << log_m).value();
      const std::vector<Fr> x = random_vector(d.size(), g);
      std::vector<Fr> y = x;
      d.ntt(y, pool);
      if (log_m >= 1) {
        EXPECT_NE(y, x);
      }
      d.intt(y, pool);
      EXPECT_EQ(y, x) << "intt(ntt(x)) threads=" << threads;
      d.coset_ntt(y, pool);
      d.coset_intt(y, pool);
      EXPECT_EQ(y, x) << "coset_intt(coset_ntt(x)) threads=" << threads;
      // And the other way round: values -> coefficients -> values.
      d.intt(y, pool);
      d.ntt(y, pool);
      EXPECT_EQ(y, x) << "ntt(intt(x)) threads=" << threads;
    }
  }
}

// The H recipe of shared/SPEC.md §5 on a known answer: with p = q·Z (Z = x^m - 1), coset NTT,
// divide by Z on the coset, coset iNTT gives q back. p's coset values are q's times g^m - 1.
TEST(Ntt, QuotientByVanishingOnCoset) {
  auto g = test::rng(45);
  ThreadPool pool(2);
  const Domain d = Domain::for_size(128).value();
  const std::vector<Fr> q = random_vector(d.size(), g);
  std::vector<Fr> p = q;
  d.coset_ntt(p, pool);
  for (auto& v : p) v *= d.vanishing_on_coset();  // p = q·Z on the coset
  d.divide_by_vanishing_on_coset(p, pool);
  d.coset_intt(p, pool);
  EXPECT_EQ(p, q);
}

}  // namespace
}  // namespace cuzk::poly
