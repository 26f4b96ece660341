#pragma once
// Wall-clock stage times in milliseconds on the steady clock, as every stage report prints them
// (shared/DESIGN.md decision 8).

#include <chrono>
#include <utility>

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

}  // namespace cuzk
