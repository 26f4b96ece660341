#pragma once
// The final exponentiation f -> f^((p^12 - 1)/r) of the BLS12-381 pairing.

#include "ff/fp12.hpp"

namespace cuzk::pairing {

// (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) * (p^4 - p^2 + 1)/r: the "easy" part by Frobenius maps and
// one inversion, then the "hard" part (p^4 - p^2 + 1)/r in the cyclotomic subgroup.
ff::Fp12 final_exponentiation(const ff::Fp12& f);

}  // namespace cuzk::pairing
