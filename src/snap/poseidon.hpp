#pragma once
// SnapDeals' Poseidon constants on their own (no circuit), so that what hashes natively (the
// vanilla-proof checks, their fuzz target) builds without the circuit's headers.

#include <cstddef>

#include "gadgets/poseidon_batch.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/tree_hash.hpp"

namespace cuzk::snap {

// The Poseidon constants a partition uses: MerkleTree arity 2, 4, 8 (tree R nodes, comm_r) and
// PoseidonGen = arity 2 with domain tag 2^40 (constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS,
// HashType::Custom(CType::Arbitrary(1)): phi, rho and the challenge digests); the tree
// constants' batched native hashes (the checks' paths; PoseidonKernel::scalar forces the scalar
// hash, for tests and timing).
class UpdatePoseidon {
 public:
  explicit UpdatePoseidon(gadgets::PoseidonKernel kernel = gadgets::PoseidonKernel::best);
  UpdatePoseidon(const UpdatePoseidon&) = delete;  // tree_hash() refers into it
  UpdatePoseidon& operator=(const UpdatePoseidon&) = delete;

  const gadgets::PoseidonConstants& merkle2() const { return c2_; }
  const gadgets::PoseidonConstants& gen() const { return gen_; }
  gadgets::PoseidonTreeHash tree_hash() const { return {c2_, c4_, c8_}; }
  // Arity 2, 4 or 8; throws for another.
  const gadgets::PoseidonBatch& batch(size_t arity) const;

 private:
  gadgets::PoseidonConstants c2_, c4_, c8_, gen_;
  gadgets::PoseidonBatch b2_, b4_, b8_;  // refer to the constants above
};

}  // namespace cuzk::snap
