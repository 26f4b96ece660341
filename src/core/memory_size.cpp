#include "core/memory_size.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <string>

#include "core/error.hpp"

namespace cuzk {

Expected<uint64_t> parse_size_of(std::string_view text, std::span<const uint64_t> known) {
  const auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
  };
  std::string names;
  for (const uint64_t size : known) {
    if (lower(text) == lower(exact_size_text(size))) return size;
    names.append(names.empty() ? "" : ", ").append(exact_size_text(size));
  }
  uint64_t bytes = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return invalid_argument(fmt::format("sector size '{}': expected one of {} or a byte count", text, names));
  return bytes;
}

std::string gib_text(size_t bytes) { return fmt::format("{:.1f} GiB", double(bytes) / double(size_t{1} << 30)); }

std::string exact_size_text(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  size_t unit = 0;
  while (unit + 1 < std::size(kUnits) && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

Expected<size_t> parse_memory_size(std::string_view text) {
  if (text.empty()) return size_t{0};
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data())
    return invalid_argument("memory size '" + std::string(text) + "': expected a number with KiB, MiB, GiB, KB, MB or GB");
  std::string unit(end, text.data() + text.size());
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  size_t scale = 0;
  if (unit.empty() || unit == "b") scale = 1;
  else if (unit == "kib") scale = size_t{1} << 10;
  else if (unit == "mib") scale = size_t{1} << 20;
  else if (unit == "gib") scale = size_t{1} << 30;
  else if (unit == "kb") scale = 1000;
  else if (unit == "mb") scale = 1000 * 1000;
  else if (unit == "gb") scale = 1000 * 1000 * 1000;
  else return invalid_argument("memory size '" + std::string(text) + "': unknown unit '" + unit + "'");
  if (value > SIZE_MAX / scale) return invalid_argument("memory size '" + std::string(text) + "': too large");
  return value * scale;
}

}  // namespace cuzk
