#pragma once
// Records the shape of a circuit (its rows) without any value, and compiles it to CSR.
// alloc_input and enforce interleave (inputize, pack_into_inputs), so the final column of an aux
// variable, num_inputs + index, is unknown while recording: columns are kept tagged input/aux
// and remapped to z = [inputs ‖ aux] once, in finish() (a lesson of the Rust cuzk, DESIGN.md).
//
// A circuit may also be recorded in parts, each KeygenCS numbering its variables on from where
// the previous part ended (its rows may refer to earlier parts' variables), and the parts joined
// in order (finish(parts, pool); record_units for units of one shape): the same compiled circuit,
// recorded on many threads (PoRep's and SnapDeals' challenges, PoSt's sectors).

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class F>
class KeygenCS {
 public:
  using Field = F;

  KeygenCS() : KeygenCS(1, 0) {}
  // A part that follows one which ended with `num_inputs` inputs (ONE included) and `num_aux` aux.
  KeygenCS(uint32_t num_inputs, uint32_t num_aux)
      : first_inputs_(num_inputs), first_aux_(num_aux), num_inputs_(num_inputs), num_aux_(num_aux) {
    for (Recording* m : {&a_, &b_, &c_}) m->row_start.push_back(0);
  }
  // Room for as many rows and terms as `like` recorded (a part of the same shape).
  void reserve_like(const KeygenCS& like) {
    for (auto [m, l] : {std::pair{&a_, &like.a_}, std::pair{&b_, &like.b_}, std::pair{&c_, &like.c_}}) {
      m->row_start.reserve(l->row_start.size());
      m->column.reserve(l->column.size());
      m->coeff.reserve(l->coeff.size());
    }
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

  uint32_t num_inputs() const { return num_inputs_; }  // so far, earlier parts' included
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

  // `units` units of one shape recorded after `parts` (a circuit's head, or a fresh KeygenCS: ONE
  // alone), then all joined by finish(): unit 0 first (its counts give every unit's), then the
  // others in parallel on `pool`, each into a part numbering on from where the one before it will
  // end. unit(cs, k) records unit k into cs. PoRep's and SnapDeals' challenges, PoSt's sectors.
  template <class Unit>
  static CompiledR1cs<F> record_units(std::vector<KeygenCS>&& parts, size_t units, ThreadPool& pool, Unit&& unit) {
    if (parts.empty()) throw SynthesisError("KeygenCS::record_units: no part to follow");
    if (units == 0) return finish(std::move(parts), pool);
    parts.reserve(parts.size() + units);
    const size_t first = parts.size();
    const uint32_t inputs = parts.back().num_inputs_, aux = parts.back().num_aux_;
    unit(parts.emplace_back(inputs, aux), size_t{0});
    const uint32_t in_share = parts[first].num_inputs_ - inputs, aux_share = parts[first].num_aux_ - aux;
    for (size_t k = 1; k < units; ++k) {
      parts.emplace_back(inputs + uint32_t(k) * in_share, aux + uint32_t(k) * aux_share);
      parts.back().reserve_like(parts[first]);
    }
    pool.for_each_index(units - 1, [&](size_t i) { unit(parts[first + 1 + i], i + 1); });
    return finish(std::move(parts), pool);  // checks that the parts meet
  }

  // The circuit recorded in `parts`, in order; each part must begin where the one before ended
  // (throws SynthesisError otherwise). Equal to one KeygenCS that recorded everything; the parts
  // are copied in parallel on `pool` and freed as they go.
  static CompiledR1cs<F> finish(std::vector<KeygenCS>&& parts, ThreadPool& pool) {
    if (parts.empty()) return KeygenCS().finish();
    for (size_t k = 1; k < parts.size(); ++k) {
      if (parts[k].first_inputs_ != parts[k - 1].num_inputs_ || parts[k].first_aux_ != parts[k - 1].num_aux_)
        throw SynthesisError("KeygenCS: part " + std::to_string(k) + " begins at " +
                             std::to_string(parts[k].first_inputs_) + " inputs and " +
                             std::to_string(parts[k].first_aux_) + " aux, the part before ends at " +
                             std::to_string(parts[k - 1].num_inputs_) + " and " + std::to_string(parts[k - 1].num_aux_));
    }
    CompiledR1cs<F> out;
    out.num_inputs = parts.back().num_inputs_;
    out.num_aux = parts.back().num_aux_;
    // Where each part's rows and terms go, per matrix.
    std::vector<std::array<size_t, 3>> row_at(parts.size() + 1), term_at(parts.size() + 1);
    for (size_t k = 0; k < parts.size(); ++k) {
      const Recording* r[3] = {&parts[k].a_, &parts[k].b_, &parts[k].c_};
      for (int i = 0; i < 3; ++i) {
        row_at[k + 1][i] = row_at[k][i] + r[i]->row_start.size() - 1;
        term_at[k + 1][i] = term_at[k][i] + r[i]->column.size();
      }
    }
    CsrMatrix<F>* m[3] = {&out.a, &out.b, &out.c};
    for (int i = 0; i < 3; ++i) {
      m[i]->row_start.resize(row_at.back()[i] + 1);
      m[i]->column.resize(term_at.back()[i]);
      m[i]->coeff.resize(term_at.back()[i]);
      m[i]->row_start.back() = term_at.back()[i];
    }
    pool.for_each_index(parts.size(), [&](size_t k) {
      Recording* r[3] = {&parts[k].a_, &parts[k].b_, &parts[k].c_};
      for (int i = 0; i < 3; ++i) {
        const size_t rows = r[i]->row_start.size() - 1, t0 = term_at[k][i];
        for (size_t j = 0; j < rows; ++j) m[i]->row_start[row_at[k][i] + j] = t0 + r[i]->row_start[j];
        std::transform(r[i]->column.begin(), r[i]->column.end(), m[i]->column.begin() + ptrdiff_t(t0),
                       [n = out.num_inputs](uint32_t c) { return c & kAuxTag ? n + (c & ~kAuxTag) : c; });
        std::copy(r[i]->coeff.begin(), r[i]->coeff.end(), m[i]->coeff.begin() + ptrdiff_t(t0));
        *r[i] = Recording{};  // its memory goes as soon as it is copied
      }
    });
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

  uint32_t first_inputs_, first_aux_;  // where this part's numbering began (1, 0: the first)
  uint32_t num_inputs_;                // ONE included
  uint32_t num_aux_;
  Recording a_, b_, c_;
};

extern template class KeygenCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
