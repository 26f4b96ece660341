#pragma once
// CUDA_CHECK(expr): evaluate a CUDA runtime call and throw cuzk::Exception naming the call, the
// file, the line and CUDA's own message when it fails.

#include <cuda_runtime_api.h>

#include <string>

#include "core/error.hpp"

namespace cuzk::gpu {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* expr, const char* file, int line) {
  throw Exception({ErrorCode::kInternal, std::string(expr) + " failed at " + file + ":" + std::to_string(line) +
                                             ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status)});
}

}  // namespace cuzk::gpu

#define CUDA_CHECK(expr)                                                                    \
  do {                                                                                      \
    const cudaError_t cuzk_status_ = (expr);                                                \
    if (cuzk_status_ != cudaSuccess) ::cuzk::gpu::throw_cuda_error(cuzk_status_, #expr, __FILE__, __LINE__); \
  } while (0)
