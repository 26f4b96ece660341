#include "gpu_bench_commands.hpp"

#include <charconv>

#include "command_support.hpp"

namespace cuzk::app {
namespace {

struct LogRange {
  unsigned min = 0, max = 0;
};

unsigned parse_log(std::string_view s, const std::string& whole) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty())
    throw Exception(invalid_argument("--log-n " + whole + ": expected A or A..B (decimal)"));
  return v;
}

LogRange parse_log_range(const std::string& text, unsigned lo, unsigned hi) {
  const size_t dots = text.find("..");
  LogRange r;
  r.min = parse_log(std::string_view(text).substr(0, dots), text);
  r.max = dots == std::string::npos ? r.min : parse_log(std::string_view(text).substr(dots + 2), text);
  if (r.min > r.max || r.min < lo || r.max > hi)
    throw Exception(invalid_argument(fmt::format("--log-n {}: sizes must lie in {}..{}, smallest first", text, lo, hi)));
  return r;
}

[[maybe_unused]] int no_cuda(const char* command) {
  fmt::print(stderr, "cuzk {}: this cuzk was built without CUDA (configure with -DCUZK_CUDA=ON)\n", command);
  return 2;
}

}  // namespace

int run_msm_bench(bench::MsmGpuBenchOptions options, const std::string& log_n) {
  return guarded("bench msm", [&] {
    const LogRange r = parse_log_range(log_n, 1, options.group == "g2" ? 26 : 28);
    options.log_n_min = r.min;
    options.log_n_max = r.max;
#ifdef CUZK_HAVE_CUDA
    return bench::run_msm_gpu_bench(options);
#else
    return no_cuda("bench msm");
#endif
  });
}

int run_ntt_bench(bench::NttGpuBenchOptions options, const std::string& log_n) {
  return guarded("bench ntt", [&] {
    const LogRange r = parse_log_range(log_n, 1, 28);
    options.log_n_min = r.min;
    options.log_n_max = r.max;
#ifdef CUZK_HAVE_CUDA
    return bench::run_ntt_gpu_bench(options);
#else
    return no_cuda("bench ntt");
#endif
  });
}

}  // namespace cuzk::app
