#pragma once
// Packing bits into field elements, as bellperson / bellpepper src/gadgets/multipack.rs: chunks
// of CAPACITY = kBits − 1 bits (254 for Fr), least significant bit first, so that a chunk always
// fits below the modulus. The native twin (compute_multipacking) gives the public inputs that
// pack_into_inputs exposes.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

template <class F>
inline constexpr size_t kCapacity = F::kBits - 1;

// Bits of each byte, most significant first (multipack.rs bytes_to_bits).
inline std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(8 * bytes.size());
  for (uint8_t byte : bytes) {
    for (int i = 7; i >= 0; --i) bits.push_back(((byte >> i) & 1) != 0);
  }
  return bits;
}

// Bits of each byte, least significant first (multipack.rs bytes_to_bits_le).
inline std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(8 * bytes.size());
  for (uint8_t byte : bytes) {
    for (int i = 0; i < 8; ++i) bits.push_back(((byte >> i) & 1) != 0);
  }
  return bits;
}

// Σ 2^j bits[chunk + j] per chunk of kCapacity bits (multipack.rs compute_multipacking).
template <class F>
std::vector<F> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<F> out;
  for (size_t start = 0; start < bits.size(); start += kCapacity<F>) {
    const size_t end = std::min(bits.size(), start + kCapacity<F>);
    F acc = F::zero(), coeff = F::one();
    for (size_t j = start; j < end; ++j) {
      if (bits[j]) acc += coeff;
      coeff = coeff.dbl();
    }
    out.push_back(acc);
  }
  return out;
}

// Σ 2^j bits[j] over bits[0, n) as a Num (no row).
template <class F>
Num<F> num_of_bits(r1cs::Variable one, std::span<const Boolean> bits) {
  Num<F> num;
  F coeff = F::one();
  for (const Boolean& bit : bits) {
    num = std::move(num).add_bool_with_coeff(one, bit, coeff);
    coeff = coeff.dbl();
  }
  return num;
}

// storage-proofs-core util.rs reverse_bit_numbering: pad with constant false to whole bytes, then
// reverse the bits within each byte. Turns to_bits_le's LSB-first bits into the value's
// little-endian bytes in SHA-256's MSB-first bit order, and a digest's bits back.
inline std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  while (bits.size() % 8 != 0) bits.push_back(Boolean::constant(false));
  for (size_t byte = 0; byte < bits.size(); byte += 8) std::reverse(bits.begin() + byte, bits.begin() + byte + 8);
  return bits;
}

// One public input per chunk of kCapacity bits (multipack.rs pack_into_inputs): alloc_input
// "input i"; row "packing constraint i": Σ 2^j bit_j · ONE = input. Returns the inputs.
template <r1cs::ConstraintSystem CS>
std::vector<r1cs::Variable> pack_into_inputs(CS& cs, std::span<const Boolean> bits) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  std::vector<r1cs::Variable> inputs;
  for (size_t start = 0, i = 0; start < bits.size(); start += kCapacity<F>, ++i) {
    const Num<F> num = num_of_bits<F>(CS::one(), bits.subspan(start, std::min(kCapacity<F>, bits.size() - start)));
    const r1cs::Variable input =
        cs.alloc_input([i] { return "input " + std::to_string(i); }, [&] { return num.value(); });
    cs.enforce([i] { return "packing constraint " + std::to_string(i); }, [&](LC) { return num.lc(F::one()); },
               [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + input; });
    inputs.push_back(input);
  }
  return inputs;
}

// The first kCapacity bits as one aux number (multipack.rs pack_bits): AllocatedNum::alloc in
// namespace "input"; row "packing constraint": Σ 2^j bit_j · ONE = num.
template <r1cs::ConstraintSystem CS>
AllocatedNum<typename CS::Field> pack_bits(CS& cs, std::span<const Boolean> bits) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  const Num<F> num = num_of_bits<F>(CS::one(), bits.first(std::min(kCapacity<F>, bits.size())));
  const AllocatedNum<F> packed = [&] {
    r1cs::Namespace ns(cs, "input");
    return AllocatedNum<F>::alloc(cs, num.value());
  }();
  cs.enforce("packing constraint", [&](LC) { return num.lc(F::one()); }, [](LC lc) { return lc + CS::one(); },
             [&](LC lc) { return lc + packed.variable(); });
  return packed;
}

}  // namespace cuzk::gadgets
