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

std::string own_params_stem(uint64_t sector_size) { return params::own_stem(params::Circuit::porep, sector_size); }

Expected<ParamsFiles> find_params(const fs::path& dir, uint64_t sector_size) {
  return params::find_files(dir, params::Circuit::porep, sector_size);
}

Expected<std::string> parameter_digest(const fs::path& file) { return params::file_digest(file); }

}  // namespace cuzk::porep
