#pragma once
// Small circuits for the r1cs and Groth16 tests, each a function template over the
// ConstraintSystem concept, so every backend sees exactly the same synthesis. Each computes its
// own witness natively as it goes (independently of the backend), so structure and values never
// depend on which backend runs.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "support/random.hpp"

namespace cuzk::test {

// The classic example: x^3 + x + 5 = out, out public (inputs ONE, out; aux x, x², x³; 3 rows).
// Returns out.
template <r1cs::ConstraintSystem CS>
r1cs::Variable cubic(CS& cs, const typename CS::Field& x) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  const F x_sq = x * x, x_cu = x_sq * x, out = x_cu + x + F::from_uint(5);
  const r1cs::Variable vx = cs.alloc("x", [&] { return x; });
  const r1cs::Variable vsq = cs.alloc("x_sq", [&] { return x_sq; });
  cs.enforce("x_sq = x * x", [&](LC lc) { return lc + vx; }, [&](LC lc) { return lc + vx; },
             [&](LC lc) { return lc + vsq; });
  const r1cs::Variable vcu = cs.alloc("x_cu", [&] { return x_cu; });
  cs.enforce("x_cu = x_sq * x", [&](LC lc) { return lc + vsq; }, [&](LC lc) { return lc + vx; },
             [&](LC lc) { return lc + vcu; });
  const r1cs::Variable vout = cs.alloc_input("out", [&] { return out; });
  cs.enforce("out = x_cu + x + 5", [&](LC lc) { return lc + vcu + vx + F::from_uint(5) * CS::one(); },
             [&](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + vout; });
  return vout;
}

// A random satisfiable R1CS of `rows` rows. Each row: sometimes a new public input first; A and B
// random LCs of 1-4 terms over earlier variables with coefficients 1, -1 or random, sometimes a
// repeated variable (merged), sometimes a variable added and cancelled (a merged zero, which is
// not dense); then a new aux w and C = k·w + R with w = (A·B − R)/k, so the row holds.
template <r1cs::ConstraintSystem CS>
void random_r1cs(CS& cs, size_t rows, uint64_t seed) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  std::mt19937_64 g(seed);
  auto random_field = [&] { return random_element<F>(g); };
  std::vector<F> inputs{F::one()}, aux;
  std::vector<r1cs::Variable> vars{CS::one()};
  auto coefficient = [&] {
    switch (g() % 3) {
      case 0: return F::one();
      case 1: return -F::one();
      default: return random_field();
    }
  };
  // A few aux values to start from.
  for (int i = 0; i < 3; ++i) {
    const F v = random_field();
    aux.push_back(v);
    vars.push_back(cs.alloc([&] { return "seed " + std::to_string(i); }, [&] { return v; }));
  }
  auto random_lc = [&](F& val) {
    LC lc;
    const size_t n = 1 + g() % 4;
    for (size_t t = 0; t < n; ++t) {
      const r1cs::Variable v = vars[g() % vars.size()];
      const F k = coefficient();
      lc = lc + k * v;
      if (g() % 4 == 0) {  // the same variable again: merged
        const F k2 = coefficient();
        lc = lc + k2 * v;
      }
      if (g() % 8 == 0) {  // added and cancelled: a merged zero
        const r1cs::Variable u = vars[g() % vars.size()];
        const F k3 = random_field();
        lc = lc + k3 * u - k3 * u;
      }
    }
    val = lc.evaluate(inputs, aux);
    return lc;
  };
  for (size_t r = 0; r < rows; ++r) {
    if (g() % 5 == 0) {
      const F v = random_field();
      inputs.push_back(v);
      vars.push_back(cs.alloc_input([&] { return "input " + std::to_string(r); }, [&] { return v; }));
    }
    F va, vb, vr;
    const LC a = random_lc(va), b = random_lc(vb);
    LC rest = g() % 2 ? random_lc(vr) : (vr = F::zero(), LC());
    const F k = g() % 2 ? F::one() : coefficient();
    const F w = (va * vb - vr) * k.inverse();
    aux.push_back(w);
    const r1cs::Variable vw = cs.alloc([&] { return "w " + std::to_string(r); }, [&] { return w; });
    vars.push_back(vw);
    rest = rest + k * vw;
    cs.enforce([&] { return "row " + std::to_string(r); }, [&](LC lc) { return lc + a; },
               [&](LC lc) { return lc + b; }, [&](LC lc) { return lc + rest; });
  }
}

// n random bits, each b·(1 − b) = 0 (bellpepper's Boolean::alloc row: A = b, B = ONE − b, C = 0),
// then one packing row (Σ 2^i b_i)·ONE = packed with packed a public input (as pack_into_inputs).
template <r1cs::ConstraintSystem CS>
void booleans(CS& cs, size_t n, uint64_t seed) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  std::mt19937_64 g(seed);
  std::vector<r1cs::Variable> bits;
  F packed = F::zero(), power = F::one();
  for (size_t i = 0; i < n; ++i) {
    const bool bit = g() & 1;
    const F v = bit ? F::one() : F::zero();
    packed += bit ? power : F::zero();
    power = power + power;
    r1cs::Namespace ns(cs, [&] { return "bit " + std::to_string(i); });
    const r1cs::Variable b = cs.alloc("boolean", [&] { return v; });
    cs.enforce("boolean constraint", [&](LC lc) { return lc + b; }, [&](LC lc) { return lc + CS::one() - b; },
               [](LC lc) { return lc; });
    bits.push_back(b);
  }
  const r1cs::Variable out = cs.alloc_input("packed", [&] { return packed; });
  cs.enforce(
      "packing",
      [&](LC lc) {
        F c = F::one();
        for (const r1cs::Variable b : bits) {
          lc = lc + c * b;
          c = c + c;
        }
        return lc;
      },
      [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + out; });
}

}  // namespace cuzk::test
