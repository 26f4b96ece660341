#pragma once
// One SnapDeals partition's vanilla proof, storage-proofs-update vanilla.rs PartitionProof<TreeR>
// (shared/SPEC-SNAP.md §7): what Curio sends per partition, bincode-encoded, and what the circuit
// is synthesised from. Domain values are kept as field elements (Poseidon domains canonical; tree D
// SHA-256 domains below 2^254), the Merkle proofs flattened as porep's (base, sub, top elements).

#include <vector>

#include "ff/bls12_381.hpp"
#include "porep/c1.hpp"

namespace cuzk::snap {

using porep::MerkleProof;
using porep::PathElement;

// vanilla.rs ChallengeProof: the challenged node in tree R old, tree D new, tree R new.
struct ChallengeProof {
  MerkleProof proof_r_old;  // Poseidon, tree R shape
  MerkleProof proof_d_new;  // SHA-256, binary, always Single, log2(nodes) elements of 1 sibling
  MerkleProof proof_r_new;  // Poseidon, tree R shape
  friend bool operator==(const ChallengeProof&, const ChallengeProof&) = default;
};

struct PartitionProof {
  ff::Fr comm_c;                   // the old sector's comm_c
  std::vector<ff::Fr> apex_leafs;  // tree D new's apex row slice of this partition
  std::vector<ChallengeProof> challenge_proofs;
  friend bool operator==(const PartitionProof&, const PartitionProof&) = default;
};

}  // namespace cuzk::snap
