#pragma once
// A synthetic circuit shaped like PoRep's for benchmarks: mostly bits. Each block of eight rows
// holds six boolean rows b·(1 − b) = 0, one product of two earlier full values, and one packing
// row (Σ 2^i b_i)·1 = v of its six bits into a new value; one public input per 1024 rows.

#include <random>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::bench {

template <r1cs::ConstraintSystem CS>
void porep_like_circuit(CS& cs, size_t rows, uint64_t seed) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  std::mt19937_64 g(seed);
  std::vector<std::pair<r1cs::Variable, F>> full{{CS::one(), F::one()}};
  for (size_t row = 0; row < rows;) {
    if (row % 1024 == 0) {
      const F v = F::from_uint(g());
      full.emplace_back(cs.alloc_input("input", [&] { return v; }), v);
    }
    std::vector<r1cs::Variable> bits;
    F packed = F::zero();
    for (int i = 0; i < 6 && row < rows; ++i, ++row) {
      const bool bit = g() & 1;
      if (bit) packed += F::from_uint(uint64_t{1} << i);
      const r1cs::Variable b = cs.alloc("bit", [&] { return bit ? F::one() : F::zero(); });
      cs.enforce("boolean", [&](LC lc) { return lc + b; }, [&](LC lc) { return lc + CS::one() - b; },
                 [](LC lc) { return lc; });
      bits.push_back(b);
    }
    if (row < rows) {  // product of two earlier full values
      // Named pairs, not structured bindings: lambdas capture those from clang 16 on only.
      const auto& xs = full[g() % full.size()];
      const auto& ys = full[g() % full.size()];
      const r1cs::Variable x = xs.first, y = ys.first;
      const F pv = xs.second * ys.second;
      const r1cs::Variable p = cs.alloc("product", [&] { return pv; });
      cs.enforce("product", [&](LC lc) { return lc + x; }, [&](LC lc) { return lc + y; }, [&](LC lc) { return lc + p; });
      full.emplace_back(p, pv);
      ++row;
    }
    if (row < rows) {  // pack the block's bits
      const r1cs::Variable v = cs.alloc("packed", [&] { return packed; });
      cs.enforce(
          "pack",
          [&](LC lc) {
            F c = F::one();
            for (const r1cs::Variable b : bits) {
              lc = lc + c * b;
              c = c + c;
            }
            return lc;
          },
          [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + v; });
      full.emplace_back(v, packed);
      ++row;
    }
  }
}

}  // namespace cuzk::bench
