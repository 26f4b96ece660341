#pragma once
// The final exponentiation of the BLS12-381 pairing: f -> f^(3 (p^12 - 1)/r), the same fixed
// power (coprime to r) that @noble/curves and blst compute (docs/formats.md, "Pairing").

#include "ff/fp12.hpp"

namespace cuzk::pairing {

// (p^12 - 1)/r = (p^6 - 1)(p^2 + 1) * (p^4 - p^2 + 1)/r: the "easy" part by Frobenius maps and
// one inversion, then three times the "hard" part (p^4 - p^2 + 1)/r in the cyclotomic subgroup.
ff::Fp12 final_exponentiation(const ff::Fp12& f);

}  // namespace cuzk::pairing
