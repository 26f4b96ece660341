#pragma once
// A Groth16 key for a compiled circuit from chosen toxic waste (Groth 2016, §3.2, in
// bellperson's layout, groth16/keys.hpp): our own SRS for tests and benchmarks, never for
// production (Filecoin's keys come from its ceremony). The QAP polynomials are evaluated at tau
// through the Lagrange basis of the domain (shared/SPEC.md §5):
//   L_i(tau) = (tau^m - 1)/m · omega^i / (tau - omega^i),
//   u_j(tau) = Σ_rows A[row][j] L_row(tau) (+ L_{n+i}(tau) for input i's row x_i · 0 = 0),
// and v_j, w_j the same over B and C.

#include <cstdint>

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

// Fails only if tau happens to be a root of unity of the domain (or a value is zero).
Expected<Parameters> setup(const r1cs::CompiledR1cs<ff::Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool);

}  // namespace cuzk::groth16
