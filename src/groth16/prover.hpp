#pragma once
// The Groth16 prover on the CPU, as bellperson computes a proof (shared/SPEC.md §5), in named
// stages:
//   1. H: a, b, c padded to the domain size m (input i's row: a = x_i, b = c = 0); bellperson:
//      iNTT, coset NTT (g = 7) of each; a·b − c; divide by Z = g^m − 1; coset iNTT; the first
//      m − 1 coefficients are h. We compute the same h in six transforms (quotient_in_place).
//   2. Five MSMs: h·H, aux·L, z·A (inputs, then aux dense in A), z·B in G1 and G2 (inputs and
//      aux dense in B).
//   3. With blinding r, s:  A = α + a + rδ,  B = β + b₂ + sδ,  B₁ = β + b₁ + sδ,
//      C = sA + rB₁ − rsδ + h + l.

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

// One of a proof's five MSMs as the GPU backend ran it, summed over its calls (a and b: the inputs'
// and the aux's): its phases in milliseconds and its terms (gpu::Msm::Timing says what each is;
// docs/PERF.md 53). All zero on the CPU backend.
struct MsmPhases {
  double prepare = 0, ones = 0, sort = 0, accumulate = 0, reduce = 0;
  uint64_t terms = 0, significant = 0, ones_terms = 0;
};
enum class MsmOf : uint8_t { h, l, a, b_g1, b_g2 };
inline constexpr const char* kMsmOfNames[] = {"h", "l", "a", "b_g1", "b_g2"};

// Per-stage wall times of one proof, in milliseconds.
struct ProverTimes {
  double upload = 0;    // a GPU backend: z to the device (from a witness)
  double gpu_wait = 0;  // a GPU backend: waiting for the device while another proof ran there
  double spmv = 0;  // a, b, c from a witness (0 where the assignment carried them)
  double h_ntt = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0, total = 0;
  std::array<MsmPhases, 5> msm_phases{};  // by MsmOf
  MsmPhases& phases(MsmOf m) { return msm_phases[size_t(m)]; }
  // When the proof held its GPU: from its turn on the card to its last MSM's sum on the host (the
  // host's readbacks inside count as held). Unset (equal) for the CPU backend. The benches'
  // device timeline (core/timing.hpp: busy_summary; docs/PERF.md 46).
  Clock::time_point device_begin{}, device_end{};
};

struct Blinding {
  ff::Fr r, s;
  static Blinding random();                  // from the OS CSPRNG: what a real proof uses
  static Blinding from_seed(uint64_t seed);  // reproducible proofs, for tests only
};

// Stage 1 on vectors of the domain's size: h's m coefficients into `a` (the last one 0 for a
// satisfied witness); b and c are overwritten. The last step of bellperson's recipe is linear and
// coset_intt(coset_ntt(C)) = C, so
//   coset_intt((A'·B' − C')/Z) = (coset_intt(A'·B') − C)/Z,   C = intt(c), X' = coset_ntt(intt(x)),
// word for word for any a, b, c: c's coset NTT is not needed (docs/PERF.md 43). Cost: six
// transforms of m, two pointwise passes (a·b; (a − c)/Z).
void quotient_in_place(const poly::EvaluationDomain<ff::Fr>& domain, std::span<ff::Fr> a, std::span<ff::Fr> b,
                       std::span<ff::Fr> c, ThreadPool& pool);

// Fails when the assignment does not fit the parameters (sizes, densities).
Expected<Proof> prove(const Parameters& params, const Assignment& w, const Blinding& blinding, ThreadPool& pool,
                      ProverTimes* times = nullptr);

// The pieces every backend shares (the GPU one: groth16/gpu_prover.hpp).
// The sizes of a key's parts, all a backend needs to check an assignment against it.
struct ParameterSizes {
  size_t ic = 0, h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  static ParameterSizes of(const Parameters& p) {
    return {p.vk.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()};
  }
};
// Sizes and densities of `w` against the key: the first thing a backend checks.
Expected<void> check_assignment(const ParameterSizes& params, const Assignment& w);
// Stage 2's five sums: h·H, aux·L, z·A, z·B in G1 and G2.
struct MsmSums {
  ec::G1Jacobian h, l, a, b_g1;
  ec::G2Jacobian b_g2;
};
// Stage 3: the proof from the sums and the blinding.
Proof assemble(const VerifyingKey& vk, const MsmSums& sums, const Blinding& blinding);

}  // namespace cuzk::groth16
