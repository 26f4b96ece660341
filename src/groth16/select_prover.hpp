#pragma once
// Choosing the prover backend (groth16/backend.hpp) from a GPU choice the app has parsed (its
// flag, CUZK_GPU or a config key: apps/cuzk/settings.hpp; shared/DESIGN.md decision 6).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/gpu_memory_limits.hpp"
#include "core/gpu_selection.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/gpu_memory_plan.hpp"
#include "groth16/gpu_share.hpp"
#include "groth16/keys.hpp"
#include "groth16/setup.hpp"

namespace cuzk::groth16 {

struct GpuChoice {
  enum class Kind { off, automatic, device };
  Kind kind = Kind::automatic;
  int ordinal = 0;  // Kind::device
  // The most device memory cuzk may use on that GPU (bytes; 0: what is free): below what the key,
  // circuit and a proof need, the key and circuit stay on the host (groth16/gpu_memory_plan.hpp).
  // Users write it per GPU, "16GiB,1=4GiB" (core/gpu_memory_limits.hpp): this GPU's.
  size_t memory_limit = 0;
  // The card's provers (groth16/gpu_share.hpp): a daemon gives the choices of one GPU the same
  // share, so that its circuits' provers plan and prove beside each other; null: alone.
  std::shared_ptr<GpuShare> share = nullptr;
  // The prover's MSM streams (groth16/backend.hpp): two unless a bench asks for one as its peer.
  MsmStreams msm_streams = MsmStreams::two;

  // The one GPU of `selection` (core/gpu_selection.hpp: off, auto (GPU 0 when one is visible,
  // else the CPU) or a single ordinal), with its limit in `limits` (auto and off: GPU 0's). A
  // list of several is refused: this choice is for commands that prove on one GPU.
  static Expected<GpuChoice> of(const GpuSelection& selection, const GpuMemoryLimits& limits);
};

// Whether this build has the GPU backend (CUDA found at build time).
bool gpu_backend_built();

// A visible GPU, for status reports (none in a build without CUDA).
struct GpuInfo {
  int ordinal = 0;
  std::string name;
  // free: what cuzk could still allocate there, the device's free memory and what cuzk's pool
  // keeps of buffers it freed (gpu::Device::pool_kept_bytes; the provers keep freed memory mapped).
  size_t total_bytes = 0, free_bytes = 0;
};
std::vector<GpuInfo> visible_gpus();
// A share for the provers of `choice`'s GPU (groth16/gpu_share.hpp), its capacity what cuzk may
// use there now: the GPU's free memory, or its memory limit if lower (0 where it is not visible:
// one turn at a time).
std::shared_ptr<GpuShare> gpu_share_for(const GpuChoice& choice);
// The errors make_prover would give for `choice` (a GPU that is not visible, none in this build),
// before any long work is started.
Expected<void> check_gpu_choice(const GpuChoice& choice);
// The GPU `choice` proves on here (Kind::device, its ordinal and memory limit; auto: GPU 0 when
// one is visible), or nullopt for the CPU; check_gpu_choice's errors.
Expected<std::optional<GpuChoice>> device_choice(const GpuChoice& choice);
// Whether make_prover gives a GPU backend for `choice` here (auto: a GPU is visible; a GPU
// ordinal: yes, or make_prover fails).
bool chooses_gpu(const GpuChoice& choice);

// The backend for `choice`, with the key's compiled circuit where given (for prove(Witness)). A
// GPU backend with room for them uploads the key's bases (and the circuit) now, and they may go
// afterwards (ProverBackend::reads_host_key() is false); the CPU backend and a streamed GPU
// backend keep references to `params`, `pool` and `circuit`. Fails when the choice names a GPU
// that is not visible, or a GPU in a build without CUDA, or one too small even for a streamed
// proof; "auto" falls back to the CPU. A GPU backend's streams have `priority`.
Expected<std::unique_ptr<ProverBackend>> make_prover(const Parameters& params, ThreadPool& pool, const GpuChoice& choice,
                                                     const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr,
                                                     GpuPriority priority = GpuPriority::normal);

// A backend with a key of our own for `circuit` (its compiled circuit resident too, for
// prove(Witness)), from toxic waste `tw`, made where `choice` says: on a GPU the key is generated
// there (DeviceKey::generate: the CPU computes the exponents, the GPU every point) and is never
// held on the host, unless choice.memory_limit leaves no room for it beside a proof: then it is
// downloaded after generation (which itself uses the whole card) and the prover streams it; on
// the CPU by setup(). For benchmarks at full size without Filecoin's files.
struct OwnKeyProver {
  std::unique_ptr<Parameters> params;      // the key on the host (CPU, streamed GPU); else null
  std::unique_ptr<ProverBackend> prover;   // after params: it refers to them
  VerifyingKey vk;
  double scalars_ms = 0;  // the key's exponents (CPU; on the CPU backend, 0: inside points_ms)
  double points_ms = 0;   // the fixed-base multiplications (on a GPU with the exponents' upload)
  double circuit_ms = 0;  // a GPU backend: the circuit encoded and uploaded (streamed: the key downloaded)
  std::optional<GpuPlacement> placement;  // a GPU backend's (groth16/gpu_memory_plan.hpp)
};
// setup() where `choice` says: on a GPU, DeviceKey::generate and a download (equal to setup's
// key for the same toxic waste, and much faster at full size), else on the CPU.
Expected<Parameters> setup_on(const GpuChoice& choice, const r1cs::CompiledR1cs<ff::Fr>& circuit, const ToxicWaste& tw,
                              ThreadPool& pool);

Expected<OwnKeyProver> make_prover_with_own_key(const r1cs::CompiledR1cs<ff::Fr>& circuit, const ToxicWaste& tw,
                                                ThreadPool& pool, const GpuChoice& choice,
                                                GpuPriority priority = GpuPriority::normal);

}  // namespace cuzk::groth16
