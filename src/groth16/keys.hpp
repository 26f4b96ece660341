#pragma once
// Groth16 keys in bellperson's shape (shared/SPEC.md §5-6). For a circuit with inputs x_0 = 1,
// x_1..x_{n-1} and aux w_j, toxic waste (tau, alpha, beta, gamma, delta) and the QAP
// polynomials u_j, v_j, w_j:
//   ic[i]  = (beta u_i(tau) + alpha v_i(tau) + w_i(tau)) / gamma · G1   (inputs)
//   l[j]   = (beta u_j(tau) + alpha v_j(tau) + w_j(tau)) / delta · G1   (aux)
//   h[i]   = tau^i Z(tau) / delta · G1, i < m - 1
//   a[k]   = u_k(tau) · G1, b_g1[k] = v_k(tau) · G1, b_g2[k] = v_k(tau) · G2, over the variables
//            dense in A (resp. B): inputs first, then aux.

#include <vector>

#include "ec/bls12_381.hpp"

namespace cuzk::groth16 {

using ec::G1Affine;
using ec::G2Affine;

struct VerifyingKey {
  G1Affine alpha_g1, beta_g1;
  G2Affine beta_g2, gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  std::vector<G1Affine> ic;  // one per public input, ONE first

  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

// The proving key with its verifying key: bellperson's `Parameters`.
struct Parameters {
  VerifyingKey vk;
  std::vector<G1Affine> h;     // m - 1 points
  std::vector<G1Affine> l;     // one per aux variable
  std::vector<G1Affine> a;     // inputs + aux dense in A
  std::vector<G1Affine> b_g1;  // inputs dense in B + aux dense in B
  std::vector<G2Affine> b_g2;  // the same in G2

  friend bool operator==(const Parameters&, const Parameters&) = default;
};

}  // namespace cuzk::groth16
