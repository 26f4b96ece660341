#include "engine/job.hpp"

#include <algorithm>
#include <cctype>
#include <string>

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

}  // namespace cuzk::engine
