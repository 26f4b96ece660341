#include "engine/porep_handler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <map>
#include <memory>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "engine/circuit_id.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/params_file.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
#include "porep/c1_check.hpp"
#include "porep/challenges.hpp"
#include "porep/circuit.hpp"
#include "porep/params.hpp"
#include "porep/prover.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::engine {
namespace {

struct ParsedPorep final : ParsedJob {
  porep::C1 c1;
};

// One partition's witness (inputs and aux, ~one a constraint).
size_t witness_bytes(const porep::SectorShape& shape) { return shape.constraints * sizeof(ff::Fr); }

}  // namespace

std::optional<std::string> porep_circuit_id(uint64_t sector_size) { return circuit_id("porep", sector_size); }

std::optional<uint64_t> porep_sector_size(std::string_view circuit_id) { return circuit_sector_size("porep", circuit_id); }

PorepHandler::PorepHandler(PorepHandlerOptions options) : options_(std::move(options)) {
  if (options_.pool == nullptr) throw Exception(invalid_argument("PorepHandler: no thread pool"));
}

Expected<std::unique_ptr<ParsedJob>> PorepHandler::parse(const JobRequest& request) const {
  if (request.vanilla_proof.empty())
    return invalid_argument("vanilla_proof: empty (expected the C1 output: SealCommitPhase1Output JSON)");
  auto job = std::make_unique<ParsedPorep>();
  const std::string_view text(reinterpret_cast<const char*>(request.vanilla_proof.data()), request.vanilla_proof.size());
  CUZK_TRY_ASSIGN(job->c1, porep::parse_c1(text, request.payload_name));
  porep::RegisteredShape r;
  CUZK_TRY_ASSIGN(r, porep::registered_shape(job->c1.registered_proof));
  if (request.sector_size != 0 && request.sector_size != r.shape.sector_size)
    return invalid_argument(fmt::format("sector_size: the request says {}, the C1's registered_proof {} is a {} sector",
                                        request.sector_size, job->c1.registered_proof, r.shape.name));
  if (request.registered_proof && *request.registered_proof != r.proof.id)
    return invalid_argument(fmt::format("registered_proof: the request says {}, the C1's is {} ({})",
                                        *request.registered_proof, r.proof.id, job->c1.registered_proof));
  // The C1's own consistency, before it is admitted: every value the circuit will enforce
  // (porep/c1_check.hpp), so that a C1 that cannot give a verifying proof is refused now, naming
  // the value, not after a proof; and its replica_id against the request's miner and sector when
  // the request names them (Curio does; proto3's 0 is absent).
  if (auto ok = porep::check_vanilla_proofs(job->c1, poseidon_, options_.pool, request.payload_name); !ok)
    return ok.error();
  if (request.miner_id != 0) {
    const uint64_t sector = request.sector_number != 0 || !job->c1.wrapped ? request.sector_number : job->c1.sector_num;
    if (auto ok = porep::check_replica_id(job->c1, porep::prover_id_from_miner(request.miner_id), sector,
                                          request.payload_name);
        !ok)
      return ok.error();
  }
  job->circuit_id = *porep_circuit_id(r.shape.sector_size);
  job->partitions = r.shape.partitions;
  // The parsed C1 (~the payload's size again, with its vectors), and on the CPU one partition's
  // ProvingCS at a time: a, b, c and the aux values.
  job->host_bytes = 2 * request.vanilla_proof.size() + (options_.gpus.empty() ? 4 * witness_bytes(r.shape) : 0);
  // The key and, with GPUs, the pinned witness buffers of each.
  const auto key_file = [&]() -> Expected<std::filesystem::path> {
    porep::ParamsFiles files;
    CUZK_TRY_ASSIGN(files, porep::find_params(options_.param_dir, r.shape.sector_size));
    return files.params;
  };
  job->circuit_bytes = key_bytes_.bytes(job->circuit_id, key_file) +
                       options_.gpus.size() * options_.partitions_per_gpu * witness_bytes(r.shape);
  return std::unique_ptr<ParsedJob>(std::move(job));
}

Expected<std::shared_ptr<LoadedCircuit>> PorepHandler::load(const std::string& circuit_id) {
  const std::optional<uint64_t> size = porep_sector_size(circuit_id);
  if (!size) return Error{ErrorCode::kNotFound, "no PoRep circuit '" + circuit_id + "'"};
  if (options_.load) return options_.load(circuit_id);
  porep::ParamsFiles files;
  CUZK_TRY_ASSIGN(files, porep::find_params(options_.param_dir, *size));
  porep::SectorShape shape;
  CUZK_TRY_ASSIGN(shape, porep::shape_for_sector_size(*size));
  const auto compile = [&] {
    Progress progress("compiling " + circuit_id, shape.challenges_per_partition, show_compile_progress(*size));
    return porep::compile_partition(porep::circuit_shape(shape), poseidon_, options_.pool, &progress);
  };
  return load_groth16_circuit(files.params, compile, options_, lane(), circuit_id);
}

Expected<PartitionOutput> PorepHandler::prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                              const Placement& where) {
  const auto& parsed = static_cast<const ParsedPorep&>(job);
  const auto& loaded = static_cast<const Groth16Circuit&>(circuit);
  groth16::ProverBackend* backend = nullptr;
  CUZK_TRY_ASSIGN(backend, loaded.prover(where, job.circuit_id));
  porep::PartitionOptions options;
  options.blinding_seed = options_.blinding_seed;
  if (options_.challenges == PorepHandlerOptions::Challenges::parallel) options.synthesis_pool = options_.pool;
  groth16::PartitionProof proof;
  CUZK_TRY_ASSIGN(proof, porep::prove_partition(parsed.c1, partition, *backend, loaded.pvk(), poseidon_, options));
  PartitionOutput out;
  const auto bytes = proof.proof.to_bytes();
  out.bytes.assign(bytes.begin(), bytes.end());
  static_cast<groth16::ProofTimes&>(out.times) = proof.times;
  out.times.backend = backend->name();
  return out;
}

}  // namespace cuzk::engine
