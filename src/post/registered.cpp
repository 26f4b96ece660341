#include "post/registered.hpp"

#include <charconv>
#include <string>

namespace cuzk::post {

static_assert([] {
  for (size_t i = 0; i < kRegisteredPostProofs.size(); ++i)
    if (kRegisteredPostProofs[i].id != i) return false;  // GST abi/sector.go: iota order
  return true;
}());

namespace {

std::string known() {
  std::string s;
  for (size_t i = 0; i < kRegisteredPostProofs.size(); ++i)
    s += (i ? ", " : "") + std::to_string(i) + " " + std::string(kRegisteredPostProofs[i].name);
  return s;
}

}  // namespace

Expected<RegisteredPostProof> registered_post_proof(uint64_t id) {
  if (id >= kRegisteredPostProofs.size())
    return Error{ErrorCode::kInvalidArgument, "unknown registered PoSt proof " + std::to_string(id) + " (known: " + known() + ")"};
  return kRegisteredPostProofs[id];
}

Expected<RegisteredPostProof> registered_post_proof(std::string_view text) {
  uint64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec == std::errc() && end == text.data() + text.size()) return registered_post_proof(id);
  for (size_t i = 0; i < kRegisteredPostProofs.size(); ++i) {
    const RegisteredPostProof& p = kRegisteredPostProofs[i];
    // "StackedDrgWindow2KiBV1_2" is proofs-api's name of Go's ...V1_1; "...V1" names both tables' V1.
    if (p.name == text || p.api_name == text) return registered_post_proof(i);
  }
  return Error{ErrorCode::kInvalidArgument, "unknown registered PoSt proof '" + std::string(text) + "' (known: " + known() + ")"};
}

Expected<RegisteredPostProof> registered_post_proof(PostKind kind, uint64_t sector_size) {
  for (size_t i = kRegisteredPostProofs.size(); i-- > 0;) {
    if (kRegisteredPostProofs[i].kind == kind && kRegisteredPostProofs[i].sector_size == sector_size)
      return registered_post_proof(i);
  }
  return Error{ErrorCode::kInvalidArgument, "no registered " + std::string(kind_name(kind)) + " proof for " +
                                                std::to_string(sector_size) + "-byte sectors"};
}

Expected<PostKind> parse_post_kind(std::string_view text) {
  if (text == "window-post") return PostKind::kWindow;
  if (text == "winning-post") return PostKind::kWinning;
  return Error{ErrorCode::kInvalidArgument, "unknown PoSt kind '" + std::string(text) + "' (window-post or winning-post)"};
}

Expected<PostParams> post_params(PostKind kind, uint64_t sector_size) {
  porep::SectorShape shape;
  CUZK_TRY_ASSIGN(shape, porep::shape_for_sector_size(sector_size));
  if (kind == PostKind::kWinning) {
    // winning_post_setup_params: sector_count = 66 / 1, challenge_count = 66 / 66.
    return PostParams{kind, shape, kWinningChallenges, 1, kWinningChallenges};
  }
  return PostParams{kind, shape, window_sector_count(sector_size), kWindowChallenges, kWindowChallenges};
}

}  // namespace cuzk::post
