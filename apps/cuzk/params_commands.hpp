#pragma once
// `cuzk params check [--sector-size S] [DIR]`: which official parameter files are in the
// parameter directory and whether their digests match (params/check.hpp). Exit 0 complete,
// 1 incomplete or damaged, 2 bad input.

#include <string>

namespace cuzk::app {

struct ParamsCheckOptions {
  std::string dir;          // "": --params precedence (apps/cuzk/settings.hpp)
  std::string sector_size;  // "": every size
};

int run_params_check(const ParamsCheckOptions& options);

}  // namespace cuzk::app
