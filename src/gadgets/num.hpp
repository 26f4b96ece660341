#pragma once
// Field elements in a circuit: AllocatedNum (one variable) and Num (a linear combination with its
// value, built without rows), emitting the same variables, rows and names in the same order as
// bellpepper-core 0.2.1 src/gadgets/num.rs. Names go into the caller's current namespace, as
// in boolean.hpp.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gadgets/boolean.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

template <class F>
class AllocatedNum {
 public:
  using LC = r1cs::LinearCombination<F>;

  AllocatedNum(r1cs::Variable variable, const F& value) : variable_(variable), value_(value) {}

  r1cs::Variable variable() const { return variable_; }
  const F& value() const { return value_; }

  // alloc "num" (AllocatedNum::alloc).
  template <r1cs::ConstraintSystem CS>
  static AllocatedNum alloc(CS& cs, const F& value) {
    return {cs.alloc("num", [&] { return value; }), value};
  }
  // alloc_input "input num" (AllocatedNum::alloc_input).
  template <r1cs::ConstraintSystem CS>
  static AllocatedNum alloc_input(CS& cs, const F& value) {
    return {cs.alloc_input("input num", [&] { return value; }), value};
  }

  // Exposes the value: alloc_input "input variable"; row "enforce input is correct":
  // input · ONE = self (AllocatedNum::inputize). Returns the input variable.
  template <r1cs::ConstraintSystem CS>
  r1cs::Variable inputize(CS& cs) const {
    const r1cs::Variable input = cs.alloc_input("input variable", [&] { return value_; });
    cs.enforce("enforce input is correct", [&](LC lc) { return lc + input; },
               [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + variable_; });
    return input;
  }

