#pragma once
// Filecoin's published Groth16 parameter files (rust-fil-proofs parameters.json, v28), one table
// for every proof kind cuzk serves: PoRep (shared/SPEC-POREP.md), Winning and Window PoSt
// (shared/SPEC-POST.md §1), SnapDeals (shared/SPEC-SNAP.md §2). The operator fetches the files
// with Filecoin's own tools (paramfetch, `curio fetch-params`, `lotus fetch-params`); cuzk never
// downloads.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace cuzk::params {

enum class Circuit : uint8_t { porep, winning_post, window_post, snap_deals };
std::string_view to_string(Circuit circuit);  // "porep", "winning-post", "window-post", "snap-deals"

struct OfficialFile {
  Circuit circuit;
  uint64_t sector_size;
  std::string_view stem;           // file name without .params / .vk
  std::string_view params_digest;  // hex of the first 16 bytes of BLAKE2b-512 of the file
  std::string_view vk_digest;
};

// Every published file of the table, PoRep first, then by circuit and sector size.
std::span<const OfficialFile> official_files();
const OfficialFile* official_file(Circuit circuit, uint64_t sector_size);  // nullptr: none published

}  // namespace cuzk::params
