// Field arithmetic, one core: dependent chains (x = x op y) so each iteration waits for the last.

#include <benchmark/benchmark.h>

#include "bench_util.hpp"

namespace cuzk::bench {
namespace {

using ff::Fp;
using ff::Fr;

template <class F>
void BM_mul(benchmark::State& state) {
  std::mt19937_64 g(1);
  F x = random_element<F>(g), y = random_element<F>(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x * y);
}
template <class F>
void BM_mul_portable(benchmark::State& state) {
  std::mt19937_64 g(1);
  auto x = random_element<F>(g).montgomery(), y = random_element<F>(g).montgomery();
  for (auto _ : state) benchmark::DoNotOptimize(x = ff::mont_mul_portable(x, y, F::kModulus, F::kNegInv));
}
template <class F>
void BM_square(benchmark::State& state) {
  std::mt19937_64 g(2);
  F x = random_element<F>(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x.square());
}
template <class F>
void BM_add(benchmark::State& state) {
  std::mt19937_64 g(3);
  F x = random_element<F>(g), y = random_element<F>(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x + y);
}
template <class F>
void BM_inverse(benchmark::State& state) {
  std::mt19937_64 g(4);
  F x = random_element<F>(g), y = random_element<F>(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x.inverse() + y);
}
void BM_fp2_mul(benchmark::State& state) {
  std::mt19937_64 g(5);
  ff::Fp2 x{random_element<Fp>(g), random_element<Fp>(g)}, y{random_element<Fp>(g), random_element<Fp>(g)};
  for (auto _ : state) benchmark::DoNotOptimize(x = x * y);
}
void BM_fp2_square(benchmark::State& state) {
  std::mt19937_64 g(5);
  ff::Fp2 x{random_element<Fp>(g), random_element<Fp>(g)};
  for (auto _ : state) benchmark::DoNotOptimize(x = x.square());
}
void BM_fp2_add(benchmark::State& state) {
  std::mt19937_64 g(5);
  ff::Fp2 x{random_element<Fp>(g), random_element<Fp>(g)}, y{random_element<Fp>(g), random_element<Fp>(g)};
  for (auto _ : state) benchmark::DoNotOptimize(x = x + y);
}
ff::Fp12 random_fp12(std::mt19937_64& g) {
  auto fp2 = [&] { return ff::Fp2{random_element<Fp>(g), random_element<Fp>(g)}; };
  return {{fp2(), fp2(), fp2()}, {fp2(), fp2(), fp2()}};
}
void BM_fp12_mul(benchmark::State& state) {
  std::mt19937_64 g(6);
  ff::Fp12 x = random_fp12(g), y = random_fp12(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x * y);
}
void BM_fp12_square(benchmark::State& state) {
  std::mt19937_64 g(6);
  ff::Fp12 x = random_fp12(g);
  for (auto _ : state) benchmark::DoNotOptimize(x = x.square());
}
// A random element raised to (p^6 - 1)(p^2 + 1) lies in the cyclotomic subgroup.
void BM_fp12_cyclotomic_square(benchmark::State& state) {
  std::mt19937_64 g(6);
  ff::Fp12 x = random_fp12(g);
  x = x.conjugate() * x.inverse();
  x = x.frobenius(2) * x;
  for (auto _ : state) benchmark::DoNotOptimize(x = x.cyclotomic_square());
}
// The Miller loop's sparse line product.
void BM_fp12_mul_by_014(benchmark::State& state) {
  std::mt19937_64 g(6);
  ff::Fp12 x = random_fp12(g);
  ff::Fp2 o0{random_element<Fp>(g), random_element<Fp>(g)}, o1{random_element<Fp>(g), random_element<Fp>(g)},
      o4{random_element<Fp>(g), random_element<Fp>(g)};
  for (auto _ : state) benchmark::DoNotOptimize(x = x.mul_by_014(o0, o1, o4));
}

BENCHMARK(BM_mul<Fp>)->Name("fp_mul");
BENCHMARK(BM_mul_portable<Fp>)->Name("fp_mul_portable");
BENCHMARK(BM_square<Fp>)->Name("fp_square");
BENCHMARK(BM_add<Fp>)->Name("fp_add");
BENCHMARK(BM_inverse<Fp>)->Name("fp_inverse");
BENCHMARK(BM_mul<Fr>)->Name("fr_mul");
BENCHMARK(BM_mul_portable<Fr>)->Name("fr_mul_portable");
BENCHMARK(BM_square<Fr>)->Name("fr_square");
BENCHMARK(BM_inverse<Fr>)->Name("fr_inverse");
BENCHMARK(BM_fp2_mul)->Name("fp2_mul");
BENCHMARK(BM_fp2_square)->Name("fp2_square");
BENCHMARK(BM_fp2_add)->Name("fp2_add");
BENCHMARK(BM_fp12_mul)->Name("fp12_mul");
BENCHMARK(BM_fp12_square)->Name("fp12_square");
BENCHMARK(BM_fp12_cyclotomic_square)->Name("fp12_cyclotomic_square");
BENCHMARK(BM_fp12_mul_by_014)->Name("fp12_mul_by_014");

}  // namespace
}  // namespace cuzk::bench
