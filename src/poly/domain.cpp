#include "poly/domain.hpp"

namespace cuzk::poly {

template class EvaluationDomain<ff::Fr>;

}  // namespace cuzk::poly
