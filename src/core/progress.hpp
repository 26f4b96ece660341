#pragma once
// Progress of long work (loading parameters, setup, big proofs): "<label>: 42% (12.3 of 29.1 M)
// ETA 3 s". On a terminal (ProgressStyle::terminal) one line on stderr, rewritten at most five
// times a second; elsewhere (logs, CI, pipes: ProgressStyle::lines) a plain line each time another
// tenth is done, so a log shows progress without carriage returns. Both end with a line giving
// the elapsed time. advance() may be called from any thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

namespace cuzk {

enum class ProgressStyle : uint8_t { off, terminal, lines };

class Progress {
 public:
  // total: units of work (bytes, points); the style defaults to stderr_style().
  Progress(std::string label, uint64_t total);
  Progress(std::string label, uint64_t total, bool enabled);  // true: terminal, false: off
  Progress(std::string label, uint64_t total, ProgressStyle style, std::FILE* out = stderr);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress();  // prints the final line (when enabled), unless an exception is unwinding past it

  void advance(uint64_t units);
  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  bool enabled() const { return enabled_; }

  static bool stderr_is_terminal();
  // terminal when stderr is one, else lines.
  static ProgressStyle stderr_style();
  // The status text for done units after elapsed seconds (exposed for tests).
  static std::string line(const std::string& label, uint64_t done, uint64_t total, double elapsed_s);

 private:
  using Clock = std::chrono::steady_clock;
  void print(bool final);

  std::string label_;
  uint64_t total_;
  ProgressStyle style_;
  bool enabled_;
  std::FILE* out_;
  std::atomic<uint64_t> tenths_printed_{0};  // lines: the last tenth printed
  int exceptions_ = std::uncaught_exceptions();  // at construction: more at destruction = failed
  Clock::time_point start_ = Clock::now();
  std::atomic<uint64_t> done_{0};
  std::atomic<int64_t> next_print_ns_{0};
  std::mutex print_mutex_;
};

}  // namespace cuzk
