// Pippenger MSM (msm/pippenger.hpp) over G1 and G2: random distinct bases and full random scalars,
// one thread and all threads, and a PoRep-like mix where 90 % of the scalars are 0 or 1.
// The peer figure (blst_p1s_mult_pippenger) comes from a separate harness run side by side.

#include <benchmark/benchmark.h>

#include <vector>

#include "bench_util.hpp"
#include "ec/batch_normalize.hpp"
#include "msm/pippenger.hpp"

namespace cuzk::bench {
namespace {

constexpr size_t kMaxG1 = size_t{1} << 16;
constexpr size_t kMaxG2 = size_t{1} << 14;

// Distinct bases without n scalar multiplications: a random walk P_i = P_(i-1) + T[random] over a
// table T of 256 random points [k]G, batch-normalised. Built once per curve.
template <class Curve>
const std::vector<ec::Affine<Curve>>& bases(size_t n) {
  static const std::vector<ec::Affine<Curve>> cache = [n] {
    std::mt19937_64 g(20);
    std::vector<ec::Jacobian<Curve>> table(256);
    for (auto& t : table) t = random_point<Curve>(g);
    std::vector<ec::Jacobian<Curve>> walk(n);
    ec::Jacobian<Curve> p = random_point<Curve>(g);
    for (auto& w : walk) w = p = p + table[g() % table.size()];
    std::vector<ec::Affine<Curve>> out(n);
    ec::batch_normalize<Curve>(walk, out);
    return out;
  }();
  return cache;
}

// Uniform scalars; with `bits`, 45 % zeros and 45 % ones among them (PoRep's aux vectors).
std::vector<ff::Fr> scalars(size_t n, bool bits) {
  std::mt19937_64 g(21);
  std::vector<ff::Fr> out(n);
  for (auto& s : out) {
    const uint64_t draw = g() % 100;
    s = !bits || draw >= 90 ? random_element<ff::Fr>(g) : draw < 45 ? ff::Fr::zero() : ff::Fr::one();
  }
  return out;
}

// Arguments: log2 n, threads (0 = all), PoRep-like scalars (0/1).
template <class Curve>
void BM_msm(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(0);
  ThreadPool pool(unsigned(state.range(1)));
  const auto& b = bases<Curve>(std::is_same_v<Curve, ec::G1Curve> ? kMaxG1 : kMaxG2);
  const auto s = scalars(n, state.range(2) != 0);
  for (auto _ : state) {
    auto r = msm::multi_exp<Curve>(std::span(b).first(n), s, pool);
    benchmark::DoNotOptimize(r);
  }
  state.counters["threads"] = pool.threads();
  state.counters["ns/term"] = benchmark::Counter(double(n), benchmark::Counter::kIsIterationInvariantRate |
                                                                  benchmark::Counter::kInvert);
}

// Arguments: log2 n, window bits, accumulation (1 = XYZZ, 2 = batch affine); one thread. For
// tuning window_bits.
void BM_g1_msm_window(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(0);
  ThreadPool pool(1);
  const auto& b = bases<ec::G1Curve>(kMaxG1);
  const auto s = scalars(n, false);
  const msm::Options options{unsigned(state.range(1)), msm::Accumulation(state.range(2))};
  for (auto _ : state) {
    auto r = msm::multi_exp_with<ec::G1Curve>(std::span(b).first(n), s, nullptr, options, pool);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_g1_msm_window)
    ->ArgNames({"log_n", "window", "accumulation"})
    ->ArgsProduct({{16}, {11, 12, 13, 14, 15}, {1, 2}})
    ->ArgsProduct({{12}, {8, 9, 10}, {1, 2}})
    ->ArgsProduct({{14}, {10, 11, 12}, {1, 2}})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(BM_msm, ec::G1Curve)
    ->ArgNames({"log_n", "threads", "porep"})
    ->ArgsProduct({{10, 12, 14, 16}, {1, 0}, {0}})
    ->Args({16, 1, 1})
    ->Args({16, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_msm, ec::G2Curve)
    ->ArgNames({"log_n", "threads", "porep"})
    ->ArgsProduct({{10, 14}, {1, 0}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace cuzk::bench
