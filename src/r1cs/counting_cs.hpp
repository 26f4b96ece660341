#pragma once
// Counts a circuit's variables and rows and keeps nothing else: enough to check the 130 M-row
// PoRep shapes (32 GiB, 64 GiB) against their published counts in bounded memory. No value is
// asked for and no linear combination is built (enforce never calls its callables).

#include <cstdint>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class CountingCS {
 public:
  using Field = F;

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&&, Value&&) {
    return Variable::aux(static_cast<uint32_t>(num_aux_++));
  }
  template <class Name, class Value>
  Variable alloc_input(Name&&, Value&&) {
    return Variable::input(static_cast<uint32_t>(num_inputs_++));
  }
  template <class Name, class A, class B, class C>
  void enforce(Name&&, A&&, B&&, C&&) {
    ++num_constraints_;
  }
  template <class Name>
  void push_namespace(Name&&) {}
  void pop_namespace() {}

  uint64_t num_inputs() const { return num_inputs_; }  // ONE included
  uint64_t num_aux() const { return num_aux_; }
  uint64_t num_constraints() const { return num_constraints_; }

 private:
  uint64_t num_inputs_ = 1;  // ONE
  uint64_t num_aux_ = 0;
  uint64_t num_constraints_ = 0;
};

template <class F>
inline constexpr bool builds_linear_combinations<CountingCS<F>> = false;

}  // namespace cuzk::r1cs
