#include "msm/pippenger.hpp"

namespace cuzk::msm {

template ec::Jacobian<ec::G1Curve> multi_exp(std::span<const ec::Affine<ec::G1Curve>>, std::span<const ff::Fr>,
                                             ThreadPool&);
template ec::Jacobian<ec::G1Curve> multi_exp(std::span<const ec::Affine<ec::G1Curve>>, std::span<const ff::Fr>,
                                             const DensityBitmap&, ThreadPool&);
template ec::Jacobian<ec::G1Curve> multi_exp_with(std::span<const ec::Affine<ec::G1Curve>>, std::span<const ff::Fr>,
                                                  const DensityBitmap*, Options, ThreadPool&);
template ec::Jacobian<ec::G2Curve> multi_exp(std::span<const ec::Affine<ec::G2Curve>>, std::span<const ff::Fr>,
                                             ThreadPool&);
template ec::Jacobian<ec::G2Curve> multi_exp(std::span<const ec::Affine<ec::G2Curve>>, std::span<const ff::Fr>,
                                             const DensityBitmap&, ThreadPool&);
template ec::Jacobian<ec::G2Curve> multi_exp_with(std::span<const ec::Affine<ec::G2Curve>>, std::span<const ff::Fr>,
                                                  const DensityBitmap*, Options, ThreadPool&);

}  // namespace cuzk::msm
