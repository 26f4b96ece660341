#pragma once
// Uniform scalars in [1, r) by rejection sampling: 255 random bits, retried while >= r or zero
// (r > 2^254, so fewer than two draws on average).

#include <array>
#include <cstdint>
#include <span>

#include "ff/bls12_381.hpp"

namespace cuzk::groth16 {

// fill(std::span<uint8_t>) supplies random bytes.
template <class Fill>
ff::Fr random_nonzero_scalar(Fill&& fill) {
  for (;;) {
    std::array<uint8_t, 32> b{};
    fill(std::span<uint8_t>(b));
    ff::BigInt<4> v;
    for (size_t i = 0; i < 32; ++i) v.limbs[i / 8] |= uint64_t{b[i]} << (8 * (i % 8));
    v.limbs[3] &= ~(uint64_t{1} << 63);
    if (v < ff::Fr::kModulus && !v.is_zero()) return ff::Fr::from_int(v);
  }
}

}  // namespace cuzk::groth16
