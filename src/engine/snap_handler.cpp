#include "engine/snap_handler.hpp"

#include <fmt/format.h>

#include <vector>

#include "core/error.hpp"
#include "core/memory_size.hpp"
#include "engine/circuit_id.hpp"
#include "params/find.hpp"
#include "snap/prover.hpp"
#include "snap/update_shape.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::engine {
namespace {

constexpr std::string_view kPrefix = "snap";

struct ParsedSnap final : ParsedJob {
  snap::UpdateShape shape;
  snap::UpdatePublic pub;
  std::vector<snap::PartitionProof> vanilla;  // by partition
};

Expected<ff::Fr> commitment(std::string_view field, const std::vector<uint8_t>& bytes) {
  if (bytes.size() != 32) return invalid_argument(fmt::format("{}: {} bytes, expected 32", field, bytes.size()));
  Expected<ff::Fr> v = ff::Fr::from_bytes_le(std::span<const uint8_t, 32>(bytes.data(), 32));
  if (!v) return invalid_argument(fmt::format("{}: not a canonical BLS12-381 scalar (little-endian)", field));
  return v;
}

}  // namespace

SnapHandler::SnapHandler(Groth16HandlerOptions options) : options_(std::move(options)) {
  if (options_.pool == nullptr) throw Exception(invalid_argument("SnapHandler: no thread pool"));
}

bool SnapHandler::serves(std::string_view circuit_id) const { return circuit_sector_size(kPrefix, circuit_id).has_value(); }

Expected<std::unique_ptr<ParsedJob>> SnapHandler::parse(const JobRequest& request) const {
  // proto3 sends no zero: an absent registered_proof is 0 (StackedDrg2KiBV1).
  const uint64_t id = request.registered_proof.value_or(0);
  Expected<snap::RegisteredUpdateProof> registered = snap::registered_update_proof(id);
  if (!registered) return invalid_argument("registered_proof: " + registered.error().message);
  if (request.sector_size != 0 && request.sector_size != registered->sector_size)
    return invalid_argument(fmt::format("sector_size: the request says {}, registered_proof {} ({}) is a {} sector",
                                        request.sector_size, id, registered->name,
                                        exact_size_text(registered->sector_size)));
  auto job = std::make_unique<ParsedSnap>();
  CUZK_TRY_ASSIGN(job->shape, snap::update_shape_for_sector_size(registered->sector_size));
  CUZK_TRY_ASSIGN(job->pub.comm_r_old, commitment("comm_r_old", request.comm_r_old));
  CUZK_TRY_ASSIGN(job->pub.comm_d_new, commitment("comm_d_new", request.comm_d_new));
  CUZK_TRY_ASSIGN(job->pub.comm_r_new, commitment("comm_r_new", request.comm_r_new));
  if (request.vanilla_proofs.size() != job->shape.partitions)
    return invalid_argument(fmt::format("vanilla_proofs: {} partition proofs, a {} update has {} partitions",
                                        request.vanilla_proofs.size(), job->shape.name(), job->shape.partitions));
  CUZK_TRY_ASSIGN(job->vanilla, decode_vanilla_proofs<snap::PartitionProof>(request, *options_.pool, 1,
                                                                            snap::decode_partition_proof));
  if (auto ok = snap::validate_update(job->shape, job->vanilla, job->pub, poseidon_, options_.pool,
                                      [&](uint32_t k) { return request.vanilla_name(k); });
      !ok)
    return ok.error();
  job->circuit_id = *circuit_id(kPrefix, registered->sector_size);
  job->partitions = job->shape.partitions;
  size_t payload = 0;
  for (const auto& v : request.vanilla_proofs) payload += v.size();
  const auto key_file = [&]() -> Expected<std::filesystem::path> {
    params::Files files;
    CUZK_TRY_ASSIGN(files, params::find_files(options_.param_dir, params::Circuit::snap_deals, registered->sector_size));
    return files.params;
  };
  const size_t key = key_bytes_.bytes(job->circuit_id, key_file);
  // The decoded proofs (~the payload again), and on the CPU one partition's ProvingCS at a time.
  job->host_bytes = 2 * payload + (options_.gpus.empty() ? 4 * witness_bytes_from_key(key) : 0);
  // The key and, with GPUs, the pinned witness buffers of each.
  job->circuit_bytes = key + options_.gpus.size() * options_.partitions_per_gpu * witness_bytes_from_key(key);
  return std::unique_ptr<ParsedJob>(std::move(job));
}

Expected<std::shared_ptr<LoadedCircuit>> SnapHandler::load(const std::string& circuit_id) {
  const std::optional<uint64_t> size = circuit_sector_size(kPrefix, circuit_id);
  if (!size) return Error{ErrorCode::kNotFound, "no SnapDeals circuit '" + circuit_id + "'"};
  if (options_.load) return options_.load(circuit_id);
  params::Files files;
  CUZK_TRY_ASSIGN(files, params::find_files(options_.param_dir, params::Circuit::snap_deals, *size));
  snap::UpdateShape shape;
  CUZK_TRY_ASSIGN(shape, snap::update_shape_for_sector_size(*size));
  const auto compile = [&] {
    Progress progress("compiling " + circuit_id, shape.challenges, show_compile_progress(*size));
    return snap::compile_partition(shape, poseidon_, options_.pool, &progress);
  };
  return load_groth16_circuit(files.params, compile, options_, lane(), circuit_id);
}

Expected<PartitionOutput> SnapHandler::prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                             const Placement& where) {
  const auto& parsed = static_cast<const ParsedSnap&>(job);
  const auto& loaded = static_cast<const Groth16Circuit&>(circuit);
  groth16::ProverBackend* backend = nullptr;
  CUZK_TRY_ASSIGN(backend, loaded.prover(where, job.circuit_id));
  const groth16::Blinding blinding = options_.blinding_seed ? groth16::Blinding::from_seed(*options_.blinding_seed + partition)
                                                            : groth16::Blinding::random();
  groth16::PartitionProof proof;
  CUZK_TRY_ASSIGN(proof, snap::prove_partition(parsed.shape, parsed.vanilla[partition], partition, parsed.pub, *backend,
                                               loaded.pvk(), poseidon_, blinding, options_.pool));
  PartitionOutput out;
  const auto bytes = proof.proof.to_bytes();
  out.bytes.assign(bytes.begin(), bytes.end());
  static_cast<groth16::ProofTimes&>(out.times) = proof.times;
  out.times.backend = backend->name();
  return out;
}

}  // namespace cuzk::engine
