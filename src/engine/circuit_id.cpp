#include "engine/circuit_id.hpp"

#include <utility>

namespace cuzk::engine {
namespace {

constexpr std::pair<uint64_t, std::string_view> kSizes[] = {
    {uint64_t{2} << 10, "2k"}, {uint64_t{8} << 20, "8m"}, {uint64_t{512} << 20, "512m"},
    {uint64_t{32} << 30, "32g"}, {uint64_t{64} << 30, "64g"},
};

}  // namespace

std::optional<std::string> circuit_id(std::string_view prefix, uint64_t sector_size) {
  for (const auto& [size, suffix] : kSizes)
    if (size == sector_size) return std::string(prefix) + "-" + std::string(suffix);
  return std::nullopt;
}

std::optional<uint64_t> circuit_sector_size(std::string_view prefix, std::string_view id) {
  if (id.size() <= prefix.size() + 1 || !id.starts_with(prefix) || id[prefix.size()] != '-') return std::nullopt;
  const std::string_view suffix = id.substr(prefix.size() + 1);
  for (const auto& [size, s] : kSizes)
    if (s == suffix) return size;
  return std::nullopt;
}

std::optional<uint64_t> circuit_sector_size(std::string_view id) {
  const size_t dash = id.rfind('-');
  return dash == std::string_view::npos || dash == 0 ? std::nullopt : circuit_sector_size(id.substr(0, dash), id);
}

}  // namespace cuzk::engine
