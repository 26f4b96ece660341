// Pippenger's MSM against the naive sum of scalar multiplications (ec/scalar_mul.hpp), for G1 and
// G2, with the scalars that exercise its special paths (0, 1, r-1, powers of two, Booth carries
// out of the top window) and the bases that do (duplicates, P and -P, infinity).

#include <gtest/gtest.h>

#include <vector>

#include "ec/batch_normalize.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/pippenger.hpp"
#include "support/points.hpp"
#include "support/random.hpp"

namespace cuzk::msm {
namespace {

using ec::Affine;
using ec::Jacobian;
using ff::Fr;

template <class Curve>
struct MsmTest : ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(MsmTest, Curves);

using test::random_bases;
using test::random_scalars;

template <class Curve>
Jacobian<Curve> naive(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars) {
  Jacobian<Curve> acc;
  for (size_t i = 0; i < scalars.size(); ++i) acc += ec::scalar_mul(Jacobian<Curve>::from_affine(bases[i]), scalars[i]);
  return acc;
}

Fr power_of_two(size_t k) {
  Fr::Int v;
  v.limbs[k / 64] = uint64_t{1} << (k % 64);
  return Fr::from_int(v);
}

// Smaller sizes for G2, whose naive reference costs three times as much.
template <class Curve>
size_t scaled(size_t n) {
  return std::is_same_v<Curve, ec::G1Curve> ? n : std::min<size_t>(n, 300);
}

TYPED_TEST(MsmTest, RandomMatchesNaive) {
  using Curve = TypeParam;
  auto g = test::rng(1);
  ThreadPool one(1), two(2);
  const auto bases = random_bases<Curve>(g, scaled<Curve>(1000));
  for (size_t n : {0, 1, 2, 3, 17, 255, 1000}) {
    n = std::min(n, bases.size());
    const auto scalars = random_scalars(g, n);
    const auto expected = naive<Curve>(bases, scalars);
    EXPECT_EQ(multi_exp<Curve>(bases, scalars, one), expected) << "n = " << n;
    EXPECT_EQ(multi_exp<Curve>(bases, scalars, two), expected) << "n = " << n;
  }
}

TYPED_TEST(MsmTest, EmptyAndZeroScalarsGiveInfinity) {
  using Curve = TypeParam;
  auto g = test::rng(2);
  ThreadPool pool(2);
  const auto bases = random_bases<Curve>(g, 20);
  EXPECT_TRUE(multi_exp<Curve>(bases, {}, pool).is_identity());
  const std::vector<Fr> zeros(20);
  EXPECT_TRUE(multi_exp<Curve>(bases, zeros, pool).is_identity());
}

TYPED_TEST(MsmTest, SpecialScalars) {
  using Curve = TypeParam;
  auto g = test::rng(3);
  ThreadPool one(1), two(2);
  std::vector<Fr> scalars;
  for (int i = 0; i < 5; ++i) scalars.insert(scalars.end(), {Fr::zero(), Fr::one(), -Fr::one()});
  for (size_t k = 0; k < 255; k += std::is_same_v<Curve, ec::G1Curve> ? 1 : 7) scalars.push_back(power_of_two(k));
  // 2^k - 1 and 2^(k-1) + ... patterns: all-ones runs make Booth digits carry across windows.
  for (size_t k : {13, 64, 127, 200, 254}) scalars.push_back(power_of_two(k) - Fr::one());
  const size_t random_count = scalars.size() / 2;
  for (size_t i = 0; i < random_count; ++i) scalars.push_back(test::random_element<Fr>(g));
  const auto bases = random_bases<Curve>(g, scalars.size());
  const auto expected = naive<Curve>(bases, scalars);
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, one), expected);
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, two), expected);
  // Only ones: the direct sum, with no bucket work at all.
  const std::vector<Fr> ones(bases.size(), Fr::one());
  EXPECT_EQ(multi_exp<Curve>(bases, ones, one), naive<Curve>(bases, ones));
}

