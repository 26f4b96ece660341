#pragma once
// The StackedDRG graph of a sector (rust-fil-proofs storage-proofs-core drgraph.rs BucketGraph,
// storage-proofs-porep stacked/vanilla/graph.rs StackedBucketGraph; shared/SPEC-POREP.md §2):
// every node has 6 DRG parents (DRSample bucket sampling, ChaCha8 seeded per node) and 8
// expander parents (a 3-round Feistel permutation of [0, 8·nodes), BLAKE2b round function).
// Both depend on porep_id. Parents are computed on demand: no table, no allocation per call.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::porep {

// V1_0 keeps the predecessor in DRG slot 5 and truncates the Feistel output to u32 before the
// division by 8; V1_1 and later (V1_2 without features) keep it in slot 0 and divide as u64.
enum class GraphVersion : uint8_t { kV1_0, kV1_1 };

inline constexpr size_t kDrgDegree = 6;
inline constexpr size_t kExpanderDegree = 8;
inline constexpr size_t kParentCount = kDrgDegree + kExpanderDegree;

using PorepId = std::array<uint8_t, 32>;

class StackedGraph {
 public:
  // Throws cuzk::Exception (invalid_argument) when nodes < 2 or nodes > 2^32 (node indices are
  // u32 in the circuit and in the Rust graph).
  StackedGraph(uint64_t nodes, const PorepId& porep_id, GraphVersion version);

  uint64_t nodes() const { return nodes_; }
  GraphVersion version() const { return version_; }

  // BucketGraph::parents. Nodes 0 and 1 have all-zero parents. Throws for node >= nodes().
  void drg_parents(uint64_t node, std::span<uint32_t, kDrgDegree> out) const;
  // StackedBucketGraph::expanded_parents, i = 0..7: permute(8·node + i) / 8.
  void expander_parents(uint64_t node, std::span<uint32_t, kExpanderDegree> out) const;
  // 6 DRG then 8 expander parents: the order of the circuit's columns and of the C1.
  void parents(uint64_t node, std::span<uint32_t, kParentCount> out) const;

 private:
  void check_node(uint64_t node, const char* what) const;
  uint64_t feistel_encode(uint64_t index) const;

  uint64_t nodes_;
  GraphVersion version_;
  std::array<uint32_t, 8> drg_key_{};  // ChaCha8 key words 0..6 = SHA256(DST ‖ porep_id)[..28]
  std::array<uint64_t, 3> feistel_keys_{};  // LE u64s of SHA256("Filecoin_Feistel" ‖ porep_id), first 3 (3 rounds)
  uint64_t feistel_half_bits_ = 0;
  uint64_t feistel_right_mask_ = 0;
};

}  // namespace cuzk::porep
