#include "core/thread_pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

// Every index is visited exactly once, for pool sizes 1 and several, and ranges respect the grain.
TEST(ThreadPool, CoversEachIndexOnce) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threads(), std::min(threads, hardware));
    std::vector<std::atomic<int>> hits(10007);
    std::atomic<bool> short_range{false};
    pool.parallel_for(hits.size(), 64, [&](size_t b, size_t e) {
      if (e - b < 32) short_range = true;
      for (size_t i = b; i < e; ++i) hits[i]++;
    });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
    EXPECT_FALSE(short_range.load()) << threads;
  }
}

// A pool of 2 runs at most two bodies at once, even when bodies nest further parallel_for calls.
TEST(ThreadPool, NeverExceedsItsSize) {
  ThreadPool pool(2);
  std::atomic<int> running{0}, peak{0};
  pool.for_each_index(8, [&](size_t) {
    pool.parallel_for(100, 10, [&](size_t, size_t) {
      int now = ++running;
      int p = peak.load();
      while (now > p && !peak.compare_exchange_weak(p, now)) {}
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      --running;
    });
  });
  EXPECT_LE(peak.load(), 2);
  EXPECT_GE(peak.load(), 1);
}

TEST(ThreadPool, RethrowsABodysException) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallel_for(1000, 1, [](size_t b, size_t) {
    if (b <= 500) throw std::runtime_error("boom");
  }), std::runtime_error);
  // The pool still works afterwards.
  std::atomic<size_t> sum{0};
  pool.parallel_for(100, 1, [&](size_t b, size_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 100u);
}

}  // namespace
}  // namespace cuzk
