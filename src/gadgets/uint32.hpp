#pragma once
// A 32-bit word in a circuit (bellpepper-core 0.2.1 gadgets/uint32.rs): 32 Booleans, least
// significant first, with the SHA-256 operations. Rotations and shifts only move references
// (free); xor, ch and maj cost at most one row per bit; addmany allocates all k result bits and
// defers its equality to a MultiEq. Also the per-bit sha256_ch / sha256_maj, which bellpepper
// keeps in boolean.rs as Boolean::sha256_ch / sha256_maj.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// (a ∧ b) ⊕ (¬a ∧ c) for one bit, the cases in boolean.rs's order (SPEC-SHA256 §2.3). The general
// case allocates "ch" and emits "ch computation": (b − c) · a = ch − c.
template <r1cs::ConstraintSystem CS>
Boolean sha256_ch(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  const bool value = (a.value() && b.value()) != (!a.value() && c.value());
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (a.is_constant(false)) return c;
  if (b.is_constant(false)) return Boolean::and_(cs, a.not_(), c);
  if (c.is_constant(false)) return Boolean::and_(cs, a, b);
  if (c.is_constant(true)) return Boolean::and_(cs, a, b.not_()).not_();
  if (b.is_constant(true)) return Boolean::and_(cs, a.not_(), c.not_()).not_();
  // a constant true (b, c not constant) falls through, as in boolean.rs.
  const r1cs::Variable ch = cs.alloc("ch", [value] { return value ? F::one() : F::zero(); });
  cs.enforce(
      "ch computation", [&](LC) { return b.lc(CS::one(), F::one()) - c.lc(CS::one(), F::one()); },
      [&](LC) { return a.lc(CS::one(), F::one()); }, [&](LC lc) { return lc + ch - c.lc(CS::one(), F::one()); });
  return Boolean(AllocatedBit(ch, value));
}

// Majority of three bits (SPEC-SHA256 §2.4). The general case allocates "maj" first, then
// bc = b ∧ c (namespace "b and c": its variable and row), then emits "maj computation":
// (2·bc − b − c) · a = bc − maj.
template <r1cs::ConstraintSystem CS>
Boolean sha256_maj(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  using F = typename CS::Field;
  using LC = r1cs::LinearCombination<F>;
  const bool value = (int(a.value()) + int(b.value()) + int(c.value())) >= 2;
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (a.is_constant(false)) return Boolean::and_(cs, b, c);
  if (b.is_constant(false)) return Boolean::and_(cs, a, c);
  if (c.is_constant(false)) return Boolean::and_(cs, a, b);
  if (c.is_constant(true)) return Boolean::and_(cs, a.not_(), b.not_()).not_();
  if (b.is_constant(true)) return Boolean::and_(cs, a.not_(), c.not_()).not_();
  if (a.is_constant(true)) return Boolean::and_(cs, b.not_(), c.not_()).not_();
  const r1cs::Variable maj = cs.alloc("maj", [value] { return value ? F::one() : F::zero(); });
  const Boolean bc = [&] {
    r1cs::Namespace ns(cs, "b and c");
    return Boolean::and_(cs, b, c);
  }();
  cs.enforce(
      "maj computation",
      [&](LC) {
        return bc.lc(CS::one(), F::one()) + bc.lc(CS::one(), F::one()) - b.lc(CS::one(), F::one()) -
               c.lc(CS::one(), F::one());
      },
      [&](LC) { return a.lc(CS::one(), F::one()); }, [&](LC) { return bc.lc(CS::one(), F::one()) - maj; });
  return Boolean(AllocatedBit(maj, value));
}

class UInt32 {
 public:
  static constexpr size_t kBits = 32;

