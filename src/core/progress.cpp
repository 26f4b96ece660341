#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace cuzk {

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string label, uint64_t total) : Progress(std::move(label), total, stderr_is_terminal()) {}

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled) {}

Progress::~Progress() {
  if (enabled_) print(true);
}

void Progress::advance(uint64_t units) {
  done_.fetch_add(units, std::memory_order_relaxed);
  if (!enabled_) return;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start_).count();
  int64_t next = next_print_ns_.load(std::memory_order_relaxed);
  if (now < next || !next_print_ns_.compare_exchange_strong(next, now + 200'000'000)) return;  // 5 per second
  print(false);
}

std::string Progress::line(const std::string& label, uint64_t done, uint64_t total, double elapsed_s) {
  const double fraction = total == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  std::string s = fmt::format("{}: {:3.0f}% ({:.1f} of {:.1f} M)", label, 100 * fraction, done / 1e6, total / 1e6);
  if (done >= total) return s.append(fmt::format(" done in {:.1f} s", elapsed_s));
  if (fraction > 0.01) s.append(fmt::format(" ETA {:.0f} s", elapsed_s * (1 - fraction) / fraction));
  return s;
}

void Progress::print(bool final) {
  std::lock_guard lock(print_mutex_);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::string text = line(label_, final ? total_ : done(), total_, elapsed);
  std::fprintf(stderr, "\r\033[K%s%s", text.c_str(), final ? "\n" : "");
  std::fflush(stderr);
}

}  // namespace cuzk
