#include "groth16/select_prover.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/gpu_memory_plan.hpp"
#if CUZK_HAVE_GPU
#include "gpu/device.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::groth16 {

Expected<GpuChoice> GpuChoice::of(const GpuSelection& selection, const GpuMemoryLimits& limits) {
  switch (selection.mode) {
    case GpuSelection::Mode::off: return GpuChoice{Kind::off, 0, limits.of(0)};
    case GpuSelection::Mode::automatic: return GpuChoice{Kind::automatic, 0, limits.of(0)};
    case GpuSelection::Mode::list: break;
  }
  if (selection.ordinals.size() != 1)
    return invalid_argument(fmt::format("'{}': this command proves on one GPU (give one ordinal)", to_string(selection)));
  const int ordinal = int(selection.ordinals.front());
  return GpuChoice{Kind::device, ordinal, limits.of(ordinal)};
}

bool gpu_backend_built() { return CUZK_HAVE_GPU != 0; }

std::vector<GpuInfo> visible_gpus() {
  std::vector<GpuInfo> out;
#if CUZK_HAVE_GPU
  for (const gpu::DeviceInfo& d : gpu::list_devices())
    out.push_back({d.ordinal, d.name, d.total_bytes, d.free_bytes + gpu::Device(d.ordinal).pool_kept_bytes()});
#endif
  return out;
}

std::shared_ptr<GpuShare> gpu_share_for(const GpuChoice& choice) {
  size_t capacity = 0;
  for (const GpuInfo& g : visible_gpus())
    if (g.ordinal == choice.ordinal) capacity = g.free_bytes;
  if (choice.memory_limit != 0 && capacity != 0) capacity = std::min(capacity, choice.memory_limit);
  return std::make_shared<GpuShare>(capacity);
}

bool chooses_gpu(const GpuChoice& choice) {
  if (choice.kind == GpuChoice::Kind::off) return false;
  if (choice.kind == GpuChoice::Kind::device) return true;
#if CUZK_HAVE_GPU
  return !gpu::list_devices().empty();
#else
  return false;
#endif
}

namespace {

// The GPU named by `choice`, or none for the CPU (auto without a visible GPU, off).
Expected<std::optional<int>> pick_gpu(const GpuChoice& choice) {
  if (choice.kind == GpuChoice::Kind::off) return std::optional<int>();
#if CUZK_HAVE_GPU
  const auto devices = gpu::list_devices();
  if (choice.kind == GpuChoice::Kind::automatic) return devices.empty() ? std::optional<int>() : std::optional<int>(0);
  if (size_t(choice.ordinal) >= devices.size())
    return invalid_argument("GPU " + std::to_string(choice.ordinal) + " is not visible (" +
                            std::to_string(devices.size()) + " GPUs)");
  return std::optional<int>(choice.ordinal);
#else
  if (choice.kind == GpuChoice::Kind::automatic) return std::optional<int>();
  return Error{ErrorCode::kUnsupported, "GPU " + std::to_string(choice.ordinal) + ": this build has no CUDA backend"};
#endif
}

}  // namespace

Expected<std::optional<GpuChoice>> device_choice(const GpuChoice& choice) {
  std::optional<int> gpu;
  CUZK_TRY_ASSIGN(gpu, pick_gpu(choice));
  if (!gpu) return std::optional<GpuChoice>();
  return std::optional<GpuChoice>(GpuChoice{GpuChoice::Kind::device, *gpu, choice.memory_limit, choice.share});
}

Expected<void> check_gpu_choice(const GpuChoice& choice) {
  std::optional<int> gpu;
  CUZK_TRY_ASSIGN(gpu, pick_gpu(choice));
  return {};
}

Expected<std::unique_ptr<ProverBackend>> make_prover(const Parameters& params, ThreadPool& pool, const GpuChoice& choice,
                                                     const r1cs::CompiledR1cs<ff::Fr>* circuit,
                                                     [[maybe_unused]] GpuPriority priority) {  // GPU builds
  std::optional<int> gpu;
  CUZK_TRY_ASSIGN(gpu, pick_gpu(choice));
  try {  // the backends' constructors throw (a circuit of another shape, a GPU out of memory)
#if CUZK_HAVE_GPU
    if (gpu) {
      GpuProverOptions options;
      options.memory_limit = choice.memory_limit;
      options.pool = &pool;
      options.priority = priority;
      options.share = choice.share;
      options.msm_streams = choice.msm_streams;
      return std::unique_ptr<ProverBackend>(std::make_unique<GpuProver>(params, gpu::Device(*gpu), circuit, options));
    }
#endif
    return std::unique_ptr<ProverBackend>(std::make_unique<CpuProver>(params, pool, circuit));
  } catch (const Exception& e) {
    return e.error();
  }
}

