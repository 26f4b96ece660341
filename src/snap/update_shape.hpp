#pragma once
// The SnapDeals (EmptySectorUpdate) shape of a sector size (shared/SPEC-SNAP.md §2, read from
// rust-fil-proofs @87348a74 storage-proofs-update/src/constants.rs): tree R shape, partitions,
// challenges per partition, apex leafs, the six h values and the h Filecoin uses. Everything is
// derived from the node count by the constants.rs rules; the tree R shapes are
// validate_tree_r_shape's table (the five production sizes and the Rust tests' 1-32 KiB, 16 MiB).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "gadgets/por.hpp"

namespace cuzk::snap {

inline constexpr uint32_t kFrCapacity = 254;  // Fr::CAPACITY: random bits per challenge digest

struct UpdateShape {
  uint64_t nodes = 0;               // 32-byte nodes
  gadgets::MerkleShape tree_r;      // tree R old and new (Poseidon), e.g. {8, 8, 0} at 32 GiB
  uint32_t partitions = 0;          // partition_count
  uint32_t challenges = 0;          // challenge_count (per partition)
  uint32_t apex_leafs = 0;          // apex_leaf_count
  std::array<uint32_t, 6> hs{};     // hs(nodes)
  uint32_t h = 0;                   // h_default = hs[3] (filecoin-proofs sector_update_config.rs)

  uint64_t sector_size() const { return nodes * 32; }
  uint32_t challenge_bits() const;  // log2(nodes)
  uint32_t partition_bits() const;  // log2(partitions)
  uint32_t apex_bits() const;       // log2(apex_leafs)
  // Random bits of a challenge (the rest are the partition bits) and how many a digest yields.
  uint32_t random_bits() const { return challenge_bits() - partition_bits(); }
  uint32_t challenges_per_digest() const { return kFrCapacity / random_bits(); }
  uint32_t digests_per_partition() const {
    return (challenges + challenges_per_digest() - 1) / challenges_per_digest();
  }
  // Tree-D levels below the apex row (proved per challenge): cbl − pbl − abl.
  uint32_t tree_d_levels_below_apex() const { return challenge_bits() - partition_bits() - apex_bits(); }
  // 1 << (index of the FIRST hs entry equal to h): 8 for production sizes, 1 up to 32 KiB.
  uint32_t h_select() const;
  // Tree R path: base levels (log_base of nodes / (sub·top)), then one sub, then one top element.
  uint32_t tree_r_base_levels() const;
  uint32_t tree_r_path_len() const { return tree_r_base_levels() + (tree_r.sub ? 1 : 0) + (tree_r.top ? 1 : 0); }
  std::string name() const;  // "2KiB", "32GiB", ...
};

namespace detail {
// Tree R's arities, leaf → root: base × base levels, then sub, then top.
std::vector<size_t> tree_r_arities(const UpdateShape& shape);
}  // namespace detail

// The shape of a sector of `nodes` nodes: the five production sizes and the Rust test sizes
// (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, 32, 64 GiB). Other sizes: kInvalidArgument.
Expected<UpdateShape> update_shape(uint64_t nodes);
Expected<UpdateShape> update_shape_for_sector_size(uint64_t bytes);

// "2KiB" | ... | "64GiB" (suffix case-insensitive) or a byte count, of a size update_shape knows.
Expected<uint64_t> parse_update_sector_size(std::string_view text);

// abi.RegisteredUpdateProof (go-state-types abi/sector.go; API registry.rs RegisteredUpdateProof,
// ApiVersion V1_1_0): 0 StackedDrg2KiBV1 .. 4 StackedDrg64GiBV1.
struct RegisteredUpdateProof {
  std::string_view name;
  uint64_t id;
  uint64_t sector_size;
};
inline constexpr std::array<RegisteredUpdateProof, 5> kRegisteredUpdateProofs{{
    {"StackedDrg2KiBV1", 0, uint64_t{2} << 10},
    {"StackedDrg8MiBV1", 1, uint64_t{8} << 20},
    {"StackedDrg512MiBV1", 2, uint64_t{512} << 20},
    {"StackedDrg32GiBV1", 3, uint64_t{32} << 30},
    {"StackedDrg64GiBV1", 4, uint64_t{64} << 30},
}};
Expected<RegisteredUpdateProof> registered_update_proof(uint64_t id);
Expected<RegisteredUpdateProof> registered_update_proof_for_size(uint64_t sector_size);

}  // namespace cuzk::snap
