#pragma once
// A device's rest after failures (the engine's GPUs: a partition failed on one, engine/engine.hpp).
// After the n-th failure in a row the device takes no work for base · 2^(n−1), at most 16 · base;
// a failure while it rests (work begun before the rest) is the same fault and does not lengthen
// the rest; a success ends the run.

#include <algorithm>
#include <chrono>
#include <optional>

namespace cuzk {

struct FaultRest {
  using Clock = std::chrono::steady_clock;
  static constexpr unsigned kMaxDoublings = 4;  // the longest rest: 2^4 = 16 · base

  unsigned failures_in_a_row = 0;
  Clock::time_point until{};

  bool resting(Clock::time_point now) const { return now < until; }
  // A failure at `now`: the rest it begins, or nullopt when it came during one.
  std::optional<std::chrono::milliseconds> failed(std::chrono::milliseconds base, Clock::time_point now) {
    if (resting(now)) return std::nullopt;
    ++failures_in_a_row;
    const std::chrono::milliseconds pause = base * (1u << std::min(failures_in_a_row - 1, kMaxDoublings));
    until = now + pause;
    return pause;
  }
  void succeeded() { failures_in_a_row = 0; }
};

}  // namespace cuzk