TYPED_TEST(MsmTest, DuplicatedNegatedAndInfiniteBases) {
  using Curve = TypeParam;
  auto g = test::rng(4);
  ThreadPool one(1), two(2);
  const auto distinct = random_bases<Curve>(g, 8);
  std::vector<Affine<Curve>> bases;
  std::vector<Fr> scalars;
  // The same base many times with the same and with different scalars: equal points meet in a
  // bucket, which must double rather than add.
  for (int i = 0; i < 40; ++i) {
    bases.push_back(distinct[0]);
    scalars.push_back(i % 2 == 0 ? Fr::from_uint(12345) : test::random_element<Fr>(g));
  }
  // Infinity bases with nonzero scalars contribute nothing.
  for (int i = 0; i < 10; ++i) {
    bases.push_back(Affine<Curve>::identity());
    scalars.push_back(test::random_element<Fr>(g));
  }
  for (int i = 1; i < 8; ++i) {
    bases.push_back(distinct[size_t(i)]);
    scalars.push_back(Fr::from_uint(uint64_t(i)));
  }
  const auto expected = naive<Curve>(bases, scalars);
  EXPECT_FALSE(expected.is_identity());
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, one), expected);
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, two), expected);
  for (unsigned c : {2u, 5u})
    EXPECT_EQ(multi_exp_with<Curve>(bases, scalars, nullptr, {c, Accumulation::batch_affine}, one), expected);

  // k P + k (-P) and k P + (r-k) P cancel, each pair within one bucket.
  std::vector<Affine<Curve>> pairs;
  std::vector<Fr> pair_scalars;
  for (size_t i = 0; i < distinct.size(); ++i) {
    const Fr k = test::random_element<Fr>(g);
    pairs.insert(pairs.end(), {distinct[i], -distinct[i], distinct[i], distinct[i]});
    pair_scalars.insert(pair_scalars.end(), {k, k, k, -k});
  }
  EXPECT_TRUE(multi_exp<Curve>(pairs, pair_scalars, one).is_identity());
  EXPECT_TRUE(multi_exp<Curve>(pairs, pair_scalars, two).is_identity());
  for (Accumulation a : {Accumulation::xyzz, Accumulation::batch_affine})
    EXPECT_TRUE(multi_exp_with<Curve>(pairs, pair_scalars, nullptr, {3, a}, one).is_identity());
}

TYPED_TEST(MsmTest, EveryWindowWidthMatchesNaive) {
  using Curve = TypeParam;
  auto g = test::rng(5);
  ThreadPool one(1);
  const auto bases = random_bases<Curve>(g, 40);
  auto scalars = random_scalars(g, 40);
  scalars[0] = -Fr::one();  // 255 bits: the top window's Booth carry
  scalars[1] = power_of_two(254);
  const auto expected = naive<Curve>(bases, scalars);
  // Every width up to 16 on G1 (c = 15, 16, 17 divide 255 or 256: the top window's edge
  // cases); wide windows cost 2^(c-1) bucket additions each, so G2 stops at 12.
  const unsigned widest = std::is_same_v<Curve, ec::G1Curve> ? 17 : 12;
  for (unsigned c = 1; c <= widest; ++c) {
    for (Accumulation a : {Accumulation::xyzz, Accumulation::batch_affine})
      EXPECT_EQ(multi_exp_with<Curve>(bases, scalars, nullptr, {c, a}, one), expected) << "c = " << c;
  }
}

TEST(MsmWindow, SizesAroundWindowSwitches) {
  auto g = test::rng(6);
  ThreadPool one(1), two(2);
  const auto bases = random_bases<ec::G1Curve>(g, 700);
  const auto scalars = random_scalars(g, 700);
  size_t switches = 0;
  for (size_t m = 2; m <= bases.size(); ++m) {
    if (window_bits(m) == window_bits(m - 1)) continue;
    ++switches;
    for (size_t n : {m - 1, m}) {
      const auto s = std::span(scalars).first(n);
      const auto expected = naive<ec::G1Curve>(bases, s);
      EXPECT_EQ(multi_exp<ec::G1Curve>(bases, s, one), expected) << "n = " << n;
      EXPECT_EQ(multi_exp<ec::G1Curve>(bases, s, two), expected) << "n = " << n;
    }
  }
  EXPECT_GE(switches, 3u);  // the window widens several times below 700 terms
  // Widths grow with the size, and stay where blst's do at the benchmark sizes (+-1).
  for (size_t m = 2; m < (size_t{1} << 24); m *= 2) EXPECT_LE(window_bits(m / 2), window_bits(m));
  EXPECT_NEAR(double(window_bits(size_t{1} << 16)), 13.0, 1.0);
  EXPECT_NEAR(double(window_bits(size_t{1} << 16, Accumulation::batch_affine)), 13.0, 1.0);
}

