#pragma once
// The wire boundary of the gRPC service: a cuzk.v1 SubmitProofRequest becomes an engine job
// request here, and nothing is coerced. An enum value the protocol does not define (a
// proof_kind or priority out of range: proto3 keeps unknown numbers) is refused with
// kInvalidArgument naming the field (the server answers INVALID_ARGUMENT); proto3's absent
// fields mean 0 as Curio sends them (registered_proof 0, a 2 KiB test size, is not checked
// against the payload; priority 0 is normal).

#include <string_view>

#include "core/expected.hpp"
#include "engine/job.hpp"

namespace cuzk::v1 {
class SubmitProofRequest;
}

namespace cuzk::service {

Expected<engine::JobRequest> to_job_request(const cuzk::v1::SubmitProofRequest& request);
// From the request's serialized bytes (what a client sends): bytes that are not a
// SubmitProofRequest are kInvalidArgument.
Expected<engine::JobRequest> parse_submit_request(std::string_view bytes);

}  // namespace cuzk::service
