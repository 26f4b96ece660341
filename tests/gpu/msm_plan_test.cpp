// The GPU MSM's host-side plan (gpu/msm.hpp; no GPU needed, label gpu_host): the windows the
// cost model picks by size, and the run lengths that fill whole waves of resident threads.

#include <gtest/gtest.h>

#include <cstddef>

#include "gpu/msm.hpp"

namespace cuzk::gpu {
namespace {

TEST(MsmPlan, FewerWindowsForMoreTerms) {
  // The model's windows cover 256 bits exactly (at most 22 bits each), and their
  // count falls as the term count grows; uniform windows cover at least 256 bits.
  unsigned last = 257;
  for (size_t log_n = 0; log_n <= 28; ++log_n) {
    const MsmWindows w = msm_windows(size_t{1} << log_n);
    EXPECT_EQ(w.count * w.c + w.wide, 256u) << log_n;
    EXPECT_LT(w.wide, w.count);
    EXPECT_LE(w.widest(), 22u);
    EXPECT_LE(w.count, last);
    last = w.count;
  }
  EXPECT_EQ(msm_windows(size_t{1} << 24).count, 13u);  // 9 x 20 + 4 x 19 bits (docs/PERF.md 17)
  EXPECT_EQ(msm_windows(size_t{1} << 27).count, 12u);  // 4 x 22 + 8 x 21 bits
  for (unsigned c = 1; c <= 22; ++c) {
    const MsmWindows u = MsmWindows::uniform(c);
    EXPECT_GE(u.count * c, 256u);
    EXPECT_LT((u.count - 1) * c, 256u);
  }
}

TEST(MsmPlan, BalancedRunsFillWholeWaves) {
  // Runs never exceed the cap, cover every pair in no more waves of resident threads
  // than the cap alone needs, and are the shortest that do (one pair less a run would need
  // another wave): so the waves are as full as the pairs allow. Runs of `cap` fail that at 2^26.
  const size_t resident = 132 * 3 * 128;  // the H200's G1 accumulation (docs/PERF.md 18)
  for (const size_t pairs : {size_t{1}, size_t{1000}, size_t{50688}, size_t{50689}, size_t{7} << 26,
                             size_t{5} << 26, size_t{12} << 27, size_t{3} << 20}) {
    for (const unsigned cap : {1u, 32u, 256u, 1024u}) {
      const unsigned run = balanced_run(pairs, cap, resident);
      const size_t threads = (pairs + run - 1) / run;
      const size_t waves = ((pairs + cap - 1) / cap + resident - 1) / resident;
      ASSERT_GE(run, 1u);
      ASSERT_LE(run, cap) << pairs << " pairs, cap " << cap;
      ASSERT_GE(threads * run, pairs);
      ASSERT_LE(threads, waves * resident) << pairs << " pairs, cap " << cap;  // no extra wave
      if (run > 1) {
        ASSERT_GT((pairs + run - 2) / (run - 1), waves * resident) << pairs << " pairs, cap " << cap;
      }
    }
  }
  EXPECT_EQ(balanced_run(size_t{7} << 26, 1024, resident), 927u);  // 10 waves instead of 9.05
  EXPECT_EQ(balanced_run(size_t{5} << 26, 1024, resident), 946u);  // 7 instead of 6.46
}

}  // namespace
}  // namespace cuzk::gpu
