#pragma once
// Bits in a circuit: AllocatedBit (a variable constrained to 0 or 1) and Boolean (a bit, its
// negation, or a constant), emitting the same variables, rows and names in the same order as
// bellpepper-core 0.2.1 src/gadgets/boolean.rs, so a circuit built from them keeps
// bellperson's R1CS (and therefore its parameters) bit for bit.
//
// Names are those of bellpepper ("boolean", "boolean constraint", ...): a gadget writes them into
// the caller's current namespace, as bellpepper's gadgets take `cs` already namespaced by the
// caller. Values are computed natively as synthesis goes (KeygenCS simply never reads them).

#include <cstdint>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// A variable constrained to be 0 or 1.
class AllocatedBit {
 public:
  AllocatedBit(r1cs::Variable variable, bool value) : variable_(variable), value_(value) {}

  r1cs::Variable variable() const { return variable_; }
  bool value() const { return value_; }

  // alloc "boolean"; row "boolean constraint": (ONE − a) · a = 0   (boolean.rs AllocatedBit::alloc)
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit alloc(CS& cs, bool value) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const r1cs::Variable a = alloc_value(cs, "boolean", value);
    cs.enforce("boolean constraint", [&](LC lc) { return lc + CS::one() - a; }, [&](LC lc) { return lc + a; },
               [](LC lc) { return lc; });
    return {a, value};
  }

  // As alloc, but a is forced to 0 when must_be_false is 1:
  // (ONE − must_be_false − a) · a = 0   (AllocatedBit::alloc_conditionally)
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit alloc_conditionally(CS& cs, bool value, const AllocatedBit& must_be_false) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const r1cs::Variable a = alloc_value(cs, "boolean", value);
    cs.enforce("boolean constraint", [&](LC lc) { return lc + CS::one() - must_be_false.variable_ - a; },
               [&](LC lc) { return lc + a; }, [](LC lc) { return lc; });
    return {a, value};
  }

  // c = a ⊕ b: alloc "xor result"; row "xor constraint": (a + a) · b = a + b − c.
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit xor_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const bool value = a.value_ != b.value_;
    const r1cs::Variable c = alloc_value(cs, "xor result", value);
    cs.enforce("xor constraint", [&](LC lc) { return lc + a.variable_ + a.variable_; },
               [&](LC lc) { return lc + b.variable_; },
               [&](LC lc) { return lc + a.variable_ + b.variable_ - c; });
    return {c, value};
  }

  // c = a ∧ b: alloc "and result"; row "and constraint": a · b = c.
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit and_(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const bool value = a.value_ && b.value_;
    const r1cs::Variable c = alloc_value(cs, "and result", value);
    cs.enforce("and constraint", [&](LC lc) { return lc + a.variable_; }, [&](LC lc) { return lc + b.variable_; },
               [&](LC lc) { return lc + c; });
    return {c, value};
  }

  // c = a ∧ ¬b: alloc "and not result"; row "and not constraint": a · (ONE − b) = c.
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit and_not(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const bool value = a.value_ && !b.value_;
    const r1cs::Variable c = alloc_value(cs, "and not result", value);
    cs.enforce("and not constraint", [&](LC lc) { return lc + a.variable_; },
               [&](LC lc) { return lc + CS::one() - b.variable_; }, [&](LC lc) { return lc + c; });
    return {c, value};
  }

  // c = ¬a ∧ ¬b: alloc "nor result"; row "nor constraint": (ONE − a) · (ONE − b) = c.
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit nor(CS& cs, const AllocatedBit& a, const AllocatedBit& b) {
    using LC = r1cs::LinearCombination<typename CS::Field>;
    const bool value = !a.value_ && !b.value_;
    const r1cs::Variable c = alloc_value(cs, "nor result", value);
    cs.enforce("nor constraint", [&](LC lc) { return lc + CS::one() - a.variable_; },
               [&](LC lc) { return lc + CS::one() - b.variable_; }, [&](LC lc) { return lc + c; });
    return {c, value};
  }

 private:
  template <class CS>
  static r1cs::Variable alloc_value(CS& cs, const char* name, bool value) {
    using F = typename CS::Field;
    return cs.alloc(name, [value] { return value ? F::one() : F::zero(); });
  }

  r1cs::Variable variable_;
  bool value_;
};

// A bit, the negation of a bit (free: no row), or a constant (folded: no row).
class Boolean {
 public:
  enum class Kind : uint8_t { kConstant, kIs, kNot };

  Boolean(const AllocatedBit& bit) : kind_(Kind::kIs), bit_(bit) {}  // NOLINT: as bellpepper's From
  static Boolean constant(bool c) { return Boolean(c); }
  static Boolean is(const AllocatedBit& bit) { return Boolean(bit); }
  static Boolean negation(const AllocatedBit& bit) {
    Boolean b(bit);
    b.kind_ = Kind::kNot;
    return b;
  }

