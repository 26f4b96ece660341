#pragma once
// A circuit's id in the engine, the SRS cache, PreloadSRS and metrics: "<prefix>-<size>", the
// prefix naming the circuit ("porep", "window-post", "winning-post", "snap") and the size one of
// Filecoin's five sector sizes: "2k", "8m", "512m", "32g", "64g" ("porep-32g", "snap-2k").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::engine {

// nullopt for a size that is not a Filecoin sector size.
std::optional<std::string> circuit_id(std::string_view prefix, uint64_t sector_size);
// The sector size of `id` when it is "<prefix>-<size>"; nullopt otherwise.
std::optional<uint64_t> circuit_sector_size(std::string_view prefix, std::string_view id);
// The sector size of any "<prefix>-<size>" id.
std::optional<uint64_t> circuit_sector_size(std::string_view id);

}  // namespace cuzk::engine
