#include "core/gpu_selection.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

namespace cuzk {

Expected<GpuSelection> parse_gpu_selection(std::string_view text) {
  GpuSelection out;
  if (text == "auto") return out;
  if (text == "off") {
    out.mode = GpuSelection::Mode::off;
    return out;
  }
  out.mode = GpuSelection::Mode::list;
  for (size_t begin = 0; begin <= text.size();) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view item = text.substr(begin, end - begin);
    unsigned ordinal = 0;
    const auto [stop, ec] = std::from_chars(item.data(), item.data() + item.size(), ordinal);
    if (item.empty() || ec != std::errc() || stop != item.data() + item.size())
      return invalid_argument(fmt::format("'{}': expected auto, off or GPU ordinals (0 or 0,1)", text));
    out.ordinals.push_back(ordinal);
    begin = end + 1;
  }
  if (auto ok = check_gpu_selection(out); !ok) return ok.error();
  return out;
}

Expected<void> check_gpu_selection(const GpuSelection& s) {
  if (s.mode != GpuSelection::Mode::list) return {};
  if (s.ordinals.empty()) return invalid_argument("no GPU listed (write \"off\" for none)");
  for (size_t i = 0; i < s.ordinals.size(); ++i)
    if (std::find(s.ordinals.begin(), s.ordinals.begin() + long(i), s.ordinals[i]) != s.ordinals.begin() + long(i))
      return invalid_argument(fmt::format("GPU {} is listed twice", s.ordinals[i]));
  return {};
}

std::string to_string(const GpuSelection& s) {
  switch (s.mode) {
    case GpuSelection::Mode::automatic: return "auto";
    case GpuSelection::Mode::off: return "off";
    case GpuSelection::Mode::list: return fmt::format("{}", fmt::join(s.ordinals, ","));
  }
  return "?";
}

}  // namespace cuzk
