#pragma once
// One circuit (a partition of a Filecoin proof) from synthesis to a verified proof, the recipe
// every proof kind shares (the engine calls it through each kind's handler, engine/handler.hpp):
//   1. synthesis: the full assignment (ProvingCS: a, b, c on the host) for a backend without the
//      compiled circuit, or the witness alone (WitnessCS, into a buffer the backend lends, its
//      a, b, c from the compiled circuit: shared/DESIGN.md decision 4) for one with it;
//   2. the circuit's public inputs checked against the ones derived from public data, so that a
//      payload that does not answer its own challenges is the input's fault (kInvalidArgument),
//      not a proof that fails to verify;
//   3. the proof, with r, s from the OS CSPRNG (or a seed, for tests);
//   4. verified with the key's verifying key before it is returned (decision 7): one that does
//      not verify is the device's fault (kVerifyFailed), never returned. The check's public-input
//      term (an MSM over the inputs) is computed while the backend proves.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::groth16 {

// One proof's times, stage by stage, in milliseconds.
struct ProofTimes {
  double synthesis_ms = 0;  // the witness or the full assignment
  double prove_ms = 0;      // the backend's call
  double verify_ms = 0;     // after the proof: the pairing check (and any wait for the inputs' term)
  ProverTimes prover;       // inside the backend's call
};

// How one circuit is synthesised: both ways give the same values (tested per circuit).
struct CircuitSynthesis {
  // Every row and value into `cs` (ProvingCS): for a backend without the compiled circuit.
  std::function<void(r1cs::ProvingCS<ff::Fr>& cs)> full;
  // The values only into `z` (the inputs, ONE first, then the aux), of which the first
  // `inputs` are the inputs: for a backend with the compiled circuit.
  std::function<void(std::span<ff::Fr> z, size_t inputs)> witness;
};

struct PartitionProof {
  Proof proof;
  ProofTimes times;
};

// `synthesis` proved by `backend` and verified with `pvk` against `expected_inputs` (ONE
// excluded). From the witness when the backend lends witness buffers (it holds the compiled
// circuit), else from the full assignment. `what` names the circuit in errors ("partition 3").
Expected<PartitionProof> prove_verified(ProverBackend& backend, const PreparedVerifyingKey& pvk,
                                        const CircuitSynthesis& synthesis, std::span<const ff::Fr> expected_inputs,
                                        const Blinding& blinding, const std::string& what);

}  // namespace cuzk::groth16
