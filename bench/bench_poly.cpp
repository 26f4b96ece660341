// NTT over Fr: ntt and coset_ntt at 2^16, 2^18, 2^20 on one thread and on all hardware threads,
// and a naive recursive radix-2 FFT (allocating, one thread) as the reference for the speedup.
// Each iteration transforms the previous iteration's output in place (random data, never zeros).

#include <benchmark/benchmark.h>

#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "poly/domain.hpp"

namespace cuzk::bench {
namespace {

using ff::Fr;
using Domain = poly::EvaluationDomain<Fr>;

std::vector<Fr> random_vector(size_t n) {
  std::mt19937_64 g(n);
  std::vector<Fr> v(n);
  for (auto& x : v) x = random_element<Fr>(g);
  return v;
}

// args: log m, threads (0 = all hardware threads)
template <bool kCoset>
void BM_ntt(benchmark::State& state) {
  const Domain domain = Domain::for_size(size_t{1} << state.range(0)).value();
  ThreadPool pool(unsigned(state.range(1)));
  std::vector<Fr> data = random_vector(domain.size());
  domain.ntt(data, pool);  // builds the twiddle table outside the timed loop
  for (auto _ : state) {
    if constexpr (kCoset) domain.coset_ntt(data, pool);
    else domain.ntt(data, pool);
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = pool.threads();
  state.SetItemsProcessed(state.iterations() * int64_t(domain.size()));
}

// The textbook recursive FFT (even/odd split, fresh vectors at every level): the reference.
void naive_fft(std::vector<Fr>& a, const Fr& omega) {
  const size_t n = a.size();
  if (n == 1) return;
  std::vector<Fr> even(n / 2), odd(n / 2);
  for (size_t i = 0; i < n / 2; ++i) even[i] = a[2 * i], odd[i] = a[2 * i + 1];
  const Fr omega2 = omega.square();
  naive_fft(even, omega2);
  naive_fft(odd, omega2);
  Fr w = Fr::one();
  for (size_t k = 0; k < n / 2; ++k, w *= omega) {
    const Fr t = w * odd[k];
    a[k] = even[k] + t;
    a[k + n / 2] = even[k] - t;
  }
}

void BM_naive_fft(benchmark::State& state) {
  const Domain domain = Domain::for_size(size_t{1} << state.range(0)).value();
  std::vector<Fr> data = random_vector(domain.size());
  for (auto _ : state) {
    naive_fft(data, domain.omega());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * int64_t(domain.size()));
}

void sizes_and_threads(benchmark::internal::Benchmark* b) {
  for (int log_m : {16, 18, 20})
    for (int threads : {1, 0}) b->Args({log_m, threads});
  b->ArgNames({"log_m", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_ntt<false>)->Name("ntt")->Apply(sizes_and_threads);
BENCHMARK(BM_ntt<true>)->Name("coset_ntt")->Apply(sizes_and_threads);
BENCHMARK(BM_naive_fft)->Name("naive_recursive_fft")->ArgName("log_m")->Arg(16)->Arg(18)->Arg(20)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::bench
