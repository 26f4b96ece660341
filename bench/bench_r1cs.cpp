// SpMV of a compiled R1CS (r1cs/compiled.hpp): a = A·z over a random CSR matrix shaped like PoRep's
// rows (3 terms per row; a given share of the coefficients ±1, the rest random; a given share of
// the witness 0/1), against the same loop multiplying every term and one specialising ±1 only.

#include <benchmark/benchmark.h>

#include <vector>

#include "bench_util.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::bench {
namespace {

using ff::Fr;

struct Problem {
  r1cs::CsrMatrix<Fr> m;
  uint32_t num_inputs = 1;
  std::vector<Fr> inputs, aux;
};

// rows = aux = n; `unit` percent of the coefficients are ±1; `bits` percent of aux values are 0/1.
const Problem& problem(size_t n, int unit, int bits) {
  static Problem p;
  static size_t cached_n = 0;
  static int cached_unit = -1, cached_bits = -1;
  if (cached_n == n && cached_unit == unit && cached_bits == bits) return p;
  std::mt19937_64 g(30);
  p = Problem();
  p.inputs = {Fr::one()};
  p.aux.resize(n);
  for (auto& v : p.aux) v = int(g() % 100) < bits ? (g() & 1 ? Fr::one() : Fr::zero()) : random_element<Fr>(g);
  p.m.row_start.push_back(0);
  for (size_t r = 0; r < n; ++r) {
    for (int t = 0; t < 3; ++t) {
      // Mostly local columns (as synthesis allocates), a few far ones.
      const uint64_t col = g() % 8 == 0 ? g() % n : (r + n - g() % 64) % n;
      p.m.column.push_back(uint32_t(1 + col));
      const int draw = int(g() % 100);
      p.m.coeff.push_back(draw < unit ? (draw & 1 ? Fr::one() : -Fr::one()) : random_element<Fr>(g));
    }
    p.m.row_start.push_back(p.m.column.size());
  }
  cached_n = n;
  cached_unit = unit;
  cached_bits = bits;
  return p;
}

// variant 0: multiply every term; 1: ±1 coefficients specialised (no 0/1 witness check).
void reference(const Problem& p, std::span<Fr> out, ThreadPool& pool, int variant) {
  const auto& m = p.m;
  const Fr one = Fr::one(), minus_one = -Fr::one();
  pool.parallel_for(m.num_rows(), 4096, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      Fr acc = Fr::zero();
      for (uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) {
        const uint32_t col = m.column[k];
        const Fr& z = col < p.num_inputs ? p.inputs[col] : p.aux[col - p.num_inputs];
        if (variant == 1 && m.coeff[k] == one) {
          acc += z;
        } else if (variant == 1 && m.coeff[k] == minus_one) {
          acc -= z;
        } else {
          acc += m.coeff[k] * z;
        }
      }
      out[r] = acc;
    }
  });
}

// Arguments: log2 rows, threads (0 = all), percent ±1 coefficients, percent 0/1 aux, variant
// (0 = multiply always, 1 = ±1 coefficients specialised, 2 = r1cs::spmv: ±1 coefficients and 0/1
// witness values specialised).
void BM_spmv(benchmark::State& state) {
  const size_t n = size_t{1} << state.range(0);
  ThreadPool pool(unsigned(state.range(1)));
  const Problem& p = problem(n, int(state.range(2)), int(state.range(3)));
  std::vector<Fr> out(n);
  for (auto _ : state) {
    if (state.range(4) < 2) {
      reference(p, out, pool, int(state.range(4)));
    } else {
      r1cs::spmv<Fr>(p.m, p.num_inputs, p.inputs, p.aux, out, pool);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["ns/term"] = benchmark::Counter(double(p.m.num_terms()),
                                                 benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

BENCHMARK(BM_spmv)
    ->ArgNames({"log_rows", "threads", "unit_pct", "bit_pct", "specialised"})
    ->ArgsProduct({{20}, {1}, {90, 0}, {98, 0}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::bench