Expected<Parameters> setup_on(const GpuChoice& choice, const r1cs::CompiledR1cs<ff::Fr>& circuit, const ToxicWaste& tw,
                              ThreadPool& pool) {
  std::optional<int> gpu;
  CUZK_TRY_ASSIGN(gpu, pick_gpu(choice));
  if (!gpu) return setup(circuit, tw, pool);
#if CUZK_HAVE_GPU
  try {
    Expected<DeviceKey> key = DeviceKey::generate(circuit, tw, pool, gpu::Device(*gpu));
    if (!key) return key.error();
    return key->download();
  } catch (const Exception& e) {
    return e.error();
  }
#else
  return Error{ErrorCode::kInternal, "no GPU backend in this build"};  // pick_gpu refuses first
#endif
}

Expected<OwnKeyProver> make_prover_with_own_key(const r1cs::CompiledR1cs<ff::Fr>& circuit, const ToxicWaste& tw,
                                                ThreadPool& pool, const GpuChoice& choice,
                                                [[maybe_unused]] GpuPriority priority) {  // GPU builds
  std::optional<int> gpu;
  CUZK_TRY_ASSIGN(gpu, pick_gpu(choice));
  OwnKeyProver out;
  try {
    if (!gpu) {
      const auto t0 = Clock::now();
      Parameters params;
      CUZK_TRY_ASSIGN(params, setup(circuit, tw, pool));
      out.params = std::make_unique<Parameters>(std::move(params));
      out.vk = out.params->vk;
      out.prover = std::make_unique<CpuProver>(*out.params, pool, &circuit);
      out.points_ms = ms_since(t0);
      return out;
    }
#if CUZK_HAVE_GPU
    DeviceKey::GenerateTimes times;
    std::optional<DeviceKey> key;
    {
      Expected<DeviceKey> made = DeviceKey::generate(circuit, tw, pool, gpu::Device(*gpu), &times);
      if (!made) return made.error();
      key.emplace(std::move(*made));
    }
    out.vk = key->vk();
    const auto t0 = Clock::now();
    const gpu::Device device(*gpu);
    // As GpuProver plans (beside the card's other provers when the choice has a share); the
    // key's memory counts as free.
    std::unique_lock<std::mutex> planning;
    if (choice.share) planning = choice.share->planning();
    const GpuShare::Others others = choice.share ? choice.share->others() : GpuShare::Others{};
    const size_t budget = others.budget(key->bytes() + device.available_bytes(), choice.memory_limit);
    const auto needs = GpuMemoryNeeds::estimate(key->sizes(), CircuitSizes{circuit.num_inputs, circuit.num_aux},
                                                circuit_device_bytes(circuit));
    GpuPlacement placement;
    CUZK_TRY_ASSIGN(placement, place_on_gpu(needs, budget, others.largest_turn));
    GpuProverOptions options;
    options.placement = placement;
    options.roots = planned_ntt_roots(needs, placement, budget, others.largest_turn);
    options.priority = priority;
    options.share = choice.share;
    options.msm_streams = choice.msm_streams;
    if (placement != GpuPlacement::streamed) {
      out.prover = std::make_unique<GpuProver>(std::move(*key), &circuit, options);
    } else {  // the key to the host, the device's copy freed, then the prover streams it
      out.params = std::make_unique<Parameters>(key->download());
      key.reset();
      options.pool = &pool;
      out.prover = std::make_unique<GpuProver>(*out.params, device, &circuit, options);
    }
    out.circuit_ms = ms_since(t0);
    out.placement = placement;
    out.scalars_ms = times.scalars_ms;
    out.points_ms = times.fixed_base_ms;
    return out;
#else
    return Error{ErrorCode::kInternal, "no GPU backend in this build"};  // pick_gpu refuses first
#endif
  } catch (const Exception& e) {
    return e.error();
  }
}

}  // namespace cuzk::groth16
