#include "porep/prover.hpp"

#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/assignment.hpp"
#include "porep/verify.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::porep {

std::vector<uint8_t> PorepProof::bytes() const {
  std::vector<uint8_t> out;
  for (const groth16::Proof& p : partitions) {
    const auto b = p.to_bytes();
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

Expected<std::vector<ff::Fr>> c1_public_inputs(const C1& c1, uint32_t partition) {
  PorepPublicData data;
  CUZK_TRY_ASSIGN(data, public_data_of(c1));
  return partition_public_inputs(data, partition);
}

Expected<PorepProof> prove_c1(const C1& c1, const groth16::Parameters& params, const groth16::PreparedVerifyingKey& pvk,
                              const PorepPoseidon& poseidon, ThreadPool& pool, const ProveOptions& options) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  if (c1.partitions.size() != r.shape.partitions)
    return Error{ErrorCode::kInvalidArgument, "C1 has " + std::to_string(c1.partitions.size()) + " partitions, " +
                                                  std::string(r.shape.name) + " needs " +
                                                  std::to_string(r.shape.partitions)};
  if (options.from_witness && options.prover == nullptr)
    return invalid_argument("prove_c1: from_witness needs a prover backend made with the partition circuit");
  const StackedCircuitShape shape = circuit_shape(r.shape);
  PorepProof out;
  for (uint32_t k = 0; k < r.shape.partitions; ++k) {
    PartitionTimes times;
    std::vector<ff::Fr> expected;
    CUZK_TRY_ASSIGN(expected, c1_public_inputs(c1, k));

    // Synthesis, and the proof: from the ProvingCS assignment, or (options.from_witness) from the
    // WitnessCS witness, whose a, b, c the backend computes with the compiled circuit.
    auto t0 = Clock::now();
    std::optional<r1cs::ProvingCS<ff::Fr>> full;
    std::optional<r1cs::WitnessCS<ff::Fr>> witness;
    if (options.from_witness) {
      synthesize_partition(witness.emplace(), shape, poseidon, partition_witness(c1, k));
    } else {
      synthesize_partition(full.emplace(), shape, poseidon, partition_witness(c1, k));
    }
    const std::vector<ff::Fr>& z_inputs = witness ? witness->inputs() : full->inputs();
    times.synthesis_ms = ms_since(t0);
    const std::vector<ff::Fr> inputs(z_inputs.begin() + 1, z_inputs.end());
    if (inputs != expected) {
      size_t i = 0;
      while (i < inputs.size() && i < expected.size() && inputs[i] == expected[i]) ++i;
      return Error{ErrorCode::kInvalidArgument,
                   "C1 partition " + std::to_string(k) + ": public input " + std::to_string(i) +
                       " of the circuit differs from the one derived from replica_id, seed and the graph "
                       "(the vanilla proofs do not answer this sector's challenges)"};
    }

    t0 = Clock::now();
    const groth16::Blinding blinding = options.blinding_seed ? groth16::Blinding::from_seed(*options.blinding_seed + k)
                                                             : groth16::Blinding::random();
    groth16::Proof proof;
    if (witness) {
      CUZK_TRY_ASSIGN(proof, options.prover->prove(groth16::Witness{witness->inputs(), witness->aux()}, blinding,
                                                   &times.prover));
    } else if (options.prover != nullptr) {
      CUZK_TRY_ASSIGN(proof, options.prover->prove(groth16::assignment_of(*full), blinding, &times.prover));
    } else {
      CUZK_TRY_ASSIGN(proof, groth16::prove(params, groth16::assignment_of(*full), blinding, pool, &times.prover));
    }
    times.prove_ms = ms_since(t0);

    t0 = Clock::now();
    bool ok = false;
    CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, proof, inputs));
    times.verify_ms = ms_since(t0);
    if (!ok) {
      return Error{ErrorCode::kInternal, "the proof of partition " + std::to_string(k) +
                                             " does not verify: not returned (wrong parameters for this circuit?)"};
    }
    out.partitions.push_back(proof);
    out.times.push_back(times);
    if (options.on_partition_done) options.on_partition_done(k);
  }
  return out;
}

}  // namespace cuzk::porep
