#pragma once
// The wire boundary of the gRPC service: a cuzk.v1 SubmitProofRequest becomes an engine job
// request here, and nothing is coerced. An enum value the protocol does not define (a
// proof_kind or priority out of range: proto3 keeps unknown numbers) is refused with
// kInvalidArgument naming the field (the server answers INVALID_ARGUMENT); proto3's absent
// fields mean 0 as Curio sends them (registered_proof 0, a 2 KiB test size, is not checked
// against the payload; priority 0 is normal).
//
// Ids are bounded (kMaxIdBytes): request_id here, the job ids of AwaitProof/CancelProof and the
// circuit ids of PreloadSRS/EvictSRS in the server, all by check_id. An id is kept with its job
// and written to logs; Curio's are under 64 bytes ("wdpost-<miner>-<partition>-<randomness[:8]>"),
// so 256 leaves room and refuses what would only cost memory and log volume. The bytes of an id
// are not restricted otherwise: logs escape them (core/printable.hpp).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/expected.hpp"
#include "engine/job.hpp"

namespace cuzk::v1 {
class SubmitProofRequest;
}

namespace cuzk::service {

inline constexpr size_t kMaxIdBytes = 256;
// An id of at most kMaxIdBytes; beyond: kInvalidArgument naming `field` and both sizes.
Expected<void> check_id(std::string_view field, std::string_view id);

// AwaitProofRequest.timeout_ms as a deadline from `now`: 0 is none (time_point::max()), and so is
// a timeout beyond what steady_clock can hold (2^64 - 1 ms included): it saturates, never wraps.
std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point now, uint64_t timeout_ms);

Expected<engine::JobRequest> to_job_request(const cuzk::v1::SubmitProofRequest& request);
// From the request's serialized bytes (what a client sends): bytes that are not a
// SubmitProofRequest are kInvalidArgument.
Expected<engine::JobRequest> parse_submit_request(std::string_view bytes);

}  // namespace cuzk::service
