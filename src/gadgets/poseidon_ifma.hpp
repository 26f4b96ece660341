#pragma once
// The AVX-512 IFMA kernel behind PoseidonBatch (gadgets/poseidon_batch.hpp): eight Poseidon
// hashes of one arity at once, one per 64-bit lane of a zmm register. Only poseidon_ifma.cpp is
// compiled with -mavx512f -mavx512ifma, and only called where cpu_has_avx512_ifma() is true. This
// header, its one interface, is plain C++ on purpose: an inline function or template that both
// that file and the rest of the program instantiated could be linked from the AVX-512 copy and
// run on a CPU without it (ODR), so the kernel's file includes nothing but <immintrin.h> and this.
//
// Lane form of an Fr element x: X = x·2^260 mod r (Montgomery with R = 2^260), as five 52-bit
// limbs X = Σ_k X_k·2^(52k), X_k < 2^52; r < 2^255 and 2^260/r ≈ 35.3. Fr's own form is
// x·2^256 mod r (4×64 limbs), so X is Fr's raw representation of 16·x, split at 52 bits: the
// conversion is exact and needs no product in the kernel (gadgets/poseidon_batch.cpp).
//
// Arithmetic. An element is five 52-bit limbs per lane (Fe); a product is accumulated unreduced
// in ten 64-bit columns (Wide): vpmadd52luq adds the low 52 bits of a limb product to column
// i + j, vpmadd52huq its high 52 bits to column i + j + 1. A column takes at most 10 terms a
// product, so 12 products (a dense row of width 12) plus a reduction stay below 2^60. The
// Montgomery reduction (REDC, R = 2^260) returns (W + Q·r)/2^260 with no final subtraction:
// with ρ = r/2^260 < 1/35.3 its result is below W/2^260 + r. Bounds in multiples of r (B·r):
//   - state after a mix (a sum of t ≤ 12 products of constants < r by elements < 2.06r):
//     < (12·2.06·ρ + 1)·r < 1.71r;
//   - S-box input x < 2r (a mix's output, or the first round's input + key); x² < 1.12r,
//     x⁴ < 1.04r, x⁵ + key < (2·1.04·ρ + 1)·r + r < 2.06r;
//   - sparse rounds: s[j] + v·s[0] < 2r + 1.06r, then brought below 2r by subtracting 2r when
//     it is at least 2r (s[j] would otherwise grow by ~r in each of the 55-57 partial rounds);
//   - every value stays below 3.1r < 2^260, so limbs fit, and the output (< 1.71r) needs one
//     conditional subtraction of r to be canonical.

#include <cstddef>
#include <cstdint>

namespace cuzk::gadgets::ifma {

constexpr size_t kLanes = 8;  // 64-bit lanes of a zmm register
constexpr size_t kLimbs = 5;  // 52-bit limbs of an element: 260 bits

// One arity's constants in lane form, each element kLimbs uint64 (canonical, < r), broadcast to
// every lane by the kernel, and the modulus's limbs; all derived from ff::Fr by PoseidonBatch,
// which owns the arrays.
struct Tables {
  size_t width = 0;  // t = arity + 1, at most kMaxWidth
  size_t full_rounds = 0;
  size_t partial_rounds = 0;
  const uint64_t* modulus = nullptr;        // r (1 element)
  const uint64_t* twice_modulus = nullptr;  // 2r (1 element)
  uint64_t neg_inverse = 0;                 // −r⁻¹ mod 2^52
  const uint64_t* domain_tag = nullptr;          // 1 element
  const uint64_t* round_constants = nullptr;     // neptune's compressed constants: 8t + R_P
  const uint64_t* mds = nullptr;                 // t·t, by column: M[i][j] at j·t + i
  const uint64_t* pre_sparse = nullptr;          // t·t, by column as mds
  const uint64_t* sparse = nullptr;              // R_P·(2t − 1): w_hat (t) then v_rest (t − 1)
  const uint64_t* to_fr = nullptr;               // 2^256 mod r (1 element, not in lane form): trace8
};

constexpr size_t kMaxWidth = 12;  // arity 11, the largest Filecoin uses

// Eight hashes: in holds (t − 1)·kLimbs·kLanes limbs, preimage element i's limb k of lane l at
// (i·kLimbs + k)·kLanes + l, each element in lane form (< r); out gets kLimbs·kLanes limbs,
// (k·kLanes + l), the lane form of each hash, canonical (< r). Unused lanes may hold any
// elements (zeros); their outputs are ignored.
void hash8(const Tables& c, const uint64_t* in, uint64_t* out);

// The same eight hashes, with every variable the R1CS gadget allocates on a witness-only
// backend (gadgets/poseidon_gadget.hpp), in its order, the hash last: trace gets
// poseidon_gadget_variables(c)·4·kLanes uint64s, value v's 64-bit limb j of lane l at (v·4 + j)·kLanes + l,
// each value canonical in Fr's own form (x·2^256 mod r).
void trace8(const Tables& c, const uint64_t* in, uint64_t* trace);

}  // namespace cuzk::gadgets::ifma
