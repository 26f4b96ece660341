// The GPU MSM (gpu/msm.hpp) against its CPU twin msm::multi_exp (src/msm/pippenger.hpp), for G1
// and G2: random sizes, forced windows and run lengths (many windows; sparse buckets; bucket runs
// cut across threads), the edges (n = 0, 1; scalars 0, 1, r - 1; bases at infinity; one heavy
// bucket of equal points), density bitmaps, mostly-0/1 scalars (the split path), run_host,
// run_streamed and bit-reversed scalars; with the terms classified and in place.
// Label gpu: every test skips when no GPU is visible.

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/scalar_mul.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/msm.hpp"
#include "gpu/stream.hpp"
#include "core/density_bitmap.hpp"
#include "msm/pippenger.hpp"
#include "poly/ntt.hpp"
#include "support/points.hpp"
#include "support/random.hpp"

namespace cuzk::gpu {
namespace {

using ec::Affine;
using ec::Jacobian;
using ff::Fr;

#define CUZK_REQUIRE_GPU() \
  if (list_devices().empty()) GTEST_SKIP() << "no GPU visible"

ThreadPool& pool() {
  static ThreadPool p(std::max(1u, std::thread::hardware_concurrency()));
  return p;
}

using test::random_bases;
using test::random_scalars;

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& v, const Stream& s) {
  DeviceBuffer<T> d(v.size(), s);
  if (!v.empty()) d.upload(std::span<const T>(v), s);
  return d;
}

// A page-locked copy of v (the streamed paths' sources: truly asynchronous copies).
template <class T>
PinnedBuffer<T> pin(const std::vector<T>& v) {
  PinnedBuffer<T> p(v.size());
  std::copy(v.begin(), v.end(), p.span().begin());
  return p;
}

// The GPU result for host vectors (uploaded first), optionally with a density bitmap.
template <class Curve>
Jacobian<Curve> gpu_msm(Msm<Curve>& msm, const Stream& s, const std::vector<Affine<Curve>>& bases,
                        const std::vector<Fr>& scalars, MsmOptions options = {},
                        const DensityBitmap* density = nullptr) {
  auto b = upload(bases, s);
  auto k = upload(scalars, s);
  if (density == nullptr) return msm.run(b.data(), k.data(), scalars.size(), options);
  auto w = upload(density->words(), s);
  return msm.run(b.data(), k.data(), w.data(), scalars.size(), options);
}

template <class Curve>
Jacobian<Curve> cpu_msm(const std::vector<Affine<Curve>>& bases, const std::vector<Fr>& scalars) {
  return msm::multi_exp<Curve>(std::span<const Affine<Curve>>(bases), std::span<const Fr>(scalars), pool());
}

template <class Curve>
struct GpuMsmTest : ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(GpuMsmTest, Curves);

template <class Curve>
constexpr bool kG1 = std::is_same_v<Curve, ec::G1Curve>;

TYPED_TEST(GpuMsmTest, RandomMatchesCpu) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6001);
  Stream s;
  Msm<Curve> msm(s);
  const size_t top = kG1<Curve> ? size_t{1} << 16 : 4097;
  const auto bases = random_bases<Curve>(g, top);
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{100}, size_t{4097}, size_t{1} << 16}) {
    if (n > top) continue;
    const std::vector<Affine<Curve>> b(bases.begin(), bases.begin() + n);
    const auto k = random_scalars(g, n);
    const auto want = cpu_msm(b, k);
    EXPECT_EQ(gpu_msm(msm, s, b, k), want) << "n = " << n;
    EXPECT_EQ(gpu_msm(msm, s, b, k, {.terms = MsmTerms::in_place}), want) << "n = " << n << ", in place";
  }
}

