#include "ff/bls12_381.hpp"

namespace cuzk::ff {

template class Field<FpConfig>;
template class Field<FrConfig>;

}  // namespace cuzk::ff
