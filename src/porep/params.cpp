#include "porep/params.hpp"

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/memory_size.hpp"
#include "params/check.hpp"

namespace cuzk::porep {

namespace fs = std::filesystem;

const OfficialParams* official_params(uint64_t sector_size) {
  return params::official_file(params::Circuit::porep, sector_size);
}

std::string own_params_stem(uint64_t sector_size) { return "cuzk-v1-stacked-porep-" + exact_size_text(sector_size); }

Expected<std::string> parameter_digest(const fs::path& file) { return params::file_digest(file); }

Expected<ParamsFiles> find_params(const fs::path& dir, uint64_t sector_size) {
  if (const OfficialParams* official = official_params(sector_size)) {
    const fs::path params = dir / (std::string(official->stem) + ".params");
    const fs::path vk = dir / (std::string(official->stem) + ".vk");
    if (fs::exists(params) && fs::exists(vk)) {
      for (const auto& [file, want] : {std::pair{params, official->params_digest}, std::pair{vk, official->vk_digest}}) {
        std::string digest;
        CUZK_TRY_ASSIGN(digest, params::cached_file_digest(file));
        if (digest != want) {
          return Error{ErrorCode::kCorruption, file.string() + ": BLAKE2b digest " + digest + ", parameters.json says " +
                                                   std::string(want) + " (a damaged or partial download?)"};
        }
      }
      return ParamsFiles{params, vk, true};
    }
  }
  const std::string stem = own_params_stem(sector_size);
  const fs::path params = dir / (stem + ".params"), vk = dir / (stem + ".vk");
  if (fs::exists(params) && fs::exists(vk)) return ParamsFiles{params, vk, false};
  std::string msg = "no PoRep parameters for " + exact_size_text(sector_size) + " sectors in " + dir.string() + ": ";
  if (const OfficialParams* official = official_params(sector_size)) {
    msg += "fetch " + std::string(official->stem) + ".params and .vk there, or ";
  }
  msg += "run `cuzk setup --circuit porep --sector-size " + exact_size_text(sector_size) + " --out " + dir.string() +
         "` (cuzk's own SRS, for tests and benchmarks)";
  return Error{ErrorCode::kNotFound, msg};
}

}  // namespace cuzk::porep
