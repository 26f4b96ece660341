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

}  // namespace cuzk::gpu