TEST(MsmThreads, SlicedAndWholeAgree) {
  // Large enough that the pool of 2 splits the terms into slices (several chunks).
  auto g = test::rng(7);
  ThreadPool one(1), two(2);
  const size_t n = 3 * detail::kChunk + 123;
  const auto some = random_bases<ec::G1Curve>(g, 64);
  std::vector<Affine<ec::G1Curve>> bases(n);
  for (size_t i = 0; i < n; ++i) bases[i] = some[(i * 7) % some.size()];
  const auto scalars = random_scalars(g, n);
  // The reference: coefficients summed per distinct base, then the naive sum over 64 terms.
  std::vector<Fr> merged(some.size());
  for (size_t i = 0; i < n; ++i) merged[(i * 7) % some.size()] += scalars[i];
  const auto expected = naive<ec::G1Curve>(some, merged);
  EXPECT_EQ(multi_exp<ec::G1Curve>(bases, scalars, one), expected);
  EXPECT_EQ(multi_exp<ec::G1Curve>(bases, scalars, two), expected);
  for (Accumulation a : {Accumulation::xyzz, Accumulation::batch_affine})
    EXPECT_EQ(multi_exp_with<ec::G1Curve>(bases, scalars, nullptr, {9, a}, two), expected);
}

TEST(MsmBatchAffine, SizesAroundSwitches) {
  // n just below and at the switch from XYZZ to batch-affine buckets, and around the first
  // window switches of the batch-affine path; 48 distinct bases repeated, so the reference is a
  // naive sum over merged coefficients.
  auto g = test::rng(11);
  ThreadPool one(1);
  const auto some = random_bases<ec::G1Curve>(g, 48);
  std::vector<size_t> sizes = {kBatchAffineFrom - 1, kBatchAffineFrom};
  for (size_t m = kBatchAffineFrom + 1; m <= 5 * kBatchAffineFrom && sizes.size() < 6; ++m) {
    if (window_bits(m, Accumulation::batch_affine) == window_bits(m - 1, Accumulation::batch_affine)) continue;
    sizes.insert(sizes.end(), {m - 1, m});
  }
  EXPECT_GE(sizes.size(), 4u);
  for (size_t n : sizes) {
    std::vector<Affine<ec::G1Curve>> bases(n);
    std::vector<Fr> merged(some.size());
    const auto scalars = random_scalars(g, n);
    for (size_t i = 0; i < n; ++i) {
      bases[i] = some[i % some.size()];
      merged[i % some.size()] += scalars[i];
    }
    EXPECT_EQ(multi_exp<ec::G1Curve>(bases, scalars, one), naive<ec::G1Curve>(some, merged)) << "n = " << n;
  }
}

