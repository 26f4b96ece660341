#pragma once
// Device and pinned host memory, RAII.
//   DeviceBuffer<T>: n elements from the stream-ordered allocator (cudaMallocAsync on a stream,
//     cudaFreeAsync on the same stream at destruction), so allocation never synchronises the
//     device. The stream must outlive the buffer.
//   PinnedBuffer<T>: n page-locked host elements (cudaHostAlloc, portable: pinned for every
//     device, so a witness written here goes up to any GPU at the full rate: groth16::SpreadProver):
//     55 GB/s over PCIe on the H200 against 8 GB/s from pageable memory (shared/DEVICE.md).
//     Allocate once and reuse.
//   HostRegistration: host memory someone else owns (a key's vectors) page-locked in place
//     (cudaHostRegister) for as long as it lives: the same copy rate without a copy.
// T must be trivially copyable: the bytes are moved as they are.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceBuffer() = default;
  // Uninitialised; usable by work queued on `stream` after this call (other streams: use an Event).
  DeviceBuffer(size_t n, const Stream& stream) : size_(n), stream_(stream.get()) {
    if (n) CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&data_), n * sizeof(T), stream_));
  }
  // A new buffer holding a copy of `host`, queued on `stream` (keep `host` until the stream has
  // reached the copy).
  static DeviceBuffer copy_of(std::span<const T> host, const Stream& stream) {
    DeviceBuffer d(host.size(), stream);
    if (!host.empty()) d.upload(host, stream);
    return d;
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), stream_(o.stream_) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }

  // Queues host -> device of src.size() elements at offset; src must stay valid (and unchanged)
  // until the stream reaches the copy. Pinned sources copy truly asynchronously.
  void upload(std::span<const T> src, const Stream& stream, size_t offset = 0) {
    check_range(offset, src.size());
    CUDA_CHECK(cudaMemcpyAsync(data_ + offset, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, stream.get()));
  }
  // Queues device -> host into dst; read dst only after the stream (or an Event) is synchronised.
  void download(std::span<T> dst, const Stream& stream, size_t offset = 0) const {
    check_range(offset, dst.size());
    CUDA_CHECK(cudaMemcpyAsync(dst.data(), data_ + offset, dst.size_bytes(), cudaMemcpyDeviceToHost, stream.get()));
  }
  // Queues a device-to-device copy of n elements of `src` from src_offset to this buffer at offset.
  void copy_from(const DeviceBuffer& src, size_t src_offset, size_t offset, size_t n, const Stream& stream) {
    src.check_range(src_offset, n);
    check_range(offset, n);
    if (n) {
      CUDA_CHECK(cudaMemcpyAsync(data_ + offset, src.data_ + src_offset, n * sizeof(T), cudaMemcpyDeviceToDevice,
                                 stream.get()));
    }
  }
  // Queues zero bytes over elements [offset, size()): the whole buffer by default.
  void zero(const Stream& stream, size_t offset = 0) {
    check_range(offset, 0);
    if (offset < size_) CUDA_CHECK(cudaMemsetAsync(data_ + offset, 0, (size_ - offset) * sizeof(T), stream.get()));
  }

 private:
  void check_range(size_t offset, size_t n) const {
    if (offset > size_ || n > size_ - offset)
      throw Exception(invalid_argument("DeviceBuffer: copy of " + std::to_string(n) + " elements at offset " +
                                       std::to_string(offset) + " exceeds its " + std::to_string(size_)));
  }
  void release() noexcept {
    if (data_) cudaFreeAsync(data_, stream_);  // no throw from a destructor
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
};

template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t n) : size_(n) {
    if (n) CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&data_), n * sizeof(T), cudaHostAllocPortable));
  }
  ~PinnedBuffer() {
    if (data_) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (data_) cudaFreeHost(data_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<T> span() { return {data_, size_}; }
  std::span<const T> span() const { return {data_, size_}; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

class HostRegistration {
 public:
  HostRegistration() = default;
  // Page-locks [data, data + bytes) until destruction; the memory must outlive this object.
  HostRegistration(const void* data, size_t bytes) {
    if (bytes == 0) return;
    CUDA_CHECK(cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterPortable));
    data_ = const_cast<void*>(data);
  }
  template <class T>
  explicit HostRegistration(std::span<const T> span) : HostRegistration(span.data(), span.size_bytes()) {}
  ~HostRegistration() {
    if (data_) cudaHostUnregister(data_);
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  HostRegistration(HostRegistration&& o) noexcept : data_(std::exchange(o.data_, nullptr)) {}
  HostRegistration& operator=(HostRegistration&& o) noexcept {
    if (this != &o) {
      if (data_) cudaHostUnregister(data_);
      data_ = std::exchange(o.data_, nullptr);
    }
    return *this;
  }

 private:
  void* data_ = nullptr;
};

}  // namespace cuzk::gpu
