// Gadgets' native twins, one core: the Poseidon hash (neptune's optimized static form) per arity.
// Per docs/PERF.md, it is bound by Fr multiplications: about 584 (arity 2) to 2,900 (arity 11).

#include <benchmark/benchmark.h>

#include <vector>

#include "gadgets/poseidon.hpp"

namespace cuzk::bench {
namespace {

void BM_poseidon(benchmark::State& state) {
  const auto arity = static_cast<size_t>(state.range(0));
  const auto constants = gadgets::PoseidonConstants::merkle_tree(arity);
  std::vector<ff::Fr> x(arity, ff::Fr::from_uint(7));
  for (auto _ : state) benchmark::DoNotOptimize(x[0] = gadgets::poseidon_hash(constants, x));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_poseidon)->Name("poseidon_hash")->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk::bench
