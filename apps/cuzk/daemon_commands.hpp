#pragma once
// `cuzk daemon`: the proving engine behind the cuzk.v1 gRPC service (docs/daemon.md).

#include <string>
#include <vector>

namespace cuzk::app {

struct DaemonOptions {
  std::string config;  // TOML (docs/config.md); "": $CUZK_CONFIG, else the defaults
  // Flags over the config; "" / 0 / empty keep the config's value.
  std::string listen, metrics_listen, params_dir, gpu, gpu_memory, spread, memory_budget, log_level, log_format;
  unsigned threads = 0;
  std::vector<std::string> preload;
  bool print_config = false;  // print the settings in effect and exit
};

int run_daemon(const DaemonOptions& options);

}  // namespace cuzk::app
