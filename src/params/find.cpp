#include "params/find.hpp"

#include "core/memory_size.hpp"
#include "params/check.hpp"

namespace cuzk::params {

namespace fs = std::filesystem;

std::string_view setup_name(Circuit circuit) {
  switch (circuit) {
    case Circuit::porep: return "porep";
    case Circuit::winning_post: return "winning-post";
    case Circuit::window_post: return "window-post";
    case Circuit::snap_deals: return "snap";
  }
  return "unknown";
}

std::string own_stem(Circuit circuit, uint64_t sector_size) {
  const std::string size = exact_size_text(sector_size);
  return circuit == Circuit::porep ? "cuzk-v1-stacked-porep-" + size : "cuzk-v1-" + std::string(setup_name(circuit)) + "-" + size;
}

Expected<Files> find_files(const fs::path& dir, Circuit circuit, uint64_t sector_size) {
  const OfficialFile* official = official_file(circuit, sector_size);
  if (official != nullptr) {
    const fs::path params = dir / (std::string(official->stem) + ".params");
    const fs::path vk = dir / (std::string(official->stem) + ".vk");
    if (fs::exists(params) && fs::exists(vk)) {
      for (const auto& [file, want] : {std::pair{params, official->params_digest}, std::pair{vk, official->vk_digest}}) {
        std::string digest;
        CUZK_TRY_ASSIGN(digest, cached_file_digest(file));
        if (digest != want)
          return Error{ErrorCode::kCorruption, file.string() + ": BLAKE2b digest " + digest + ", parameters.json says " +
                                                   std::string(want) + " (a damaged or partial download?)"};
      }
      return Files{params, vk, true};
    }
  }
  const std::string stem = own_stem(circuit, sector_size);
  const fs::path params = dir / (stem + ".params"), vk = dir / (stem + ".vk");
  if (fs::exists(params) && fs::exists(vk)) return Files{params, vk, false};
  const std::string size = exact_size_text(sector_size);
  std::string msg = "no " + std::string(to_string(circuit)) + " parameters for " + size + " sectors in " +
                    dir.string() + ": ";
  if (official != nullptr) msg += "fetch " + std::string(official->stem) + ".params and .vk there, or ";
  msg += "run `cuzk setup --circuit " + std::string(setup_name(circuit)) + " --sector-size " + size + " --out " +
         dir.string() + "` (cuzk's own SRS, for tests and benchmarks)";
  return Error{ErrorCode::kNotFound, msg};
}

}  // namespace cuzk::params
