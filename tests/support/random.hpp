#pragma once
// Fresh random inputs for every test run, reproducible from one printed seed:
// CUZK_TEST_SEED=<n> replays a run.

#include <cstdint>
#include <random>

#include <type_traits>

#include "ff/fp2.hpp"

namespace cuzk::test {

// The seed of this run (CUZK_TEST_SEED, else random), printed once.
uint64_t seed();

// A generator seeded from seed() and a per-test salt, so tests do not share streams.
std::mt19937_64 rng(uint64_t salt);

// Uniform below m: random limbs with the top limb masked to m's bit length, retried until < m.
template <size_t N>
ff::BigInt<N> random_below(std::mt19937_64& g, const ff::BigInt<N>& m) {
  const uint64_t top = m.limbs[N - 1];
  const uint64_t mask = top == 0 ? 0 : (~0ull >> __builtin_clzll(top));
  ff::BigInt<N> x;
  do {
    for (auto& l : x.limbs) l = g();
    x.limbs[N - 1] &= mask;
  } while (x >= m);
  return x;
}

// A uniform field element; for Fp2, two of them.
template <class F>
F random_element(std::mt19937_64& g) {
  if constexpr (std::is_same_v<F, ff::Fp2>) {
    return {random_element<ff::Fp>(g), random_element<ff::Fp>(g)};
  } else {
    return F::from_int(random_below(g, F::kModulus));
  }
}

}  // namespace cuzk::test
