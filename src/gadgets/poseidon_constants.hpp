#pragma once
// neptune v11.0.0's Poseidon constants over BLS12-381 Fr, as Filecoin uses them
// (shared/SPEC-POSEIDON.md §1-2): round numbers, Grain LFSR round constants, the Cauchy MDS
// matrix, and neptune's preprocessing for the optimized hash and the circuit: compressed round
// constants, pre-sparse matrix and sparse partial-round matrices. Derived at run time (a few ms)
// rather than stored as tables; the caller builds them once and passes them down.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets {

// Dense t×t matrix, row-major: m[i][j].
using PoseidonMatrix = std::vector<std::vector<ff::Fr>>;

// neptune's SparseMatrix (mds.rs:57): identity except row 0 and column 0.
struct PoseidonSparseMatrix {
  std::vector<ff::Fr> w_hat;   // column 0, length t (w_hat[0] = M[0][0])
  std::vector<ff::Fr> v_rest;  // row 0 without its first entry, length t-1
};

struct PoseidonConstants {
  size_t arity = 0;
  size_t width = 0;  // t = arity + 1
  uint32_t full_rounds = 0;
  uint32_t partial_rounds = 0;
  ff::Fr domain_tag;
  std::vector<ff::Fr> round_constants;  // (R_F+R_P)·t, rc[r·t + lane]
  PoseidonMatrix mds, mds_inverse;
  std::vector<ff::Fr> compressed_round_constants;  // 8t + R_P (preprocessing.rs)
  PoseidonMatrix pre_sparse;                       // mixes round H-1 = 3
  std::vector<PoseidonSparseMatrix> sparse;        // R_P, sparse[p] mixes partial round p

  // Strength::Standard, HashType::MerkleTree (tag 2^arity − 1), arity 2, 4, 8 or 11;
  // throws Exception(kInvalidArgument) for any other arity.
  static PoseidonConstants merkle_tree(size_t arity);
  // Same constants with another domain tag (e.g. Custom Arbitrary(1): 2^40).
  static PoseidonConstants with_tag(size_t arity, const ff::Fr& domain_tag);
};

// R_P of Strength::Standard for width t (round_numbers.rs test table): 55/56/57/57 for
// t = 3/5/9/12; R_F is 8. Throws for other widths.
uint32_t poseidon_partial_rounds(size_t width);

// Grain LFSR round constants (round_constants.rs; field 1, sbox 1, field size 255):
// (full_rounds + partial_rounds)·width elements.
std::vector<ff::Fr> poseidon_grain_round_constants(size_t width, uint32_t full_rounds, uint32_t partial_rounds);

// M[i][j] = (i + j + t)^-1 (mds.rs generate_mds).
PoseidonMatrix poseidon_mds(size_t width);

// Row vector times matrix, neptune's convention: out[j] = Σ_i m[i][j]·s[i].
std::vector<ff::Fr> poseidon_apply(const PoseidonMatrix& m, std::span<const ff::Fr> s);

}  // namespace cuzk::gadgets
