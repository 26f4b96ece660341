#pragma once
// Event: owns one cudaEvent_t (RAII; movable, not copyable). Orders work across streams
// (record on one, wait on another) and times it (elapsed_ms between two recorded events).

#include <cuda_runtime_api.h>

#include <utility>

#include "gpu/cuda_check.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

class Event {
 public:
  // timing = false makes a lighter event that only orders work.
  explicit Event(bool timing = true) {
    CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept {
    if (this != &other) {
      if (event_) cudaEventDestroy(event_);
      event_ = std::exchange(other.event_, nullptr);
    }
    return *this;
  }

  cudaEvent_t get() const { return event_; }
  // Captures the work queued on `stream` so far.
  void record(const Stream& stream) { CUDA_CHECK(cudaEventRecord(event_, stream.get())); }
  // Makes later work on `stream` wait for this event (the host does not block).
  void wait(const Stream& stream) const { CUDA_CHECK(cudaStreamWaitEvent(stream.get(), event_, 0)); }
  // Blocks the host until the recorded work has finished.
  void synchronize() const { CUDA_CHECK(cudaEventSynchronize(event_)); }
  // Milliseconds from `start` to `end`; both recorded with timing enabled, and `end` complete.
  static float elapsed_ms(const Event& start, const Event& end) {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, end.event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace cuzk::gpu
