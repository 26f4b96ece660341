#pragma once
// `cuzk bench ntt` (GPU): gpu::NttDomain's transforms on data resident on the device, for each
// size 2^log_n_min .. 2^log_n_max: median, min and max milliseconds of `repeat` runs (after one
// warm-up), and GB/s counted as one read and one write of the array per transform. `h` times
// Groth16's H stage (NttDomain::h_from_rows: three vectors, six transforms, h left in the other
// order) from rows in the order's first letter, and beside it, from natural rows, the chain of
// separate transforms, scale factors and passes it replaced (bellperson's seven, h natural;
// docs/PERF.md 40, 43, 45). `roots` picks the first pass's twiddle table (gpu::NttRoots; PERF.md
// 49); `both` times each case with either, one after the other, in one call.

#include <string>

namespace cuzk::bench {

struct NttGpuBenchOptions {
  unsigned log_n_min = 20;
  unsigned log_n_max = 27;
  unsigned repeat = 7;
  bool json = false;  // one JSON object per line instead of a table
  int device = 0;
  std::string transform = "ntt";  // ntt | intt | coset_ntt | coset_intt | all | h
  std::string order = "nr";       // in/out: n natural, r bit-reversed (nn, nr, rn, rr) | all
  std::string roots = "two-level";  // gpu::NttRoots: two-level | full | both (each case with both, in turn)
};

// Returns the process exit code (2: bad options, 1: a CUDA error).
int run_ntt_gpu_bench(const NttGpuBenchOptions& options);

}  // namespace cuzk::bench
