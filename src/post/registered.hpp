#pragma once
// The fifteen registered PoSt proofs (shared/SPEC-POST.md §1): Go's abi.RegisteredPoStProof ids
// 0-14 (what Curio puts in registered_proof), their kind, sector size and ApiVersion, and the
// FallbackPoSt circuit parameters a kind implies (rust-fil-proofs filecoin-proofs parameters.rs
// window_post_setup_params / winning_post_setup_params). One constexpr table; the rest derives.

#include <array>
#include <cstdint>
#include <string_view>

#include "core/expected.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::post {

enum class PostKind : uint8_t { kWinning, kWindow };

constexpr std::string_view kind_name(PostKind k) { return k == PostKind::kWinning ? "winning-post" : "window-post"; }

// filecoin-proofs constants.rs: WINDOW_POST_CHALLENGE_COUNT, WINNING_POST_CHALLENGE_COUNT,
// WINNING_POST_SECTOR_COUNT, WINDOW_POST_SECTOR_COUNT (the miner actor's partition size).
inline constexpr uint32_t kWindowChallenges = 10;
inline constexpr uint32_t kWinningChallenges = 66;
constexpr uint32_t window_sector_count(uint64_t sector_size) {
  return sector_size == (uint64_t{32} << 30) ? 2349 : sector_size == (uint64_t{64} << 30) ? 2300 : 2;
}

struct RegisteredPostProof {
  std::string_view name;      // Go's name (abi.RegisteredPoStProof)
  std::string_view api_name;  // proofs-api's name (Go's ...V1_1 is proofs-api's ...V1_2)
  uint64_t id;
  PostKind kind;
  uint64_t sector_size;
  porep::ApiVersion api_version;
};

inline constexpr std::array<RegisteredPostProof, 15> kRegisteredPostProofs{{
    {"StackedDrgWinning2KiBV1", "StackedDrgWinning2KiBV1", 0, PostKind::kWinning, uint64_t{2} << 10, porep::ApiVersion::kV1_0},
    {"StackedDrgWinning8MiBV1", "StackedDrgWinning8MiBV1", 1, PostKind::kWinning, uint64_t{8} << 20, porep::ApiVersion::kV1_0},
    {"StackedDrgWinning512MiBV1", "StackedDrgWinning512MiBV1", 2, PostKind::kWinning, uint64_t{512} << 20, porep::ApiVersion::kV1_0},
    {"StackedDrgWinning32GiBV1", "StackedDrgWinning32GiBV1", 3, PostKind::kWinning, uint64_t{32} << 30, porep::ApiVersion::kV1_0},
    {"StackedDrgWinning64GiBV1", "StackedDrgWinning64GiBV1", 4, PostKind::kWinning, uint64_t{64} << 30, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow2KiBV1", "StackedDrgWindow2KiBV1", 5, PostKind::kWindow, uint64_t{2} << 10, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow8MiBV1", "StackedDrgWindow8MiBV1", 6, PostKind::kWindow, uint64_t{8} << 20, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow512MiBV1", "StackedDrgWindow512MiBV1", 7, PostKind::kWindow, uint64_t{512} << 20, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow32GiBV1", "StackedDrgWindow32GiBV1", 8, PostKind::kWindow, uint64_t{32} << 30, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow64GiBV1", "StackedDrgWindow64GiBV1", 9, PostKind::kWindow, uint64_t{64} << 30, porep::ApiVersion::kV1_0},
    {"StackedDrgWindow2KiBV1_1", "StackedDrgWindow2KiBV1_2", 10, PostKind::kWindow, uint64_t{2} << 10, porep::ApiVersion::kV1_2},
    {"StackedDrgWindow8MiBV1_1", "StackedDrgWindow8MiBV1_2", 11, PostKind::kWindow, uint64_t{8} << 20, porep::ApiVersion::kV1_2},
    {"StackedDrgWindow512MiBV1_1", "StackedDrgWindow512MiBV1_2", 12, PostKind::kWindow, uint64_t{512} << 20, porep::ApiVersion::kV1_2},
    {"StackedDrgWindow32GiBV1_1", "StackedDrgWindow32GiBV1_2", 13, PostKind::kWindow, uint64_t{32} << 30, porep::ApiVersion::kV1_2},
    {"StackedDrgWindow64GiBV1_1", "StackedDrgWindow64GiBV1_2", 14, PostKind::kWindow, uint64_t{64} << 30, porep::ApiVersion::kV1_2},
}};

// By Go id (0..14), or by Go or proofs-api name. Unknown: kInvalidArgument listing the ids.
Expected<RegisteredPostProof> registered_post_proof(uint64_t id);
Expected<RegisteredPostProof> registered_post_proof(std::string_view name_or_id);

// The registered proof of a kind and size: WindowPoSt's is the current one (V1_1, ids 10-14).
Expected<RegisteredPostProof> registered_post_proof(PostKind kind, uint64_t sector_size);

// "window-post" | "winning-post".
Expected<PostKind> parse_post_kind(std::string_view text);

// What the FallbackPoSt circuit of a kind and size is made of (SPEC-POST.md §1, §3).
struct PostParams {
  PostKind kind;
  porep::SectorShape sector;  // nodes and the tree R arities
  uint32_t sector_count;      // sectors per partition circuit (WinningPoSt: 66 copies of one)
  uint32_t challenge_count;   // challenged leaves per circuit sector (WinningPoSt: 1)
  uint32_t vanilla_challenges;  // inclusion proofs per vanilla sector proof (10 / 66)

  // Public inputs per partition, ONE excluded: sector_count · (1 + challenge_count).
  constexpr uint32_t public_inputs() const { return sector_count * (1 + challenge_count); }
};
Expected<PostParams> post_params(PostKind kind, uint64_t sector_size);
inline Expected<PostParams> post_params(const RegisteredPostProof& p) { return post_params(p.kind, p.sector_size); }

}  // namespace cuzk::post
