#pragma once
// Wall-clock stage times in milliseconds on the steady clock, as every stage report prints them
// (shared/DESIGN.md decision 8), and how busy a resource was over intervals of that clock.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

namespace cuzk {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// f(), with its wall time stored in `ms`.
template <class F>
auto timed(double& ms, F&& f) {
  const auto t0 = Clock::now();
  auto result = std::forward<F>(f)();
  ms = ms_since(t0);
  return result;
}

// How a resource (a GPU) was used by work that held it over these intervals, all on Clock: the
// benches' device timeline (docs/PERF.md 46). Overlapping intervals count once.
struct BusySummary {
  double span_ms = 0;     // the first begin to the last end
  double busy_ms = 0;     // the union of the intervals
  size_t gaps = 0;        // idle stretches inside the span
  double max_gap_ms = 0;  // the longest of them
  double idle_ms() const { return span_ms - busy_ms; }
};

inline BusySummary busy_summary(std::vector<std::pair<Clock::time_point, Clock::time_point>> intervals) {
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  BusySummary out;
  std::erase_if(intervals, [](const auto& i) { return i.second <= i.first; });
  if (intervals.empty()) return out;
  std::sort(intervals.begin(), intervals.end());
  out.span_ms = ms(std::max_element(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) {
                     return a.second < b.second;
                   })->second - intervals.front().first);
  Clock::time_point begin = intervals.front().first, end = intervals.front().second;  // the current run
  for (const auto& [b, e] : intervals) {
    if (b > end) {  // a gap: the run ends
      out.busy_ms += ms(end - begin);
      ++out.gaps;
      out.max_gap_ms = std::max(out.max_gap_ms, ms(b - end));
      begin = b;
    }
    end = std::max(end, e);
  }
  out.busy_ms += ms(end - begin);
  return out;
}

}  // namespace cuzk
