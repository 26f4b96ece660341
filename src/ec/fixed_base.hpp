#pragma once
// Multiples of one fixed point (a generator) for many scalars, as a key generation needs: the
// table holds, for each 8-bit digit position k, the points j·2^(8k)·P (j = 1..255) in affine
// form, so [s]P = Σ_k table[k][digit_k(s)] costs one mixed addition per non-zero byte of s and
// no doubling (the fixed-base windowing of Brickell-Gordon-McCurley-Wilson, simplest form).

#include <array>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"

namespace cuzk::ec {

template <class Curve, size_t ScalarLimbs = 4>
class FixedBaseTable {
 public:
  static constexpr unsigned kWindow = 8;
  static constexpr size_t kDigits = (64 * ScalarLimbs + kWindow - 1) / kWindow;
  static constexpr size_t kEntries = (size_t{1} << kWindow) - 1;

  explicit FixedBaseTable(const Affine<Curve>& p) : table_(kDigits * kEntries) {
    std::vector<Jacobian<Curve>> j(table_.size());
    Jacobian<Curve> base = Jacobian<Curve>::from_affine(p);  // 2^(8k) P
    for (size_t k = 0; k < kDigits; ++k) {
      Jacobian<Curve> acc = base;
      for (size_t e = 0; e < kEntries; ++e) {
        j[k * kEntries + e] = acc;  // (e + 1) 2^(8k) P
        acc += base;
      }
      base = acc;  // 256 · 2^(8k) P
    }
    batch_normalize<Curve>(j, table_);
  }

  // j · 2^(8k) · P for j = 1..255 (the GPU twin uploads these: gpu/fixed_base.hpp).
  const Affine<Curve>& entry(size_t k, unsigned j) const { return table_[k * kEntries + j - 1]; }

  Jacobian<Curve> mul(const ff::BigInt<ScalarLimbs>& s) const {
    Jacobian<Curve> acc;
    for (size_t k = 0; k < kDigits; ++k) {
      const unsigned digit = static_cast<unsigned>(s.limbs[k / 8] >> (8 * (k % 8))) & 0xff;
      if (digit != 0) acc += table_[k * kEntries + digit - 1];
    }
    return acc;
  }

 private:
  std::vector<Affine<Curve>> table_;
};

}  // namespace cuzk::ec
