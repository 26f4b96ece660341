#include "engine/porep_handler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <memory>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_file.hpp"
#include "groth16/spread_prover.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/params.hpp"
#include "porep/prover.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::engine {
namespace {

constexpr std::pair<uint64_t, std::string_view> kCircuitIds[] = {
    {uint64_t{2} << 10, "porep-2k"},   {uint64_t{8} << 20, "porep-8m"},  {uint64_t{512} << 20, "porep-512m"},
    {uint64_t{32} << 30, "porep-32g"}, {uint64_t{64} << 30, "porep-64g"},
};

struct ParsedPorep final : ParsedJob {
  porep::C1 c1;
};

// One PoRep circuit's parameters and provers. Members are destroyed bottom-up: the provers go
// before the key and circuit they may read.
struct LoadedPorep final : LoadedCircuit {
  std::unique_ptr<groth16::Parameters> params;  // null once every prover holds its own copy
  std::unique_ptr<groth16::PreparedVerifyingKey> pvk;
  std::unique_ptr<r1cs::CompiledR1cs<ff::Fr>> circuit;  // null unless a prover reads it from the host
  std::map<int, std::unique_ptr<groth16::ProverBackend>> gpus;
  std::map<int, std::string> gpu_errors;
  std::unique_ptr<groth16::ProverBackend> cpu;
  std::unique_ptr<groth16::SpreadProver> spread;  // over `gpus` (null without any): after them, so destroyed first
};

// Host bytes of a key's points and of a compiled circuit (the memory budget's estimates).
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
// One partition's witness (inputs and aux, ~one a constraint).
size_t witness_bytes(const porep::SectorShape& shape) { return shape.constraints * sizeof(ff::Fr); }

}  // namespace

std::optional<std::string> porep_circuit_id(uint64_t sector_size) {
  for (const auto& [size, id] : kCircuitIds) {
    if (size == sector_size) return std::string(id);
  }
  return std::nullopt;
}

std::optional<uint64_t> porep_sector_size(std::string_view circuit_id) {
  for (const auto& [size, id] : kCircuitIds) {
    if (id == circuit_id) return size;
  }
  return std::nullopt;
}

PorepHandler::PorepHandler(PorepHandlerOptions options) : options_(std::move(options)) {
  if (options_.pool == nullptr) throw Exception(invalid_argument("PorepHandler: no thread pool"));
}

Expected<std::unique_ptr<ParsedJob>> PorepHandler::parse(const JobRequest& request) const {
  if (request.vanilla_proof.empty())
    return invalid_argument("vanilla_proof: empty (expected the C1 output: SealCommitPhase1Output JSON)");
  auto job = std::make_unique<ParsedPorep>();
  const std::string_view text(reinterpret_cast<const char*>(request.vanilla_proof.data()), request.vanilla_proof.size());
  CUZK_TRY_ASSIGN(job->c1, porep::parse_c1(text, "vanilla_proof"));
  porep::RegisteredShape r;
  CUZK_TRY_ASSIGN(r, porep::registered_shape(job->c1.registered_proof));
  if (request.sector_size != 0 && request.sector_size != r.shape.sector_size)
    return invalid_argument(fmt::format("sector_size: the request says {}, the C1's registered_proof {} is a {} sector",
                                        request.sector_size, job->c1.registered_proof, r.shape.name));
  if (request.registered_proof && *request.registered_proof != r.proof.id)
    return invalid_argument(fmt::format("registered_proof: the request says {}, the C1's is {} ({})",
                                        *request.registered_proof, r.proof.id, job->c1.registered_proof));
  job->circuit_id = *porep_circuit_id(r.shape.sector_size);
  // The parsed C1 (~the payload's size again, with its vectors), and on the CPU one partition's
  // ProvingCS at a time: a, b, c and the aux values.
  job->host_bytes = 2 * request.vanilla_proof.size() + (options_.gpus.empty() ? 4 * witness_bytes(r.shape) : 0);
  // The key and, with GPUs, the pinned witness buffers of each.
  job->circuit_bytes =
      key_file_bytes(r.shape.sector_size) + options_.gpus.size() * options_.partitions_in_flight * witness_bytes(r.shape);
  return std::unique_ptr<ParsedJob>(std::move(job));
}

size_t PorepHandler::key_file_bytes(uint64_t sector_size) const {
  const std::lock_guard lock(key_bytes_mutex_);
  if (auto it = key_bytes_.find(sector_size); it != key_bytes_.end()) return it->second;
  const auto files = porep::find_params(options_.param_dir, sector_size);
  std::error_code ec;
  const uintmax_t bytes = files ? std::filesystem::file_size(files->params, ec) : 0;
  if (!files || ec) return 0;  // not there (yet): looked up again for the next job
  key_bytes_.emplace(sector_size, size_t(bytes));
  return size_t(bytes);
}

std::shared_ptr<LoadedCircuit> make_porep_circuit(PorepCircuitParts parts) {
  auto out = std::make_shared<LoadedPorep>();
  out->params = std::move(parts.params);
  out->pvk = std::make_unique<groth16::PreparedVerifyingKey>(parts.vk);
  out->circuit = std::move(parts.circuit);
  out->gpus = std::move(parts.gpus);
  out->gpu_errors = std::move(parts.gpu_errors);
  out->cpu = std::move(parts.cpu);
  if (!out->gpus.empty()) {
    std::vector<groth16::ProverBackend*> backends;
    for (const auto& [ordinal, backend] : out->gpus) backends.push_back(backend.get());
    out->spread = std::make_unique<groth16::SpreadProver>(std::move(backends));
  }
  out->host_bytes = (out->params ? host_bytes_of(*out->params) : 0) + (out->circuit ? host_bytes_of(*out->circuit) : 0);
  return out;
}