  // 32 constant bits: no variable, no row.
  static UInt32 constant(uint32_t value) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) bits.push_back(Boolean::constant(((value >> i) & 1) != 0));
    return UInt32(std::move(bits), value);
  }

  // 32 AllocatedBits, least significant first, in namespaces "allocated bit i" (UInt32::alloc).
  template <r1cs::ConstraintSystem CS>
  static UInt32 alloc(CS& cs, uint32_t value) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) {
      r1cs::Namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
      bits.emplace_back(AllocatedBit::alloc(cs, ((value >> i) & 1) != 0));
    }
    return UInt32(std::move(bits), value);
  }

  // From 32 bits, most significant first (from_bits_be) or least significant first (from_bits).
  static UInt32 from_bits_be(std::span<const Boolean> bits) {
    check_width(bits.size());
    return from_bits_le_order(std::vector<Boolean>(bits.rbegin(), bits.rend()));
  }
  static UInt32 from_bits(std::span<const Boolean> bits) {
    check_width(bits.size());
    return from_bits_le_order(std::vector<Boolean>(bits.begin(), bits.end()));
  }
  std::vector<Boolean> into_bits_be() const { return std::vector<Boolean>(bits_.rbegin(), bits_.rend()); }
  std::vector<Boolean> into_bits() const { return bits_; }

  const std::vector<Boolean>& bits() const { return bits_; }
  uint32_t value() const { return value_; }

  // out[i] = in[(i + k) mod 32]: free.
  UInt32 rotr(size_t k) const {
    k %= kBits;
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) bits.push_back(bits_[(i + k) % kBits]);
    return UInt32(std::move(bits), k == 0 ? value_ : (value_ >> k) | (value_ << (kBits - k)));
  }
  // out[i] = in[i + k], constant false beyond the top: free. k is taken mod 32, as uint32.rs does.
  UInt32 shr(size_t k) const {
    k %= kBits;
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) bits.push_back(i + k < kBits ? bits_[i + k] : Boolean::constant(false));
    return UInt32(std::move(bits), value_ >> k);
  }

  // Bitwise this ⊕ other, bit i in namespace "xor of bit i"; this is the first (A-side) operand.
  template <r1cs::ConstraintSystem CS>
  UInt32 xor_(CS& cs, const UInt32& other) const {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) {
      r1cs::Namespace ns(cs, [i] { return "xor of bit " + std::to_string(i); });
      bits.push_back(Boolean::xor_(cs, bits_[i], other.bits_[i]));
    }
    return UInt32(std::move(bits), value_ ^ other.value_);
  }

  // Bitwise ch / maj, bit i in namespace "ch i" / "maj i" (UInt32::sha256_ch / sha256_maj).
  template <r1cs::ConstraintSystem CS>
  static UInt32 sha256_ch(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) {
      r1cs::Namespace ns(cs, [i] { return "ch " + std::to_string(i); });
      bits.push_back(gadgets::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]));
    }
    return UInt32(std::move(bits), (a.value_ & b.value_) ^ (~a.value_ & c.value_));
  }
  template <r1cs::ConstraintSystem CS>
  static UInt32 sha256_maj(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
    std::vector<Boolean> bits;
    bits.reserve(kBits);
    for (size_t i = 0; i < kBits; ++i) {
      r1cs::Namespace ns(cs, [i] { return "maj " + std::to_string(i); });
      bits.push_back(gadgets::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]));
    }
    return UInt32(std::move(bits), (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_));
  }

  // Σ operands mod 2^32 for 2..10 operands (UInt32::addmany). Unless every bit is constant, it
  // allocates k = bitlength(n·(2^32 − 1)) bits of the full sum ("result bit i", each with its
  // boolean row) and hands Σ_op Σ_j 2^j·op_j = Σ_i 2^i·r_i to `multieq`; the carries are dropped.
  template <r1cs::ConstraintSystem CS>
  static UInt32 addmany(CS& cs, MultiEq<typename CS::Field>& multieq, std::span<const UInt32> operands) {
    using F = typename CS::Field;
    using LC = r1cs::LinearCombination<F>;
    if (operands.size() < 2 || operands.size() > 10) throw r1cs::SynthesisError("UInt32::addmany: 2..10 operands");
    std::array<F, kBits> pow2;
    pow2[0] = F::one();
    for (size_t j = 1; j < kBits; ++j) pow2[j] = pow2[j - 1].dbl();

    uint64_t sum = 0;
    bool all_constants = true;
    LC lc;
    for (const UInt32& op : operands) {
      sum += op.value_;
      for (size_t j = 0; j < kBits; ++j) {
        const Boolean& bit = op.bits_[j];
        all_constants &= bit.is_constant();
        // Boolean::lc(ONE, 2^j) added term by term (add() merges repeated variables).
        switch (bit.kind()) {
          case Boolean::Kind::kConstant:
            if (bit.value()) lc.add(pow2[j], CS::one());
            break;
          case Boolean::Kind::kIs: lc.add(pow2[j], bit.bit().variable()); break;
          case Boolean::Kind::kNot:
            lc.add(pow2[j], CS::one());
            lc.add(-pow2[j], bit.bit().variable());
            break;
        }
      }
    }
    if (all_constants) return constant(uint32_t(sum));

    LC result_lc;
    std::vector<Boolean> bits;
    F coeff = F::one();
    size_t i = 0;
    for (uint64_t max_value = uint64_t(operands.size()) * 0xffffffffull; max_value != 0; max_value >>= 1, ++i) {
      r1cs::Namespace ns(cs, [i] { return "result bit " + std::to_string(i); });
      const AllocatedBit b = AllocatedBit::alloc(cs, ((sum >> i) & 1) != 0);
      result_lc.add(coeff, b.variable());
      if (i < kBits) bits.emplace_back(b);
      coeff = coeff.dbl();
    }
    multieq.enforce_equal(cs, i, lc, result_lc);
    return UInt32(std::move(bits), uint32_t(sum));
  }

 private:
  UInt32(std::vector<Boolean> bits, uint32_t value) : bits_(std::move(bits)), value_(value) {}

  static void check_width(size_t n) {
    if (n != kBits) throw r1cs::SynthesisError("UInt32: expected 32 bits, got " + std::to_string(n));
  }
  static UInt32 from_bits_le_order(std::vector<Boolean> bits) {
    uint32_t value = 0;
    for (size_t i = 0; i < kBits; ++i) value |= uint32_t(bits[i].value()) << i;
    return UInt32(std::move(bits), value);
  }

  std::vector<Boolean> bits_;  // least significant first
  uint32_t value_;
};

}  // namespace cuzk::gadgets
