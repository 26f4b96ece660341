// GPU Pippenger MSM: the window choice and the G1 instantiation (G2: msm_g2.cu).

#include "gpu/msm_impl.cuh"  // first: gpu/field.cuh says why

namespace cuzk::gpu {

MsmWindows msm_windows(size_t m) {
  // Cost of W windows (widths as equal as possible, 256 bits): W m sorted pairs and mixed
  // additions (one unit each) and the running sums of the buckets, 4.5 units each. Measured on
  // the H200 (G1, docs/PERF.md 17): 0.42-0.46 ns a pair (more with wider windows: bigger buckets,
  // more pieces) and 1.7-1.9 ns a bucket. This picks 13 windows at 2^24-2^25 and 12 at 2^26-2^27;
  // at 2^26 with whole-wave runs and two-level window sums 12 windows take 394.1 ms, 13 398.7
  // (docs/PERF.md 18).
  MsmWindows best;
  double best_cost = 0;
  for (unsigned count = (256 + kMaxWindow - 1) / kMaxWindow; count <= 256; ++count) {
    const MsmWindows w = MsmWindows::even(count);
    const double buckets =
        double(w.wide) * double(size_t{1} << w.c) + double(count - w.wide) * double(size_t{1} << (w.c - 1));
    const double cost = double(count) * double(m) + 4.5 * buckets;
    if (best.count == 0 || cost < best_cost) best = w, best_cost = cost;
  }
  return best;
}

unsigned balanced_run(size_t pairs, unsigned cap, size_t resident) {
  // At 2^26 G1 (runs of up to 1024, 50,688 resident threads on the H200) the first sort's 470 M
  // pairs made 9.05 waves and the second's 6.46: runs of 927 and 946 fill 10 and 7 (docs/PERF.md 18).
  const size_t threads = (pairs + cap - 1) / cap;
  const size_t waves = (threads + resident - 1) / resident;
  return unsigned(std::max<size_t>((pairs + waves * resident - 1) / (waves * resident), 1));
}

template class Msm<ec::G1Curve>;

}  // namespace cuzk::gpu
