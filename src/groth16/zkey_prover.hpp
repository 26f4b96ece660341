#pragma once
// snarkjs's Groth16 prover on a .zkey (snarkjs src/groth16_prove.js, read as facts). It differs
// from bellperson's in how H is formed, because the zkey's H points encode it:
//   a, b = the zkey's A and B coefficients applied to the witness (rows nConstraints + s carry
//   the input rows), c = a·b row by row; each of a, b, c is interpolated (iNTT on the m-domain
//   of ffjavascript's roots of unity, built from the non-residue 5, not bellperson's 7) and
//   evaluated on the odd 2m-th roots ω_2m^(2i+1) (coefficient i times ω_2m^i, then NTT);
//   the H MSM takes a·b − c at those points as scalars, against the zkey's H points (no division).
// Then pi_a = α + Σ z·A + rδ, pi_b = β + Σ z·B2 + sδ, B1 = β + Σ z·B1 + sδ,
//      pi_c = Σ z_priv·C + H + s·pi_a + r·B1 − rs·δ.

#include <span>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/zkey.hpp"

namespace cuzk::groth16 {

// witness: the iden3 witness (ONE, public signals, private signals), nVars values.
Expected<Proof> prove_zkey(const Zkey& zkey, std::span<const ff::Fr> witness, const Blinding& blinding, ThreadPool& pool);

}  // namespace cuzk::groth16