  // kBits AllocatedBits, least significant first, in namespaces "bit i", then row
  // "unpacking constraint": 0 · 0 = Σ 2^i b_i − self. 256 rows for Fr. Not a range check: the
  // bits may encode self + r (AllocatedNum::to_bits_le).
  template <r1cs::ConstraintSystem CS>
  std::vector<Boolean> to_bits_le(CS& cs) const {
    const std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, value_);
    enforce_unpacking(cs, bits.begin(), bits.end());
    return std::vector<Boolean>(bits.begin(), bits.end());
  }

  // As to_bits_le, and the bits are forced to encode a value ≤ r − 1 (AllocatedNum::to_bits_le_strict):
  // walking r − 1 from its top set bit down, a bit where r − 1 has a 1 is a plain alloc; at the
  // start of each run of zeros the ones so far are ANDed (namespace "run ending at i", rows
  // "and i"), and a bit where r − 1 has a 0 is alloc_conditionally on that AND.
  template <r1cs::ConstraintSystem CS>
  std::vector<Boolean> to_bits_le_strict(CS& cs) const {
    const typename F::Int v = value_.to_int();
    const typename F::Int r_minus_1 = (-F::one()).to_int();
    std::vector<AllocatedBit> result;  // most significant first
    std::vector<AllocatedBit> current_run;
    std::optional<AllocatedBit> last_run;
    const auto bit_name = [](size_t i) { return [i] { return "bit " + std::to_string(i); }; };
    // i counts from the top set bit of r − 1 (kBits − 1), as bellpepper's walk does.
    for (size_t i = 0, k = F::kBits; k-- > 0; ++i) {
      if (r_minus_1.bit(k)) {
        r1cs::Namespace ns(cs, bit_name(i));
        result.push_back(AllocatedBit::alloc(cs, v.bit(k)));
        current_run.push_back(result.back());
        continue;
      }
      if (!current_run.empty()) {
        if (last_run) current_run.push_back(*last_run);
        r1cs::Namespace ns(cs, [i] { return "run ending at " + std::to_string(i); });
        last_run = kary_and(cs, current_run);
        current_run.clear();
      }
      r1cs::Namespace ns(cs, bit_name(i));
      result.push_back(AllocatedBit::alloc_conditionally(cs, v.bit(k), *last_run));  // r − 1 starts with a 1
    }
    std::vector<AllocatedBit> le(result.rbegin(), result.rend());
    enforce_unpacking(cs, le.begin(), le.end());
    return std::vector<Boolean>(le.begin(), le.end());
  }

  // a · b: alloc "product num"; row "multiplication constraint": a · b = ab.
  template <r1cs::ConstraintSystem CS>
  AllocatedNum mul(CS& cs, const AllocatedNum& other) const {
    const F value = value_ * other.value_;
    const r1cs::Variable ab = cs.alloc("product num", [&] { return value; });
    cs.enforce("multiplication constraint", [&](LC lc) { return lc + variable_; },
               [&](LC lc) { return lc + other.variable_; }, [&](LC lc) { return lc + ab; });
    return {ab, value};
  }

  // a²: alloc "squared num"; row "squaring constraint": a · a = aa.
  template <r1cs::ConstraintSystem CS>
  AllocatedNum square(CS& cs) const {
    const F value = value_.square();
    const r1cs::Variable aa = cs.alloc("squared num", [&] { return value; });
    cs.enforce("squaring constraint", [&](LC lc) { return lc + variable_; }, [&](LC lc) { return lc + variable_; },
               [&](LC lc) { return lc + aa; });
    return {aa, value};
  }

  // a + b: alloc "sum num"; row "addition constraint": (a + b) · ONE = sum.
  template <r1cs::ConstraintSystem CS>
  AllocatedNum add(CS& cs, const AllocatedNum& other) const {
    const F value = value_ + other.value_;
    const r1cs::Variable sum = cs.alloc("sum num", [&] { return value; });
    cs.enforce("addition constraint", [&](LC lc) { return lc + variable_ + other.variable_; },
               [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + sum; });
    return {sum, value};
  }

  // a ≠ 0: alloc "ephemeral inverse"; row "nonzero assertion constraint": a · inv = ONE.
  // Throws SynthesisError (bellpepper's DivisionByZero) when a backend asks the value of a zero.
  template <r1cs::ConstraintSystem CS>
  void assert_nonzero(CS& cs) const {
    const r1cs::Variable inv = cs.alloc("ephemeral inverse", [&] {
      if (value_.is_zero()) throw r1cs::SynthesisError("assert_nonzero: division by zero");
      return value_.inverse();
    });
    cs.enforce("nonzero assertion constraint", [&](LC lc) { return lc + variable_; }, [&](LC lc) { return lc + inv; },
               [](LC lc) { return lc + CS::one(); });
  }

  // The bit [a = b], with no row forcing a = b (the is-equal construction: δ = a − b has an
  // inverse exactly when it is nonzero). Allocates r ("r", a boolean: its row), δ⁻¹ ("delta_inv";
  // any value when δ = 0) and t = δ·δ⁻¹ ("t"); rows
  //   "t = (a - b) * delta_inv":  (a − b) · δ⁻¹ = t
  //   "(a - b) * (t - 1) == 0":   (a − b) · (t − ONE) = 0     so t = 1 whenever a ≠ b
  //   "(a - b) * r == 0":         (a − b) · r = 0             so r = 0 whenever a ≠ b
  //   "(t - 1) * (r - 1) == 0":   (t − ONE) · (r − ONE) = 0   so r = 1 whenever a = b (t = 0).
  template <r1cs::ConstraintSystem CS>
  static AllocatedBit equals(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
    const F delta = a.value_ - b.value_;
    const AllocatedBit r = [&] {
      r1cs::Namespace ns(cs, "r");
      return AllocatedBit::alloc(cs, delta.is_zero());
    }();
    const F delta_inv = delta.is_zero() ? F::one() : delta.inverse();
    const F t_value = delta * delta_inv;
    const r1cs::Variable inv = cs.alloc("delta_inv", [&] { return delta_inv; });
    const r1cs::Variable t = cs.alloc("t", [&] { return t_value; });
    const auto diff = [&](LC lc) { return lc + a.variable_ - b.variable_; };
    const auto zero = [](LC lc) { return lc; };
    cs.enforce("t = (a - b) * delta_inv", diff, [&](LC lc) { return lc + inv; }, [&](LC lc) { return lc + t; });
    cs.enforce("(a - b) * (t - 1) == 0", diff, [&](LC lc) { return lc + t - CS::one(); }, zero);
    cs.enforce("(a - b) * r == 0", diff, [&](LC lc) { return lc + r.variable(); }, zero);
    cs.enforce("(t - 1) * (r - 1) == 0", [&](LC lc) { return lc + t - CS::one(); },
               [&](LC lc) { return lc + r.variable() - CS::one(); }, zero);
    return r;
  }

  // (b, a) if condition else (a, b) (AllocatedNum::conditionally_reverse):
  // c = alloc in "conditional reversal result 1"; row "first conditional reversal":
  //   (a − b) · condition = a − c;
  // d = alloc in "conditional reversal result 2"; row "second conditional reversal":
  //   (b − a) · condition = b − d.
  template <r1cs::ConstraintSystem CS>
  static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(CS& cs, const AllocatedNum& a,
                                                                     const AllocatedNum& b, const Boolean& condition) {
    const bool swap = condition.value();
    const AllocatedNum c = [&] {
      r1cs::Namespace ns(cs, "conditional reversal result 1");
      return alloc(cs, swap ? b.value_ : a.value_);
    }();
    cs.enforce("first conditional reversal", [&](LC lc) { return lc + a.variable_ - b.variable_; },
               [&](LC) { return condition.lc(CS::one(), F::one()); },
               [&](LC lc) { return lc + a.variable_ - c.variable_; });
    const AllocatedNum d = [&] {
      r1cs::Namespace ns(cs, "conditional reversal result 2");
      return alloc(cs, swap ? a.value_ : b.value_);
    }();
    cs.enforce("second conditional reversal", [&](LC lc) { return lc + b.variable_ - a.variable_; },
               [&](LC) { return condition.lc(CS::one(), F::one()); },
               [&](LC lc) { return lc + b.variable_ - d.variable_; });
    return {c, d};
  }

  // condition ? a : b, storage-proofs-core gadgets/insertion.rs `pick` (not in bellpepper): alloc
  // in "pick result"; row "pick": (b − a) · condition = b − c.
  template <r1cs::ConstraintSystem CS>
  static AllocatedNum pick(CS& cs, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b) {
    const AllocatedNum c = [&] {
      r1cs::Namespace ns(cs, "pick result");
      return alloc(cs, condition.value() ? a.value_ : b.value_);
    }();
    cs.enforce("pick", [&](LC lc) { return lc + b.variable_ - a.variable_; },
               [&](LC) { return condition.lc(CS::one(), F::one()); },
               [&](LC lc) { return lc + b.variable_ - c.variable_; });
    return c;
  }

 private:
  // Row "unpacking constraint": 0 · 0 = Σ 2^i bits[i] − self, bits least significant first.
  template <class CS, class It>
  void enforce_unpacking(CS& cs, It begin, It end) const {
    cs.enforce("unpacking constraint", [](LC lc) { return lc; }, [](LC lc) { return lc; }, [&](LC) {
      LC lc;
      F coeff = F::one();
      for (It it = begin; it != end; ++it) {
        lc += coeff * it->variable();
        coeff = coeff.dbl();
      }
      return lc - variable_;
    });
  }

  // AND of all of v, left to right, row j in namespace "and j" (kary_and of to_bits_le_strict).
  template <class CS>
  static AllocatedBit kary_and(CS& cs, const std::vector<AllocatedBit>& v) {
    AllocatedBit cur = v.front();
    for (size_t j = 1; j < v.size(); ++j) {
      r1cs::Namespace ns(cs, [j] { return "and " + std::to_string(j); });
      cur = AllocatedBit::and_(cs, cur, v[j]);
    }
    return cur;
  }

  r1cs::Variable variable_;
  F value_;
};

