#pragma once
// Random MSM inputs for the tests (CPU and GPU MSM share them): distinct bases and uniform scalars.

#include <random>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/bls12_381.hpp"
#include "support/random.hpp"

namespace cuzk::test {

// n distinct bases P + iQ (P, Q random multiples of the generator; one addition each, so large n
// stay cheap), batch-normalised to affine.
template <class Curve>
std::vector<ec::Affine<Curve>> random_bases(std::mt19937_64& g, size_t n) {
  using Jacobian = ec::Jacobian<Curve>;
  const Jacobian q = ec::scalar_mul(Jacobian::generator(), random_element<ff::Fr>(g));
  Jacobian p = ec::scalar_mul(Jacobian::generator(), random_element<ff::Fr>(g));
  std::vector<Jacobian> jac(n);
  for (auto& x : jac) x = p, p += q;
  std::vector<ec::Affine<Curve>> out(n);
  ec::batch_normalize<Curve>(jac, out);
  return out;
}

inline std::vector<ff::Fr> random_scalars(std::mt19937_64& g, size_t n) {
  std::vector<ff::Fr> out(n);
  for (auto& s : out) s = random_element<ff::Fr>(g);
  return out;
}

}  // namespace cuzk::test
