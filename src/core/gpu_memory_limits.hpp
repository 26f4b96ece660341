#pragma once
// Device memory limits per GPU as users write them (CUZK_GPU_MEMORY, --gpu-memory,
// gpus.memory_limit), for hosts with several GPUs of different sizes or loads.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk {

// "16GiB" (every GPU), "1=4GiB" (GPU 1 only), "16GiB,1=4GiB" (GPU 1 4 GiB, the others 16 GiB);
// "", "0": what is free. Sizes as parse_memory_size reads them; 0 anywhere: what is free.
struct GpuMemoryLimits {
  size_t all = 0;                  // every GPU not named; 0: what is free
  std::map<int, size_t> by_gpu{};  // ordinal -> bytes ({}: GpuMemoryLimits{.all = n} is warning-free)
  size_t of(int ordinal) const;    // by_gpu's, else all
  bool empty() const;              // no limit anywhere
  friend bool operator==(const GpuMemoryLimits&, const GpuMemoryLimits&) = default;
};

// Comma-separated parts, each a size (at most one) or "ordinal=size" (each ordinal at most once);
// spaces around parts and '=' are ignored. An error names the part at fault:
// "gpu memory '1=4XB': unknown unit 'xb'".
Expected<GpuMemoryLimits> parse_gpu_memory_limits(std::string_view text);

// "16.0 GiB, GPU 1: 4.0 GiB", "GPU 1: 4.0 GiB, the others all free", or "all free" when there is
// no limit; for messages and --print-config.
std::string to_string(const GpuMemoryLimits& limits);

}  // namespace cuzk