  Kind kind() const { return kind_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_constant(bool c) const { return kind_ == Kind::kConstant && constant_ == c; }
  // The underlying bit of Is/Not (precondition: not a constant).
  const AllocatedBit& bit() const { return bit_; }
  bool value() const {
    switch (kind_) {
      case Kind::kConstant: return constant_;
      case Kind::kIs: return bit_.value();
      case Kind::kNot: return !bit_.value();
    }
    return false;
  }

  Boolean not_() const {
    switch (kind_) {
      case Kind::kConstant: return Boolean(!constant_);
      case Kind::kIs: return negation(bit_);
      case Kind::kNot: return Boolean(bit_);
    }
    return *this;
  }

  // coeff·value as an LC (Boolean::lc): true → coeff·ONE, false → empty, Is → coeff·b,
  // Not → coeff·ONE − coeff·b.
  template <class F>
  r1cs::LinearCombination<F> lc(r1cs::Variable one, const F& coeff) const {
    r1cs::LinearCombination<F> lc;
    switch (kind_) {
      case Kind::kConstant:
        if (constant_) lc += coeff * one;
        break;
      case Kind::kIs: lc += coeff * bit_.variable(); break;
      case Kind::kNot:
        lc += coeff * one;
        lc -= coeff * bit_.variable();
        break;
    }
    return lc;
  }

  // a ⊕ b with constants folded and negations pushed out (Boolean::xor): at most one row.
  template <r1cs::ConstraintSystem CS>
  static Boolean xor_(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant(false)) return b;
    if (b.is_constant(false)) return a;
    if (a.is_constant(true)) return b.not_();
    if (b.is_constant(true)) return a.not_();
    if (a.kind_ != b.kind_) {  // (Is, Not) or (Not, Is): x ⊕ ¬y = ¬(x ⊕ y)
      const Boolean& is = a.kind_ == Kind::kIs ? a : b;
      const Boolean& not_b = a.kind_ == Kind::kIs ? b : a;
      return xor_(cs, is, not_b.not_()).not_();
    }
    return Boolean(AllocatedBit::xor_(cs, a.bit_, b.bit_));  // (Is, Is) or (Not, Not)
  }

  // a ∧ b with constants folded (Boolean::and): and, and_not or nor, at most one row.
  template <r1cs::ConstraintSystem CS>
  static Boolean and_(CS& cs, const Boolean& a, const Boolean& b) {
    if (a.is_constant(false) || b.is_constant(false)) return Boolean(false);
    if (a.is_constant(true)) return b;
    if (b.is_constant(true)) return a;
    if (a.kind_ == Kind::kIs && b.kind_ == Kind::kNot) return Boolean(AllocatedBit::and_not(cs, a.bit_, b.bit_));
    if (a.kind_ == Kind::kNot && b.kind_ == Kind::kIs) return Boolean(AllocatedBit::and_not(cs, b.bit_, a.bit_));
    if (a.kind_ == Kind::kNot) return Boolean(AllocatedBit::nor(cs, a.bit_, b.bit_));
    return Boolean(AllocatedBit::and_(cs, a.bit_, b.bit_));
  }

  // a ∨ b = ¬(¬a ∧ ¬b), the AND in namespace "not and (not a) (not b)" (Boolean::or).
  template <r1cs::ConstraintSystem CS>
  static Boolean or_(CS& cs, const Boolean& a, const Boolean& b) {
    r1cs::Namespace ns(cs, "not and (not a) (not b)");
    return and_(cs, a.not_(), b.not_()).not_();
  }

  // a = b (Boolean::enforce_equal): one row 0 · 0 = C, C being ONE − x when the other side is
  // true, x when it is false, a − b otherwise. Two unequal constants cannot be satisfied.
  template <r1cs::ConstraintSystem CS>
  static void enforce_equal(CS& cs, const Boolean& a, const Boolean& b) {
    using F = typename CS::Field;
    using LC = r1cs::LinearCombination<F>;
    const auto empty = [](LC lc) { return lc; };
    if (a.is_constant() && b.is_constant()) {
      if (a.constant_ != b.constant_) throw r1cs::SynthesisError("enforce_equal: unequal constants");
      return;
    }
    if (a.is_constant(true) || b.is_constant(true)) {
      const Boolean& x = a.is_constant(true) ? b : a;
      cs.enforce("enforce equal to one", empty, empty,
                 [&](LC lc) { return lc + CS::one() - x.lc(CS::one(), F::one()); });
    } else if (a.is_constant(false) || b.is_constant(false)) {
      const Boolean& x = a.is_constant(false) ? b : a;
      cs.enforce("enforce equal to zero", empty, empty, [&](LC) { return x.lc(CS::one(), F::one()); });
    } else {
      cs.enforce("enforce equal", empty, empty,
                 [&](LC) { return a.lc(CS::one(), F::one()) - b.lc(CS::one(), F::one()); });
    }
  }

 private:
  explicit Boolean(bool c) : kind_(Kind::kConstant), constant_(c), bit_(r1cs::Variable{}, false) {}

  Kind kind_;
  bool constant_ = false;
  AllocatedBit bit_;
};

// 64 bits of `value`, least significant first, each AllocatedBit::alloc in namespace "bit i"
// (boolean.rs u64_into_boolean_vec_le).
template <r1cs::ConstraintSystem CS>
std::vector<Boolean> u64_into_boolean_vec_le(CS& cs, uint64_t value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  for (int i = 0; i < 64; ++i) {
    r1cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.emplace_back(AllocatedBit::alloc(cs, ((value >> i) & 1) != 0));
  }
  return bits;
}

// The kBits (255 for Fr) bits of `value`, least significant first, each AllocatedBit::alloc in
// namespace "bit i" (boolean.rs field_into_allocated_bits_le; no range check).
template <r1cs::ConstraintSystem CS>
std::vector<AllocatedBit> field_into_allocated_bits_le(CS& cs, const typename CS::Field& value) {
  using F = typename CS::Field;
  const typename F::Int v = value.to_int();
  std::vector<AllocatedBit> bits;
  bits.reserve(F::kBits);
  for (size_t i = 0; i < F::kBits; ++i) {
    r1cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.push_back(AllocatedBit::alloc(cs, v.bit(i)));
  }
  return bits;
}

template <r1cs::ConstraintSystem CS>
std::vector<Boolean> field_into_boolean_vec_le(CS& cs, const typename CS::Field& value) {
  const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value);
  return std::vector<Boolean>(bits.begin(), bits.end());
}

}  // namespace cuzk::gadgets
