#pragma once
// Groth16 verification (Groth, "On the Size of Pairing-based Non-interactive Arguments",
// EUROCRYPT 2016, §3.2), as bellperson checks it:
//   e(A, B) = e(alpha, beta) · e(Σ x_i ic_i, gamma) · e(C, delta),   x_0 = 1,
// computed as one product e(A, B) · e(-alpha, beta) · e(acc, -gamma) · e(C, -delta) = 1 with a
// shared Miller loop and one final exponentiation.

#include <span>
#include <vector>

#include "core/expected.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "pairing/miller_loop.hpp"

namespace cuzk::groth16 {

// The verifying key with its G2 points' Miller-loop lines precomputed.
struct PreparedVerifyingKey {
  G1Affine neg_alpha_g1;
  pairing::G2Prepared beta_g2, neg_gamma_g2, neg_delta_g2;
  std::vector<G1Affine> ic;

  explicit PreparedVerifyingKey(const VerifyingKey& vk);
};

// Whether the proof verifies for these public inputs (ONE excluded); an error when the number
// of inputs does not match the key. The same as verify_prepared with inputs_term's result.
Expected<bool> verify(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const ff::Fr> public_inputs);

// The check's public-input term Σ x_i ic_i (x_0 = 1): it depends on the inputs alone, so a
// prover can compute it while the proof is made (groth16/partition_prover.cpp). An error when the
// number of inputs does not match the key.
Expected<G1Affine> inputs_term(const PreparedVerifyingKey& pvk, std::span<const ff::Fr> public_inputs);

// The pairing check with the inputs' term from inputs_term.
bool verify_prepared(const PreparedVerifyingKey& pvk, const Proof& proof, const G1Affine& inputs_term);

// Many proofs of one circuit at once: with random 128-bit rho_j (from a CSPRNG),
//   prod_j e(rho_j A_j, B_j) · e(-Σ rho_j · alpha, beta) · e(-Σ rho_j acc_j, gamma)
//     · e(-Σ rho_j C_j, delta) = 1,
// n + 3 Miller loops and one final exponentiation. True only if (with overwhelming probability)
// every proof verifies; on false, verify them one by one to find the bad ones.
Expected<bool> verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                            std::span<const std::vector<ff::Fr>> public_inputs);

}  // namespace cuzk::groth16
