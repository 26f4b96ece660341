#pragma once
// Stream: owns one non-blocking cudaStream_t (RAII; movable, not copyable). Work on a stream is
// ordered; different streams overlap. No device-wide synchronisation anywhere (DESIGN.md lessons:
// cudaDeviceSynchronize serialises every worker on a GPU).

#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/cuda_check.hpp"

namespace cuzk::gpu {

// A stream's priority: high streams' pending blocks are dispatched before normal ones' as SMs
// free up (running blocks are not preempted): the express lane's proofs (WinningPoSt) beside
// PoRep's long MSMs.
enum class StreamPriority { normal, high };

class Stream {
 public:
  // A new stream on the current device; non-blocking so it never waits on the legacy stream.
  explicit Stream(StreamPriority priority = StreamPriority::normal) {
    int least = 0, greatest = 0;  // CUDA's numbers: lower is higher
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking,
                                            priority == StreamPriority::high ? greatest : least));
  }
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
