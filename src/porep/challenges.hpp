#pragma once
// The public side of a StackedDRG PoRep (shared/SPEC-POREP.md §1-§3, §9): replica_id, the
// interactive and synthetic challenges (docs/synthetic-porep.md), the label hash, and the
// partition's public-input vector that a verifier assembles from public data alone (replica_id,
// comm_d, comm_r, seed, porep_id).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "porep/graph.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::porep {

using Bytes32 = std::array<uint8_t, 32>;

// filecoin-ffi toProverID: the payload of the ID address f0<actor_id> (unsigned LEB128 varint of
// the actor id), zero-padded to 32 bytes.
Bytes32 prover_id_from_miner(uint64_t actor_id);

// stacked/vanilla/params.rs generate_replica_id: SHA256(prover_id ‖ sector_id u64 BE ‖ ticket ‖
// comm_d ‖ porep_id) with byte 31 &= 0x3f, read little-endian (< 2^254, so always an Fr).
ff::Fr replica_id(std::span<const uint8_t, 32> prover_id, uint64_t sector_id, std::span<const uint8_t, 32> ticket,
                  std::span<const uint8_t, 32> comm_d, std::span<const uint8_t, 32> porep_id);

// stacked/vanilla/challenges.rs InteractiveChallenges::derive for one partition: challenge i is
// LE(SHA256(replica_id LE ‖ seed ‖ j u32 LE)) mod (nodes − 1) + 1 with j = cpp·k + i, k taken as
// u8 as the Rust code does. Every challenge lies in [1, nodes − 1].
std::vector<uint64_t> interactive_challenges(const ff::Fr& replica_id, std::span<const uint8_t, 32> seed,
                                             uint64_t nodes, uint32_t partition,
                                             uint32_t challenges_per_partition);

// Synthetic PoRep (challenges.rs `SynthChallenges` and module `synthetic`; docs/synthetic-porep.md).
// After sealing, the prover proves a fixed set of synthetic challenges drawn from replica_id and
// comm_r; the seed then only selects which of them a partition's vanilla proofs are for.
//   synthetic challenge i: the 32 keystream bytes at offset 32·i of ChaCha20 (RFC 8439, 96-bit
//     nonce "synth-porep\0", counter from 0) under the key BLAKE2b-256, keyed with
//     "filecoin.io|PoRep|1|Synthetic|1|Generation", of replica_id ‖ comm_r (LE Fr bytes); read
//     as a LE integer, mod (nodes − 1), + 1;
//   partition k's index j (j = 0..cpp−1): the u32 LE at keystream offset 4·(cpp·k + j) of
//     ChaCha20 under the key BLAKE2b-256, keyed with "filecoin.io|PoRep|1|Synthetic|1|Selection",
//     of replica_id ‖ seed; mod count, where count = min(nodes, 2^18);
//   partition k's challenge j = synthetic challenge (index j). k is taken as u8, as for the
//     interactive challenges.
inline constexpr uint64_t kDefaultSyntheticChallenges = uint64_t{1} << 18;
constexpr uint64_t synthetic_challenge_count(uint64_t nodes) {
  return nodes < kDefaultSyntheticChallenges ? nodes : kDefaultSyntheticChallenges;
}

// Synthetic challenges [first, first + n) of a set of `count` (count < 2^32, first + n <= count).
std::vector<uint64_t> synthetic_challenge_set(const ff::Fr& replica_id, const ff::Fr& comm_r, uint64_t nodes,
                                              uint64_t count, uint64_t first, uint64_t n);

// Partition k's indexes into the synthetic challenge set, each < count.
std::vector<uint64_t> synthetic_challenge_indexes(const ff::Fr& replica_id, std::span<const uint8_t, 32> seed,
                                                  uint64_t count, uint32_t partition,
                                                  uint32_t challenges_per_partition);

// Partition k's PoRep challenges of a synthetic-PoRep sector: the synthetic challenges its
// indexes select (count = synthetic_challenge_count(nodes) unless given, as in Rust's tests).
std::vector<uint64_t> synthetic_challenges(const ff::Fr& replica_id, const ff::Fr& comm_r,
                                           std::span<const uint8_t, 32> seed, uint64_t nodes, uint32_t partition,
                                           uint32_t challenges_per_partition, uint64_t count = 0);

// The challenges of partition k for a registered proof's feature: interactive (kNone) from
// replica_id and seed, synthetic from replica_id, comm_r and seed. Non-interactive PoRep is not
// served (throws cuzk::Exception; registered_seal_proof refuses it first).
std::vector<uint64_t> porep_challenges(PorepFeature feature, const ff::Fr& replica_id, const ff::Fr& comm_r,
                                       std::span<const uint8_t, 32> seed, uint64_t nodes, uint32_t partition,
                                       uint32_t challenges_per_partition);

inline constexpr size_t kLabelParents = 37;

// The 37 label parents from a node's parent labels (create_label/single.rs, SPEC.md §2):
// layer 1 takes the 6 DRG labels (of layer 1), cyclically: p0..p5 six times, then p0; a later
// layer takes the 6 DRG labels (of that layer) then the 8 expander labels (of layer − 1),
// cyclically: [d0..d5, e0..e7] twice, then d0..d5, e0..e2. `parent_labels` must hold 6 entries
// for layer 1 and 14 for a later layer (throws cuzk::Exception otherwise).
void expand_label_parents(uint32_t layer, std::span<const ff::Fr> parent_labels,
                          std::span<ff::Fr, kLabelParents> out);

// SHA256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes ‖ 37 parents × 32 LE bytes),
// byte 31 &= 0x3f, read LE. Layers are 1-based.
ff::Fr create_label(const ff::Fr& replica_id, uint32_t layer, uint64_t node,
                    std::span<const ff::Fr, kLabelParents> parents);
// Node 0 has no parents: SHA256 of the 64-byte header alone.
ff::Fr create_label_without_parents(const ff::Fr& replica_id, uint32_t layer, uint64_t node);

// Every label of every layer (labels[l − 1][node] for layer l), sequentially: for test-sized
// sectors (2 KiB, 8 MiB) and a synthetic C1 built from a really sealed sector.
std::vector<std::vector<ff::Fr>> label_layers(const StackedGraph& graph, const ff::Fr& replica_id,
                                              uint32_t layers);

// One partition's public inputs without ONE (stacked/circuit/proof.rs generate_public_inputs):
// replica_id, comm_d, comm_r, then per challenge c: c (tree D), its 6 DRG parents, its 8 expander
// parents, c (UInt64), c (tree R), c (tree C). Size 3 + 18·challenges.
std::vector<ff::Fr> porep_public_inputs(const ff::Fr& replica_id, const ff::Fr& comm_d, const ff::Fr& comm_r,
                                        const StackedGraph& graph, std::span<const uint64_t> challenges);

}  // namespace cuzk::porep
