#pragma once
// A proving job as the engine sees it: what a caller asks for (cuzk.v1 SubmitProofRequest,
// shared/SPEC.md §7, without the wire types), where it stands, what it gives back, and its honest
// timings (shared/DESIGN.md decision 8).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "groth16/partition_prover.hpp"

namespace cuzk::engine {

// cuzk.v1 ProofKind: the numbers are the wire's.
enum class ProofKind : uint8_t {
  unspecified = 0,
  porep_seal_commit = 1,
  snap_deals_update = 2,
  window_post_partition = 3,
  winning_post = 4,
};
inline constexpr int kProofKinds = 5;
std::string_view to_string(ProofKind kind);  // "porep_seal_commit", for metrics and logs

// cuzk.v1 Priority: higher runs first; unspecified is normal.
enum class Priority : uint8_t { unspecified = 0, low = 1, normal = 2, high = 3, critical = 4 };
std::string_view to_string(Priority priority);
std::optional<Priority> parse_priority(std::string_view text);  // "low" .. "critical", any case

struct JobRequest {
  std::string request_id;  // the caller's idempotency key ("porep-<miner>-<sector>" from Curio)
  ProofKind kind = ProofKind::unspecified;
  Priority priority = Priority::normal;
  uint64_t sector_size = 0;                // 0: take it from the payload
  std::optional<uint64_t> registered_proof;  // checked against the payload's when given
  std::vector<uint8_t> vanilla_proof;      // PoRep: the C1 (JSON, or Curio's wrapper)
  // PoSt: one bincode FallbackPoStSectorProof per sector, ascending sector number (WinningPoSt:
  // the one challenged sector's); SnapDeals: one bincode PartitionProof per partition, in order.
  std::vector<std::vector<uint8_t>> vanilla_proofs;
  std::string payload_name = "vanilla_proof";  // how errors name the payload (the CLI: its file)
  std::vector<std::string> payload_names;      // vanilla_proofs' names (empty: "vanilla_proofs[i]")
  uint64_t sector_number = 0, miner_id = 0;
  std::vector<uint8_t> randomness;  // PoSt: the challenge seed, 32 bytes
  uint32_t partition_index = 0;     // WindowPoSt: the partition of the deadline
  std::vector<uint8_t> comm_r_old, comm_r_new, comm_d_new;  // SnapDeals: 32 bytes each

  // How errors name vanilla_proofs[i].
  std::string vanilla_name(size_t i) const {
    return i < payload_names.size() ? payload_names[i] : "vanilla_proofs[" + std::to_string(i) + "]";
  }
};

// What a request asks, as a digest: SHA-256 over its kind, registered proof, sector size, sector
// number, miner id, randomness, partition index, the three SnapDeals commitments and every
// payload (not its id, priority or the payloads' names). Two requests with one id and different
// digests are two jobs; a completed result is never returned for a request it was not made for.
using RequestDigest = std::array<uint8_t, 32>;
RequestDigest request_digest(const JobRequest& request);

enum class JobState : uint8_t { queued, running, completed, failed, cancelled };
std::string_view to_string(JobState state);
inline bool finished(JobState s) { return s == JobState::completed || s == JobState::failed || s == JobState::cancelled; }

// Milliseconds, as AwaitProofResponse carries them.
struct JobTimes {
  double queue_wait_ms = 0;  // submitted -> a prover took it (parse time excluded)
  double parse_ms = 0;       // the payload parsed and checked
  double srs_load_ms = 0;    // the circuit's parameters loaded for this job (0 when already resident)
  double synthesis_ms = 0;   // witness generation, summed over partitions
  double gpu_compute_ms = 0; // the prover's work (GPU or CPU), summed over partitions
  double verify_ms = 0;      // self-verification, summed over partitions
  double total_ms = 0;       // submitted -> finished
};

// One partition's times (groth16/partition_prover.hpp), and where it was proved.
struct PartitionTimes : groth16::ProofTimes {
  std::string backend;  // "gpu 0 (NVIDIA H200)", "cpu"
};

// What awaiting a job gives.
struct JobResult {
  std::string job_id;
  JobState state = JobState::queued;
  std::vector<uint8_t> proof;  // completed: the proof bytes (PoRep: 192 per partition)
  // Failed or cancelled: why, with the code of the failure (the input's, a device's: fault_of).
  std::optional<Error> error;
  JobTimes times;
  std::string backend;         // which provers made the proof ("gpu 0 (NVIDIA H200)", "cpu", or both)
  uint32_t partitions = 0, partitions_done = 0;  // 0 partitions: not parsed yet
  std::vector<PartitionTimes> partition_times;   // completed: by partition
  std::string error_text() const { return error ? error->message : std::string(); }
};

}  // namespace cuzk::engine
