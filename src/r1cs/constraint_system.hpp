#pragma once
// The ConstraintSystem concept (shared/DESIGN.md decision 1): a circuit is a function template
// over it, and the same synthesis pass drives every backend (witness_cs.hpp, proving_cs.hpp,
// keygen_cs.hpp, test_cs.hpp), as bellpepper-core's ConstraintSystem trait does for bellperson.
//
// Arguments are callables so that a backend pays only for what it uses:
//  - a `Name` is a string-like or a callable returning std::string; only TestCS materialises it;
//  - a value is a callable returning F; KeygenCS never calls it;
//  - a, b, c of enforce are callables LinearCombination<F> -> LinearCombination<F>; WitnessCS
//    never calls them, so a witness-only pass builds no linear combination at all.

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

// A synthesis failure (a missing assignment, a duplicate constraint name, ...).
class SynthesisError : public Exception {
 public:
  using Exception::Exception;
  explicit SynthesisError(std::string message) : Exception(invalid_argument(std::move(message))) {}
};

// The text of a Name argument.
template <class Name>
std::string name_text(Name&& name) {
  if constexpr (std::is_invocable_v<Name>) {
    return std::string(std::forward<Name>(name)());
  } else {
    return std::string(std::string_view(name));
  }
}

namespace detail {
template <class F>
using ValueProbe = F (*)();
template <class F>
using LcProbe = LinearCombination<F> (*)(LinearCombination<F>);
}  // namespace detail

template <class CS>
concept ConstraintSystem = requires(CS& cs, const char* name, detail::ValueProbe<typename CS::Field> value,
                                    detail::LcProbe<typename CS::Field> lc) {
  typename CS::Field;
  { CS::one() } -> std::same_as<Variable>;
  { cs.alloc(name, value) } -> std::same_as<Variable>;
  { cs.alloc_input(name, value) } -> std::same_as<Variable>;
  cs.enforce(name, lc, lc, lc);
  cs.push_namespace(name);
  cs.pop_namespace();
};

// Whether a backend reads the linear combinations given to enforce (all but WitnessCS, which
// specialises this to false). Gadgets that carry linear combinations along between rows
// (Poseidon's mixing) skip building them when it is false.
template <class CS>
inline constexpr bool builds_linear_combinations = true;

// Whether a backend keeps anything of enforce (rows, counts, names). WitnessCS keeps only the
// assignment, so a gadget may compute its aux values by a native path that calls alloc in the
// same order and never calls enforce (sha256_witness.hpp).
template <class CS>
inline constexpr bool records_constraints = true;

// RAII namespace: `Namespace ns(cs, "round 3");` names every constraint below it "round 3/...".
template <class CS>
class Namespace {
 public:
  template <class Name>
  Namespace(CS& cs, Name&& name) : cs_(cs) {
    cs_.push_namespace(std::forward<Name>(name));
  }
  ~Namespace() { cs_.pop_namespace(); }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

 private:
  CS& cs_;
};

template <class CS, class Name>
Namespace(CS&, Name&&) -> Namespace<CS>;

// fn() with every row and variable it makes under `name` (bellpepper's cs.namespace(|| name)
// around one call); returns what fn returns.
template <class CS, class Name, class Fn>
auto in_namespace(CS& cs, Name&& name, Fn&& fn) {
  Namespace ns(cs, std::forward<Name>(name));
  return fn();
}

}  // namespace cuzk::r1cs
