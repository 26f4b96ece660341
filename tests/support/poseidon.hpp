#pragma once
// The Poseidon MerkleTree constants of the arities Filecoin uses (2, 4, 8, 11), built once per
// test binary (a few ms each; the library itself keeps no cache). For tests linking cuzk::gadgets.

#include <array>
#include <cstddef>
#include <stdexcept>

#include "gadgets/poseidon_constants.hpp"

namespace cuzk::test {

inline const gadgets::PoseidonConstants& poseidon_constants(size_t arity) {
  using gadgets::PoseidonConstants;
  static const std::array<PoseidonConstants, 4> all = {
      PoseidonConstants::merkle_tree(2), PoseidonConstants::merkle_tree(4), PoseidonConstants::merkle_tree(8),
      PoseidonConstants::merkle_tree(11)};
  for (const PoseidonConstants& c : all)
    if (c.arity == arity) return c;
  throw std::logic_error("no Poseidon constants for this arity");
}

}  // namespace cuzk::test
