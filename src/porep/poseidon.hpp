#pragma once
// PoRep's Poseidon constants on their own (no circuit), so that what hashes natively (the PoSt
// vanilla-proof checks, their fuzz target) builds without the circuit's headers.

#include <cstddef>
#include <string>

#include "core/error.hpp"
#include "gadgets/poseidon_batch.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/tree_hash.hpp"

namespace cuzk::porep {

// The Poseidon constants a partition uses (MerkleTree constants of arity 2, 4, 8 and 11), built
// once and shared by every partition and thread, with their batched native hashes (the checks'
// paths; kernel: PoseidonKernel::scalar forces the scalar hash, for tests and timing).
class PorepPoseidon {
 public:
  explicit PorepPoseidon(gadgets::PoseidonKernel kernel = gadgets::PoseidonKernel::best)
      : c2_(gadgets::PoseidonConstants::merkle_tree(2)),
        c4_(gadgets::PoseidonConstants::merkle_tree(4)),
        c8_(gadgets::PoseidonConstants::merkle_tree(8)),
        c11_(gadgets::PoseidonConstants::merkle_tree(11)),
        b2_(c2_, kernel),
        b4_(c4_, kernel),
        b8_(c8_, kernel),
        b11_(c11_, kernel) {}
  PorepPoseidon(const PorepPoseidon&) = delete;  // tree_hash() refers into it
  PorepPoseidon& operator=(const PorepPoseidon&) = delete;

  const gadgets::PoseidonConstants& arity(size_t a) const {
    switch (a) {
      case 2: return c2_;
      case 4: return c4_;
      case 8: return c8_;
      case 11: return c11_;
      default: throw Exception(invalid_argument("PorepPoseidon: arity 2, 4, 8 or 11, not " + std::to_string(a)));
    }
  }
  const gadgets::PoseidonBatch& batch(size_t a) const {
    switch (a) {
      case 2: return b2_;
      case 4: return b4_;
      case 8: return b8_;
      case 11: return b11_;
      default: throw Exception(invalid_argument("PorepPoseidon: arity 2, 4, 8 or 11, not " + std::to_string(a)));
    }
  }
  gadgets::PoseidonTreeHash tree_hash() const { return {c2_, c4_, c8_}; }

 private:
  gadgets::PoseidonConstants c2_, c4_, c8_, c11_;
  gadgets::PoseidonBatch b2_, b4_, b8_, b11_;  // refer to the constants above
};

}  // namespace cuzk::porep
