#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace cuzk {

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressStyle Progress::stderr_style() { return stderr_is_terminal() ? ProgressStyle::terminal : ProgressStyle::lines; }

Progress::Progress(std::string label, uint64_t total) : Progress(std::move(label), total, stderr_style()) {}

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : Progress(std::move(label), total, enabled ? ProgressStyle::terminal : ProgressStyle::off) {}

Progress::Progress(std::string label, uint64_t total, ProgressStyle style, std::FILE* out)
    : label_(std::move(label)), total_(total), style_(style), enabled_(style != ProgressStyle::off), out_(out) {}

Progress::~Progress() {
  if (!enabled_) return;
  if (std::uncaught_exceptions() > exceptions_) {  // the work failed: no "done" line
    if (style_ == ProgressStyle::terminal) std::fputc('\n', out_);
    return;
  }
  print(true);
}

void Progress::advance(uint64_t units) {
  const uint64_t done = done_.fetch_add(units, std::memory_order_relaxed) + units;
  if (!enabled_) return;
  if (style_ == ProgressStyle::lines) {
    // A line per tenth crossed (the final one comes from the destructor).
    const uint64_t tenth = total_ == 0 ? 10 : std::min<uint64_t>(10, done * 10 / total_);
    uint64_t printed = tenths_printed_.load(std::memory_order_relaxed);
    if (tenth >= 10 || tenth <= printed || !tenths_printed_.compare_exchange_strong(printed, tenth)) return;
    print(false);
    return;
  }
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
  int64_t next = next_print_ns_.load(std::memory_order_relaxed);
  if (now < next || !next_print_ns_.compare_exchange_strong(next, now + 200'000'000)) return;  // 5 per second
  print(false);
}

std::string Progress::line(const std::string& label, uint64_t done, uint64_t total, double elapsed_s) {
  const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  // Counts (partitions, proofs) as they are; large totals (bytes, points) in millions.
  std::string s = total < 100'000 ? fmt::format("{}: {:3.0f}% ({} of {})", label, 100 * fraction, done, total)
                                  : fmt::format("{}: {:3.0f}% ({:.1f} of {:.1f} M)", label, 100 * fraction,
                                                done / 1e6, total / 1e6);
  if (done >= total) return s.append(fmt::format(" done in {:.1f} s", elapsed_s));
  if (fraction > 0.01) s.append(fmt::format(" ETA {:.0f} s", elapsed_s * (1 - fraction) / fraction));
  return s;
}

void Progress::print(bool final) {
  std::lock_guard lock(print_mutex_);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::string text = line(label_, final ? total_ : done(), total_, elapsed);
  if (style_ == ProgressStyle::lines) {
    std::fprintf(out_, "%s\n", text.c_str());
  } else {
    std::fprintf(out_, "\r\033[K%s%s", text.c_str(), final ? "\n" : "");
  }
  std::fflush(out_);
}

}  // namespace cuzk
