// The pairing and its two halves, and the three-pair product check a Groth16 verifier runs.

#include <benchmark/benchmark.h>

#include "bench_util.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::bench {
namespace {

struct Inputs {
  ec::G1Affine p;
  ec::G2Affine q;
};
Inputs inputs(uint64_t seed) {
  std::mt19937_64 g(seed);
  return {random_point<ec::G1Curve>(g).to_affine(), random_point<ec::G2Curve>(g).to_affine()};
}

void BM_pairing(benchmark::State& state) {
  const auto in = inputs(20);
  for (auto _ : state) benchmark::DoNotOptimize(pairing::pairing(in.p, in.q));
}
void BM_miller_loop(benchmark::State& state) {
  const auto in = inputs(21);
  for (auto _ : state) benchmark::DoNotOptimize(pairing::miller_loop(in.p, in.q));
}
void BM_final_exponentiation(benchmark::State& state) {
  const auto in = inputs(22);
  const auto f = pairing::miller_loop(in.p, in.q);
  for (auto _ : state) benchmark::DoNotOptimize(pairing::final_exponentiation(f));
}
// e(A, B) e(-C, delta) e(-acc, gamma) e(-alpha, beta) = 1 with three prepared G2 points and
// one fresh one: the shape of a Groth16 verification.
void BM_groth16_shaped_check(benchmark::State& state) {
  std::vector<Inputs> in{inputs(23), inputs(24), inputs(25), inputs(26)};
  std::vector<pairing::G2Prepared> prepared;
  for (const auto& i : in) prepared.emplace_back(i.q);
  std::vector<std::pair<ec::G1Affine, const pairing::G2Prepared*>> pairs;
  for (size_t i = 0; i < in.size(); ++i) pairs.emplace_back(in[i].p, &prepared[i]);
  for (auto _ : state) {
    pairing::G2Prepared fresh(in[0].q);  // the proof's B is not known in advance
    pairs[0].second = &fresh;
    benchmark::DoNotOptimize(pairing::pairing_product_is_one(pairs));
  }
}

BENCHMARK(BM_pairing)->Name("pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_miller_loop)->Name("miller_loop")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_final_exponentiation)->Name("final_exponentiation")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_groth16_shaped_check)->Name("groth16_shaped_check_4_pairs")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk::bench
