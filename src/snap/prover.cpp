#include "snap/prover.hpp"

#include <string>

#include "core/timing.hpp"
#include "params/find.hpp"
#include "groth16/partition_prover.hpp"
#include "groth16/prover.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::snap {

std::vector<uint8_t> UpdateProof::bytes() const {
  std::vector<uint8_t> out;
  for (const groth16::Proof& p : partitions) {
    const auto b = p.to_bytes();
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

Expected<void> validate_update(const UpdateShape& shape, std::span<const PartitionProof> vanilla, const UpdatePublic& pub,
                               const UpdatePoseidon& poseidon, ThreadPool* pool,
                               const std::function<std::string(uint32_t)>& name) {
  if (vanilla.size() != shape.partitions)
    return invalid_argument(std::to_string(vanilla.size()) + " vanilla proofs, " + shape.name() + " has " +
                            std::to_string(shape.partitions) + " partitions");
  std::vector<Expected<void>> results(shape.partitions);
  const auto check = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const uint32_t p = uint32_t(k);
      results[k] = validate_partition_proof(vanilla[k], shape, poseidon, p, pub,
                                            name ? name(p) : "partition " + std::to_string(p));
    }
  };
  if (pool != nullptr) {
    pool->parallel_for(shape.partitions, 1, check);
  } else {
    check(0, shape.partitions);
  }
  for (const Expected<void>& r : results)
    if (!r) return r.error();
  return {};
}

Expected<groth16::PartitionProof> prove_partition(const UpdateShape& shape, const PartitionProof& vanilla, uint32_t k,
                                                  const UpdatePublic& pub, groth16::ProverBackend& prover,
                                                  const groth16::PreparedVerifyingKey& pvk,
                                                  const UpdatePoseidon& poseidon, const groth16::Blinding& blinding,
                                                  ThreadPool* synthesis_pool) {
  const PartitionWitness witness{k, pub.comm_r_old, pub.comm_d_new, pub.comm_r_new, &vanilla};
  const std::vector<ff::Fr> expected = partition_public_inputs(shape, k, pub);
  groth16::CircuitSynthesis synthesis;
  synthesis.full = [&](r1cs::ProvingCS<ff::Fr>& cs) { synthesize_partition(cs, shape, poseidon, witness); };
  synthesis.witness = [&](std::span<ff::Fr> z, size_t inputs) {
    synthesize_partition_witness(shape, poseidon, witness, z, inputs, synthesis_pool);
  };
  return groth16::prove_verified(prover, pvk, synthesis, expected, blinding, "partition " + std::to_string(k));
}

Expected<UpdateProof> prove_update(const UpdateShape& shape, std::span<const PartitionProof> vanilla,
                                   const UpdatePublic& pub, groth16::ProverBackend& prover,
                                   const groth16::PreparedVerifyingKey& pvk, const UpdatePoseidon& poseidon,
                                   std::optional<uint64_t> blinding_seed) {
  if (auto ok = validate_update(shape, vanilla, pub, poseidon); !ok) return ok.error();  // all before any work
  UpdateProof out;
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    const auto t0 = Clock::now();
    const groth16::Blinding blinding =
        blinding_seed ? groth16::Blinding::from_seed(*blinding_seed + k) : groth16::Blinding::random();
    groth16::PartitionProof proved;
    CUZK_TRY_ASSIGN(proved, prove_partition(shape, vanilla[k], k, pub, prover, pvk, poseidon, blinding));
    out.partitions.push_back(proved.proof);
    out.partition_ms.push_back(ms_since(t0));
  }
  return out;
}

Expected<bool> verify_update(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                             const UpdateShape& shape, const UpdatePublic& pub) {
  if (proofs.size() != size_t(shape.partitions) * groth16::Proof::kBytes)
    return invalid_argument("proof: " + std::to_string(proofs.size()) + " bytes, expected " +
                            std::to_string(shape.partitions) + " partitions × 192");
  bool all = true;
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    groth16::Proof proof;
    CUZK_TRY_ASSIGN(proof, groth16::Proof::from_bytes(proofs.subspan(k * groth16::Proof::kBytes, groth16::Proof::kBytes)));
    bool ok = false;
    CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, proof, partition_public_inputs(shape, k, pub)));
    all = all && ok;
  }
  return all;
}

std::string own_params_stem(const UpdateShape& shape) {
  return params::own_stem(params::Circuit::snap_deals, shape.sector_size());
}

}  // namespace cuzk::snap
