// The gRPC request -> job conversion (service/wire.hpp: parse_submit_request): the bytes a client
// sends as a cuzk.v1.SubmitProofRequest. Refused: kInvalidArgument naming the message or the
// field. Accepted: the job is the message field for field (the same bytes parsed by protobuf
// alone give the same values), its enums in range, its request id within the limit.

#include <google/protobuf/stubs/logging.h>

#include "cuzk/v1/proving.pb.h"
#include "fuzz/fuzz.hpp"
#include "service/wire.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  // protobuf logs every string field that is not UTF-8 (a line per input): not a finding.
  [[maybe_unused]] static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  const auto job = service::parse_submit_request(fuzz::text(data, size));
  if (!job) {
    check(job.error().code == ErrorCode::kInvalidArgument, "a request refused is kInvalidArgument");
    check(job.error().message.find(": ") != std::string::npos, "the error names the message or the field");
    return 0;
  }
  cuzk::v1::SubmitProofRequest r;
  check(r.ParseFromArray(data, int(size)), "a request accepted is a SubmitProofRequest");
  check(job->request_id == r.request_id(), "request_id kept");
  check(job->request_id.size() <= service::kMaxIdBytes, "request_id within the limit");
  check(int(job->kind) == int(r.proof_kind()) && int(job->kind) < engine::kProofKinds, "proof_kind kept, in range");
  check(r.priority() == 0 || int(job->priority) == int(r.priority()), "priority kept");
  check(int(job->priority) <= int(engine::Priority::critical), "priority in range");
  check(job->sector_size == r.sector_size() && job->sector_number == r.sector_number() &&
            job->miner_id == r.miner_id(),
        "sector size, number and miner kept");
  check(job->registered_proof.value_or(0) == r.registered_proof(), "registered_proof kept");
  check(std::string_view(reinterpret_cast<const char*>(job->vanilla_proof.data()), job->vanilla_proof.size()) ==
            r.vanilla_proof(),
        "vanilla_proof kept byte for byte");
  return 0;
}
