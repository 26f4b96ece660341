#include "post/prover.hpp"

#include <string>
#include <vector>

#include "core/timing.hpp"
#include "groth16/assignment.hpp"
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

Expected<PostProof> prove_partition(const PartitionRequest& request, groth16::ProverBackend& prover,
                                    const groth16::PreparedVerifyingKey& pvk, const PostPoseidon& poseidon,
                                    const PostProveOptions& options) {
  PostParams params;
  CUZK_TRY_ASSIGN(params, post_params(request.proof));
  PostProof out;
  auto t0 = Clock::now();
  // Positions in the verifier's order: strictly ascending sector numbers.
  for (size_t i = 0; i < request.vanilla.size(); ++i) {
    const FallbackPoStSectorProof& p = request.vanilla[i];
    if (i > 0 && p.sector_id <= request.vanilla[i - 1].sector_id)
      return Error{ErrorCode::kInvalidArgument, "vanilla proofs: sector " + std::to_string(p.sector_id) + " after sector " +
                                                    std::to_string(request.vanilla[i - 1].sector_id) +
                                                    " (they must come in ascending sector order, each once)"};
    const uint64_t position = uint64_t(request.partition) * params.sector_count + i;
    if (auto ok = validate(p, request.proof, request.randomness, position, poseidon,
                           "vanilla proof " + std::to_string(i) + " (sector " + std::to_string(p.sector_id) + ")");
        !ok)
      return ok.error();
  }
  std::vector<ff::Fr> expected;
  CUZK_TRY_ASSIGN(expected, chunk_public_inputs(request.proof, request.randomness, public_sectors(request.vanilla),
                                                request.partition));
  std::vector<SectorWitness> sectors;
  CUZK_TRY_ASSIGN(sectors, circuit_sectors(params, request.vanilla));
  out.validate_ms = ms_since(t0);

  const PostCircuitShape shape = circuit_shape(params);
  const groth16::Blinding blinding =
      options.blinding_seed ? groth16::Blinding::from_seed(*options.blinding_seed) : groth16::Blinding::random();
  Expected<groth16::Proof> proof = Error{ErrorCode::kInternal, "not proved"};
  t0 = Clock::now();
  std::vector<ff::Fr> inputs;
  if (options.from_witness) {
    groth16::WitnessPool* witnesses = prover.witness_pool();
    if (witnesses == nullptr)
      return Error{ErrorCode::kInvalidArgument, "prove_partition: proving from the witness needs a backend made with "
                                                "the compiled partition circuit; " + prover.name() + " has none"};
    groth16::WitnessPool::Lease lease = witnesses->lend();
    synthesize_partition_witness(shape, poseidon, sectors, lease.z(), witnesses->sizes().inputs, options.synthesis_pool);
    inputs.assign(lease.witness().inputs.begin() + 1, lease.witness().inputs.end());
    out.synthesis_ms = ms_since(t0);
    if (inputs != expected) return Error{ErrorCode::kInternal, "the circuit's public inputs differ from the derived ones"};
    t0 = Clock::now();
    proof = prover.prove(lease.witness(), blinding, &out.prover);
  } else {
    r1cs::ProvingCS<ff::Fr> cs;
    synthesize_partition(cs, shape, poseidon, sectors);
    inputs.assign(cs.inputs().begin() + 1, cs.inputs().end());
    out.synthesis_ms = ms_since(t0);
    if (inputs != expected) return Error{ErrorCode::kInternal, "the circuit's public inputs differ from the derived ones"};
    t0 = Clock::now();
    proof = prover.prove(groth16::assignment_of(cs), blinding, &out.prover);
  }
  out.prove_ms = ms_since(t0);
  if (!proof) return proof.error();
  t0 = Clock::now();
  bool ok = false;
  CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, *proof, expected));
  out.verify_ms = ms_since(t0);
  if (!ok)
    return Error{ErrorCode::kVerifyFailed, "the proof of partition " + std::to_string(request.partition) +
                                               " does not verify: not returned (wrong parameters for this circuit?)"};
  out.proof = *proof;
  return out;
}

}  // namespace cuzk::post
