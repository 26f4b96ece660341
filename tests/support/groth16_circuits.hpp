#pragma once
// A test circuit (support/circuits.hpp) through the Groth16 pipeline: compiled (KeygenCS, for
// setup), synthesised (ProvingCS, the prover's assignment), and the statement's public inputs.
// Header-only; a test that includes it links cuzk::groth16.

#include <utility>
#include <vector>

#include "groth16/assignment.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::test {

template <class Circuit>
r1cs::CompiledR1cs<ff::Fr> compile(Circuit&& circuit) {
  r1cs::KeygenCS<ff::Fr> cs;
  circuit(cs);
  return std::move(cs).finish();
}

template <class Circuit>
groth16::Assignment synthesize(Circuit&& circuit) {
  r1cs::ProvingCS<ff::Fr> cs;
  circuit(cs);
  return groth16::assignment_of(cs);
}

// The inputs a verifier takes: ONE excluded.
inline std::vector<ff::Fr> public_inputs(const groth16::Assignment& w) { return {w.inputs.begin() + 1, w.inputs.end()}; }

}  // namespace cuzk::test
