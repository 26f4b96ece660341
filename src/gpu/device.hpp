#pragma once
// The GPUs this process can use: what they are and how much memory they have.

#include <cstddef>
#include <string>
#include <vector>

namespace cuzk::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  size_t total_bytes = 0;
  size_t free_bytes = 0;
};

// Every visible device; empty when there is no driver or no GPU (not an error: the CPU path runs).
std::vector<DeviceInfo> list_devices();

// One GPU by ordinal. CUDA's "current device" is per host thread: make_current() before creating
// streams or buffers for it on a thread. The object holds no CUDA state; pass it down (no globals).
class Device {
 public:
  // Throws when the ordinal is not a visible device.
  explicit Device(int ordinal);
  int ordinal() const { return ordinal_; }
  void make_current() const;
  DeviceInfo info() const;
  // The high-water mark of the stream-ordered allocator's default pool on this device, which
  // every DeviceBuffer draws from (gpu/buffer.hpp): the peak device memory of cuzk's own data
  // since the process started or reset_pool_peak(). Kernels' stacks and CUDA's context are not in it.
  size_t pool_peak_bytes() const;
  void reset_pool_peak() const;
  // Memory cuzk could still allocate: the device's free memory plus pool_kept_bytes.
  size_t available_bytes() const;
  // What the default pool holds unused: freed buffers it has not given back (all of them once
  // retain_pool_memory was called).
  size_t pool_kept_bytes() const;
  // Device memory the default pool has mapped now, in use or not.
  size_t pool_reserved_bytes() const;
  // From now on the default pool keeps what is freed mapped for the next allocation instead of
  // handing it back to the driver at the next synchronisation (its release threshold at the
  // maximum); what it holds unused now is handed back first. For the provers: a proof's buffers
  // are made again by the next proof (docs/PERF.md 32). Other processes cannot have that memory
  // until this one exits.
  void retain_pool_memory() const;

 private:
  int ordinal_;
};

// RAII: makes `device` current on this thread and restores the previous current device on exit.
class ScopedDevice {
 public:
  explicit ScopedDevice(const Device& device);
  ~ScopedDevice();
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace cuzk::gpu
