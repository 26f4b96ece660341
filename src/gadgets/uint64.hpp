#pragma once
// A 64-bit word in a circuit (storage-proofs-core gadgets/uint64.rs, which PoRep uses for the
// challenge): 64 Booleans, least significant first. alloc gives each bit its boolean row;
// pack_into_input makes the word one public input (multipack, one row).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

class UInt64 {
 public:
  static constexpr size_t kBits = 64;

  static UInt64 constant(uint64_t value) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) bits.push_back(Boolean::constant(((value >> i) & 1) != 0));
    return UInt64(std::move(bits), value);
  }

  // 64 AllocatedBits, least significant first, in namespaces "allocated bit i".
  template <r1cs::ConstraintSystem CS>
  static UInt64 alloc(CS& cs, uint64_t value) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) {
      r1cs::Namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
      bits.emplace_back(AllocatedBit::alloc(cs, ((value >> i) & 1) != 0));
    }
    return UInt64(std::move(bits), value);
  }

  // From 64 bits, least significant first (from_bits) or most significant first (from_bits_be).
  static UInt64 from_bits(std::span<const Boolean> bits) {
    check_width(bits.size());
    return of(std::vector<Boolean>(bits.begin(), bits.end()));
  }
  static UInt64 from_bits_be(std::span<const Boolean> bits) {
    check_width(bits.size());
    return of(std::vector<Boolean>(bits.rbegin(), bits.rend()));
  }

  std::vector<Boolean> to_bits_le() const { return bits_; }
  std::vector<Boolean> to_bits_be() const { return std::vector<Boolean>(bits_.rbegin(), bits_.rend()); }
  uint64_t value() const { return value_; }

  // The word as one public input: pack_into_inputs of the 64 LE bits (alloc_input, then
  // Σ 2^i b_i · ONE = input).
  template <r1cs::ConstraintSystem CS>
  r1cs::Variable pack_into_input(CS& cs) const {
    return pack_into_inputs(cs, std::span<const Boolean>(bits_)).front();
  }

 private:
  UInt64(std::vector<Boolean> bits, uint64_t value) : bits_(std::move(bits)), value_(value) {}
  static void check_width(size_t n) {
    if (n != kBits) throw r1cs::SynthesisError("UInt64: expected 64 bits, got " + std::to_string(n));
  }
  static UInt64 of(std::vector<Boolean> le) {
    uint64_t value = 0;
    for (size_t i = 0; i < kBits; ++i) value |= uint64_t(le[i].value()) << i;
    return UInt64(std::move(le), value);
  }

  std::vector<Boolean> bits_;  // least significant first
  uint64_t value_;
};

}  // namespace cuzk::gadgets
