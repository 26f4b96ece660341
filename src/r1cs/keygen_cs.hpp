#pragma once
// Records the shape of a circuit (its rows) without any value, and compiles it to CSR.
// alloc_input and enforce interleave (inputize, pack_into_inputs), so the final column of an aux
// variable, num_inputs + index, is unknown while recording: columns are kept tagged input/aux
// and remapped to z = [inputs ‖ aux] once, in finish() (a lesson of the Rust cuzk, DESIGN.md).

#include <cstdint>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class KeygenCS {
 public:
  using Field = F;

  KeygenCS() {
    for (Recording* m : {&a_, &b_, &c_}) m->row_start.push_back(0);
  }

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&&, Value&&) {
    check_room();
    return Variable::aux(num_aux_++);
  }
  template <class Name, class Value>
  Variable alloc_input(Name&&, Value&&) {
    check_room();
    return Variable::input(num_inputs_++);
  }
  template <class Name, class A, class B, class C>
  void enforce(Name&&, A&& a, B&& b, C&& c) {
    a_.append(a(LinearCombination<F>()));
    b_.append(b(LinearCombination<F>()));
    c_.append(c(LinearCombination<F>()));
  }
  template <class Name>
  void push_namespace(Name&&) {}
  void pop_namespace() {}

  uint32_t num_inputs() const { return num_inputs_; }
  uint32_t num_aux() const { return num_aux_; }
  size_t num_constraints() const { return a_.row_start.size() - 1; }

  CompiledR1cs<F> finish() && {
    CompiledR1cs<F> out;
    out.num_inputs = num_inputs_;
    out.num_aux = num_aux_;
    out.a = std::move(a_).compile(num_inputs_);
    out.b = std::move(b_).compile(num_inputs_);
    out.c = std::move(c_).compile(num_inputs_);
    return out;
  }

 private:
  // Columns are u32 (CsrMatrix), and the tag below takes the top bit while recording.
  void check_room() const {
    if (num_inputs_ >= kAuxTag - 1 || num_aux_ >= kAuxTag - 1) {
      throw SynthesisError("KeygenCS: over 2^31 variables of a kind");
    }
  }

  // An aux column while recording: its index with this bit set (inputs and aux stay below 2^31).
  static constexpr uint32_t kAuxTag = uint32_t{1} << 31;

  struct Recording {
    std::vector<uint64_t> row_start;
    std::vector<uint32_t> column;  // input index, or aux index | kAuxTag
    std::vector<F> coeff;

    // Terms arrive sorted (inputs first), and stay sorted after the remap.
    void append(const LinearCombination<F>& lc) {
      for (const Term<F>& t : lc.terms()) {
        column.push_back(t.var.is_input() ? t.var.index : t.var.index | kAuxTag);
        coeff.push_back(t.coeff);
      }
      row_start.push_back(column.size());
    }
    // In place: aux index i becomes column num_inputs + i of z = [inputs ‖ aux].
    CsrMatrix<F> compile(uint32_t num_inputs) && {
      for (uint32_t& c : column) {
        if (c & kAuxTag) c = num_inputs + (c & ~kAuxTag);
      }
      return {std::move(row_start), std::move(column), std::move(coeff)};
    }
  };

  uint32_t num_inputs_ = 1;  // ONE
  uint32_t num_aux_ = 0;
  Recording a_, b_, c_;
};

extern template class KeygenCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
