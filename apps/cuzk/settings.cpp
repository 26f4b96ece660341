#include "settings.hpp"

#include <cstdlib>
#include <optional>
#include <string>

#include "porep/params.hpp"

namespace cuzk::app {
namespace {

// The flag's text, else the variable's, else nullopt; and which one it was, for errors.
struct Source {
  std::string_view text;
  const char* name = nullptr;
};
std::optional<Source> source(std::string_view flag, const char* flag_name, const char* variable) {
  if (!flag.empty()) return Source{flag, flag_name};
  const char* v = std::getenv(variable);
  if (v != nullptr && *v != '\0') return Source{v, variable};
  return std::nullopt;
}

template <class T>
Expected<T> named(const char* name, Expected<T> parsed) {
  if (!parsed) return Error{parsed.error().code, std::string(name) + ": " + parsed.error().message};
  return parsed;
}

}  // namespace

Expected<GpuSelection> gpu_selection_setting(std::string_view flag) {
  const auto s = source(flag, "--gpu", "CUZK_GPU");
  if (!s) return GpuSelection{};
  return named(s->name, parse_gpu_selection(s->text));
}

Expected<GpuMemoryLimits> gpu_memory_setting(std::string_view flag) {
  const auto s = source(flag, "--gpu-memory", "CUZK_GPU_MEMORY");
  if (!s) return GpuMemoryLimits{};
  return named(s->name, parse_gpu_memory_limits(s->text));
}

Expected<groth16::GpuChoice> gpu_choice_setting(std::string_view gpu_flag, std::string_view memory_flag) {
  // Both are read first: a malformed variable fails even under the other's flag.
  GpuSelection selection;
  CUZK_TRY_ASSIGN(selection, gpu_selection_setting(gpu_flag));
  GpuMemoryLimits limits;
  CUZK_TRY_ASSIGN(limits, gpu_memory_setting(memory_flag));
  const auto s = source(gpu_flag, "--gpu", "CUZK_GPU");
  return named(s ? s->name : "--gpu", groth16::GpuChoice::of(selection, limits));
}

Expected<std::vector<groth16::GpuChoice>> gpu_devices_setting(std::string_view gpu_flag, std::string_view memory_flag) {
  GpuSelection selection;
  CUZK_TRY_ASSIGN(selection, gpu_selection_setting(gpu_flag));
  GpuMemoryLimits limits;
  CUZK_TRY_ASSIGN(limits, gpu_memory_setting(memory_flag));
  std::vector<groth16::GpuChoice> out;
  if (selection.mode != GpuSelection::Mode::list) {
    std::optional<groth16::GpuChoice> one;
    CUZK_TRY_ASSIGN(one, groth16::device_choice(groth16::GpuChoice::of(selection, limits).value()));
    if (one) {
      one->share = groth16::gpu_share_for(*one);
      out.push_back(*one);
    }
    return out;
  }
  for (unsigned n : selection.ordinals) {
    groth16::GpuChoice g{groth16::GpuChoice::Kind::device, int(n), limits.of(int(n))};
    if (auto ok = groth16::check_gpu_choice(g); !ok) return ok.error();
    g.share = groth16::gpu_share_for(g);
    out.push_back(g);
  }
  return out;
}

std::filesystem::path param_dir_setting(std::string_view flag) {
  if (const auto s = source(flag, "--params", "FIL_PROOFS_PARAMETER_CACHE")) return std::filesystem::path(s->text);
  return std::filesystem::path(porep::kDefaultParameterDir);
}

}  // namespace cuzk::app
