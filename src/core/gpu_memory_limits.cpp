#include "core/gpu_memory_limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/error.hpp"
#include "core/memory_size.hpp"

namespace cuzk {
namespace {

std::string_view trimmed(std::string_view text) {
  constexpr std::string_view kSpace = " \t";
  const size_t begin = text.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

Error bad_part(std::string_view part, std::string_view reason) {
  return invalid_argument(fmt::format("gpu memory '{}': {}", part, reason));
}

// A size within a part; parse_memory_size's reason without its own "memory size '...': " prefix,
// which would repeat the part.
Expected<size_t> part_size(std::string_view part, std::string_view size) {
  auto bytes = parse_memory_size(size);
  if (bytes) return bytes;
  const std::string prefix = fmt::format("memory size '{}': ", size);
  std::string_view reason = bytes.error().message;
  if (reason.starts_with(prefix)) reason.remove_prefix(prefix.size());
  return bad_part(part, reason);
}

std::string limit_text(size_t bytes) { return bytes == 0 ? std::string("all free") : gib_text(bytes); }

}  // namespace

size_t GpuMemoryLimits::of(int ordinal) const {
  const auto it = by_gpu.find(ordinal);
  return it != by_gpu.end() ? it->second : all;
}

bool GpuMemoryLimits::empty() const {
  return all == 0 && std::ranges::all_of(by_gpu, [](const auto& entry) { return entry.second == 0; });
}

Expected<GpuMemoryLimits> parse_gpu_memory_limits(std::string_view text) {
  GpuMemoryLimits limits;
  if (trimmed(text).empty()) return limits;
  bool all_given = false;
  for (size_t begin = 0; begin <= text.size();) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view part = trimmed(text.substr(begin, end - begin));
    begin = end + 1;
    if (part.empty()) return bad_part(text, "an empty part (write sizes such as 16GiB,1=4GiB)");
    const size_t equals = part.find('=');
    if (equals == std::string_view::npos) {
      if (all_given) return bad_part(part, "a second size for every GPU (name the GPU: 1=4GiB)");
      all_given = true;
      CUZK_TRY_ASSIGN(limits.all, part_size(part, part));
      continue;
    }
    const std::string_view ordinal_text = trimmed(part.substr(0, equals));
    const std::string_view size = trimmed(part.substr(equals + 1));
    int ordinal = -1;
    const auto [stop, ec] = std::from_chars(ordinal_text.data(), ordinal_text.data() + ordinal_text.size(), ordinal);
    if (ordinal_text.empty() || ec != std::errc() || stop != ordinal_text.data() + ordinal_text.size() || ordinal < 0)
      return bad_part(part, fmt::format("GPU ordinal '{}': expected a non-negative integer", ordinal_text));
    if (size.empty()) return bad_part(part, fmt::format("no size for GPU {} (0: what is free)", ordinal));
    if (limits.by_gpu.contains(ordinal)) return bad_part(part, fmt::format("GPU {} is given twice", ordinal));
    CUZK_TRY_ASSIGN(limits.by_gpu[ordinal], part_size(part, size));
  }
  return limits;
}

std::string to_string(const GpuMemoryLimits& limits) {
  if (limits.empty()) return "all free";
  std::string gpus;
  for (const auto& [ordinal, bytes] : limits.by_gpu) gpus += fmt::format(", GPU {}: {}", ordinal, limit_text(bytes));
  if (limits.all == 0) return gpus.substr(2) + ", the others all free";
  return gib_text(limits.all) + gpus;
}

}  // namespace cuzk