// A linear combination with its value: adding bits costs no row (num.rs Num).
template <class F>
class Num {
 public:
  using LC = r1cs::LinearCombination<F>;

  Num() : value_(F::zero()) {}
  Num(const AllocatedNum<F>& n) : value_(n.value()), lc_(n.variable()) {}  // NOLINT: as From

  const F& value() const { return value_; }
  const LC& linear_combination() const { return lc_; }
  // coeff · lc, merged zeros kept (Num::lc).
  LC lc(const F& coeff) const { return LC() + lc_ * coeff; }

  // self + coeff·bit (Num::add_bool_with_coeff).
  Num add_bool_with_coeff(r1cs::Variable one, const Boolean& bit, const F& coeff) && {
    if (bit.value()) value_ += coeff;
    lc_ += bit.lc(one, coeff);
    return std::move(*this);
  }
  Num add_bool_with_coeff(r1cs::Variable one, const Boolean& bit, const F& coeff) const& {
    return Num(*this).add_bool_with_coeff(one, bit, coeff);
  }
  // self + other (Num::add).
  Num add(const Num& other) const {
    Num r(*this);
    r.value_ += other.value_;
    r.lc_ += other.lc_;
    return r;
  }
  // scalar · self (Num::scale).
  Num scale(const F& scalar) const {
    Num r(*this);
    r.value_ *= scalar;
    r.lc_ *= scalar;
    return r;
  }

 private:
  F value_;
  LC lc_;
};

}  // namespace cuzk::gadgets
