// The daemon's TOML configuration (service/config.hpp), and the flag spellings of gpus.devices,
// gpus.memory_limit and gpus.spread on the same text. A configuration accepted passes
// check_config (no key is accepted that the whole-config check refuses).

#include "fuzz/fuzz.hpp"
#include "service/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.toml";
  const auto text = fuzz::text(data, size);
  const auto config = service::parse_config(text, kSource);
  if (config) {
    check(bool(service::check_config(*config)), "a configuration accepted passes check_config");
  } else {
    fuzz::check_names_source(config.error(), kSource);
  }
  // The flags: an error leaves the value as it was; what is accepted passes the whole check.
  const service::DaemonConfig defaults;
  for (auto parse : {service::parse_gpu_devices, service::parse_gpu_memory_limit, service::parse_gpu_spread}) {
    service::DaemonConfig flagged;
    if (parse(text, flagged.gpus)) {
      check(bool(service::check_config(flagged)), "a flag accepted passes check_config");
    } else {
      check(flagged == defaults, "a flag refused leaves the configuration as it was");
    }
  }
  return 0;
}
