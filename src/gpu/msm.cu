// GPU Pippenger MSM: the window choice and the G1 instantiation (G2: msm_g2.cu).

#include "gpu/msm_impl.cuh"  // first: gpu/field.cuh says why

namespace cuzk::gpu {

unsigned msm_window_bits(size_t m) {
  // Cost per window: m mixed additions and sorted pairs (about 1.3 units each), the running
  // sums 2 full additions per bucket (about 3 units); W(c) = ceil(256 / c) windows.
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 21; ++c) {
    const double windows = double((kScalarBits + c) / c);
    const double cost = windows * (1.3 * double(m) + 3.0 * double(size_t{1} << (c - 1)));
    if (c == 1 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

template class Msm<ec::G1Curve>;

}  // namespace cuzk::gpu
