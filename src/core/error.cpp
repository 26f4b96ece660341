#include "core/error.hpp"

namespace cuzk {

const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kCorruption: return "corruption";
    case ErrorCode::kIo: return "i/o error";
    case ErrorCode::kNotFound: return "not found";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kInternal: return "internal error";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kVerifyFailed: return "proof does not verify";
    case ErrorCode::kResourceExhausted: return "resource exhausted";
    case ErrorCode::kUnavailable: return "unavailable";
  }
  return "unknown error";
}

Fault fault_of(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kCorruption:
    case ErrorCode::kIo:
    case ErrorCode::kNotFound:
    case ErrorCode::kUnsupported: return Fault::input;
    case ErrorCode::kCancelled: return Fault::cancelled;
    case ErrorCode::kInternal:
    case ErrorCode::kVerifyFailed:
    case ErrorCode::kResourceExhausted:
    case ErrorCode::kUnavailable: return Fault::device;
  }
  return Fault::device;
}

std::string Error::to_string() const { return std::string(cuzk::to_string(code)) + ": " + message; }

}  // namespace cuzk
