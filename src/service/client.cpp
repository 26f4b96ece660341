#include "service/client.hpp"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <array>
#include <utility>

namespace cuzk::service {
namespace {

// grpc::StatusCode by number (grpc/impl/codegen/status_code_enum.h), as gRPC spells them.
constexpr std::array<const char*, 17> kStatusNames{
    "OK",        "CANCELLED",         "UNKNOWN",         "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
    "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};

ErrorCode error_code(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE:
      return ErrorCode::kInvalidArgument;
    case grpc::StatusCode::NOT_FOUND:
      return ErrorCode::kNotFound;
    case grpc::StatusCode::UNIMPLEMENTED:
      return ErrorCode::kUnsupported;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return ErrorCode::kResourceExhausted;
    case grpc::StatusCode::CANCELLED:
      return ErrorCode::kCancelled;
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return ErrorCode::kIo;
    default:
      return ErrorCode::kInternal;
  }
}

Error call_error(const char* call, const std::string& address, const grpc::Status& status) {
  const auto code = static_cast<size_t>(status.error_code());
  const char* name = code < kStatusNames.size() ? kStatusNames[code] : "UNKNOWN";
  return Error{error_code(status.error_code()),
               fmt::format("{} at {}: {}: {}", call, address, name, status.error_message())};
}

// One unary call: a fresh context (with the deadline, if any), the stub's method, the status
// turned into an Error.
template <class Response, class Invoke>
Expected<Response> unary(const char* call, const std::string& address, Client::Timeout timeout, Invoke&& invoke) {
  grpc::ClientContext context;
  if (timeout) context.set_deadline(std::chrono::system_clock::now() + *timeout);
  Response response;
  const grpc::Status status = invoke(&context, &response);
  if (!status.ok()) return call_error(call, address, status);
  return response;
}

}  // namespace

std::string grpc_target(std::string_view address) {
  if (address.starts_with('/')) return "unix:" + std::string(address);
  return std::string(address);
}

Client::Client(std::string address) : address_(std::move(address)) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  stub_ = v1::ProvingEngine::NewStub(
      grpc::CreateCustomChannel(grpc_target(address_), grpc::InsecureChannelCredentials(), args));
}

Expected<v1::SubmitProofResponse> Client::submit_proof(const v1::SubmitProofRequest& request, Timeout timeout) {
  return unary<v1::SubmitProofResponse>("SubmitProof", address_, timeout, [&](auto* context, auto* response) {
    return stub_->SubmitProof(context, request, response);
  });
}

Expected<v1::AwaitProofResponse> Client::await_proof(const v1::AwaitProofRequest& request, Timeout timeout) {
  return unary<v1::AwaitProofResponse>("AwaitProof", address_, timeout, [&](auto* context, auto* response) {
    return stub_->AwaitProof(context, request, response);
  });
}

Expected<v1::ProveResponse> Client::prove(const v1::ProveRequest& request, Timeout timeout) {
  return unary<v1::ProveResponse>("Prove", address_, timeout, [&](auto* context, auto* response) {
    return stub_->Prove(context, request, response);
  });
}

Expected<v1::CancelProofResponse> Client::cancel_proof(const v1::CancelProofRequest& request, Timeout timeout) {
  return unary<v1::CancelProofResponse>("CancelProof", address_, timeout, [&](auto* context, auto* response) {
    return stub_->CancelProof(context, request, response);
  });
}

Expected<v1::GetStatusResponse> Client::get_status(Timeout timeout) {
  return unary<v1::GetStatusResponse>("GetStatus", address_, timeout, [&](auto* context, auto* response) {
    return stub_->GetStatus(context, v1::GetStatusRequest(), response);
  });
}

Expected<v1::GetMetricsResponse> Client::get_metrics(Timeout timeout) {
  return unary<v1::GetMetricsResponse>("GetMetrics", address_, timeout, [&](auto* context, auto* response) {
    return stub_->GetMetrics(context, v1::GetMetricsRequest(), response);
  });
}

Expected<v1::PreloadSrsResponse> Client::preload_srs(const v1::PreloadSrsRequest& request, Timeout timeout) {
  return unary<v1::PreloadSrsResponse>("PreloadSRS", address_, timeout, [&](auto* context, auto* response) {
    return stub_->PreloadSRS(context, request, response);
  });
}

Expected<v1::EvictSrsResponse> Client::evict_srs(const v1::EvictSrsRequest& request, Timeout timeout) {
  return unary<v1::EvictSrsResponse>("EvictSRS", address_, timeout, [&](auto* context, auto* response) {
    return stub_->EvictSRS(context, request, response);
  });
}

}  // namespace cuzk::service
