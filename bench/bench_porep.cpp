// PoRep input costs: parsing a 32 GiB C1 (about 50 MB of JSON) must take well under a second
// (issue 5). The document is a synthetic 32 GiB C1 (synthetic_c1.hpp: Sub proofs of 9 + 1
// elements, 11 layers, 10 partitions × 18 challenges; 37.5 MB).
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "porep/c1.hpp"
#include "porep/c1_check.hpp"
#include "porep/poseidon.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::porep {
namespace {

const std::string& c1_32gib_text() {
  static const std::string text = [] {
    SyntheticC1Options options;
    options.registered_proof = "StackedDrg32GiBV1_1";
    return to_json(generate_synthetic_c1(options).value());
  }();
  return text;
}

// parse_c1: padded copy, simdjson On-Demand + the raw-text byte-array reader, every domain
// checked and converted to Fr, then validate.
void BM_ParseC1_32GiB(benchmark::State& state) {
  const std::string& text = c1_32gib_text();
  for (auto _ : state) {
    auto c1 = parse_c1(text, "c1.json");
    if (!c1) state.SkipWithError(c1.error().message.c_str());
    benchmark::DoNotOptimize(c1);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ParseC1_32GiB)->Unit(benchmark::kMillisecond)->MinTime(2.0);

// For comparison, the simdjson DOM parse alone with a fresh parser (the first version of
// parse_c1 was DOM-based; this alone costs more than the whole On-Demand parse_c1).
void BM_SimdjsonDom_32GiB(benchmark::State& state) {
  const std::string& text = c1_32gib_text();
  for (auto _ : state) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(text).get(root) != simdjson::SUCCESS) state.SkipWithError("parse");
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_SimdjsonDom_32GiB)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_ToJson_32GiB(benchmark::State& state) {
  const C1 c1 = parse_c1(c1_32gib_text(), "c1.json").value();
  for (auto _ : state) benchmark::DoNotOptimize(to_json(c1));
}
BENCHMARK(BM_ToJson_32GiB)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::porep

namespace cuzk::porep {
namespace {
// The same with one parser kept across iterations: the difference is the cost of its buffers'
// first touch (page faults), which a fresh parser pays every time.
void BM_SimdjsonDomReused_32GiB(benchmark::State& state) {
  const std::string& text = c1_32gib_text();
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element root;
    if (parser.parse(text).get(root) != simdjson::SUCCESS) state.SkipWithError("parse");
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_SimdjsonDomReused_32GiB)->Unit(benchmark::kMillisecond)->MinTime(2.0);
}  // namespace
}  // namespace cuzk::porep

namespace cuzk::porep {
namespace {
// check_vanilla_proofs of the 32 GiB C1 on the calling thread (no pool; 180 challenges, each
// 15 column hashes of arity 11 and 16 arity-8 paths of 10 levels): the batched Poseidon on IFMA
// (arg 0, where the CPU has it) against the scalar hash (arg 1), in the same run.
void BM_CheckC1_32GiB(benchmark::State& state) {
  static const C1 c1 = parse_c1(c1_32gib_text(), "c1.json").value();
  const PorepPoseidon poseidon(state.range(0) == 0 ? gadgets::PoseidonKernel::best : gadgets::PoseidonKernel::scalar);
  for (auto _ : state) {
    const auto ok = check_vanilla_proofs(c1, poseidon, nullptr, "c1.json");
    if (!ok) state.SkipWithError(ok.error().message.c_str());
  }
  state.SetLabel(poseidon.batch(8).uses_ifma() ? "ifma" : "scalar");
}
BENCHMARK(BM_CheckC1_32GiB)->ArgName("scalar")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
}  // namespace
}  // namespace cuzk::porep