TYPED_TEST(GpuMsmTest, ForcedWindowsAndRunLengths) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6002);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = kG1<Curve> ? 3000 : 700;
  const auto bases = random_bases<Curve>(g, n);
  const auto k = random_scalars(g, n);
  const auto expected = cpu_msm(bases, k);
  // c = 1: 256 windows of one bucket (every run crosses threads); c = 21, 22: sparse buckets.
  for (unsigned c : {1u, 2u, 5u, 8u, 13u, 16u, 21u, 22u}) {
    EXPECT_EQ(gpu_msm(msm, s, bases, k, {.window = c}), expected) << "c = " << c;
  }
  for (unsigned run : {1u, 3u, 7u, 64u, 1000u}) {
    EXPECT_EQ(gpu_msm(msm, s, bases, k, {.window = 4, .run_length = run}), expected) << "run = " << run;
  }
  // Mixed widths: 4 x 22 + 8 x 21 bits; keys of at most 2^24 buckets put them in two sorts
  // (4 wide + 3 narrow, then 5 narrow). And 13 x 19-20, 21 x 12-13 bits.
  for (const MsmWindows w : {MsmWindows{12, 21, 4}, MsmWindows{13, 19, 9}, MsmWindows{21, 12, 4}})
    EXPECT_EQ(gpu_msm(msm, s, bases, k, {.windows = w}), expected) << w.count << " windows";
  EXPECT_THROW(gpu_msm(msm, s, bases, k, {.window = 23}), Exception);  // wider than a Booth digit reads
  EXPECT_THROW(gpu_msm(msm, s, bases, k, {.windows = {12, 21, 3}}), Exception);  // 255 bits
  EXPECT_THROW(gpu_msm(msm, s, bases, k, {.windows = {257, 1, 0}}), Exception);   // more sums than read back
}

TYPED_TEST(GpuMsmTest, EdgeScalarsAndBases) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6003);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = 1000;
  auto bases = random_bases<Curve>(g, n);
  auto k = random_scalars(g, n);
  const Fr minus_one = -Fr::one();
  for (size_t i = 0; i < n; i += 7) k[i] = Fr::zero();
  for (size_t i = 1; i < n; i += 11) k[i] = Fr::one();
  for (size_t i = 2; i < n; i += 13) k[i] = minus_one;
  for (size_t i = 3; i < n; i += 17) k[i] = Fr::one().dbl();
  for (size_t i = 4; i < n; i += 19) bases[i] = Affine<Curve>::identity();
  for (size_t i = 5; i < n; i += 23) bases[i] = bases[i - 1], k[i] = k[i - 1];  // P + P in one bucket
  for (size_t i = 6; i < n; i += 29) bases[i] = -bases[i - 1], k[i] = k[i - 1];  // P - P
  const auto expected = cpu_msm(bases, k);
  EXPECT_EQ(gpu_msm(msm, s, bases, k), expected);
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.split_ones = false}), expected);
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.window = 3, .run_length = 2}), expected);
  // In place, the zeros, ones and bases at infinity go through the buckets.
  constexpr MsmTerms in_place = MsmTerms::in_place;
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.terms = in_place}), expected);
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.window = 3, .run_length = 2, .terms = in_place}), expected);

  // All zero: the identity. Every scalar 1: the ones path alone.
  const std::vector<Fr> zeros(n, Fr::zero()), ones(n, Fr::one());
  EXPECT_TRUE(gpu_msm(msm, s, bases, zeros).is_identity());
  EXPECT_EQ(gpu_msm(msm, s, bases, ones), cpu_msm(bases, ones));
  EXPECT_EQ(gpu_msm(msm, s, bases, ones, {.split_ones = false}), cpu_msm(bases, ones));
  EXPECT_TRUE(gpu_msm(msm, s, bases, zeros, {.terms = in_place}).is_identity());
  EXPECT_EQ(gpu_msm(msm, s, bases, ones, {.terms = in_place}), cpu_msm(bases, ones));

  // One heavy bucket per window: equal scalars on distinct bases, and on one repeated base.
  const std::vector<Fr> same(n, test::random_element<Fr>(g));
  EXPECT_EQ(gpu_msm(msm, s, bases, same, {.window = 10, .run_length = 4}), cpu_msm(bases, same));
  const std::vector<Affine<Curve>> repeated(n, bases[0]);
  EXPECT_EQ(gpu_msm(msm, s, repeated, same), cpu_msm(repeated, same));
  EXPECT_EQ(gpu_msm(msm, s, repeated, same, {.terms = in_place}), cpu_msm(repeated, same));
}

TYPED_TEST(GpuMsmTest, DensityBitmaps) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6004);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = kG1<Curve> ? 5001 : 777;
  const auto random = random_scalars(g, n);
  auto bits = random;  // a PoRep witness' mix: mostly 0 and 1, some full scalars
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = g() % 100;
    if (r < 50) bits[i] = Fr::one();
    else if (r < 95) bits[i] = Fr::zero();
  }
  for (const std::vector<Fr>* k : std::initializer_list<const std::vector<Fr>*>{&random, &bits}) {
    for (int kind = 0; kind < 3; ++kind) {  // random, all clear, all set
      DensityBitmap density(n);
      for (size_t i = 0; i < n; ++i) {
        if (kind == 2 || (kind == 0 && g() % 3 != 0)) density.set(i);
      }
      auto bases = random_bases<Curve>(g, std::max<size_t>(density.count(), 1));
      const auto expected = msm::multi_exp<Curve>(std::span<const Affine<Curve>>(bases), std::span<const Fr>(*k),
                                                  density, pool());
      EXPECT_EQ(gpu_msm(msm, s, bases, *k, {}, &density), expected) << "kind " << kind;
      EXPECT_EQ(gpu_msm(msm, s, bases, *k, {.split_ones = false}, &density), expected) << "kind " << kind;
      if (kind == 1) {
        EXPECT_TRUE(expected.is_identity());
      }
    }
  }
  DensityBitmap density(n);
  const auto bases = random_bases<Curve>(g, 1);
  EXPECT_THROW(gpu_msm(msm, s, bases, random, {.terms = MsmTerms::in_place}, &density), Exception);
}

