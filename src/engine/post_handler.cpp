#include "engine/post_handler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/memory_size.hpp"
#include "engine/circuit_id.hpp"
#include "post/params.hpp"
#include "post/prover.hpp"
#include "post/vanilla.hpp"

namespace cuzk::engine {
namespace {

struct ParsedPost final : ParsedJob {
  post::RegisteredPostProof proof{};
  post::Bytes32 randomness{};
  uint32_t partition = 0;
  std::vector<post::FallbackPoStSectorProof> vanilla;
  std::vector<ff::Fr> expected_inputs;  // derived from public data at parse
};

}  // namespace

PostHandler::PostHandler(post::PostKind kind, Groth16HandlerOptions options) : kind_(kind), options_(std::move(options)) {
  if (options_.pool == nullptr) throw Exception(invalid_argument("PostHandler: no thread pool"));
}

ProofKind PostHandler::kind() const {
  return kind_ == post::PostKind::kWindow ? ProofKind::window_post_partition : ProofKind::winning_post;
}

Lane PostHandler::lane() const { return kind_ == post::PostKind::kWinning ? Lane::express : Lane::standard; }

std::string_view PostHandler::prefix() const { return post::kind_name(kind_); }

bool PostHandler::serves(std::string_view circuit_id) const {
  return circuit_sector_size(prefix(), circuit_id).has_value();
}

Expected<std::unique_ptr<ParsedJob>> PostHandler::parse(const JobRequest& request) const {
  // proto3 sends no zero: an absent registered_proof is 0 (StackedDrgWinning2KiBV1).
  const uint64_t id = request.registered_proof.value_or(0);
  Expected<post::RegisteredPostProof> registered = post::registered_post_proof(id);
  if (!registered) return invalid_argument("registered_proof: " + registered.error().message);
  if (registered->kind != kind_)
    return invalid_argument(fmt::format("registered_proof: {} ({}) is a {} proof, the request's proof_kind is {}", id,
                                        registered->name, post::kind_name(registered->kind), to_string(kind())));
  if (request.sector_size != 0 && request.sector_size != registered->sector_size)
    return invalid_argument(fmt::format("sector_size: the request says {}, registered_proof {} ({}) is a {} sector",
                                        request.sector_size, id, registered->name,
                                        exact_size_text(registered->sector_size)));
  if (request.randomness.size() != 32)
    return invalid_argument(fmt::format("randomness: {} bytes, expected 32", request.randomness.size()));
  if (kind_ == post::PostKind::kWinning && request.partition_index != 0)
    return invalid_argument(fmt::format("partition_index: {}, WinningPoSt has one partition (0)", request.partition_index));
  post::PostParams params;
  CUZK_TRY_ASSIGN(params, post::post_params(*registered));
  const size_t most = kind_ == post::PostKind::kWinning ? 1 : params.sector_count;
  if (request.vanilla_proofs.empty())
    return invalid_argument(std::string("vanilla_proofs: empty (expected one bincode FallbackPoStSectorProof per sector") +
                            (request.vanilla_proof.empty() ? ")" : "; vanilla_proof holds PoRep's C1)"));
  if (request.vanilla_proofs.size() > most)
    return invalid_argument(fmt::format("vanilla_proofs: {} sector proofs, a {} {} partition has at most {}",
                                        request.vanilla_proofs.size(), exact_size_text(registered->sector_size),
                                        post::kind_name(kind_), most));
  auto job = std::make_unique<ParsedPost>();
  job->proof = *registered;
  std::copy(request.randomness.begin(), request.randomness.end(), job->randomness.begin());
  job->partition = request.partition_index;
  CUZK_TRY_ASSIGN(job->vanilla, decode_vanilla_proofs<post::FallbackPoStSectorProof>(request, *options_.pool, 16,
                                                                                     post::decode_vanilla));
  // Every proof against its position, the randomness and its comm_r, before admission.
  const post::PartitionRequest pr{job->proof, job->randomness, job->partition, job->vanilla};
  CUZK_TRY_ASSIGN(job->expected_inputs, post::validate_partition(pr, poseidon_, options_.pool, [&](size_t i) {
                    return request.vanilla_name(i);
                  }));
  job->circuit_id = *circuit_id(prefix(), registered->sector_size);
  job->partitions = 1;
  const size_t payload = [&] {
    size_t n = 0;
    for (const auto& v : request.vanilla_proofs) n += v.size();
    return n;
  }();
  const auto key_file = [&]() -> Expected<std::filesystem::path> {
    post::ParamsFiles files;
    CUZK_TRY_ASSIGN(files, post::find_params(options_.param_dir, kind_, registered->sector_size));
    return files.params;
  };
  const size_t key = key_bytes_.bytes(job->circuit_id, key_file);
  // The decoded proofs (~the payload again), and on the CPU the ProvingCS (a, b, c and the aux).
  job->host_bytes = 2 * payload + (options_.gpus.empty() ? 4 * witness_bytes_from_key(key) : 0);
  // The key and, with GPUs, the pinned witness buffers of each.
  job->circuit_bytes = key + options_.gpus.size() * options_.partitions_per_gpu * witness_bytes_from_key(key);
  return std::unique_ptr<ParsedJob>(std::move(job));
}

Expected<std::shared_ptr<LoadedCircuit>> PostHandler::load(const std::string& circuit_id) {
  const std::optional<uint64_t> size = circuit_sector_size(prefix(), circuit_id);
  if (!size) return Error{ErrorCode::kNotFound, fmt::format("no {} circuit '{}'", prefix(), circuit_id)};
  if (options_.load) return options_.load(circuit_id);
  post::ParamsFiles files;
  CUZK_TRY_ASSIGN(files, post::find_params(options_.param_dir, kind_, *size));
  post::PostParams params;
  CUZK_TRY_ASSIGN(params, post::post_params(kind_, *size));
  const auto compile = [&] {
    Progress progress("compiling " + circuit_id, params.sector_count, show_compile_progress(*size));
    return post::compile_partition(post::circuit_shape(params), poseidon_, options_.pool, &progress);
  };
  return load_groth16_circuit(files.params, compile, options_, lane(), circuit_id);
}

Expected<PartitionOutput> PostHandler::prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t /*partition*/,
                                             const Placement& where) {
  const auto& parsed = static_cast<const ParsedPost&>(job);
  const auto& loaded = static_cast<const Groth16Circuit&>(circuit);
  groth16::ProverBackend* backend = nullptr;
  CUZK_TRY_ASSIGN(backend, loaded.prover(where, job.circuit_id));
  const post::PartitionRequest request{parsed.proof, parsed.randomness, parsed.partition, parsed.vanilla};
  post::PostProveOptions options;
  options.blinding_seed = options_.blinding_seed;
  options.synthesis_pool = options_.pool;
  post::PostProof proof;
  CUZK_TRY_ASSIGN(proof, post::prove_validated(request, parsed.expected_inputs, *backend, loaded.pvk(), poseidon_, options));
  PartitionOutput out;
  const auto bytes = proof.proof.to_bytes();
  out.bytes.assign(bytes.begin(), bytes.end());
  out.times.synthesis_ms = proof.synthesis_ms;
  out.times.prove_ms = proof.prove_ms;
  out.times.verify_ms = proof.verify_ms;
  out.times.prover = proof.prover;
  out.times.backend = backend->name();
  return out;
}

}  // namespace cuzk::engine
