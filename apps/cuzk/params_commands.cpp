#include "params_commands.hpp"

#include <fmt/format.h>

#include "command_support.hpp"
#include "settings.hpp"
#include "params/check.hpp"
#include "porep/params.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::app {

int run_params_check(const ParamsCheckOptions& o) {
  return guarded("params check", [&] {
    const std::filesystem::path dir = param_dir_setting(o.dir);
    std::optional<uint64_t> size;
    if (!o.sector_size.empty()) size = must(porep::parse_sector_size(o.sector_size));
    std::vector<params::CircuitCheck> checks = params::check_dir(dir, size, params::Digests::compute);
    fmt::print("{}", params::report(dir, checks));
    switch (params::verdict(checks, size)) {
      case params::Verdict::complete:
        fmt::print("complete: every circuit cuzk serves has its files{}\n",
                   size ? " for this sector size" : " for at least one sector size");
        return 0;
      case params::Verdict::incomplete:
        fmt::print("incomplete: a circuit cuzk serves lacks its files{}\n",
                   size ? " for this sector size" : " at every sector size");
        return 1;
      case params::Verdict::damaged:
        fmt::print("damaged: a file does not match parameters.json; delete it and fetch it again\n");
        return 1;
    }
    return 1;
  });
}

}  // namespace cuzk::app
