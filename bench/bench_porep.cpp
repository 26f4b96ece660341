// PoRep input costs: parsing a 32 GiB C1 (about 50 MB of JSON) must take well under a second
// (issue 5). The document is built in memory with the 32 GiB shape (Sub proofs of 9 + 1
// elements, 11 layers, 10 partitions × 18 challenges) and consistent indices.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include "porep/c1.hpp"

namespace cuzk::porep {
namespace {

C1 synthetic_c1(const SectorShape& shape, const char* proof_name) {
  C1 c;
  c.registered_proof = proof_name;
  const auto kind = shape.top_arity ? MerkleProof::Kind::kTop : shape.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  uint64_t counter = 1;
  // Full-width values, so the text has the size of a real C1 (3-digit bytes dominate).
  const auto value = [&] { return ff::Fr::from_uint(counter++ * 0x9e3779b97f4a7c15ull).pow(uint64_t{5}); };
  const auto path = [&](uint64_t leaf, bool tree_d, ff::Fr root) {
    MerkleProof p;
    p.kind = tree_d ? MerkleProof::Kind::kSingle : kind;
    p.root = root;
    p.leaf = tree_d ? ff::Fr::zero() : value();
    const uint32_t levels = tree_d ? shape.tree_d_depth : shape.tree_rc_path_len();
    for (uint32_t i = 0; i < levels; ++i) {
      const uint32_t base = shape.base_path_len();
      const uint32_t arity = tree_d ? 2 : i < base ? shape.base_arity : i == base && shape.sub_arity ? shape.sub_arity : shape.top_arity;
      PathElement& e = p.path.emplace_back();
      e.index = static_cast<uint32_t>(leaf % arity);
      leaf /= arity;
      // Tree D siblings are SHA domains (< 2^254): small values keep them valid.
      for (uint32_t h = 0; h + 1 < arity; ++h) e.hashes.push_back(tree_d ? ff::Fr::from_uint(counter++) : value());
    }
    return p;
  };
  const ff::Fr comm_c = value(), comm_r_last = value();
  const auto column = [&](uint64_t index) {
    ColumnProof col;
    col.index = static_cast<uint32_t>(index);
    for (uint32_t l = 0; l < shape.layers; ++l) col.rows.push_back(value());
    col.inclusion = path(index, false, comm_c);
    return col;
  };
  c.comm_d[0] = 7;
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    auto& partition = c.partitions.emplace_back();
    for (uint32_t i = 0; i < shape.challenges_per_partition; ++i) {
      const uint64_t node = (uint64_t{k} * 1'000'003 + i * 7919 + 1) * 977 % shape.nodes;
      ChallengeProof& p = partition.emplace_back();
      p.comm_d_proof = path(node, true, ff::Fr::from_uint(7));
      p.comm_r_last_proof = path(node, false, comm_r_last);
      p.c_x = column(node);
      for (uint32_t j = 0; j < shape.drg_degree; ++j) p.drg_parents.push_back(column((node + j * 13) % shape.nodes));
      for (uint32_t j = 0; j < shape.expansion_degree; ++j) p.exp_parents.push_back(column((node * 3 + j * 101) % shape.nodes));
      for (uint32_t l = 1; l <= shape.layers; ++l) {
        LabelingProof lp{{}, l, node};
        for (uint32_t j = 0; j < SectorShape::kLabelParents; ++j) lp.parents.push_back(value());
        p.labeling_proofs.push_back(lp);
      }
      p.encoding_proof = p.labeling_proofs.back();
    }
  }
  return c;
}

const std::string& c1_32gib_text() {
  static const std::string text = to_json(synthetic_c1(shape_for_sector_size(32ull << 30).value(), "StackedDrg32GiBV1_1"));
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
