#pragma once
// Scalar multiplication [k]P with a fixed window of 4 bits (Knuth, TAOCP vol. 2, §4.6.3; the
// "2^k-ary method"): 15 table points, then one addition per 4 doublings. Variable time.

#include <array>
#include <cstdint>

#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"

namespace cuzk::ec {

template <class Curve, size_t N>
constexpr Jacobian<Curve> scalar_mul(const Jacobian<Curve>& p, const ff::BigInt<N>& k) {
  constexpr int kWindow = 4;
  std::array<Jacobian<Curve>, 1 << kWindow> table{};  // table[i] = [i]P
  table[1] = p;
  for (size_t i = 2; i < table.size(); ++i) table[i] = (i % 2 == 0) ? table[i / 2].dbl() : table[i - 1] + p;
  Jacobian<Curve> acc;
  const size_t windows = (k.num_bits() + kWindow - 1) / kWindow;
  for (size_t w = windows; w-- > 0;) {
    for (int i = 0; i < kWindow; ++i) acc = acc.dbl();
    unsigned digit = 0;
    for (int i = kWindow - 1; i >= 0; --i) digit = digit << 1 | unsigned(k.bit(w * kWindow + size_t(i)));
    if (digit != 0) acc += table[digit];
  }
  return acc;
}

template <class Curve>
constexpr Jacobian<Curve> scalar_mul(const Jacobian<Curve>& p, uint64_t k) {
  return scalar_mul(p, ff::BigInt<1>(k));
}

// [k]P for a scalar field element k (its canonical integer).
template <class Curve, class ScalarField>
  requires requires(const ScalarField& s) { s.to_int(); }
constexpr Jacobian<Curve> scalar_mul(const Jacobian<Curve>& p, const ScalarField& k) {
  return scalar_mul(p, k.to_int());
}

}  // namespace cuzk::ec
