#include "groth16/partition_prover.hpp"

#include <future>
#include <optional>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/assignment.hpp"

namespace cuzk::groth16 {

Expected<PartitionProof> prove_verified(ProverBackend& backend, const PreparedVerifyingKey& pvk,
                                        const CircuitSynthesis& synthesis, std::span<const ff::Fr> expected_inputs,
                                        const Blinding& blinding, const std::string& what) {
  PartitionProof out;
  WitnessPool* witnesses = backend.witness_pool();
  std::optional<WitnessPool::Lease> lease;
  std::optional<r1cs::ProvingCS<ff::Fr>> full;
  std::span<const ff::Fr> inputs;
  auto t0 = Clock::now();
  if (witnesses != nullptr) {
    lease.emplace(witnesses->lend());
    synthesis.witness(lease->z(), witnesses->sizes().inputs);
    inputs = lease->witness().inputs;
  } else {
    synthesis.full(full.emplace());
    inputs = full->inputs();
  }
  out.times.synthesis_ms = ms_since(t0);

  inputs = inputs.subspan(1);  // ONE
  if (!std::equal(inputs.begin(), inputs.end(), expected_inputs.begin(), expected_inputs.end())) {
    size_t i = 0;
    while (i < inputs.size() && i < expected_inputs.size() && inputs[i] == expected_inputs[i]) ++i;
    return invalid_argument(what + ": public input " + std::to_string(i) + " of the circuit (of " +
                            std::to_string(inputs.size()) + ") differs from the one derived from the public data " +
                            "(the vanilla proofs do not answer this sector's challenges)");
  }

  // The check's public-input term beside the proof, on a thread of its own: one core's MSM
  // over the inputs, ~0.1 s for a 32 GiB WindowPoSt partition's 25,839 (docs/PERF.md 35b).
  std::future<Expected<G1Affine>> term =
      std::async(std::launch::async, [&pvk, expected_inputs] { return inputs_term(pvk, expected_inputs); });
  t0 = Clock::now();
  Expected<Proof> proof = lease ? backend.prove(lease->witness(), blinding, &out.times.prover)
                                : backend.prove(assignment_of(*full), blinding, &out.times.prover);
  out.times.prove_ms = ms_since(t0);
  if (!proof) return proof.error();
  lease.reset();  // the buffer goes back before the check
  full.reset();

  t0 = Clock::now();
  G1Affine acc;
  CUZK_TRY_ASSIGN(acc, term.get());
  const bool ok = verify_prepared(pvk, *proof, acc);
  out.times.verify_ms = ms_since(t0);
  if (!ok)
    return Error{ErrorCode::kVerifyFailed, what + ": the proof by " + backend.name() +
                                               " does not verify: not returned (wrong parameters for this circuit?)"};
  out.proof = *proof;
  return out;
}

}  // namespace cuzk::groth16
