#pragma once
// `cuzk bench msm`: the GPU MSM (gpu/msm.hpp) on device-resident data, G1 or G2, per size
// 2^log_n: distinct random bases made on the GPU, two random scalar sets alternated between runs,
// the first (warm-up) run dropped; median, min, max milliseconds and points per second, and the
// phases of the median run (prepare, sort, accumulate, reduce). A table, or one JSON object a line.
// The scalars go to the windows in place by default (--terms), as the prover's h does.

#include <string>

namespace cuzk::bench {

struct MsmGpuBenchOptions {
  std::string group = "g1";  // "g1" or "g2"
  unsigned log_n_min = 16;
  unsigned log_n_max = 20;
  unsigned repeat = 5;
  bool json = false;
  unsigned window = 0;  // 0: by size
  unsigned windows = 0;  // > 0: this many windows of widths as equal as possible (overrides window)
  unsigned run_length = 0;  // sorted pairs per accumulating thread (0: gpu::Msm's default)
  // "in-place" (gpu::MsmTerms::in_place, as the prover's h: random scalars) or "classified"
  std::string terms = "in-place";
  int device = 0;
  bool host = false;          // bases and scalars in pinned host memory, streamed by Msm::run_host
  unsigned host_chunk_log = 0;  // with host: chunks of 2^k terms (0: gpu::kHostChunk)
};

// Returns the process exit code.
int run_msm_gpu_bench(const MsmGpuBenchOptions& options);

}  // namespace cuzk::bench
