#pragma once
// Errors as values at API boundaries (shared/DESIGN.md, decision 9): every failure carries a code
// and a message that names the input, the field or the offset at fault.

#include <stdexcept>
#include <string>
#include <utility>

namespace cuzk {

enum class ErrorCode {
  kInvalidArgument,  // a caller passed something malformed (bad length, bad flag, out of range)
  kCorruption,       // a file or encoding is damaged or inconsistent
  kIo,               // the operating system refused (open, read, mmap)
  kNotFound,
  kUnsupported,
  kInternal,         // a broken invariant of ours
  kCancelled,        // the caller asked to stop (a job cancelled at a stage boundary)
  kVerifyFailed,     // a proof we made does not verify (never returned; the engine retries elsewhere)
  kResourceExhausted,  // a queue or memory budget is full: try again later
  kUnavailable,      // a device cannot serve this (a GPU without room for a circuit's key): another may
};

const char* to_string(ErrorCode code) noexcept;

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  // "corruption: G1 compressed: x coordinate is not canonical (>= p)"
  std::string to_string() const;
};

// Whose fault a failure is, decided here once for every caller: the engine retries a device's
// fault on another device (engine/engine.hpp) and never an input's, which fails the same way
// everywhere; the CLI maps the two to its exit codes (apps/cuzk/command_support.hpp).
//   input:     kInvalidArgument, kCorruption, kIo, kNotFound, kUnsupported
//   device:    kInternal (a CUDA error, an allocation), kVerifyFailed (a proof that does not
//              verify: not the input's, whose public inputs were checked first), kResourceExhausted,
//              kUnavailable
//   cancelled: kCancelled
enum class Fault { input, device, cancelled };
Fault fault_of(ErrorCode code) noexcept;

inline Error invalid_argument(std::string message) { return {ErrorCode::kInvalidArgument, std::move(message)}; }
inline Error corruption(std::string message) { return {ErrorCode::kCorruption, std::move(message)}; }

// The one exception type of the libraries: thrown where an Expected holding an error is
// dereferenced, and by code that cannot go on (r1cs::SynthesisError derives from it). Exceptions
// become values again at one boundary, cuzk::capture (core/expected.hpp), keeping the code.
class Exception : public std::runtime_error {
 public:
  explicit Exception(Error error) : std::runtime_error(error.to_string()), error_(std::move(error)) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

}  // namespace cuzk
