#pragma once
// Witness-only synthesis: the assignment z = [inputs ‖ aux] and nothing else. enforce is a no-op
// that never calls its callables (so no linear combination is built); the rows come from the
// compiled circuit by SpMV (shared/DESIGN.md decision 4).

#include <vector>

#include "ff/bls12_381.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class WitnessCS {
 public:
  using Field = F;

  WitnessCS() : inputs_{F::one()} {}

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&&, Value&& value) {
    aux_.push_back(value());
    return Variable::aux(static_cast<uint32_t>(aux_.size() - 1));
  }
  template <class Name, class Value>
  Variable alloc_input(Name&&, Value&& value) {
    inputs_.push_back(value());
    return Variable::input(static_cast<uint32_t>(inputs_.size() - 1));
  }
  template <class Name, class A, class B, class C>
  void enforce(Name&&, A&&, B&&, C&&) {}
  template <class Name>
  void push_namespace(Name&&) {}
  void pop_namespace() {}

  // Room for this many variables of each kind (ONE included), so the vectors grow without
  // reallocating: a 32 GiB partition's aux is 4.1 GB, and many threads reallocating such vectors
  // at once slow each other down.
  void reserve(size_t inputs, size_t aux) {
    inputs_.reserve(inputs);
    aux_.reserve(aux);
  }

  const std::vector<F>& inputs() const { return inputs_; }  // inputs()[0] = ONE = 1
  const std::vector<F>& aux() const { return aux_; }
  // Moved out (no copy of a partition's gigabytes); the system is empty afterwards.
  std::vector<F> take_inputs() { return std::move(inputs_); }
  std::vector<F> take_aux() { return std::move(aux_); }

 private:
  std::vector<F> inputs_;
  std::vector<F> aux_;
};

template <class F>
inline constexpr bool builds_linear_combinations<WitnessCS<F>> = false;
template <class F>
inline constexpr bool records_constraints<WitnessCS<F>> = false;

extern template class WitnessCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
