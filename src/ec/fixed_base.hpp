#pragma once
// Multiples of one fixed point (a generator) for many scalars, as a key generation needs: the
// table holds, for each w-bit digit position k, the points j·2^(wk)·P (j = 1..2^w − 1) in affine
// form, so [s]P = Σ_k table[k][digit_k(s)] costs one mixed addition per non-zero digit of s and
// no doubling (the fixed-base windowing of Brickell-Gordon-McCurley-Wilson, simplest form).
//   w = 8:  32 additions a point, a table of 32·255 points (G1 0.8 MB); the GPU twin's digits.
//   w = 16: 16 additions a point, a table of 16·65535 points (G1 101 MB, G2 201 MB; ~1 s to
//           build on 16 cores): pays from ~10^6 points (groth16/setup.cpp; docs/PERF.md 30).

#include <array>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/jacobian.hpp"
#include "ff/bigint.hpp"

namespace cuzk::ec {

template <class Curve, size_t ScalarLimbs = 4, unsigned Window = 8>
class FixedBaseTable {
 public:
  static_assert(Window == 8 || Window == 16, "digits are whole bytes or 16-bit words of the limbs");
  static constexpr unsigned kWindow = Window;
  static constexpr size_t kDigits = (64 * ScalarLimbs + kWindow - 1) / kWindow;
  static constexpr size_t kEntries = (size_t{1} << kWindow) - 1;

  // for_each_digit(n, fn): runs fn(k) for k < n, in any order and on any threads (the digit
  // positions' rows are independent once their bases 2^(wk)·P are known).
  template <class ForEachDigit>
  FixedBaseTable(const Affine<Curve>& p, ForEachDigit&& for_each_digit) : table_(kDigits * kEntries) {
    std::vector<Jacobian<Curve>> bases(kDigits);  // 2^(wk) P: w doublings a row
    bases[0] = Jacobian<Curve>::from_affine(p);
    for (size_t k = 1; k < kDigits; ++k) {
      bases[k] = bases[k - 1];
      for (unsigned d = 0; d < kWindow; ++d) bases[k] = bases[k].dbl();
    }
    for_each_digit(kDigits, [&](size_t k) {
      std::vector<Jacobian<Curve>> row(kEntries);
      Jacobian<Curve> acc = bases[k];
      for (size_t e = 0; e < kEntries; ++e) {
        row[e] = acc;  // (e + 1) 2^(wk) P: one addition each
        acc += bases[k];
      }
      batch_normalize<Curve>(row, std::span(table_).subspan(k * kEntries, kEntries));
    });
  }
  explicit FixedBaseTable(const Affine<Curve>& p)
      : FixedBaseTable(p, [](size_t n, auto&& fn) {
          for (size_t k = 0; k < n; ++k) fn(k);
        }) {}

  // j · 2^(wk) · P for j = 1..2^w − 1 (the GPU twin uploads these for w = 8: gpu/fixed_base.hpp).
  const Affine<Curve>& entry(size_t k, unsigned j) const { return table_[k * kEntries + j - 1]; }

  Jacobian<Curve> mul(const ff::BigInt<ScalarLimbs>& s) const {
    constexpr size_t kPerLimb = 64 / kWindow;
    // The entries first, all prefetched: with w = 16 each is a cache (and TLB) miss in a 6 MB row,
    // as long as a mixed addition; fetched together they overlap (docs/PERF.md 30).
    std::array<const Affine<Curve>*, kDigits> at{};
    for (size_t k = 0; k < kDigits; ++k) {
      const unsigned digit = static_cast<unsigned>(s.limbs[k / kPerLimb] >> (kWindow * (k % kPerLimb))) & kEntries;
      if (digit == 0) continue;
      at[k] = &table_[k * kEntries + digit - 1];
      __builtin_prefetch(at[k]);
      __builtin_prefetch(reinterpret_cast<const char*>(at[k]) + sizeof(Affine<Curve>) - 1);
    }
    Jacobian<Curve> acc;
    for (const Affine<Curve>* e : at)
      if (e != nullptr) acc += *e;
    return acc;
  }

 private:
  std::vector<Affine<Curve>> table_;
};

}  // namespace cuzk::ec
