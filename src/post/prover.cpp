#include "post/prover.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/timing.hpp"
#include "groth16/partition_prover.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::post {

std::vector<PublicSector> public_sectors(std::span<const FallbackPoStSectorProof> vanilla) {
  std::vector<PublicSector> out;
  for (const FallbackPoStSectorProof& p : vanilla) {
    PublicSector s;
    s.sector_id = p.sector_id;
    p.comm_r.to_bytes_le(s.comm_r);
    out.push_back(s);
  }
  return out;
}

Expected<std::vector<ff::Fr>> validate_partition(const PartitionRequest& request, const PostPoseidon& poseidon,
                                                 ThreadPool* pool, const std::function<std::string(size_t)>& name) {
  const auto source = [&](size_t i) {
    return (name ? name(i) : "vanilla proof " + std::to_string(i)) + " (sector " +
           std::to_string(request.vanilla[i].sector_id) + ")";
  };
  PostParams params;
  CUZK_TRY_ASSIGN(params, post_params(request.proof));
  // Positions in the verifier's order: strictly ascending sector numbers.
  for (size_t i = 1; i < request.vanilla.size(); ++i) {
    if (request.vanilla[i].sector_id <= request.vanilla[i - 1].sector_id)
      return invalid_argument(source(i) + ": after sector " + std::to_string(request.vanilla[i - 1].sector_id) +
                              " (vanilla proofs come in ascending sector order, each once)");
  }
  std::vector<Expected<void>> results(request.vanilla.size());
  // Four sectors at a time: WindowPoSt's 4 × 10 paths fill five groups of eight Poseidon lanes
  // (one sector's 10 fill 10 of 16; docs/PERF.md 33).
  constexpr size_t kTogether = 4;
  const auto check = [&](size_t begin, size_t end) {
    std::vector<std::string> names;
    std::vector<SectorToValidate> sectors;
    for (size_t first = begin; first < end; first += kTogether) {
      const size_t n = std::min(kTogether, end - first);
      names.clear();
      sectors.clear();
      for (size_t i = first; i < first + n; ++i) names.push_back(source(i));
      for (size_t i = first; i < first + n; ++i) {
        const uint64_t position = uint64_t(request.partition) * params.sector_count + i;
        sectors.push_back({&request.vanilla[i], position, names[i - first]});
      }
      std::vector<Expected<void>> checked = validate_sectors(sectors, request.proof, request.randomness, poseidon);
      for (size_t k = 0; k < n; ++k) results[first + k] = std::move(checked[k]);
    }
  };
  if (pool != nullptr) {
    pool->parallel_for(request.vanilla.size(), kTogether, check);
  } else {
    check(0, request.vanilla.size());
  }
  for (const Expected<void>& r : results)
    if (!r) return r.error();
  return chunk_public_inputs(request.proof, request.randomness, public_sectors(request.vanilla), request.partition);
}

Expected<PostProof> prove_validated(const PartitionRequest& request, std::span<const ff::Fr> expected,
                                    groth16::ProverBackend& prover, const groth16::PreparedVerifyingKey& pvk,
                                    const PostPoseidon& poseidon, const PostProveOptions& options) {
  PostParams params;
  CUZK_TRY_ASSIGN(params, post_params(request.proof));
  std::vector<SectorWitness> sectors;
  CUZK_TRY_ASSIGN(sectors, circuit_sectors(params, request.vanilla));
  const PostCircuitShape shape = circuit_shape(params);
  const groth16::Blinding blinding =
      options.blinding_seed ? groth16::Blinding::from_seed(*options.blinding_seed) : groth16::Blinding::random();
  // The recipe every proof kind shares (groth16/partition_prover.hpp): synthesis by the backend's
  // path, the inputs against the derived ones, the proof, its check.
  groth16::CircuitSynthesis synthesis;
  synthesis.full = [&](r1cs::ProvingCS<ff::Fr>& cs) { synthesize_partition(cs, shape, poseidon, sectors); };
  synthesis.witness = [&](std::span<ff::Fr> z, size_t inputs) {
    synthesize_partition_witness(shape, poseidon, sectors, z, inputs, options.synthesis_pool);
  };
  groth16::PartitionProof proved;
  CUZK_TRY_ASSIGN(proved, groth16::prove_verified(prover, pvk, synthesis, expected, blinding,
                                                  "partition " + std::to_string(request.partition)));
  PostProof out;
  out.proof = proved.proof;
  out.synthesis_ms = proved.times.synthesis_ms;
  out.prove_ms = proved.times.prove_ms;
  out.verify_ms = proved.times.verify_ms;
  out.prover = proved.times.prover;
  return out;
}

Expected<PostProof> prove_partition(const PartitionRequest& request, groth16::ProverBackend& prover,
                                    const groth16::PreparedVerifyingKey& pvk, const PostPoseidon& poseidon,
                                    const PostProveOptions& options) {
  const auto t0 = Clock::now();
  std::vector<ff::Fr> expected;
  CUZK_TRY_ASSIGN(expected, validate_partition(request, poseidon, options.synthesis_pool));
  const double validate_ms = ms_since(t0);
  PostProof out;
  CUZK_TRY_ASSIGN(out, prove_validated(request, expected, prover, pvk, poseidon, options));
  out.validate_ms = validate_ms;
  return out;
}

}  // namespace cuzk::post