TYPED_TEST(GpuMsmTest, MostlyZeroOneScalars) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6005);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = kG1<Curve> ? 20000 : 2000;
  const auto bases = random_bases<Curve>(g, n);
  auto k = random_scalars(g, n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = g() % 100;
    if (r < 60) k[i] = Fr::one();
    else if (r < 95) k[i] = Fr::zero();
  }
  const auto expected = cpu_msm(bases, k);
  const size_t ones = size_t(std::ranges::count(k, Fr::one())), zeros = size_t(std::ranges::count(k, Fr::zero()));
  EXPECT_EQ(gpu_msm(msm, s, bases, k), expected);
  // The report the benches print (bench e2e's msm_phases): the terms, and which path took them.
  EXPECT_EQ(msm.last_timing().terms, n);
  EXPECT_EQ(msm.last_timing().ones_terms, ones);
  EXPECT_EQ(msm.last_timing().significant, n - ones - zeros);
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.split_ones = false}), expected);
  EXPECT_EQ(msm.last_timing().ones_terms, 0u);
  EXPECT_EQ(msm.last_timing().significant, n - zeros);
  EXPECT_EQ(gpu_msm(msm, s, bases, k, {.terms = MsmTerms::in_place}), expected);  // nothing set apart
  EXPECT_EQ(msm.last_timing().ones_terms, 0u);
  EXPECT_EQ(msm.last_timing().significant, n);
}

TYPED_TEST(GpuMsmTest, RunHostMatchesCpu) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6006);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = kG1<Curve> ? 10000 : 1000;
  const auto bases = random_bases<Curve>(g, n);
  const auto k = random_scalars(g, n);
  const auto want = cpu_msm(bases, k);
  EXPECT_EQ(msm.run_host(bases, k), want);
  EXPECT_TRUE(msm.run_host({}, {}).is_identity());
  // Streamed in chunks through the double buffer: an odd count of uneven chunks (the last one
  // short), a chunk of one term, and pinned sources (truly asynchronous copies).
  MsmOptions chunked;
  chunked.host_chunk = n / 3 + 1;
  EXPECT_EQ(msm.run_host(bases, k, chunked), want);
  chunked.host_chunk = 1;
  const std::vector<Affine<Curve>> few(bases.begin(), bases.begin() + 5);
  const std::vector<Fr> few_k(k.begin(), k.begin() + 5);
  EXPECT_EQ(msm.run_host(few, few_k, chunked), cpu_msm(few, few_k));
  const auto pinned_bases = pin(bases);
  const auto pinned_k = pin(k);
  chunked.host_chunk = n / 4;
  EXPECT_EQ(msm.run_host(pinned_bases.span(), pinned_k.span(), chunked), want);
}

// Host bases streamed against device scalars (the prover's small-card path), plain and in the
// density form, whole and in chunks: with density the chunks are whole words and each chunk's
// bases start after the set bits before it (a random bitmap, so a wrong offset shows).
TYPED_TEST(GpuMsmTest, RunStreamedMatchesCpu) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6007);
  Stream s;
  Msm<Curve> msm(s);
  const size_t n = kG1<Curve> ? 10000 : 1000;
  const auto bases = random_bases<Curve>(g, n);
  const auto k = random_scalars(g, n);
  const auto kd = upload(k, s);
  const auto want = cpu_msm(bases, k);
  const auto pinned = pin(bases);
  const std::span<const Affine<Curve>> host(pinned.span());
  EXPECT_EQ(msm.run_streamed(host, kd.data(), n), want);
  for (size_t chunk : {n / 3 + 1, size_t{64}, size_t{100}}) {
    EXPECT_EQ(msm.run_streamed(host, kd.data(), n, {.host_chunk = chunk}), want) << "chunk " << chunk;
  }
  DensityBitmap density(n);
  for (size_t i = 0; i < n; ++i) {
    if (g() % 3 != 0) density.set(i);
  }
  const auto expected = msm::multi_exp<Curve>(host.first(density.count()), std::span<const Fr>(k), density, pool());
  const auto words = upload(density.words(), s);
  for (size_t chunk : {n, n / 3 + 1, size_t{64}, size_t{100}}) {
    EXPECT_EQ(msm.run_streamed(host, kd.data(), words.data(), density.words(), n, {.host_chunk = chunk}), expected)
        << "density, chunk " << chunk;
  }
  EXPECT_GT(msm.workspace_bytes(), 0u);
  msm.release_workspace();  // freed, and made again by the next run
  EXPECT_EQ(msm.workspace_bytes(), 0u);
  EXPECT_EQ(msm.run_streamed(host, kd.data(), n), want);
  EXPECT_THROW(msm.run_streamed(host.first(n - 1), kd.data(), n), Exception);
}

