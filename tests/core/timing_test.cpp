// core/timing.hpp's busy_summary: the union of intervals and the idle gaps inside their span.

#include "core/timing.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <utility>
#include <vector>

namespace cuzk {
namespace {

using std::chrono::milliseconds;
using Interval = std::pair<Clock::time_point, Clock::time_point>;

Interval at(int begin_ms, int end_ms) {
  const Clock::time_point t0{};
  return {t0 + milliseconds(begin_ms), t0 + milliseconds(end_ms)};
}

TEST(BusySummary, DisjointIntervalsLeaveTheirGaps) {
  // Unsorted; gaps 10-15 and 20-50.
  const BusySummary s = busy_summary({at(50, 60), at(0, 10), at(15, 20)});
  EXPECT_DOUBLE_EQ(s.span_ms, 60);
  EXPECT_DOUBLE_EQ(s.busy_ms, 25);
  EXPECT_DOUBLE_EQ(s.idle_ms(), 35);
  EXPECT_EQ(s.gaps, 2u);
  EXPECT_DOUBLE_EQ(s.max_gap_ms, 30);
}

TEST(BusySummary, OverlapsCountOnce) {
  // 0-10 and 5-12 overlap, 12-20 touches them (no gap), 30-40 holds 32-35; the longest end is not
  // the last begin's.
  const BusySummary s = busy_summary({at(0, 10), at(5, 12), at(12, 20), at(30, 40), at(32, 35)});
  EXPECT_DOUBLE_EQ(s.span_ms, 40);
  EXPECT_DOUBLE_EQ(s.busy_ms, 30);
  EXPECT_EQ(s.gaps, 1u);
  EXPECT_DOUBLE_EQ(s.max_gap_ms, 10);
  const BusySummary nested = busy_summary({at(0, 100), at(10, 20), at(30, 40)});
  EXPECT_DOUBLE_EQ(nested.span_ms, 100);
  EXPECT_DOUBLE_EQ(nested.busy_ms, 100);
  EXPECT_EQ(nested.gaps, 0u);
}

TEST(BusySummary, EmptyAndUnsetIntervalsAreNothing) {
  // A CPU backend leaves its device times unset (begin == end): they add nothing.
  const BusySummary none = busy_summary({});
  EXPECT_DOUBLE_EQ(none.span_ms, 0);
  EXPECT_DOUBLE_EQ(none.busy_ms, 0);
  EXPECT_EQ(none.gaps, 0u);
  const BusySummary unset = busy_summary({at(0, 0), at(5, 5)});
  EXPECT_DOUBLE_EQ(unset.span_ms, 0);
  const BusySummary one = busy_summary({Interval{}, at(3, 7)});
  EXPECT_DOUBLE_EQ(one.span_ms, 4);
  EXPECT_DOUBLE_EQ(one.busy_ms, 4);
  EXPECT_EQ(one.gaps, 0u);
}

}  // namespace
}  // namespace cuzk
