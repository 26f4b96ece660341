#include "ec/bls12_381.hpp"

namespace cuzk::ec {

template struct Jacobian<G1Curve>;
template struct Jacobian<G2Curve>;
template struct XYZZ<G1Curve>;
template struct XYZZ<G2Curve>;

}  // namespace cuzk::ec