// Scalars in bit-reversed order (MsmOptions::scalar_order, as the H stage leaves h): base i
// pairs with scalars[bitrev(i)]. n = 2^L − 1 bases (the prover's h: the last scalar unused),
// resident and streamed in chunks (each chunk gathers from the whole vector at its offset), random
// scalars and mostly 0/1 ones (the compacted and split paths keep each term's base). In place,
// resident reads by position (position s holds base bitrev(s)'s scalar); chunks, and an n below
// half the vector, read by base.
TYPED_TEST(GpuMsmTest, BitReversedScalarsMatchCpu) {
  using Curve = TypeParam;
  CUZK_REQUIRE_GPU();
  auto g = test::rng(6008);
  Stream s;
  Msm<Curve> msm(s);
  const unsigned log_n = kG1<Curve> ? 13 : 10;
  const size_t size = size_t{1} << log_n, n = size - 1;
  const auto bases = random_bases<Curve>(g, n);
  const auto b = upload(bases, s);
  const auto pinned = pin(bases);
  const std::span<const Affine<Curve>> host(pinned.span());
  std::vector<Fr> sparse = random_scalars(g, size);
  for (size_t i = 0; i < size; ++i) {
    if (g() % 4 != 0) sparse[i] = g() % 2 ? Fr::one() : Fr::zero();
  }
  for (const auto& k : {random_scalars(g, size), sparse}) {
    const auto want = cpu_msm(bases, std::vector<Fr>(k.begin(), k.begin() + n));
    std::vector<Fr> reversed = k;
    poly::bit_reverse_permute<Fr>(reversed, pool());
    const auto kd = upload(reversed, s);
    const MsmOptions o{.scalar_order = Order::bit_reversed, .scalar_log_n = log_n};
    EXPECT_EQ(msm.run(b.data(), kd.data(), n, o), want);
    MsmOptions in_place = o;
    in_place.terms = MsmTerms::in_place;
    EXPECT_EQ(msm.run(b.data(), kd.data(), n, in_place), want);
    for (size_t chunk : {n, n / 3 + 1, size_t{64}, size_t{100}}) {
      MsmOptions c = o;
      c.host_chunk = chunk;
      EXPECT_EQ(msm.run_streamed(host, kd.data(), n, c), want) << "chunk " << chunk;
      c.terms = MsmTerms::in_place;
      EXPECT_EQ(msm.run_streamed(host, kd.data(), n, c), want) << "chunk " << chunk << ", in place";
    }
    const size_t few = size / 3;
    EXPECT_EQ(msm.run(b.data(), kd.data(), few, in_place),
              cpu_msm(std::vector<Affine<Curve>>(bases.begin(), bases.begin() + few),
                      std::vector<Fr>(k.begin(), k.begin() + few)));
    // The natural read of the same vector pairs the wrong scalars.
    EXPECT_NE(msm.run(b.data(), kd.data(), n), want);
  }
  const auto kd = upload(random_scalars(g, size), s);
  const DensityBitmap density(n);
  const auto words = upload(density.words(), s);
  EXPECT_THROW(msm.run(b.data(), kd.data(), n, {.scalar_order = Order::bit_reversed, .scalar_log_n = log_n - 1}),
               Exception);  // 2^(L-1) < n
  EXPECT_THROW(msm.run(b.data(), kd.data(), words.data(), n, {.scalar_order = Order::bit_reversed, .scalar_log_n = log_n}),
               Exception);  // with a density
  EXPECT_THROW(msm.run_host(bases, random_scalars(g, n), {.scalar_order = Order::bit_reversed, .scalar_log_n = log_n}),
               Exception);  // host scalars
}

}  // namespace
}  // namespace cuzk::gpu
