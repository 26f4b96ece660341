#include "porep/prover.hpp"

#include <string>

#include "core/error.hpp"
#include "porep/verify.hpp"

namespace cuzk::porep {

Expected<std::vector<ff::Fr>> c1_public_inputs(const C1& c1, uint32_t partition) {
  PorepPublicData data;
  CUZK_TRY_ASSIGN(data, public_data_of(c1));
  return partition_public_inputs(data, partition);
}

Expected<groth16::PartitionProof> prove_partition(const C1& c1, uint32_t k, groth16::ProverBackend& prover,
                                                  const groth16::PreparedVerifyingKey& pvk,
                                                  const PorepPoseidon& poseidon, const PartitionOptions& options) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  if (c1.partitions.size() != r.shape.partitions)
    return invalid_argument("C1 has " + std::to_string(c1.partitions.size()) + " partitions, " +
                            std::string(r.shape.name) + " needs " + std::to_string(r.shape.partitions));
  if (k >= r.shape.partitions)
    return invalid_argument("partition " + std::to_string(k) + ": a " + std::string(r.shape.name) + " C1 has " +
                            std::to_string(r.shape.partitions));
  std::vector<ff::Fr> expected;
  CUZK_TRY_ASSIGN(expected, c1_public_inputs(c1, k));
  const StackedCircuitShape shape = circuit_shape(r.shape);
  const PartitionWitness pw = partition_witness(c1, k);
  groth16::CircuitSynthesis synthesis;
  synthesis.full = [&](r1cs::ProvingCS<ff::Fr>& cs) { synthesize_partition(cs, shape, poseidon, pw); };
  synthesis.witness = [&](std::span<ff::Fr> z, size_t inputs) {
    synthesize_partition_witness(shape, poseidon, pw, z, inputs, options.synthesis_pool);
  };
  const groth16::Blinding blinding =
      options.blinding_seed ? groth16::Blinding::from_seed(*options.blinding_seed + k) : groth16::Blinding::random();
  return groth16::prove_verified(prover, pvk, synthesis, expected, blinding, "C1 partition " + std::to_string(k));
}

}  // namespace cuzk::porep
