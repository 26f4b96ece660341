#include "groth16/select_prover.hpp"

#include <charconv>
#include <cstdlib>

#include "core/error.hpp"
#if CUZK_HAVE_GPU
#include "gpu/device.hpp"
#include "groth16/gpu_prover.hpp"
#endif

namespace cuzk::groth16 {

Expected<GpuChoice> GpuChoice::parse(std::string_view text) {
  if (text == "off") return GpuChoice{Kind::off, 0};
  if (text == "auto") return GpuChoice{Kind::automatic, 0};
  int n = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n < 0)
    return invalid_argument("GPU choice '" + std::string(text) + "': expected auto, off or a GPU ordinal (0, 1, ...)");
  return GpuChoice{Kind::device, n};
}

Expected<GpuChoice> GpuChoice::from_env() {
  const char* v = std::getenv("CUZK_GPU");
  if (v == nullptr || *v == '\0') return GpuChoice{};
  auto c = parse(v);
  if (!c) return invalid_argument("CUZK_GPU: " + c.error().message);
  return c;
}

bool gpu_backend_built() { return CUZK_HAVE_GPU != 0; }

bool chooses_gpu(const GpuChoice& choice) {
  if (choice.kind == GpuChoice::Kind::off) return false;
  if (choice.kind == GpuChoice::Kind::device) return true;
#if CUZK_HAVE_GPU
  return !gpu::list_devices().empty();
#else
  return false;
#endif
}

Expected<std::unique_ptr<ProverBackend>> make_prover(const Parameters& params, ThreadPool& pool, const GpuChoice& choice,
                                                     const r1cs::CompiledR1cs<ff::Fr>* circuit) {
  try {  // the backends' constructors throw (a circuit of another shape, a GPU out of memory)
    const auto cpu = [&] { return std::unique_ptr<ProverBackend>(std::make_unique<CpuProver>(params, pool, circuit)); };
    if (choice.kind == GpuChoice::Kind::off) return cpu();
#if CUZK_HAVE_GPU
    const auto devices = gpu::list_devices();
    if (choice.kind == GpuChoice::Kind::automatic && devices.empty()) return cpu();
    if (choice.kind == GpuChoice::Kind::device && size_t(choice.ordinal) >= devices.size())
      return invalid_argument("GPU " + std::to_string(choice.ordinal) + " is not visible (" +
                              std::to_string(devices.size()) + " GPUs)");
    return std::unique_ptr<ProverBackend>(std::make_unique<GpuProver>(params, gpu::Device(choice.ordinal), circuit));
#else
    if (choice.kind == GpuChoice::Kind::automatic) return cpu();
    return Error{ErrorCode::kUnsupported, "GPU " + std::to_string(choice.ordinal) + ": this build has no CUDA backend"};
#endif
  } catch (const Exception& e) {
    return e.error();
  }
}

}  // namespace cuzk::groth16
