#pragma once
// The debugging backend, as bellpepper-core's TestConstraintSystem: every variable, constraint
// and namespace is named by its namespace path ("a/b/c"); a path used twice, or a name holding
// '/', is rejected; rows are kept as linear combinations so the system can be checked
// (is_satisfied, first_unsatisfied), corrupted (set) and fingerprinted (digest).

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/row_digest.hpp"

namespace cuzk::r1cs {

template <class F>
class TestCS {
 public:
  using Field = F;

  struct Constraint {
    LinearCombination<F> a, b, c;
    std::string path;
  };

  TestCS() {
    inputs_.push_back(F::one());
    named_.emplace("ONE", Named{Named::kVar, Variable::one()});
  }

  static constexpr Variable one() { return Variable::one(); }

  template <class Name, class Value>
  Variable alloc(Name&& name, Value&& value) {
    const Variable var = Variable::aux(static_cast<uint32_t>(aux_.size()));
    add_named(name_text(std::forward<Name>(name)), Named::kVar, var);
    aux_.push_back(value());
    return var;
  }
  template <class Name, class Value>
  Variable alloc_input(Name&& name, Value&& value) {
    const Variable var = Variable::input(static_cast<uint32_t>(inputs_.size()));
    add_named(name_text(std::forward<Name>(name)), Named::kVar, var);
    inputs_.push_back(value());
    return var;
  }
  template <class Name, class A, class B, class C>
  void enforce(Name&& name, A&& a, B&& b, C&& c) {
    std::string path = add_named(name_text(std::forward<Name>(name)), Named::kConstraint, Variable{});
    constraints_.push_back({a(LinearCombination<F>()), b(LinearCombination<F>()), c(LinearCombination<F>()),
                            std::move(path)});
  }
  template <class Name>
  void push_namespace(Name&& name) {
    std::string text = name_text(std::forward<Name>(name));
    add_named(text, Named::kNamespace, Variable{});
    namespace_.push_back(std::move(text));
  }
  void pop_namespace() {
    if (namespace_.empty()) throw SynthesisError("TestCS: pop_namespace without a namespace");
    namespace_.pop_back();
  }

  size_t num_constraints() const { return constraints_.size(); }
  size_t num_inputs() const { return inputs_.size(); }  // ONE included, as bellpepper counts
  size_t num_aux() const { return aux_.size(); }
  const std::vector<F>& inputs() const { return inputs_; }
  const std::vector<F>& aux() const { return aux_; }
  const std::vector<Constraint>& constraints() const { return constraints_; }

  bool is_satisfied() const { return !first_unsatisfied().has_value(); }
  // The path of the first row with A·z × B·z ≠ C·z.
  std::optional<std::string> first_unsatisfied() const {
    for (const Constraint& row : constraints_) {
      const F a = row.a.evaluate(inputs_, aux_), b = row.b.evaluate(inputs_, aux_), c = row.c.evaluate(inputs_, aux_);
      if (a * b != c) return row.path;
    }
    return std::nullopt;
  }

  // Overwrites the value of the variable at `path` (to test that a check catches it).
  void set(const std::string& path, const F& value) {
    auto it = named_.find(path);
    if (it == named_.end() || it->second.kind != Named::kVar) throw SynthesisError("TestCS: no variable " + path);
    const Variable var = it->second.var;
    (var.is_input() ? inputs_ : aux_)[var.index] = value;
  }
  // The value of the variable at `path`.
  F get(const std::string& path) const {
    auto it = named_.find(path);
    if (it == named_.end() || it->second.kind != Named::kVar) throw SynthesisError("TestCS: no variable " + path);
    const Variable var = it->second.var;
    return (var.is_input() ? inputs_ : aux_)[var.index];
  }

  // Lower-case hex SHA-256 of the canonical row serialisation (row_digest.hpp).
  std::string digest() const {
    Sha256 sha;
    std::vector<uint8_t> buffer;
    for (const Constraint& row : constraints_) {
      buffer.clear();
      append_canonical(buffer, row.a);
      append_canonical(buffer, row.b);
      append_canonical(buffer, row.c);
      sha.update(buffer);
    }
    return sha.hex_digest();
  }

 private:
  struct Named {
    enum Kind { kVar, kConstraint, kNamespace } kind;
    Variable var;
  };

  // bellpepper's compute_path + set_named_obj.
  std::string add_named(const std::string& name, typename Named::Kind kind, Variable var) {
    if (name.find('/') != std::string::npos) throw SynthesisError("TestCS: a name may not hold '/': " + name);
    std::string path;
    for (const std::string& ns : namespace_) {
      path += ns;
      path += '/';
    }
    path += name;
    if (!named_.emplace(path, Named{kind, var}).second) {
      throw SynthesisError("TestCS: duplicate name " + path);
    }
    return path;
  }

  std::vector<F> inputs_, aux_;
  std::vector<Constraint> constraints_;
  std::vector<std::string> namespace_;
  std::unordered_map<std::string, Named> named_;
};

extern template class TestCS<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
