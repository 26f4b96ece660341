#pragma once
// The 2-adic roots of unity that fix an evaluation domain's ω. bellperson (src/domain.rs,
// EvaluationDomain::from_coeffs) takes F::ROOT_OF_UNITY, a primitive 2^S-th root, and squares it
// S - log m times: ω_m = ROOT_OF_UNITY^(2^(S - log m)). Matching its ω (not just any primitive root)
// keeps our H polynomial's evaluations identical to bellperson's (shared/SPEC.md §5).

#include <cstdint>

#include "ff/bigint.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::poly {

// Per-field constants of the 2-adic subgroup; specialised for each field that has domains.
template <class F>
struct TwoAdicRoot;

template <>
struct TwoAdicRoot<ff::Fr> {
  // r - 1 = 2^32 · t, t odd.
  static constexpr unsigned kTwoAdicity = 32;
  // 7 generates Fr^* (blstrs's GENERATOR, ff's MULTIPLICATIVE_GENERATOR); bellperson's coset shift.
  static constexpr uint64_t kGenerator = 7;
  // ROOT_OF_UNITY = 7^t, a primitive 2^32-th root: the literal of filecoin-project/blstrs
  // src/scalar.rs, little-endian limbs in Montgomery form (R = 2^256, as our Fr also uses).
  // Canonically 0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b;
  // tests/poly/domain_test.cpp re-derives 7^t mod r with GMP and checks its order is exactly 2^32.
  static constexpr ff::Fr kRootOfUnity = ff::Fr::from_montgomery([] {
    ff::BigInt<4> v;
    v.limbs = {0xb9b58d8c5f0e466aull, 0x5b1b4c801819d7ecull, 0x0af53ae352a31e64ull, 0x5bf3adda19e9b27bull};
    return v;
  }());
  static_assert(kTwoAdicity == ff::Fr::kTwoAdicity);
};

// bellperson's primitive 2^log_m-th root of unity (log_m <= the field's 2-adicity).
template <class F>
constexpr F root_of_unity(unsigned log_m) {
  F omega = TwoAdicRoot<F>::kRootOfUnity;
  for (unsigned i = log_m; i < TwoAdicRoot<F>::kTwoAdicity; ++i) omega = omega.square();
  return omega;
}

// snarkjs's (ffjavascript's) primitive 2^log_m-th root of unity over Fr: w[32] = nqr^t with
// nqr = 5 (the least quadratic non-residue of r; ffjavascript searches upward from 2) and
// r - 1 = 2^32 t; w[k] = w[32]^(2^(32-k)). Its coset shift for a domain of 2^k is w[k + 1].
inline ff::Fr snarkjs_root_of_unity(unsigned log_m) {
  ff::BigInt<4> t = ff::Fr::kModulus;
  ff::sub_in_place(t, ff::BigInt<4>(1));
  for (unsigned i = 0; i < TwoAdicRoot<ff::Fr>::kTwoAdicity; ++i) t = ff::shr1(t);
  ff::Fr w = ff::Fr::from_uint(5).pow(t);
  for (unsigned i = log_m; i < TwoAdicRoot<ff::Fr>::kTwoAdicity; ++i) w = w.square();
  return w;
}

}  // namespace cuzk::poly
