#pragma once
// The public side of a StackedDRG PoRep (shared/SPEC-POREP.md §1-§3, §9): replica_id, the
// interactive challenges, the label hash, and the partition's public-input vector that a
// verifier assembles from public data alone (replica_id, comm_d, comm_r, seed, porep_id).

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "porep/graph.hpp"

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
