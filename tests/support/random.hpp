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

// A uniform field element: random limbs below the modulus by rejection; for Fp2, two of them.
template <class F>
F random_element(std::mt19937_64& g) {
  if constexpr (std::is_same_v<F, ff::Fp2>) {
    return {random_element<ff::Fp>(g), random_element<ff::Fp>(g)};
  } else {
    typename F::Int v;
    const size_t top_bits = F::kBits % 64;
    do {
      for (auto& l : v.limbs) l = g();
      if (top_bits) v.limbs[F::kLimbs - 1] &= (uint64_t(1) << top_bits) - 1;
    } while (v >= F::kModulus);
    return F::from_int(v);
  }
}

}  // namespace cuzk::test
