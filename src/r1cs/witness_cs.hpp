#pragma once
// Witness-only synthesis: the assignment z = [inputs ‖ aux] and nothing else. enforce is a no-op
// that never calls its callables (so no linear combination is built); the rows come from the
// compiled circuit by SpMV (shared/DESIGN.md decision 4).
//
// The aux values go to a growing vector, or (the proving path) straight into a destination the
// caller sized from the compiled circuit: memory allocated once and reused across partitions
// (the GPU backend's pinned witness buffers), so synthesis neither reallocates a 4.1 GB vector nor
// faults in fresh pages, which on many threads at once serialise on the kernel's page tables.

#include <span>
#include <string>
#include <vector>

#include "ff/bls12_381.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class WitnessCS {
 public:
  using Field = F;

  WitnessCS() : inputs_{F::one()} {}
  // The aux values into `aux_out`, in order; allocating more than it holds throws SynthesisError.
  explicit WitnessCS(std::span<F> aux_out) : inputs_{F::one()}, out_(aux_out) {}

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&&, Value&& value) {
    if (out_.data() != nullptr) {
      if (written_ == out_.size()) [[unlikely]]
        throw SynthesisError("witness: more aux variables than the " + std::to_string(out_.size()) +
                             " the destination holds");
      out_[written_] = value();
      return Variable::aux(static_cast<uint32_t>(written_++));
    }
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

  const std::vector<F>& inputs() const { return inputs_; }  // inputs()[0] = ONE = 1
  const std::vector<F>& aux() const { return aux_; }         // empty with a destination
  size_t num_aux() const { return out_.data() != nullptr ? written_ : aux_.size(); }

 private:
  std::vector<F> inputs_;
  std::vector<F> aux_;
  std::span<F> out_;
  size_t written_ = 0;  // into out_
};

template <class F>
inline constexpr bool builds_linear_combinations<WitnessCS<F>> = false;
template <class F>
inline constexpr bool records_constraints<WitnessCS<F>> = false;

extern template class WitnessCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
