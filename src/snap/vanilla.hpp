#pragma once
// SnapDeals vanilla proofs: the bincode PartitionProof Curio sends (shared/SPEC-SNAP.md §7), its
// checks against the sector's shape and public data, the challenges, phi / rho and the public
// inputs a verifier derives from public data alone (§1, §3, §4).
//
// bincode 1.x default options: little-endian, u64 lengths for Vec, u32 enum variant tags, fixed
// arrays raw. PartitionProof { comm_c, apex_leafs: Vec, challenge_proofs: Vec of ChallengeProof
// { proof_r_old, proof_d_new, proof_r_new } }, each a MerkleProof (porep/merkle_bincode.hpp:
// u32 variant 0 Single { root, leaf, path }, 1 Sub { base_proof, sub_proof, root, leaf }, 2 Top
// { base_proof, sub_proof, top_proof, root, leaf }; InclusionPath { path: u64 count, per element
// u64 count + 32-byte siblings, u64 index }).

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "snap/partition_proof.hpp"
#include "snap/poseidon.hpp"
#include "snap/update_shape.hpp"

namespace cuzk::snap {

// Decodes one PartitionProof. Every value must be a canonical field element, every index a
// position among its siblings + 1, and the bytes must end exactly with it. An error names
// source_name, the byte offset and the field path (core/byte_reader.hpp), e.g. "p0.bin: offset
// 1234: challenge_proofs[3].proof_r_old.data.Single.path.path[1].hashes[2]: needs 32 bytes, the
// file ends after 10". Counts are bounded by the bytes left before anything is allocated.
Expected<PartitionProof> decode_partition_proof(std::span<const uint8_t> bytes, std::string_view source_name);

// bincode of a PartitionProof (the inverse of decode_partition_proof).
std::vector<uint8_t> encode_partition_proof(const PartitionProof& proof);

// The public values of an update: the three commitments (32 LE bytes each as field elements).
struct UpdatePublic {
  ff::Fr comm_r_old, comm_d_new, comm_r_new;
};

// PoseidonGen = Poseidon arity 2 with domain tag 2^40 (native).
ff::Fr poseidon_gen(const UpdatePoseidon& poseidon, const ff::Fr& a, const ff::Fr& b);
// vanilla.rs phi = PoseidonGen(comm_d_new, comm_r_old); rho(high) = PoseidonGen(phi, high).
ff::Fr phi(const UpdatePoseidon& poseidon, const ff::Fr& comm_d_new, const ff::Fr& comm_r_old);
ff::Fr rho(const UpdatePoseidon& poseidon, const ff::Fr& phi, uint64_t high);

// challenges.rs Challenges::new for partition k: digest j = PoseidonGen(comm_r_new,
// k·digests_per_partition + j), cut into random_bits chunks (LE), each | k << random_bits.
std::vector<uint64_t> partition_challenges(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                           const ff::Fr& comm_r_new, uint32_t partition);

// compound.rs generate_public_inputs, ONE excluded: [k | h_select << pbl, comm_r_old, comm_d_new,
// comm_r_new].
std::vector<ff::Fr> partition_public_inputs(const UpdateShape& shape, uint32_t partition, const UpdatePublic& pub);

// Every check before any work, as EmptySectorUpdate::verify (vanilla.rs) makes them: apex leaf
// and challenge counts; per challenge each proof's kind and path (tree R: Single/Sub/Top of the
// shape, arity − 1 siblings per element; tree D: Single, log2(nodes) elements of one sibling),
// indices < arity, the three leaf indices equal to the derived challenge; one root_r_old and one
// root_r_new throughout, tree D roots = comm_d_new, comm_r_old = Poseidon2(comm_c, root_r_old),
// comm_r_new = Poseidon2(comm_c, root_r_new); each path hashes to its root; the encoding
// leaf_r_new = leaf_r_old + leaf_d_new·rho(c_high); the tree D path through the apex row meets the
// partition's apex leafs. Errors name source_name and the field path.
Expected<void> validate_partition_proof(const PartitionProof& proof, const UpdateShape& shape,
                                        const UpdatePoseidon& poseidon, uint32_t partition, const UpdatePublic& pub,
                                        std::string_view source_name);

}  // namespace cuzk::snap
