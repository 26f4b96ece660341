#pragma once
// What synthesis hands the prover (shared/SPEC.md §5): the full assignment, the constraint
// rows a = A·z, b = B·z, c = C·z, and which variables the A and B queries cover. It comes from
// a ProvingCS, or from a WitnessCS plus the compiled circuit's SpMV (r1cs/compiled.hpp).

#include <vector>

#include "core/density_bitmap.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::groth16 {

// Variables dense in A (aux only: every input is in A through its input row) and in B.
struct Density {
  DensityBitmap a_aux, b_input, b_aux;
};

struct Assignment {
  std::vector<ff::Fr> inputs;   // ONE first
  std::vector<ff::Fr> aux;
  std::vector<ff::Fr> a, b, c;  // one per constraint, input rows excluded
  Density density;
};

// bellperson's rule on a compiled circuit: a variable is dense in a matrix when some row holds
// it with a non-zero coefficient.
Density density_of(const r1cs::CompiledR1cs<ff::Fr>& r1cs);

// The assignment a ProvingCS recorded (copied out).
Assignment assignment_of(const r1cs::ProvingCS<ff::Fr>& cs);

}  // namespace cuzk::groth16