Expected<std::shared_ptr<LoadedCircuit>> PorepHandler::load(const std::string& circuit_id) {
  const std::optional<uint64_t> size = porep_sector_size(circuit_id);
  if (!size) return Error{ErrorCode::kNotFound, "no PoRep circuit '" + circuit_id + "'"};
  if (options_.load) return options_.load(*size);
  porep::ParamsFiles files;
  CUZK_TRY_ASSIGN(files, porep::find_params(options_.param_dir, *size));
  ThreadPool& pool = *options_.pool;
  groth16::ReadOptions read;
  // As `prove porep`: the subgroup checks are skipped for an official file (its digest matched
  // parameters.json) and for cuzk's own (made by `cuzk setup`).
  read.subgroup = ec::SubgroupCheck::kSkip;
  groth16::Parameters params;
  CUZK_TRY_ASSIGN(params, groth16::read_params(files.params, pool, read));
  PorepCircuitParts parts;
  parts.params = std::make_unique<groth16::Parameters>(std::move(params));
  parts.vk = parts.params->vk;
  bool host_key_read = options_.gpus.empty() || options_.keep_cpu_prover;
  if (!options_.gpus.empty()) {
    porep::SectorShape shape;
    CUZK_TRY_ASSIGN(shape, porep::shape_for_sector_size(*size));
    parts.circuit = std::make_unique<r1cs::CompiledR1cs<ff::Fr>>(
        porep::compile_partition(porep::circuit_shape(shape), poseidon_, &pool));
    bool circuit_read = false;
    std::string errors;
    for (const groth16::GpuChoice& g : options_.gpus) {
      Expected<std::unique_ptr<groth16::ProverBackend>> backend = Error{ErrorCode::kInternal, "not made"};
      try {
        backend = groth16::make_prover(*parts.params, pool, g, parts.circuit.get());
      } catch (const std::exception& e) {  // a CUDA failure on this GPU: the others may serve
        backend = Error{ErrorCode::kInternal, e.what()};
      }
      if (!backend) {
        parts.gpu_errors[g.ordinal] = backend.error().message;
        errors += fmt::format("{}GPU {}: {}", errors.empty() ? "" : "; ", g.ordinal, backend.error().message);
        continue;
      }
      circuit_read = circuit_read || (*backend)->reads_host_key();
      host_key_read = host_key_read || (*backend)->reads_host_key();
      parts.gpus[g.ordinal] = std::move(*backend);
    }
    if (parts.gpus.empty() && !options_.keep_cpu_prover)
      return Error{ErrorCode::kUnavailable, "no GPU can prove " + circuit_id + ": " + errors};
    if (!circuit_read) parts.circuit.reset();  // each GPU holds its own copy
  }
  if (options_.gpus.empty() || options_.keep_cpu_prover) {
    parts.cpu = std::make_unique<groth16::CpuProver>(*parts.params, pool);
  }
  if (!host_key_read) parts.params.reset();
  return make_porep_circuit(std::move(parts));
}

Expected<ProofOutput> PorepHandler::prove(ParsedJob& job, LoadedCircuit& circuit, const Placement& where,
                                          std::stop_token stop) {
  auto& parsed = static_cast<ParsedPorep&>(job);
  auto& loaded = static_cast<LoadedPorep&>(circuit);
  groth16::ProverBackend* backend = nullptr;
  unsigned gpus = 1;
  if (where.gpus.size() == 1) {
    const int g = where.gpus.front();
    auto it = loaded.gpus.find(g);
    if (it == loaded.gpus.end()) {
      const auto why = loaded.gpu_errors.find(g);
      return Error{ErrorCode::kUnavailable, fmt::format("GPU {} cannot prove {}: {}", g, job.circuit_id,
                                                        why != loaded.gpu_errors.end() ? why->second : "not loaded there")};
    }
    backend = it->second.get();
  } else if (!where.on_cpu()) {
    if (loaded.spread == nullptr) return Error{ErrorCode::kUnavailable, "no GPU can prove " + job.circuit_id};
    backend = loaded.spread.get();
    gpus = unsigned(loaded.spread->backends());
  } else {
    backend = loaded.cpu.get();
    if (backend == nullptr)
      return Error{ErrorCode::kUnsupported, "no CPU prover: the key was not kept on the host (pipeline.retry_on_cpu = false)"};
  }
  porep::ProveOptions options =
      where.on_cpu() ? porep::ProveOptions{} : porep::ProveOptions::witness_pipeline(*options_.pool);
  // Spread: as many partitions in flight on each GPU as on one alone.
  if (!where.on_cpu()) options.synthesis_workers = std::max(options_.partitions_in_flight, 1u) * gpus;
  options.blinding_seed = options_.blinding_seed;
  options.stop = std::move(stop);
  porep::PorepProof proof;
  CUZK_TRY_ASSIGN(proof, porep::prove_c1(parsed.c1, *backend, *loaded.pvk, poseidon_, options));
  ProofOutput out;
  out.bytes = proof.bytes();
  out.backend = backend->name();
  for (const porep::PartitionTimes& t : proof.times) {
    out.synthesis_ms += t.synthesis_ms;
    out.prove_ms += t.prove_ms;
    out.verify_ms += t.verify_ms;
  }
  return out;
}

}  // namespace cuzk::engine