TEST(MsmBatchAffine, ConflictsAndOverflow) {
  // Above kBatchAffineFrom terms: one base with one scalar everywhere puts every term in the same
  // bucket of each window (conflicts in every batch, then the XYZZ overflow); a handful of bases
  // makes many doublings and cancellations inside batches.
  auto g = test::rng(10);
  ThreadPool one(1), two(2);
  const size_t n = kBatchAffineFrom + 500;
  const auto some = random_bases<ec::G1Curve>(g, 3);
  const Fr k = test::random_element<Fr>(g);
  std::vector<Affine<ec::G1Curve>> same(n, some[0]);
  const std::vector<Fr> equal(n, k);
  const auto expected = ec::scalar_mul(Jacobian<ec::G1Curve>::from_affine(some[0]), k * Fr::from_uint(n));
  EXPECT_EQ(multi_exp<ec::G1Curve>(same, equal, one), expected);
  EXPECT_EQ(multi_exp<ec::G1Curve>(same, equal, two), expected);

  std::vector<Affine<ec::G1Curve>> mixed(n);
  std::vector<Fr> scalars(n);
  std::vector<Fr> merged(some.size());
  const Fr small[] = {Fr::from_uint(2), Fr::from_uint(3), -Fr::from_uint(2), test::random_element<Fr>(g)};
  for (size_t i = 0; i < n; ++i) {
    const size_t which = g() % some.size();
    const bool negate = g() % 2 == 0;
    mixed[i] = negate ? -some[which] : some[which];
    scalars[i] = small[g() % 4];
    merged[which] += negate ? -scalars[i] : scalars[i];
  }
  const auto mixed_expected = naive<ec::G1Curve>(some, merged);
  EXPECT_EQ(multi_exp<ec::G1Curve>(mixed, scalars, one), mixed_expected);
  EXPECT_EQ(multi_exp<ec::G1Curve>(mixed, scalars, two), mixed_expected);
}

TYPED_TEST(MsmTest, DensityEqualsCompactedPlainForm) {
  using Curve = TypeParam;
  auto g = test::rng(8);
  ThreadPool one(1), two(2);
  const size_t n = scaled<Curve>(900);
  auto scalars = random_scalars(g, n);
  for (size_t i = 0; i < n; i += 3) scalars[i] = (i % 2 == 0) ? Fr::one() : Fr::zero();  // PoRep-like bits
  DensityBitmap density;
  std::vector<Fr> dense;
  for (size_t i = 0; i < n; ++i) {
    density.add_element();
    if (g() % 4 != 0) {
      density.set(i);
      dense.push_back(scalars[i]);
    }
  }
  const auto bases = random_bases<Curve>(g, density.count());
  const auto expected = naive<Curve>(bases, dense);
  EXPECT_EQ(multi_exp<Curve>(bases, dense, one), expected);
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, density, one), expected);
  EXPECT_EQ(multi_exp<Curve>(bases, scalars, density, two), expected);

  const DensityBitmap none(n);
  EXPECT_TRUE(multi_exp<Curve>(std::span<const Affine<Curve>>{}, scalars, none, two).is_identity());
}

TEST(MsmDensity, SpansSeveralChunks) {
  // Chunk boundaries fall inside runs of set and clear bits: each chunk's first base index is a
  // popcount of the bits before it.
  auto g = test::rng(9);
  ThreadPool one(1), two(2);
  const size_t n = 2 * detail::kChunk + 77;
  const auto some = random_bases<ec::G1Curve>(g, 32);
  DensityBitmap density(n);
  std::vector<Fr> scalars(n);
  std::vector<Fr> merged(some.size());
  std::vector<Affine<ec::G1Curve>> bases;
  for (size_t i = 0; i < n; ++i) {
    scalars[i] = test::random_element<Fr>(g);
    if ((i / 100) % 3 != 1) {
      density.set(i);
      const size_t which = bases.size() % some.size();
      bases.push_back(some[which]);
      merged[which] += scalars[i];
    }
  }
  const auto expected = naive<ec::G1Curve>(some, merged);
  EXPECT_EQ(multi_exp<ec::G1Curve>(bases, scalars, density, one), expected);
  EXPECT_EQ(multi_exp<ec::G1Curve>(bases, scalars, density, two), expected);
}

TEST(MsmErrors, RejectsShortInputs) {
  ThreadPool pool(1);
  const std::vector<Affine<ec::G1Curve>> bases(2, Affine<ec::G1Curve>::generator());
  const std::vector<Fr> scalars(3, Fr::one());
  EXPECT_THROW(multi_exp<ec::G1Curve>(bases, scalars, pool), std::invalid_argument);
  DensityBitmap density(2);
  EXPECT_THROW(multi_exp<ec::G1Curve>(bases, scalars, density, pool), std::invalid_argument);
  density = DensityBitmap(3);
  for (size_t i = 0; i < 3; ++i) density.set(i);
  EXPECT_THROW(multi_exp<ec::G1Curve>(bases, scalars, density, pool), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::msm
