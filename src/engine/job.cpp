#include "engine/job.hpp"

#include <algorithm>
#include <cctype>
#include <span>
#include <string>
#include <vector>

#include "gadgets/sha256_native.hpp"

namespace cuzk::engine {

std::string_view to_string(ProofKind kind) {
  switch (kind) {
    case ProofKind::unspecified: return "unspecified";
    case ProofKind::porep_seal_commit: return "porep_seal_commit";
    case ProofKind::snap_deals_update: return "snap_deals_update";
    case ProofKind::window_post_partition: return "window_post_partition";
    case ProofKind::winning_post: return "winning_post";
  }
  return "unknown";
}

std::string_view to_string(Priority priority) {
  switch (priority) {
    case Priority::unspecified: return "unspecified";
    case Priority::low: return "low";
    case Priority::normal: return "normal";
    case Priority::high: return "high";
    case Priority::critical: return "critical";
  }
  return "unknown";
}

std::optional<Priority> parse_priority(std::string_view text) {
  std::string t(text);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (Priority p : {Priority::low, Priority::normal, Priority::high, Priority::critical}) {
    if (t == to_string(p)) return p;
  }
  return std::nullopt;
}

std::string_view to_string(JobState state) {
  switch (state) {
    case JobState::queued: return "queued";
    case JobState::running: return "running";
    case JobState::completed: return "completed";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "unknown";
}

RequestDigest request_digest(const JobRequest& r) {
  // SHA-256 over the fields, each fixed-width (little-endian u64s) or length-prefixed, so no two
  // requests share an encoding; the payloads enter as their own SHA-256 (hashed in place).
  std::vector<uint8_t> fields;
  const auto put = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i) fields.push_back(uint8_t(v >> (8 * i)));
  };
  const auto put_bytes = [&](std::span<const uint8_t> b) {
    put(b.size());
    fields.insert(fields.end(), b.begin(), b.end());
  };
  const auto put_digest = [&](std::span<const uint8_t> b) {
    put(b.size());
    const auto d = gadgets::native::sha256(b);
    fields.insert(fields.end(), d.begin(), d.end());
  };
  put(uint64_t(r.kind));
  put(r.registered_proof ? *r.registered_proof + 1 : 0);  // 0: not given
  put(r.sector_size);
  put(r.sector_number);
  put(r.miner_id);
  put(r.partition_index);
  put_bytes(r.randomness);
  put_bytes(r.comm_r_old);
  put_bytes(r.comm_r_new);
  put_bytes(r.comm_d_new);
  put_digest(r.vanilla_proof);
  put(r.vanilla_proofs.size());
  for (const std::vector<uint8_t>& v : r.vanilla_proofs) put_digest(v);
  return gadgets::native::sha256(fields);
}

}  // namespace cuzk::engine
