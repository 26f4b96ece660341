// GPU Pippenger MSM: the G2 instantiation (see msm.cu).

#include "gpu/msm_impl.cuh"  // first: gpu/field.cuh says why

namespace cuzk::gpu {

template class Msm<ec::G2Curve>;

}  // namespace cuzk::gpu
