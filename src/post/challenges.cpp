#include "post/challenges.hpp"

#include <algorithm>
#include <string>

#include "core/hex.hpp"
#include "gadgets/sha256_native.hpp"

namespace cuzk::post {

namespace {

uint64_t u64_le(std::span<const uint8_t> b) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v |= uint64_t(b[i]) << (8 * i);
  return v;
}

void put_u64_le(std::vector<uint8_t>& out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

Expected<ff::Fr> canonical(std::span<const uint8_t, 32> bytes, const std::string& what) {
  Expected<ff::Fr> v = ff::Fr::from_bytes_le(bytes);
  if (!v) return Error{ErrorCode::kInvalidArgument, what + " " + to_hex(bytes) + ": not a canonical field element"};
  return v;
}

// The verifier's order: ascending sector number, duplicates collapsed.
std::vector<PublicSector> verifier_order(std::vector<PublicSector> sectors) {
  std::stable_sort(sectors.begin(), sectors.end(),
                   [](const PublicSector& a, const PublicSector& b) { return a.sector_id < b.sector_id; });
  sectors.erase(std::unique(sectors.begin(), sectors.end(),
                            [](const PublicSector& a, const PublicSector& b) { return a.sector_id == b.sector_id; }),
                sectors.end());
  return sectors;
}

}  // namespace

uint64_t leaf_challenge(std::span<const uint8_t, 32> randomness, uint64_t sector_id, uint64_t index, uint64_t nodes) {
  std::vector<uint8_t> message(randomness.begin(), randomness.end());
  put_u64_le(message, sector_id);
  put_u64_le(message, index);
  const gadgets::native::Sha256Digest h = gadgets::native::sha256(message);
  return u64_le(h) % nodes;
}

uint64_t sector_challenge(std::span<const uint8_t, 32> randomness, std::span<const uint8_t, 32> prover_id, uint64_t n,
                          uint64_t sector_set_len) {
  std::vector<uint8_t> message(prover_id.begin(), prover_id.end());
  message.insert(message.end(), randomness.begin(), randomness.end());
  put_u64_le(message, n);
  const gadgets::native::Sha256Digest h = gadgets::native::sha256(message);
  return u64_le(h) % sector_set_len;
}

std::vector<uint64_t> vanilla_challenges(const RegisteredPostProof& proof, std::span<const uint8_t, 32> randomness,
                                         uint64_t sector_id, uint64_t sector_index) {
  const uint64_t nodes = proof.sector_size / 32;
  const uint32_t count = proof.kind == PostKind::kWinning ? kWinningChallenges : kWindowChallenges;
  if (proof.kind == PostKind::kWinning) sector_index = 0;  // one sector per (single) partition
  std::vector<uint64_t> out(count);
  for (uint32_t n = 0; n < count; ++n)
    out[n] = leaf_challenge(randomness, sector_id, challenge_index(proof.api_version, sector_index, count, n), nodes);
  return out;
}

uint32_t partition_count(const PostPublicData& data) {
  if (data.proof.kind == PostKind::kWinning) return 1;
  const size_t n = verifier_order(data.sectors).size();
  const uint32_t per = window_sector_count(data.proof.sector_size);
  return std::max<uint32_t>(1, static_cast<uint32_t>((n + per - 1) / per));
}

Expected<std::vector<ff::Fr>> partition_public_inputs(const PostPublicData& data, uint32_t partition) {
  const std::vector<PublicSector> sectors = verifier_order(data.sectors);
  if (sectors.empty()) return Error{ErrorCode::kInvalidArgument, "no challenged sectors"};
  if (data.proof.kind == PostKind::kWinning) {
    if (sectors.size() != 1)
      return Error{ErrorCode::kInvalidArgument, "WinningPoSt proves one sector, not " + std::to_string(sectors.size())};
    if (partition != 0) return Error{ErrorCode::kInvalidArgument, "WinningPoSt has one partition"};
    return chunk_public_inputs(data.proof, data.randomness, sectors, 0);
  }
  const size_t per = window_sector_count(data.proof.sector_size), first = size_t(partition) * per;
  if (first >= sectors.size())
    return Error{ErrorCode::kInvalidArgument, "partition " + std::to_string(partition) + " of " +
                                                  std::to_string(partition_count(data))};
  return chunk_public_inputs(data.proof, data.randomness,
                             std::span(sectors).subspan(first, std::min(per, sectors.size() - first)), partition);
}

Expected<std::vector<ff::Fr>> chunk_public_inputs(const RegisteredPostProof& proof, std::span<const uint8_t, 32> randomness,
                                                  std::span<const PublicSector> chunk, uint32_t partition) {
  PostParams p;
  CUZK_TRY_ASSIGN(p, post_params(proof));
  ff::Fr ignored;
  CUZK_TRY_ASSIGN(ignored, canonical(randomness, "randomness"));  // as_safe_commitment
  std::vector<PublicSector> sectors(chunk.begin(), chunk.end());
  if (sectors.empty()) return Error{ErrorCode::kInvalidArgument, "no challenged sectors"};
  if (p.kind == PostKind::kWinning) {
    if (sectors.size() != 1 || partition != 0)
      return Error{ErrorCode::kInvalidArgument, "WinningPoSt proves one sector in one partition"};
    sectors.assign(p.sector_count, sectors[0]);  // api/winning_post.rs: the sector repeated 66 times
  }
  if (sectors.size() > p.sector_count)
    return Error{ErrorCode::kInvalidArgument, std::to_string(sectors.size()) + " sectors, a partition holds " +
                                                  std::to_string(p.sector_count)};
  const uint64_t first = p.kind == PostKind::kWinning ? 0 : uint64_t(partition) * p.sector_count;
  std::vector<ff::Fr> out;
  out.reserve(p.public_inputs());
  for (size_t i = 0; i < sectors.size(); ++i) {
    ff::Fr comm_r;
    CUZK_TRY_ASSIGN(comm_r, canonical(sectors[i].comm_r, "comm_r of sector " + std::to_string(sectors[i].sector_id)));
    out.push_back(comm_r);
    for (uint32_t n = 0; n < p.challenge_count; ++n) {
      const uint64_t index = challenge_index(proof.api_version, first + i, p.challenge_count, n);
      out.push_back(ff::Fr::from_uint(leaf_challenge(randomness, sectors[i].sector_id, index, p.sector.nodes)));
    }
  }
  const size_t per = 1 + p.challenge_count;  // padding: the last sector's block, as it is
  const std::vector<ff::Fr> last(out.end() - static_cast<std::ptrdiff_t>(per), out.end());
  while (out.size() < p.public_inputs()) out.insert(out.end(), last.begin(), last.end());
  return out;
}

}  // namespace cuzk::post
