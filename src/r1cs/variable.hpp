#pragma once
// A variable of an R1CS: a public input or an auxiliary (private) witness value, numbered in
// allocation order within its kind. Input 0 is ONE, the constant 1 (bellpepper's
// CS::one() = Variable(Index::Input(0))).

#include <compare>
#include <cstdint>

namespace cuzk::r1cs {

struct Variable {
  enum class Kind : uint8_t { kInput = 0, kAux = 1 };

  uint32_t index = 0;
  Kind kind = Kind::kInput;

  static constexpr Variable input(uint32_t i) { return {i, Kind::kInput}; }
  static constexpr Variable aux(uint32_t i) { return {i, Kind::kAux}; }
  static constexpr Variable one() { return input(0); }

  constexpr bool is_input() const { return kind == Kind::kInput; }

  // Inputs before aux, then by index: the order of bellpepper's sorted LCs and of the canonical
  // row serialisation (shared/tools/porep_circuit_model.py).
  friend constexpr bool operator==(Variable, Variable) = default;
  friend constexpr std::strong_ordering operator<=>(Variable x, Variable y) {
    if (x.kind != y.kind) return x.kind <=> y.kind;
    return x.index <=> y.index;
  }
};

}  // namespace cuzk::r1cs
