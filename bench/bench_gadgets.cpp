// Gadgets, one core: the native Poseidon hash per arity, and synthesis of one SHA-256 block
// (25,840 rows) and one Poseidon arity-11 hash (598 rows) in the witness-only backend
// (WitnessCS: no linear combination is built) against the proving backend (ProvingCS: rows
// evaluated, densities tracked). Counters: rows/s and witness values (aux) per second.
// Per docs/PERF.md, the native Poseidon is bound by Fr multiplications.

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_batch.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::bench {
namespace {

using ff::Fr;

void BM_poseidon(benchmark::State& state) {
  const auto arity = static_cast<size_t>(state.range(0));
  const auto constants = gadgets::PoseidonConstants::merkle_tree(arity);
  std::vector<Fr> x(arity, Fr::from_uint(7));
  for (auto _ : state) benchmark::DoNotOptimize(x[0] = gadgets::poseidon_hash(constants, x));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_poseidon)->Name("poseidon_hash")->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Unit(benchmark::kMicrosecond);

// PoseidonBatch on 8 preimages an iteration (one IFMA group; items = hashes): {arity, kernel}
// with kernel 0 = best (IFMA where the CPU has it), 1 = the scalar fallback, in the same run.
void BM_poseidon_batch(benchmark::State& state) {
  const auto arity = static_cast<size_t>(state.range(0));
  const auto kernel = state.range(1) == 0 ? gadgets::PoseidonKernel::best : gadgets::PoseidonKernel::scalar;
  const auto constants = gadgets::PoseidonConstants::merkle_tree(arity);
  const gadgets::PoseidonBatch batch(constants, kernel);
  std::vector<Fr> x(8 * arity), out(8);
  for (size_t i = 0; i < x.size(); ++i) x[i] = Fr::from_uint(7 + i);
  for (auto _ : state) {
    batch.hash(x, out);
    benchmark::DoNotOptimize(x[0] = out[0]);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * out.size()));
  state.SetLabel(batch.uses_ifma() ? "ifma" : "scalar");
}
BENCHMARK(BM_poseidon_batch)
    ->Name("poseidon_hash_batch8")
    ->ArgNames({"arity", "scalar"})
    ->ArgsProduct({{2, 4, 8, 11}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

void report(benchmark::State& state, size_t rows, size_t aux) {
  state.counters["rows_per_s"] = benchmark::Counter(double(rows), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["witness_per_s"] = benchmark::Counter(double(aux), benchmark::Counter::kIsIterationInvariantRate);
}

// One allocated 512-bit block through the compression function, as bellman's test counts it.
template <class CS>
void BM_sha256_block(benchmark::State& state) {
  std::mt19937_64 g(1);
  std::vector<bool> bits(512);
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = g() & 1;
  size_t aux = 0;
  for (auto _ : state) {
    CS cs;
    std::vector<gadgets::Boolean> block;
    for (size_t i = 0; i < 512; ++i) {
      r1cs::Namespace ns(cs, [&] { return "bit " + std::to_string(i); });
      block.emplace_back(gadgets::AllocatedBit::alloc(cs, bits[i]));
    }
    auto out = gadgets::sha256_compression_function(cs, block, gadgets::sha256_iv());
    benchmark::DoNotOptimize(out);
    aux = cs.aux().size();
  }
  report(state, 512 + 25'840, aux);
}
BENCHMARK(BM_sha256_block<r1cs::WitnessCS<Fr>>)->Name("sha256_block/witness_cs")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_sha256_block<r1cs::ProvingCS<Fr>>)->Name("sha256_block/proving_cs")->Unit(benchmark::kMillisecond);

template <class CS>
void BM_poseidon_gadget(benchmark::State& state) {
  const auto constants = gadgets::PoseidonConstants::merkle_tree(11);
  std::vector<Fr> values(11);
  for (size_t i = 0; i < values.size(); ++i) values[i] = Fr::from_uint(i + 1);
  size_t aux = 0, rows = 598;
  for (auto _ : state) {
    CS cs;
    std::vector<r1cs::Variable> in;
    for (size_t i = 0; i < values.size(); ++i) in.push_back(cs.alloc("x", [&] { return values[i]; }));
    benchmark::DoNotOptimize(gadgets::poseidon_hash_gadget(cs, constants, in, values));
    aux = cs.aux().size();
  }
  report(state, rows, aux);
}
BENCHMARK(BM_poseidon_gadget<r1cs::WitnessCS<Fr>>)->Name("poseidon11_gadget/witness_cs")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_poseidon_gadget<r1cs::ProvingCS<Fr>>)->Name("poseidon11_gadget/proving_cs")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk::bench
