#pragma once
// `cuzk bench msm` and `cuzk bench ntt`: the GPU kernels' benchmarks (bench/drivers/*_gpu_bench).
// A build without CUDA keeps the commands and says so when they run.

#include <string>

#include "msm_gpu_bench.hpp"
#include "ntt_gpu_bench.hpp"

namespace cuzk::app {

// log_n: "A..B" or "A" (sizes 2^A .. 2^B), each within [min_log, max_log].
int run_msm_bench(bench::MsmGpuBenchOptions options, const std::string& log_n);
int run_ntt_bench(bench::NttGpuBenchOptions options, const std::string& log_n);

}  // namespace cuzk::app
