#include "porep/prover.hpp"

#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/ordered_workers.hpp"
#include "core/timing.hpp"
#include "groth16/assignment.hpp"
#include "porep/c1_check.hpp"
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

namespace {

// One partition's synthesis: the witness (WitnessCS, into a buffer lent by the backend's pool)
// or the full assignment (ProvingCS).
struct Synthesised {
  std::optional<r1cs::ProvingCS<ff::Fr>> full;
  std::optional<groth16::WitnessPool::Lease> witness;
  double ms = 0;
  std::span<const ff::Fr> inputs() const {
    return witness ? witness->witness().inputs : std::span<const ff::Fr>(full->inputs());
  }
};

Synthesised synthesise(const C1& c1, const StackedCircuitShape& shape, const PorepPoseidon& poseidon, uint32_t k,
                       const ProveOptions& o, groth16::WitnessPool* witnesses) {
  Synthesised out;
  const auto t0 = Clock::now();
  const PartitionWitness pw = partition_witness(c1, k);
  if (witnesses != nullptr) {
    out.witness.emplace(witnesses->lend());
    synthesize_partition_witness(shape, poseidon, pw, out.witness->z(), witnesses->sizes().inputs, o.synthesis_pool);
  } else {
    synthesize_partition(out.full.emplace(), shape, poseidon, pw);
  }
  out.ms = ms_since(t0);
  return out;
}

// One partition: its circuit's public inputs (ONE excluded), the proof or why there is none (inputs
// that differ from the C1's, a prover error), and its times.
struct PartitionResult {
  std::vector<ff::Fr> inputs;
  Expected<groth16::Proof> proof = Error{ErrorCode::kInternal, "not proved"};
  PartitionTimes times;
};

}  // namespace

Expected<PorepProof> prove_c1(const C1& c1, groth16::ProverBackend& prover, const groth16::PreparedVerifyingKey& pvk,
                              const PorepPoseidon& poseidon, const ProveOptions& options) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  if (c1.partitions.size() != r.shape.partitions)
    return Error{ErrorCode::kInvalidArgument, "C1 has " + std::to_string(c1.partitions.size()) + " partitions, " +
                                                  std::string(r.shape.name) + " needs " +
                                                  std::to_string(r.shape.partitions)};
  // Every value the circuit will enforce, checked natively first: a C1 that cannot give a
  // verifying proof is refused now, naming the value, not after the whole proof.
  if (auto ok = check_vanilla_proofs(c1, poseidon, options.synthesis_pool, "C1"); !ok) return ok.error();
  const StackedCircuitShape shape = circuit_shape(r.shape);
  const uint32_t partitions = r.shape.partitions;
  groth16::WitnessPool* witnesses = nullptr;
  if (options.from_witness) {
    witnesses = prover.witness_pool();
    if (witnesses == nullptr)
      return Error{ErrorCode::kInvalidArgument, "prove_c1: proving from the witness needs a backend made with the "
                                                "compiled partition circuit; " + prover.name() + " has none"};
  }

  // One partition: synthesis; the circuit's public inputs checked against the ones derived from
  // the C1's public data; then the proof from the ProvingCS assignment, or
  // (options.from_witness) from the witness, whose a, b, c the backend computes with the compiled
  // circuit. The witness's buffer goes back to the backend's pool when the proof is made.
  const auto cancelled = [&](size_t k) {
    return Error{ErrorCode::kCancelled, "cancelled before partition " + std::to_string(k) + " of " +
                                            std::to_string(partitions)};
  };
  const auto run = [&](size_t k) {
    PartitionResult out;
    if (options.stop.stop_requested()) {
      out.proof = cancelled(k);
      return out;
    }
    Synthesised syn = synthesise(c1, shape, poseidon, uint32_t(k), options, witnesses);
    out.times.synthesis_ms = syn.ms;
    out.inputs.assign(syn.inputs().begin() + 1, syn.inputs().end());
    Expected<std::vector<ff::Fr>> expected = c1_public_inputs(c1, uint32_t(k));
    if (!expected) {
      out.proof = expected.error();
      return out;
    }
    if (out.inputs != *expected) {
      size_t i = 0;
      while (i < out.inputs.size() && i < expected->size() && out.inputs[i] == (*expected)[i]) ++i;
      out.proof = Error{ErrorCode::kInvalidArgument,
                        "C1 partition " + std::to_string(k) + ": public input " + std::to_string(i) +
                            " of the circuit differs from the one derived from replica_id, seed and the graph "
                            "(the vanilla proofs do not answer this sector's challenges)"};
      return out;
    }
    const auto t0 = Clock::now();
    const groth16::Blinding blinding = options.blinding_seed ? groth16::Blinding::from_seed(*options.blinding_seed + k)
                                                             : groth16::Blinding::random();
    if (syn.witness) {
      out.proof = prover.prove(syn.witness->witness(), blinding, &out.times.prover);
    } else {
      out.proof = prover.prove(groth16::assignment_of(*syn.full), blinding, &out.times.prover);
    }
    out.times.prove_ms = ms_since(t0);
    return out;
  };
  std::optional<OrderedWorkers<PartitionResult>> ahead;
  if (options.synthesis_workers > 0) ahead.emplace(options.synthesis_workers, partitions, run);

  PorepProof out;
  for (uint32_t k = 0; k < partitions; ++k) {
    if (options.stop.stop_requested()) return cancelled(k);
    const auto t_wait = Clock::now();
    PartitionResult part = ahead ? ahead->take(k) : run(k);
    PartitionTimes times = part.times;
    times.wait_ms = ms_since(t_wait);
    if (!part.proof) return part.proof.error();

    const auto t0 = Clock::now();
    bool ok = false;
    CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, *part.proof, part.inputs));
    times.verify_ms = ms_since(t0);
    if (!ok) {
      return Error{ErrorCode::kVerifyFailed, "the proof of partition " + std::to_string(k) +
                                             " does not verify: not returned (wrong parameters for this circuit?)"};
    }
    out.partitions.push_back(*part.proof);
    out.times.push_back(times);
    if (options.on_partition_done) options.on_partition_done(k);
  }
  return out;
}

}  // namespace cuzk::porep
