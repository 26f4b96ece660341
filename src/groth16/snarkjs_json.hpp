#pragma once
// snarkjs's JSON for Groth16 over BLS12-381 (`snarkjs zkey export verificationkey`,
// `snarkjs groth16 prove`): numbers as decimal strings, affine points in projective form
//   G1: ["x", "y", "1"]   G2: [["x.c0", "x.c1"], ["y.c0", "y.c1"], ["1", "0"]]
// (the point at infinity: ["0", "1", "0"] / [["0","0"],["1","0"],["0","0"]]).
//   verification_key.json: protocol, curve "bls12381", nPublic, vk_alpha_1, vk_beta_2,
//     vk_gamma_2, vk_delta_2, vk_alphabeta_12 (e(alpha, beta) as [[[c0,c1] x3] x2]), IC
//   proof.json: pi_a, pi_b, pi_c, protocol, curve;   public.json: ["x_1", ..., "x_n"]
// snarkjs keys carry no beta_g1 or delta_g1 (the verifier needs neither); read ones have them
// at infinity. Reading checks every point (on the curve, in the subgroup) and names the field.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace cuzk::groth16 {

std::string vk_to_snarkjs_json(const VerifyingKey& vk);
std::string proof_to_snarkjs_json(const Proof& proof);
std::string public_to_snarkjs_json(std::span<const ff::Fr> inputs);

// source names the text in errors (usually its path).
Expected<VerifyingKey> vk_from_snarkjs_json(std::string_view json, const std::string& source);
Expected<Proof> proof_from_snarkjs_json(std::string_view json, const std::string& source);
Expected<std::vector<ff::Fr>> public_from_snarkjs_json(std::string_view json, const std::string& source);

}  // namespace cuzk::groth16
