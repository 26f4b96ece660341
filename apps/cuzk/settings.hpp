#pragma once
// What the app reads from its flags and the environment into values for the libraries (they
// read neither): a flag wins over its variable, an empty flag or variable is unset, and an error
// names where the bad text came from ("--gpu-memory: ...", "CUZK_GPU: ...").
//   --gpu          CUZK_GPU                     core/gpu_selection.hpp's grammar; default auto
//   --gpu-memory   CUZK_GPU_MEMORY              core/gpu_memory_limits.hpp's; default none
//   --params       FIL_PROOFS_PARAMETER_CACHE   default porep::kDefaultParameterDir

#include <filesystem>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/gpu_memory_limits.hpp"
#include "core/gpu_selection.hpp"
#include "groth16/select_prover.hpp"

namespace cuzk::app {

Expected<GpuSelection> gpu_selection_setting(std::string_view flag);
Expected<GpuMemoryLimits> gpu_memory_setting(std::string_view flag);
// For a command that proves on one GPU: the selection's one GPU with its limit.
Expected<groth16::GpuChoice> gpu_choice_setting(std::string_view gpu_flag, std::string_view memory_flag);
// For a command that proves on several: each GPU listed (each visible, with its limit and a share
// for the provers of its circuits, groth16/gpu_share.hpp); auto: GPU 0 where one is visible; off
// or auto without a GPU: none (the CPU).
Expected<std::vector<groth16::GpuChoice>> gpu_devices_setting(std::string_view gpu_flag, std::string_view memory_flag);
std::filesystem::path param_dir_setting(std::string_view flag);

}  // namespace cuzk::app
