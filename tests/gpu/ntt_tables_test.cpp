// gpu/ntt_tables.hpp on the CPU (label gpu_host): the pass split and the two-level tables.

#include <gtest/gtest.h>

#include <numeric>

#include "gpu/ntt_tables.hpp"
#include "poly/root_of_unity.hpp"

namespace cuzk::gpu::ntt_detail {
namespace {

using ff::Fr;

TEST(GpuNttTables, PassesCoverLogNEvenlyInFewestPasses) {
  EXPECT_TRUE(pass_bits(0).empty());
  EXPECT_EQ(pass_bits(1), (std::vector<unsigned>{1}));
  EXPECT_EQ(pass_bits(10), (std::vector<unsigned>{10}));
  EXPECT_EQ(pass_bits(11), (std::vector<unsigned>{6, 5}));
  EXPECT_EQ(pass_bits(22), (std::vector<unsigned>{8, 7, 7}));
  EXPECT_EQ(pass_bits(27), (std::vector<unsigned>{9, 9, 9}));
  EXPECT_EQ(pass_bits(28), (std::vector<unsigned>{10, 9, 9}));
  for (unsigned l = 1; l <= kMaxLogSize; ++l) {
    const auto bits = pass_bits(l);
    EXPECT_EQ(std::accumulate(bits.begin(), bits.end(), 0u), l);
    EXPECT_EQ(bits.size(), (l + kMaxPassBits - 1) / kMaxPassBits);
    for (unsigned k : bits) EXPECT_LE(k, kMaxPassBits);
  }
}

TEST(GpuNttTables, TwoLevelProductsArePowers) {
  for (unsigned log_n : {1u, 7u, 20u, 22u}) {
    const Fr omega = poly::root_of_unity<Fr>(log_n), g = Fr::from_uint(7);
    TableLayout t;
    const auto tab = build_tables(log_n, omega, g, t);
    ASSERT_EQ(tab.size(), t.total);
    const Fr n_inv = Fr::from_uint(uint64_t{1} << log_n).inverse();
    const uint64_t n = uint64_t{1} << log_n;
    const uint64_t mask = (uint64_t{1} << t.split) - 1;
    for (uint64_t e : {uint64_t{0}, uint64_t{1}, n / 2, n - 1, (n * 5 / 7) | 1}) {
      if (e >= n) continue;
      EXPECT_EQ(tab[t.w_hi + (e >> t.split)] * tab[t.w_lo + (e & mask)], omega.pow(e)) << log_n << " " << e;
      EXPECT_EQ(tab[t.wi_hi + (e >> t.split)] * tab[t.wi_lo + (e & mask)], omega.inverse().pow(e));
      EXPECT_EQ(tab[t.g_hi + (e >> t.split)] * tab[t.g_lo + (e & mask)], g.pow(e));
      EXPECT_EQ(tab[t.gi_hi + (e >> t.split)] * tab[t.gi_lo + (e & mask)], g.inverse().pow(e) * n_inv);
    }
    // The flat table of the second pass boundary: ω^(t·2^k0), only with three passes or more.
    const auto passes = pass_bits(log_n);
    EXPECT_EQ(t.flat_log, passes.size() >= 3 ? log_n - passes[0] : 0u);
    if (t.flat_log > 0) {
      for (uint64_t j : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, (uint64_t{1} << t.flat_log) - 1}) {
        EXPECT_EQ(tab[t.flat_fwd + j], omega.pow(j << passes[0])) << j;
        EXPECT_EQ(tab[t.flat_inv + j], omega.inverse().pow(j << passes[0])) << j;
      }
    }
    // Local roots: ω_(2^K)^j with K the largest pass.
    const Fr local = omega.pow(n >> t.local_log);
    EXPECT_EQ(local.pow(uint64_t{1} << t.local_log), Fr::one());
    for (size_t j = 0; j < (size_t{1} << (t.local_log - 1)); j += 3) {
      EXPECT_EQ(tab[t.local_fwd + j], local.pow(j));
      EXPECT_EQ(tab[t.local_inv + j] * tab[t.local_fwd + j], Fr::one());
    }
  }
}

}  // namespace
}  // namespace cuzk::gpu::ntt_detail
