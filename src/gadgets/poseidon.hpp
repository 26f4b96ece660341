#pragma once
// neptune's native Poseidon hash over BLS12-381 Fr (shared/SPEC-POSEIDON.md §3): state
// [domain_tag, x_1 … x_arity], output state[1]. poseidon_hash is neptune's OptimizedStatic mode
// (what Filecoin's Poseidon::hash() runs); poseidon_hash_reference is its plain twin
// (poseidon_alt.rs hash_correct), the oracle of the optimized one in tests.

#include <span>

#include "ff/bls12_381.hpp"
#include "gadgets/poseidon_constants.hpp"

namespace cuzk::gadgets {

// preimage.size() must equal c.arity (HashType::MerkleTree / ConstantLength); throws otherwise.
ff::Fr poseidon_hash(const PoseidonConstants& c, std::span<const ff::Fr> preimage);
ff::Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const ff::Fr> preimage);

}  // namespace cuzk::gadgets
