#include "service/wire.hpp"

#include <fmt/format.h>

#include <string>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::service {

Expected<void> check_id(std::string_view field, std::string_view id) {
  if (id.size() <= kMaxIdBytes) return {};
  return invalid_argument(fmt::format("{}: {} bytes, over the limit of {}", field, id.size(), kMaxIdBytes));
}

std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point now, uint64_t timeout_ms) {
  using Clock = std::chrono::steady_clock;
  // Whole milliseconds from now to the clock's end (now + room cannot overflow).
  const int64_t room = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now).count();
  if (timeout_ms == 0 || room <= 0 || timeout_ms >= uint64_t(room)) return Clock::time_point::max();
  return now + std::chrono::milliseconds(int64_t(timeout_ms));
}

Expected<engine::JobRequest> to_job_request(const cuzk::v1::SubmitProofRequest& r) {
  if (Expected<void> id = check_id("request_id", r.request_id()); !id) return id.error();
  engine::JobRequest j;
  const int kind = int(r.proof_kind());
  if (kind < 0 || kind >= engine::kProofKinds)
    return invalid_argument(fmt::format("proof_kind: {} is not a cuzk.v1.ProofKind (1 POREP_SEAL_COMMIT .. 4 WINNING_POST)", kind));
  const int priority = int(r.priority());
  if (priority < 0 || priority > int(engine::Priority::critical))
    return invalid_argument(fmt::format("priority: {} is not a cuzk.v1.Priority (0 unspecified, 1 LOW .. 4 CRITICAL)", priority));
  j.request_id = r.request_id();
  j.kind = engine::ProofKind(kind);
  j.priority = engine::Priority(priority);
  j.sector_size = r.sector_size();
  // proto3 cannot tell 0 from unset: 0 (StackedDrg2KiBV1, a test size) is not checked.
  if (r.registered_proof() != 0) j.registered_proof = r.registered_proof();
  j.vanilla_proof.assign(r.vanilla_proof().begin(), r.vanilla_proof().end());
  j.vanilla_proofs.reserve(size_t(r.vanilla_proofs_size()));
  for (const std::string& v : r.vanilla_proofs()) j.vanilla_proofs.emplace_back(v.begin(), v.end());
  j.sector_number = r.sector_number();
  j.miner_id = r.miner_id();
  // Checked by the kind's handler (its error names the field): PoSt's randomness, WindowPoSt's
  // partition (absent: 0), SnapDeals' three commitments.
  j.randomness.assign(r.randomness().begin(), r.randomness().end());
  j.partition_index = r.partition_index();
  j.comm_r_old.assign(r.comm_r_old().begin(), r.comm_r_old().end());
  j.comm_r_new.assign(r.comm_r_new().begin(), r.comm_r_new().end());
  j.comm_d_new.assign(r.comm_d_new().begin(), r.comm_d_new().end());
  return j;
}

Expected<engine::JobRequest> parse_submit_request(std::string_view bytes) {
  cuzk::v1::SubmitProofRequest r;
  if (!r.ParseFromArray(bytes.data(), int(bytes.size())))
    return invalid_argument(fmt::format("SubmitProofRequest: {} bytes that are not a cuzk.v1.SubmitProofRequest",
                                        bytes.size()));
  return to_job_request(r);
}

}  // namespace cuzk::service
