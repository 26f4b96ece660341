#pragma once
// The optimal ate pairing e: G1 x G2 -> GT of BLS12-381, and the product check Groth16 uses.

#include <span>
#include <utility>

#include "pairing/final_exponentiation.hpp"
#include "pairing/miller_loop.hpp"

namespace cuzk::pairing {

// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

// Whether prod_i e(P_i, Q_i) = 1, with one shared Miller loop and one final exponentiation.
bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);

}  // namespace cuzk::pairing
