#pragma once
// A Groth16 key for a compiled circuit from chosen toxic waste (Groth 2016, §3.2, in
// bellperson's layout, groth16/keys.hpp): our own SRS for tests and benchmarks, never for
// production (Filecoin's keys come from its ceremony). The QAP polynomials are evaluated at tau
// through the Lagrange basis of the domain (shared/SPEC.md §5):
//   L_i(tau) = (tau^m - 1)/m · omega^i / (tau - omega^i),
//   u_j(tau) = Σ_rows A[row][j] L_row(tau) (+ L_{n+i}(tau) for input i's row x_i · 0 = 0),
// and v_j, w_j the same over B and C.
//
// Two steps: key_scalars (field arithmetic only, parallel: ~10 s on 16 cores for 2^27 rows and
// 738 M terms, the size of a 32 GiB PoRep partition, against ~150 s in one pass), and the
// fixed-base multiplications that turn each scalar into its point (the bulk of the time);
// setup() does both.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::groth16 {

struct ToxicWaste {
  ff::Fr tau, alpha, beta, gamma, delta;
  static ToxicWaste from_seed(uint64_t seed);  // reproducible, for tests and benchmarks
  static ToxicWaste random();                  // from the OS CSPRNG
};

// The exponent of every point of the key (keys.hpp), with n inputs (ONE first), m the domain size
// and u, v, w at tau as above:
//   ic[i] = (beta u_i + alpha v_i + w_i) / gamma          i < n
//   h[i]  = tau^i Z(tau) / delta, Z(tau) = tau^m - 1       i < m - 1
//   l[j]  = (beta u_{n+j} + alpha v_{n+j} + w_{n+j}) / delta   one per aux variable
//   a     = u_k over the variables dense in A (every input, then the aux dense in A)
//   b     = v_k over the variables dense in B (inputs dense in B, then aux dense in B)
// "Dense" is density_of's rule (groth16/assignment.hpp): some row holds the variable with a
// non-zero coefficient. key = generator · scalar, point for point.
struct KeyScalars {
  std::vector<ff::Fr> ic, h, l, a, b;

  friend bool operator==(const KeyScalars&, const KeyScalars&) = default;
};

// Parallel on the pool; at most four big vectors (m, or up to inputs + aux field elements) live
// at once, ~17 GB at 2^27, plus a ~320 MB buffer. Fails if tau is a root of unity of the domain (a Lagrange
// denominator tau - omega^i would be zero), or gamma or delta is zero.
Expected<KeyScalars> key_scalars(const r1cs::CompiledR1cs<ff::Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool);

// alpha·G1, beta·G1, beta·G2, gamma·G2, delta·G1, delta·G2 (generators G1, G2), with the given
// ic = generator · KeyScalars::ic.
VerifyingKey verifying_key(const ToxicWaste& tw, std::vector<G1Affine> ic);

// key_scalars, then generator · scalar for every point (a progress bar on a terminal for large
// keys), then verifying_key. Fails as key_scalars does.
Expected<Parameters> setup(const r1cs::CompiledR1cs<ff::Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool);

namespace detail {

// How key_scalars splits its work (setup.cpp says how each is used). The defaults are what
// key_scalars uses; tests shrink them to cross every boundary on small circuits.
struct KeyScalarsSplit {
  size_t chunk = size_t{1} << 16;          // elements (at most rows) per task
  size_t owners = 0;                       // of the u/v/w columns, rounded up to a power of two; 0: 4 a thread
  size_t segment_terms = size_t{1} << 23;  // matrix terms the scatter buffers at a time (40 bytes each)
};

Expected<KeyScalars> key_scalars(const r1cs::CompiledR1cs<ff::Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool,
                                 const KeyScalarsSplit& split);

}  // namespace detail
}  // namespace cuzk::groth16
