#pragma once
// SnapDeals' Poseidon constants on their own (no circuit), so that what hashes natively (the
// vanilla-proof checks, their fuzz target) builds without the circuit's headers.

#include "gadgets/poseidon_constants.hpp"
#include "gadgets/tree_hash.hpp"

namespace cuzk::snap {

// The Poseidon constants a partition uses: MerkleTree arity 2, 4, 8 (tree R nodes, comm_r) and
// PoseidonGen = arity 2 with domain tag 2^40 (constants.rs POSEIDON_CONSTANTS_GEN_RANDOMNESS,
// HashType::Custom(CType::Arbitrary(1)): phi, rho and the challenge digests).
class UpdatePoseidon {
 public:
  UpdatePoseidon();
  UpdatePoseidon(const UpdatePoseidon&) = delete;  // tree_hash() refers into it
  UpdatePoseidon& operator=(const UpdatePoseidon&) = delete;

  const gadgets::PoseidonConstants& merkle2() const { return c2_; }
  const gadgets::PoseidonConstants& gen() const { return gen_; }
  gadgets::PoseidonTreeHash tree_hash() const { return {c2_, c4_, c8_}; }

 private:
  gadgets::PoseidonConstants c2_, c4_, c8_, gen_;
};

}  // namespace cuzk::snap
