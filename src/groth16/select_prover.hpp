#pragma once
// Choosing the prover backend (groth16/backend.hpp): CUZK_GPU=auto|off|N, a config key or a flag
// (shared/DESIGN.md decision 6).

#include <memory>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

struct GpuChoice {
  enum class Kind { off, automatic, device };
  Kind kind = Kind::automatic;
  int ordinal = 0;  // Kind::device

  // "off" (the CPU), "auto" (GPU 0 when one is visible, else the CPU) or a GPU ordinal ("0", "1").
  static Expected<GpuChoice> parse(std::string_view text);
  // CUZK_GPU, or "auto" when it is unset or empty.
  static Expected<GpuChoice> from_env();
};

// Whether this build has the GPU backend (CUDA found at build time).
bool gpu_backend_built();
// Whether make_prover gives a GPU backend for `choice` here (auto: a GPU is visible; a GPU
// ordinal: yes, or make_prover fails).
bool chooses_gpu(const GpuChoice& choice);

// The backend for `choice`, with the key's compiled circuit where given (for prove(Witness)). A
// GPU backend uploads the key's bases (and the circuit) now, and they may go afterwards; the CPU
// backend keeps references to `params`, `pool` and `circuit`. Fails when the choice names a GPU
// that is not visible, or a GPU in a build without CUDA; "auto" falls back to the CPU.
Expected<std::unique_ptr<ProverBackend>> make_prover(const Parameters& params, ThreadPool& pool, const GpuChoice& choice,
                                                     const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr);

}  // namespace cuzk::groth16
