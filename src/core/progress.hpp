#pragma once
// Progress of long work (loading parameters, setup, later big proofs) on a terminal: one line on
// stderr, rewritten at most five times a second, "<label>: 42% (12.3 of 29.1 M) ETA 3 s", and a
// final line with the elapsed time. When stderr is not a terminal (logs, CI, pipes) it prints
// nothing. advance() may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace cuzk {

class Progress {
 public:
  // total: units of work (bytes, points); enabled defaults to "stderr is a terminal".
  Progress(std::string label, uint64_t total);
  Progress(std::string label, uint64_t total, bool enabled);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // prints the final line (when enabled)

  void advance(uint64_t units);
  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  bool enabled() const { return enabled_; }

  static bool stderr_is_terminal();
  // The status text for done units after elapsed seconds (exposed for tests).
  static std::string line(const std::string& label, uint64_t done, uint64_t total, double elapsed_s);

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final);

  std::string label_;
  uint64_t total_;
  bool enabled_;
  Clock::time_point start_ = Clock::now();
  std::atomic<uint64_t> done_{0};
  std::atomic<int64_t> next_print_ns_{0};
  std::mutex print_mutex_;
};

}  // namespace cuzk
