#pragma once
// A client of the daemon's gRPC service cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto,
// shared/SPEC.md §7): one method per call, failures as values. Connects as Curio's client does
// (lib/cuzk/client.go): insecure channel, 256 MiB messages both ways.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::service {

// Curio's message limit (grpc.MaxCallRecvMsgSize / MaxCallSendMsgSize(256<<20)): a 64 GiB C1 is
// ~100 MB of JSON.
inline constexpr int kMaxMessageBytes = 256 << 20;

// The gRPC target of an address: "unix:///path" (or any "scheme:...") as is, a bare "/path" as
// "unix:/path", "host:port" as is (gRPC's default DNS resolver).
std::string grpc_target(std::string_view address);

class Client {
 public:
  // No connection is made here: the channel connects on the first call, and a call finding
  // nothing listening fails at once (UNAVAILABLE) rather than waiting.
  explicit Client(std::string address);

  const std::string& address() const noexcept { return address_; }

  // A bound on one call's time; none: the call may wait as long as the server takes (AwaitProof,
  // Prove block until the proof is done).
  using Timeout = std::optional<std::chrono::milliseconds>;

  // Errors: "<Call> at <address>: <GRPC_CODE>: <status message>", the code mapped onto ErrorCode
  // (INVALID_ARGUMENT, NOT_FOUND, UNIMPLEMENTED keep their meaning; transport failures are kIo).
  Expected<v1::SubmitProofResponse> submit_proof(const v1::SubmitProofRequest& request, Timeout timeout = {});
  Expected<v1::AwaitProofResponse> await_proof(const v1::AwaitProofRequest& request, Timeout timeout = {});
  Expected<v1::ProveResponse> prove(const v1::ProveRequest& request, Timeout timeout = {});
  Expected<v1::CancelProofResponse> cancel_proof(const v1::CancelProofRequest& request, Timeout timeout = {});
  Expected<v1::GetStatusResponse> get_status(Timeout timeout = {});
  Expected<v1::GetMetricsResponse> get_metrics(Timeout timeout = {});
  Expected<v1::PreloadSrsResponse> preload_srs(const v1::PreloadSrsRequest& request, Timeout timeout = {});
  Expected<v1::EvictSrsResponse> evict_srs(const v1::EvictSrsRequest& request, Timeout timeout = {});

 private:
  std::string address_;
  std::unique_ptr<v1::ProvingEngine::Stub> stub_;
};

}  // namespace cuzk::service
