// replica_id, interactive challenges, labels and public inputs against
// shared/tools/seal2k_model.py: labels_2k.txt is the model's sealed 2 KiB sector (every label of
// both layers), fixture_2k.txt the replica_id, challenges and public inputs of the real proof in
// shared/fixtures/polka-storage-2KiB (the model's inputs make that proof verify). Regenerate with
//   python3 tests/data/porep/graph/gen.py /work/shared tests/data/porep/graph

#include "porep/challenges.hpp"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/hex.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

Bytes32 bytes32(const std::string& hex) {
  const auto v = *from_hex(hex);
  EXPECT_EQ(v.size(), 32u) << hex;
  Bytes32 out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

Fr fr_le(const std::string& hex) { return *Fr::from_bytes_le(bytes32(hex)); }
Fr fr_be(const std::string& hex) { return *Fr::from_bytes_be(bytes32(hex)); }

std::vector<std::string> read_lines(const char* name) {
  std::ifstream in(std::string(CUZK_TEST_DATA_DIR "/porep/graph/") + name);
  EXPECT_TRUE(in) << "missing " << name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// shared/fixtures/polka-storage-2KiB/porep_2KiB.public.json (StackedDrg2KiBV1_1 under
// polka-storage's all-zero porep_id, API V1_2 = V1_1 graph).
struct Fixture {
  Bytes32 prover_id = bytes32(std::string(64, '0'));
  uint64_t sector_id = 77;
  Bytes32 ticket = bytes32("0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c");
  Bytes32 seed = bytes32("0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d");
  Bytes32 comm_d = bytes32("129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421");
  Bytes32 comm_r = bytes32("4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950");
  PorepId porep_id{};
};

struct FixtureExpectation {
  Fr replica_id;
  std::vector<uint64_t> challenges;
  std::map<uint32_t, std::vector<uint64_t>> challenges_32g;  // partition -> 18 challenges
  std::vector<Fr> inputs;
};

FixtureExpectation load_fixture_expectation() {
  FixtureExpectation e;
  for (const auto& line : read_lines("fixture_2k.txt")) {
    std::istringstream f(line);
    std::string key;
    f >> key;
    if (key == "replica_id") {
      std::string hex;
      f >> hex;
      e.replica_id = fr_le(hex);
    } else if (key == "challenges") {
      for (uint64_t c; f >> c;) e.challenges.push_back(c);
    } else if (key == "challenges32g") {
      uint32_t k = 0;
      f >> k;
      for (uint64_t c; f >> c;) e.challenges_32g[k].push_back(c);
    } else if (key == "input") {
      std::string hex;
      f >> hex;
      e.inputs.push_back(fr_be(hex));
    }
  }
  return e;
}

TEST(ProverId, MinerIdAsVarintPayload) {
  EXPECT_EQ(to_hex(prover_id_from_miner(1000)), "e807" + std::string(60, '0'));
  EXPECT_EQ(to_hex(prover_id_from_miner(0)), std::string(64, '0'));
  EXPECT_EQ(to_hex(prover_id_from_miner(127)), "7f" + std::string(62, '0'));
  EXPECT_EQ(to_hex(prover_id_from_miner(128)), "8001" + std::string(60, '0'));
  EXPECT_EQ(to_hex(prover_id_from_miner(~uint64_t{0})), "ffffffffffffffffff01" + std::string(44, '0'));
}

TEST(ReplicaId, MatchesModelAndFixture) {
  const Fixture fx;
  const auto want = load_fixture_expectation();
  EXPECT_EQ(replica_id(fx.prover_id, fx.sector_id, fx.ticket, fx.comm_d, fx.porep_id), want.replica_id);
  // Any field moves it (sector_id is big-endian: 77 vs 77 << 56 differ).
  EXPECT_NE(replica_id(fx.prover_id, 78, fx.ticket, fx.comm_d, fx.porep_id), want.replica_id);
  PorepId other = fx.porep_id;
  other[0] = 5;
  EXPECT_NE(replica_id(fx.prover_id, fx.sector_id, fx.ticket, fx.comm_d, other), want.replica_id);
}

TEST(InteractiveChallenges, MatchModel) {
  const Fixture fx;
  const auto want = load_fixture_expectation();
  EXPECT_EQ(interactive_challenges(want.replica_id, fx.seed, 64, 0, 2), want.challenges);
  ASSERT_EQ(want.challenges_32g.size(), 2u);
  for (const auto& [k, challenges] : want.challenges_32g) {
    EXPECT_EQ(interactive_challenges(want.replica_id, fx.seed, uint64_t{1} << 30, k, 18), challenges) << k;
  }
  // challenges.rs casts the partition to u8.
  EXPECT_EQ(interactive_challenges(want.replica_id, fx.seed, uint64_t{1} << 30, 256 + 9, 18),
            want.challenges_32g.at(9));
}

TEST(PublicInputs, MatchModelForRealProof) {
  const Fixture fx;
  const auto want = load_fixture_expectation();
  const StackedGraph graph(64, fx.porep_id, GraphVersion::kV1_1);
  const Fr rid = replica_id(fx.prover_id, fx.sector_id, fx.ticket, fx.comm_d, fx.porep_id);
  const auto challenges = interactive_challenges(rid, fx.seed, graph.nodes(), 0, 2);
  const auto inputs = porep_public_inputs(rid, *Fr::from_bytes_le(fx.comm_d), *Fr::from_bytes_le(fx.comm_r), graph,
                                          challenges);
  ASSERT_EQ(inputs.size(), 39u);  // + ONE = 40 = vk.ic size of the 2 KiB circuit
  ASSERT_EQ(want.inputs.size(), 39u);
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(inputs[i], want.inputs[i]) << "input " << i;
}

TEST(Labels, ExpansionOrder) {
  std::array<Fr, kParentCount> p;
  for (size_t i = 0; i < p.size(); ++i) p[i] = Fr::from_uint(100 + i);
  std::array<Fr, kLabelParents> out;
  expand_label_parents(1, std::span<const Fr>(p.data(), 6), out);
  for (size_t i = 0; i < 36; ++i) EXPECT_EQ(out[i], p[i % 6]) << i;
  EXPECT_EQ(out[36], p[0]);
  expand_label_parents(2, p, out);
  for (size_t i = 0; i < 28; ++i) EXPECT_EQ(out[i], p[i % 14]) << i;
  for (size_t i = 28; i < 37; ++i) EXPECT_EQ(out[i], p[i - 28]) << i;
  EXPECT_THROW(expand_label_parents(1, p, out), Exception);
  EXPECT_THROW(expand_label_parents(2, std::span<const Fr>(p.data(), 6), out), Exception);
  EXPECT_THROW(expand_label_parents(0, std::span<const Fr>(p.data(), 6), out), Exception);
}

// Graph and label hash together: every label of both layers of the model's sealed 2 KiB sector.
TEST(Labels, WholeSectorMatchesModel) {
  std::map<std::string, std::string> meta;
  std::vector<std::vector<Fr>> want(2, std::vector<Fr>(64));
  for (const auto& line : read_lines("labels_2k.txt")) {
    std::istringstream f(line);
    std::string key;
    f >> key;
    if (key == "label") {
      uint32_t layer = 0;
      uint64_t node = 0;
      std::string hex;
      f >> layer >> node >> hex;
      want.at(layer - 1).at(node) = fr_le(hex);
    } else {
      f >> meta[key];
    }
  }
  const Bytes32 porep_id = bytes32(meta.at("porep_id"));
  EXPECT_EQ(prover_id_from_miner(1000), bytes32(meta.at("prover_id")));
  const Fr rid = replica_id(bytes32(meta.at("prover_id")), std::stoull(meta.at("sector_id")),
                            bytes32(meta.at("ticket")), bytes32(meta.at("comm_d")), porep_id);
  ASSERT_EQ(rid, fr_le(meta.at("replica_id")));

  const StackedGraph graph(64, porep_id, GraphVersion::kV1_1);
  const auto labels = label_layers(graph, rid, 2);
  ASSERT_EQ(labels.size(), 2u);
  for (uint32_t l = 0; l < 2; ++l) {
    for (uint64_t node = 0; node < 64; ++node) {
      EXPECT_EQ(labels[l][node], want[l][node]) << "layer " << l + 1 << " node " << node;
    }
  }
  // The label is the trimmed digest: below 2^254.
  std::array<uint8_t, 32> bytes{};
  labels[1][63].to_bytes_le(bytes);
  EXPECT_EQ(bytes[31] & 0xc0, 0);
}

}  // namespace
}  // namespace cuzk::porep
