#pragma once
// Random inputs for the micro-benchmarks (never zeros or repeated points: shared/PERF.md, Method).

#include <random>

#include "ec/scalar_mul.hpp"
#include "ff/fp12.hpp"

namespace cuzk::bench {

template <class F>
F random_element(std::mt19937_64& g) {
  typename F::Int v;
  do {
    for (auto& l : v.limbs) l = g();
    v.limbs[F::kLimbs - 1] &= (uint64_t(1) << (F::kBits % 64)) - 1;
  } while (v >= F::kModulus);
  return F::from_int(v);
}

template <class Curve>
ec::Jacobian<Curve> random_point(std::mt19937_64& g) {
  return ec::scalar_mul(ec::Jacobian<Curve>::generator(), random_element<ff::Fr>(g));
}

}  // namespace cuzk::bench
