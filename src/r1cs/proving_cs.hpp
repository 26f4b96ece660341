#pragma once
// Proving synthesis, as bellperson's ProvingAssignment: the assignment, one value per row of each
// of A·z, B·z, C·z, and the density of A and B (shared/SPEC.md §5). A variable is dense when it
// appears with a nonzero merged coefficient; A tracks aux only (every input has an A base), B
// tracks inputs and aux, C tracks nothing.

#include <vector>

#include "core/density_bitmap.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class ProvingCS {
 public:
  using Field = F;

  // ONE is allocated here, as bellperson's prover does before synthesis.
  ProvingCS() {
    inputs_.push_back(F::one());
    b_input_density_.add_element();
  }

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&&, Value&& value) {
    aux_.push_back(value());
    a_aux_density_.add_element();
    b_aux_density_.add_element();
    return Variable::aux(static_cast<uint32_t>(aux_.size() - 1));
  }
  template <class Name, class Value>
  Variable alloc_input(Name&&, Value&& value) {
    inputs_.push_back(value());
    b_input_density_.add_element();
    return Variable::input(static_cast<uint32_t>(inputs_.size() - 1));
  }

  template <class Name, class A, class B, class C>
  void enforce(Name&&, A&& a, B&& b, C&& c) {
    a_.push_back(eval(a(LinearCombination<F>()), nullptr, &a_aux_density_));
    b_.push_back(eval(b(LinearCombination<F>()), &b_input_density_, &b_aux_density_));
    c_.push_back(eval(c(LinearCombination<F>()), nullptr, nullptr));
  }

  template <class Name>
  void push_namespace(Name&&) {}
  void pop_namespace() {}

  size_t num_constraints() const { return a_.size(); }
  const std::vector<F>& inputs() const { return inputs_; }
  const std::vector<F>& aux() const { return aux_; }
  const std::vector<F>& a() const { return a_; }
  const std::vector<F>& b() const { return b_; }
  const std::vector<F>& c() const { return c_; }
  const DensityBitmap& a_aux_density() const { return a_aux_density_; }
  const DensityBitmap& b_input_density() const { return b_input_density_; }
  const DensityBitmap& b_aux_density() const { return b_aux_density_; }

 private:
  F eval(const LinearCombination<F>& lc, DensityBitmap* input_density, DensityBitmap* aux_density) {
    F acc = F::zero();
    for (const Term<F>& t : lc.terms()) {
      if (t.coeff.is_zero()) continue;  // bellperson skips a zero merged coefficient entirely
      const bool input = t.var.is_input();
      const F& v = input ? inputs_[t.var.index] : aux_[t.var.index];
      acc += t.coeff.is_one() ? v : t.coeff * v;
      DensityBitmap* density = input ? input_density : aux_density;
      if (density != nullptr) density->set(t.var.index);
    }
    return acc;
  }

  std::vector<F> inputs_, aux_;
  std::vector<F> a_, b_, c_;
  DensityBitmap a_aux_density_, b_input_density_, b_aux_density_;
};

extern template class ProvingCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
