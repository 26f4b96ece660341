#pragma once
// The public side of FallbackPoSt (shared/SPEC-POST.md §2, §4-§6; storage-proofs-post
// fallback/{vanilla.rs,utils.rs,compound.rs}, rust-fil-proofs @87348a74): leaf challenges from the
// randomness and sector ids, and a partition's public-input vector from public data alone.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "porep/sector_shape.hpp"
#include "post/registered.hpp"

namespace cuzk::post {

using Bytes32 = std::array<uint8_t, 32>;

// utils.rs get_challenge_index: V1_0_0 and V1_1_0 sector_index · challenge_count + n; V1_2_0 n
// (the "grindability" fix).
constexpr uint64_t challenge_index(porep::ApiVersion api, uint64_t sector_index, uint64_t challenge_count, uint64_t n) {
  return api == porep::ApiVersion::kV1_2 ? n : sector_index * challenge_count + n;
}

// vanilla.rs generate_leaf_challenge_inner: SHA256(randomness ‖ sector_id u64 LE ‖ challenge_index
// u64 LE), its first 8 bytes as u64 LE, mod nodes.
uint64_t leaf_challenge(std::span<const uint8_t, 32> randomness, uint64_t sector_id, uint64_t challenge_index,
                        uint64_t nodes);

// vanilla.rs generate_sector_challenge (WinningPoSt's sector selection, done by the node):
// SHA256(prover_id ‖ randomness ‖ n u64 LE), first 8 bytes u64 LE, mod sector_set_len.
uint64_t sector_challenge(std::span<const uint8_t, 32> randomness, std::span<const uint8_t, 32> prover_id, uint64_t n,
                          uint64_t sector_set_len);

// The leaves a sector's vanilla proof answers (post_util.rs generate_fallback_sector_challenges):
// WindowPoSt 10 with the sector's global position sector_index (partition · sector_count + i, in
// ascending sector order); WinningPoSt 66, n = 0..65 (sector_index 0, V1_0_0).
std::vector<uint64_t> vanilla_challenges(const RegisteredPostProof& proof, std::span<const uint8_t, 32> randomness,
                                         uint64_t sector_id, uint64_t sector_index);

// A challenged sector as the verifier knows it.
struct PublicSector {
  uint64_t sector_id = 0;
  Bytes32 comm_r{};
  friend bool operator==(const PublicSector&, const PublicSector&) = default;
};

struct PostPublicData {
  RegisteredPostProof proof{};
  Bytes32 randomness{};
  // The challenged sectors; the verifier takes them in ascending sector number, duplicates
  // collapsed (a BTreeMap), which partition_public_inputs does too. WinningPoSt: one sector.
  std::vector<PublicSector> sectors;
};

// ceil(#sectors / sector_count), at least 1 (get_partitions_for_window_post); WinningPoSt 1.
uint32_t partition_count(const PostPublicData& data);

// Partition k's public inputs, ONE excluded (FallbackPoStCompound::generate_public_inputs): per
// sector of chunk k, comm_r then its challenge_count leaf challenges (sector_index = k·N + i); the
// last sector's block repeated up to N sectors. WinningPoSt: the one sector as 66 circuit sectors
// (copy i: challenge_index i). Errors: randomness or a comm_r not a canonical field element (named),
// no sectors, k out of range, WinningPoSt with more than one sector.
Expected<std::vector<ff::Fr>> partition_public_inputs(const PostPublicData& data, uint32_t partition);

// The same for a partition whose sectors alone are known (what a prover of one partition has):
// `chunk` is partition k's sectors in the verifier's order, at most sector_count (WinningPoSt: the
// one sector); sector i of it has the position k·sector_count + i.
Expected<std::vector<ff::Fr>> chunk_public_inputs(const RegisteredPostProof& proof, std::span<const uint8_t, 32> randomness,
                                                  std::span<const PublicSector> chunk, uint32_t partition);

}  // namespace cuzk::post
