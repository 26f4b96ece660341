#include "engine/groth16_circuit.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "groth16/params_file.hpp"

namespace cuzk::engine {

size_t host_bytes_of(const groth16::Parameters& p) {
  return (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) * sizeof(groth16::G1Affine) +
         p.b_g2.size() * sizeof(groth16::G2Affine);
}

size_t host_bytes_of(const r1cs::CompiledR1cs<ff::Fr>& c) {
  size_t sum = 0;
  for (const auto* m : {&c.a, &c.b, &c.c}) {
    sum += m->row_start.size() * sizeof(uint64_t) + m->num_terms() * (sizeof(uint32_t) + sizeof(ff::Fr));
  }
  return sum;
}

Groth16Circuit::Groth16Circuit(Groth16CircuitParts parts)
    : params_(std::move(parts.params)),
      pvk_(std::make_unique<groth16::PreparedVerifyingKey>(parts.vk)),
      circuit_(std::move(parts.circuit)),
      gpus_(std::move(parts.gpus)),
      gpu_errors_(std::move(parts.gpu_errors)),
      cpu_(std::move(parts.cpu)) {
  host_bytes = (params_ ? host_bytes_of(*params_) : 0) + (circuit_ ? host_bytes_of(*circuit_) : 0);
}

Expected<groth16::ProverBackend*> Groth16Circuit::prover(const Placement& where, const std::string& circuit_id) const {
  if (where.on_cpu()) {
    if (cpu_ == nullptr)
      return Error{ErrorCode::kUnsupported, "no CPU prover: the key was not kept on the host (pipeline.retry_on_cpu = false)"};
    return cpu_.get();
  }
  const int g = *where.gpu;
  if (auto it = gpus_.find(g); it != gpus_.end()) return it->second.get();
  const auto why = gpu_errors_.find(g);
  return Error{ErrorCode::kUnavailable, fmt::format("GPU {} cannot prove {}: {}", g, circuit_id,
                                                    why != gpu_errors_.end() ? why->second : "not loaded there")};
}

Expected<std::shared_ptr<Groth16Circuit>> load_groth16_circuit(
    const std::filesystem::path& params_path, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
    const Groth16LoadOptions& options, const std::string& circuit_id) {
  if (options.pool == nullptr) return Error{ErrorCode::kInternal, "load_groth16_circuit: no thread pool"};
  ThreadPool& pool = *options.pool;
  groth16::ReadOptions read;
  // As `prove`: the subgroup checks are skipped for an official file (its digest matched
  // parameters.json) and for cuzk's own (made by `cuzk setup`).
  read.subgroup = ec::SubgroupCheck::kSkip;
  groth16::Parameters params;
  CUZK_TRY_ASSIGN(params, groth16::read_params(params_path, pool, read));
  Groth16CircuitParts parts;
  parts.params = std::make_unique<groth16::Parameters>(std::move(params));
  parts.vk = parts.params->vk;
  bool host_key_read = options.gpus.empty() || options.keep_cpu_prover;
  if (!options.gpus.empty()) {
    parts.circuit = std::make_unique<r1cs::CompiledR1cs<ff::Fr>>(compile());
    bool circuit_read = false;
    std::string errors;
    for (const groth16::GpuChoice& g : options.gpus) {
      // A CUDA failure on this GPU (thrown) leaves it out: the others may serve.
      Expected<std::unique_ptr<groth16::ProverBackend>> backend =
          capture([&] { return groth16::make_prover(*parts.params, pool, g, parts.circuit.get(), options.priority); });
      if (!backend) {
        parts.gpu_errors[g.ordinal] = backend.error().message;
        errors += fmt::format("{}GPU {}: {}", errors.empty() ? "" : "; ", g.ordinal, backend.error().message);
        continue;
      }
      if (groth16::WitnessPool* witnesses = (*backend)->witness_pool()) witnesses->reserve(options.witness_buffers);
      circuit_read = circuit_read || (*backend)->reads_host_key();
      host_key_read = host_key_read || (*backend)->reads_host_key();
      parts.gpus[g.ordinal] = std::move(*backend);
    }
    if (parts.gpus.empty() && !options.keep_cpu_prover)
      return Error{ErrorCode::kUnavailable, "no GPU can prove " + circuit_id + ": " + errors};
    if (!circuit_read) parts.circuit.reset();  // each GPU holds its own copy
  }
  if (options.gpus.empty() || options.keep_cpu_prover) {
    parts.cpu = std::make_unique<groth16::CpuProver>(*parts.params, pool);
  }
  if (!host_key_read) parts.params.reset();
  return std::make_shared<Groth16Circuit>(std::move(parts));
}

Expected<std::shared_ptr<LoadedCircuit>> load_groth16_circuit(
    const std::filesystem::path& params, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
    const Groth16HandlerOptions& handler, Lane lane, const std::string& circuit_id) {
  Groth16LoadOptions load;
  load.pool = handler.pool;
  load.gpus = handler.gpus;
  load.keep_cpu_prover = handler.keep_cpu_prover;
  load.witness_buffers = handler.partitions_per_gpu;
  load.priority = gpu_priority(lane);
  std::shared_ptr<Groth16Circuit> loaded;
  CUZK_TRY_ASSIGN(loaded, load_groth16_circuit(params, compile, load, circuit_id));
  return std::shared_ptr<LoadedCircuit>(std::move(loaded));
}

size_t KeyFileSizes::bytes(const std::string& circuit_id,
                           const std::function<Expected<std::filesystem::path>()>& find) const {
  const std::lock_guard lock(mutex_);
  if (auto it = bytes_.find(circuit_id); it != bytes_.end()) return it->second;
  const Expected<std::filesystem::path> file = find();
  std::error_code ec;
  const uintmax_t size = file ? std::filesystem::file_size(*file, ec) : 0;
  if (!file || ec) return 0;
  bytes_.emplace(circuit_id, size_t(size));
  return size_t(size);
}

}  // namespace cuzk::engine
