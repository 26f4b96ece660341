// StackedGraph against shared/tools/seal2k_model.py (whose graph reproduces a real sector's
// comm_r and a real proof's public inputs): tests/data/porep/graph/parents.txt holds every node
// of 2 KiB graphs (V1_1, V1_0, and the all-zero porep_id of the polka-storage fixture) and
// samples of 8 MiB, 32 GiB and 64 GiB graphs in both versions. Regenerate with
//   python3 tests/data/porep/graph/gen.py /work/shared tests/data/porep/graph

#include "porep/graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/hex.hpp"

namespace cuzk::porep {
namespace {

struct GraphCase {
  uint64_t nodes = 0;
  GraphVersion version = GraphVersion::kV1_1;
  PorepId porep_id{};
  std::vector<std::pair<uint64_t, std::array<uint32_t, kParentCount>>> expected;
};

std::vector<GraphCase> load_cases() {
  std::ifstream in(CUZK_TEST_DATA_DIR "/porep/graph/parents.txt");
  EXPECT_TRUE(in) << "missing parents.txt";
  std::vector<GraphCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (line.starts_with("graph ")) {
      std::string tag, version, porep_hex;
      GraphCase c;
      fields >> tag >> c.nodes >> version >> porep_hex;
      c.version = version == "V1_0" ? GraphVersion::kV1_0 : GraphVersion::kV1_1;
      const auto bytes = *from_hex(porep_hex);
      std::copy(bytes.begin(), bytes.end(), c.porep_id.begin());
      cases.push_back(c);
      continue;
    }
    uint64_t node = 0;
    std::array<uint32_t, kParentCount> parents{};
    fields >> node;
    for (auto& p : parents) fields >> p;
    cases.back().expected.emplace_back(node, parents);
  }
  return cases;
}

std::string describe(const GraphCase& c) {
  return std::to_string(c.nodes) + (c.version == GraphVersion::kV1_0 ? " V1_0 " : " V1_1 ") + to_hex(c.porep_id);
}

TEST(StackedGraph, ParentsMatchModel) {
  const auto cases = load_cases();
  ASSERT_EQ(cases.size(), 9u);
  size_t checked = 0;
  for (const auto& c : cases) {
    const StackedGraph graph(c.nodes, c.porep_id, c.version);
    for (const auto& [node, want] : c.expected) {
      std::array<uint32_t, kParentCount> got{};
      graph.parents(node, got);
      ASSERT_EQ(got, want) << describe(c) << " node " << node;
      // The separate calls give the same halves.
      std::array<uint32_t, kDrgDegree> drg{};
      std::array<uint32_t, kExpanderDegree> exp{};
      graph.drg_parents(node, drg);
      graph.expander_parents(node, exp);
      ASSERT_TRUE(std::equal(drg.begin(), drg.end(), want.begin()));
      ASSERT_TRUE(std::equal(exp.begin(), exp.end(), want.begin() + kDrgDegree));
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);
}

// The DRSample invariants of drgraph.rs on every node of an 8 MiB graph: nodes 0 and 1 have
// all-zero parents; from node 2 on the predecessor sits in slot 0 (V1_1) or 5 (V1_0) and every
// parent precedes the node. Expander parents lie in the graph, and over all nodes each node is
// the expander parent of exactly 8 (i, node) pairs: the Feistel map is a permutation.
TEST(StackedGraph, InvariantsOnWholeGraph) {
  constexpr uint64_t kNodes = uint64_t{1} << 14;
  PorepId porep_id{};
  porep_id[0] = 6;
  for (const GraphVersion version : {GraphVersion::kV1_1, GraphVersion::kV1_0}) {
    const StackedGraph graph(kNodes, porep_id, version);
    const size_t predecessor = version == GraphVersion::kV1_0 ? 5 : 0;
    std::vector<uint32_t> in_degree(kNodes, 0);
    std::array<uint32_t, kParentCount> parents{};
    for (uint64_t node = 0; node < kNodes; ++node) {
      graph.parents(node, parents);
      if (node < 2) {
        EXPECT_TRUE(std::all_of(parents.begin(), parents.begin() + kDrgDegree, [](uint32_t p) { return p == 0; }));
      } else {
        ASSERT_EQ(parents[predecessor], node - 1) << node;
        for (size_t i = 0; i < kDrgDegree; ++i) ASSERT_LT(parents[i], node) << node;
      }
      for (size_t i = kDrgDegree; i < kParentCount; ++i) {
        ASSERT_LT(parents[i], kNodes);
        ++in_degree[parents[i]];
      }
    }
    EXPECT_TRUE(std::all_of(in_degree.begin(), in_degree.end(), [](uint32_t d) { return d == kExpanderDegree; }));
  }
}

// porep_id changes both parent kinds; the version alone moves the DRG predecessor slot.
TEST(StackedGraph, PorepIdAndVersionMatter) {
  PorepId a{}, b{};
  b[0] = 1;
  const StackedGraph ga(1 << 18, a, GraphVersion::kV1_1), gb(1 << 18, b, GraphVersion::kV1_1);
  const StackedGraph ga0(1 << 18, a, GraphVersion::kV1_0);
  std::array<uint32_t, kParentCount> pa{}, pb{}, pa0{};
  ga.parents(12345, pa);
  gb.parents(12345, pb);
  ga0.parents(12345, pa0);
  EXPECT_FALSE(std::equal(pa.begin() + 1, pa.begin() + kDrgDegree, pb.begin() + 1));
  EXPECT_FALSE(std::equal(pa.begin() + kDrgDegree, pa.end(), pb.begin() + kDrgDegree));
  // Same RNG draws, shifted by one slot; expander parents equal below 2^29 nodes.
  EXPECT_EQ(pa0[5], 12344u);
  EXPECT_TRUE(std::equal(pa.begin() + 1, pa.begin() + kDrgDegree, pa0.begin()));
  EXPECT_TRUE(std::equal(pa.begin() + kDrgDegree, pa.end(), pa0.begin() + kDrgDegree));
}

TEST(StackedGraph, RejectsOutOfRange) {
  const PorepId id{};
  EXPECT_THROW(StackedGraph(1, id, GraphVersion::kV1_1), Exception);
  EXPECT_THROW(StackedGraph((uint64_t{1} << 32) + 1, id, GraphVersion::kV1_1), Exception);
  const StackedGraph graph(64, id, GraphVersion::kV1_1);
  std::array<uint32_t, kParentCount> parents{};
  EXPECT_THROW(graph.parents(64, parents), Exception);
  EXPECT_NO_THROW(graph.parents(63, parents));
}

}  // namespace
}  // namespace cuzk::porep
