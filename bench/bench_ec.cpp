// G1 and G2 point arithmetic, one core.

#include <benchmark/benchmark.h>

#include "bench_util.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::bench {
namespace {

template <class Curve>
void BM_add(benchmark::State& state) {
  std::mt19937_64 g(10);
  auto p = random_point<Curve>(g);
  const auto q = random_point<Curve>(g).dbl();  // Z != 1
  for (auto _ : state) benchmark::DoNotOptimize(p = p + q);
}
template <class Curve>
void BM_mixed_add(benchmark::State& state) {
  std::mt19937_64 g(11);
  auto p = random_point<Curve>(g);
  const auto q = random_point<Curve>(g).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(p = p + q);
}
template <class Curve>
void BM_xyzz_mixed_add(benchmark::State& state) {
  std::mt19937_64 g(12);
  auto p = ec::XYZZ<Curve>::from_affine(random_point<Curve>(g).to_affine());
  const auto q = random_point<Curve>(g).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(p = p + q);
}
template <class Curve>
void BM_double(benchmark::State& state) {
  std::mt19937_64 g(13);
  auto p = random_point<Curve>(g);
  for (auto _ : state) benchmark::DoNotOptimize(p = p.dbl());
}
template <class Curve>
void BM_scalar_mul(benchmark::State& state) {
  std::mt19937_64 g(14);
  auto p = random_point<Curve>(g);
  const auto k = random_element<ff::Fr>(g);
  for (auto _ : state) benchmark::DoNotOptimize(p = ec::scalar_mul(p, k));
}
template <class Curve>
void BM_subgroup_check(benchmark::State& state) {
  std::mt19937_64 g(15);
  const auto p = random_point<Curve>(g);
  for (auto _ : state) benchmark::DoNotOptimize(ec::in_subgroup(p));
}

BENCHMARK(BM_add<ec::G1Curve>)->Name("g1_add");
BENCHMARK(BM_mixed_add<ec::G1Curve>)->Name("g1_mixed_add");
BENCHMARK(BM_xyzz_mixed_add<ec::G1Curve>)->Name("g1_xyzz_mixed_add");
BENCHMARK(BM_double<ec::G1Curve>)->Name("g1_double");
BENCHMARK(BM_scalar_mul<ec::G1Curve>)->Name("g1_scalar_mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_subgroup_check<ec::G1Curve>)->Name("g1_subgroup_check")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_add<ec::G2Curve>)->Name("g2_add");
BENCHMARK(BM_mixed_add<ec::G2Curve>)->Name("g2_mixed_add");
BENCHMARK(BM_xyzz_mixed_add<ec::G2Curve>)->Name("g2_xyzz_mixed_add");
BENCHMARK(BM_double<ec::G2Curve>)->Name("g2_double");
BENCHMARK(BM_scalar_mul<ec::G2Curve>)->Name("g2_scalar_mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_subgroup_check<ec::G2Curve>)->Name("g2_subgroup_check")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk::bench
