#pragma once
// Which GPUs to prove on, in the one grammar users write it everywhere (--gpu, CUZK_GPU, the
// daemon's gpus.devices): "auto" (the visible GPUs; a command that proves on one takes GPU 0),
// "off" (the CPU), or GPU ordinals "0" / "1,0" (each at most once). The apps read the flags and
// the environment (apps/cuzk/settings.hpp); libraries take the parsed value.

#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace cuzk {

struct GpuSelection {
  enum class Mode { automatic, off, list };
  Mode mode = Mode::automatic;
  std::vector<unsigned> ordinals;  // Mode::list: at least one, each once
  friend bool operator==(const GpuSelection&, const GpuSelection&) = default;
};

// An error names the text and says what is expected: "'0,x': expected auto, off or GPU ordinals
// (0 or 0,1)", "GPU 0 is listed twice".
Expected<GpuSelection> parse_gpu_selection(std::string_view text);
// A selection's rules (a list not empty, no GPU twice), for one built in code or read from TOML.
Expected<void> check_gpu_selection(const GpuSelection& selection);
// "auto", "off", "1,0".
std::string to_string(const GpuSelection& selection);

}  // namespace cuzk
