#pragma once
// Stream: owns one non-blocking cudaStream_t (RAII; movable, not copyable). Work on a stream is
// ordered; different streams overlap. No device-wide synchronisation anywhere (DESIGN.md lessons:
// cudaDeviceSynchronize serialises every worker on a GPU).

#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/cuda_check.hpp"

namespace cuzk::gpu {

class Stream {
 public:
  // A new stream on the current device; non-blocking so it never waits on the legacy stream.
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);  // no throw from a destructor; pending work completes
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_) cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }

  cudaStream_t get() const { return stream_; }
  // Blocks the calling host thread until everything queued on this stream has finished.
  void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }
  // Throws the first asynchronous error of a kernel launched on this stream (launch errors only;
  // execution errors surface at the next synchronize).
  static void check_launch() { CUDA_CHECK(cudaGetLastError()); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace cuzk::gpu
