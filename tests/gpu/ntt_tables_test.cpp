// gpu/ntt_tables.hpp and gpu/ntt_tile.hpp on the CPU (label gpu_host): the pass split, the
// two-level tables, and the shared-memory tile's layout.

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "gpu/ntt_tables.hpp"
#include "gpu/ntt_tile.hpp"
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
      // H's folded factors: g^e/n, and g^-e·z_inv/n with z_inv·Z(g·ω^i) = z_inv·(g^n − 1) = 1.
      EXPECT_EQ(tab[t.gn_hi + (e >> t.split)] * tab[t.g_lo + (e & mask)], g.pow(e) * n_inv);
      const Fr folded = tab[t.gzi_hi + (e >> t.split)] * tab[t.gi_lo + (e & mask)];
      EXPECT_EQ(folded * g.pow(e) * Fr::from_uint(n) * (g.pow(n) - Fr::one()), Fr::one()) << log_n << " " << e;
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

TEST(GpuNttTile, SwizzleIsABijectionOnEveryTile) {
  for (unsigned log_tile = 0; log_tile <= kMaxPassBits; ++log_tile) {
    std::set<unsigned> slots;
    for (unsigned i = 0; i < (1u << log_tile); ++i) slots.insert(tile_swizzle(i));
    EXPECT_EQ(slots.size(), size_t{1} << log_tile);
    EXPECT_LT(*slots.rbegin(), std::max(1u << log_tile, 16u)) << log_tile;  // stays within the tile
  }
}

// Every shared-memory access of every pass of 2^1..2^28, as ntt_pass makes it (ntt_tile.hpp), is
// conflict-free for 64-bit words: the 16 lanes of each half-warp hit 16 different slots mod 16.
// Without the swizzle (or with the 32-bit planes' former one) the radix-8 groups at two columns
// put lanes 0, 1, 16, 17, ... two to a bank pair, and this fails.
TEST(GpuNttTile, EveryAccessIsConflictFree) {
  // lanes -> tile indices (kNone: idle lane) of one warp-wide access
  constexpr unsigned kNone = ~0u;
  const auto check = [](const std::vector<unsigned>& index, const std::string& what) {
    for (size_t h = 0; h < index.size(); h += 16) {
      std::set<unsigned> banks;
      size_t lanes = 0;
      for (size_t l = h; l < std::min(h + 16, index.size()); ++l) {
        if (index[l] == kNone) continue;
        banks.insert(tile_swizzle(index[l]) % 16);
        ++lanes;
      }
      ASSERT_EQ(banks.size(), lanes) << what << ", half-warp " << h / 16;
    }
  };
  for (unsigned log_n = 1; log_n <= kMaxLogSize; ++log_n) {
    unsigned consumed = 0;
    for (unsigned k : pass_bits(log_n)) {
      const unsigned stride_log = log_n - consumed - k;
      consumed += k;
      const unsigned c = pass_columns_log(k, stride_log), b = pass_radix_bits(k);
      const unsigned tile = 1u << (k + c), threads = std::max(tile >> b, 1u);
      const std::string shape = "2^" + std::to_string(log_n) + " pass of " + std::to_string(k) + " bits";
      std::vector<unsigned> index(threads);
      for (unsigned m = 0; m < (1u << b); ++m) {  // loads and stores
        for (unsigned t = 0; t < threads; ++t) index[t] = t + m * threads < tile ? t + m * threads : kNone;
        check(index, shape + ", load/store " + std::to_string(m));
      }
      unsigned s_lo = k;
      for (unsigned g = 0; g < pass_groups(k, b); ++g) {  // stage groups, top first (DIF)
        const unsigned R = group_bits(k, b, g);
        s_lo -= R;
        for (unsigned set = 0; set < (1u << (b - R)); ++set) {
          for (unsigned m = 0; m < (1u << R); ++m) {
            for (unsigned t = 0; t < threads; ++t) {
              const unsigned o = t + set * threads;
              index[t] = o < (tile >> R)
                             ? ((group_row0(o >> c, s_lo, R) | (m << s_lo)) << c) + (o & ((1u << c) - 1))
                             : kNone;
            }
            check(index, shape + ", group at stage " + std::to_string(s_lo) + ", m " + std::to_string(m));
          }
        }
      }
      EXPECT_EQ(s_lo, 0u) << shape;
    }
  }
}

}  // namespace
}  // namespace cuzk::gpu::ntt_detail
