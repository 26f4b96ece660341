// GPU Pippenger MSM: the window choice and the G1 instantiation (G2: msm_g2.cu).

#include "gpu/msm_impl.cuh"  // first: gpu/field.cuh says why

namespace cuzk::gpu {

MsmWindows msm_windows(size_t m) {
  // Cost of W windows (widths as equal as possible, 256 bits): W m sorted pairs and mixed
  // additions (one unit each) and the running sums of the buckets, 4.5 units each. Measured on
  // the H200 (G1, docs/PERF.md 17): 0.42-0.46 ns a pair (more with wider windows: bigger buckets,
  // more pieces) and 1.7-1.9 ns a bucket. This picks 13 windows at 2^24-2^25 and 12 at 2^26-2^27;
  // at 2^26, 13 windows measured 0.6 % faster than 12, a difference no constant here captures
  // without losing 2^24 (where 14 windows are 2.3 % slower than 13).
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

template class Msm<ec::G1Curve>;

}  // namespace cuzk::gpu
