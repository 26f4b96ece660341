// The synthetic C1 generator: small sizes go through the partition circuit (every row holds,
// and the circuit's public inputs equal those a verifier derives from public data alone); large
// sizes are checked natively (every path hashed to its root, every label recomputed, every index
// against the graph and the challenges) since their circuit is 130 M rows. comm_d of the zero
// sector is pinned from independent sources.

#include "porep/synthetic_c1.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <optional>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "core/thread_pool.hpp"
#include "porep/c1_check.hpp"
#include "porep/prover.hpp"
#include "porep/verify.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

const PorepPoseidon& poseidon() {
  static const PorepPoseidon p;
  return p;
}

ThreadPool& pool() {
  static ThreadPool p{2};
  return p;
}

C1 generate(const std::string& proof, uint64_t seed) {
  SyntheticC1Options o;
  o.registered_proof = proof;
  o.seed = seed;
  return generate_synthetic_c1(o, poseidon(), pool()).value();
}

std::string hex_of(const Fr& v) {
  std::array<uint8_t, 32> b{};
  v.to_bytes_le(b);
  return to_hex(b);
}

// Unsealed CIDs of empty sectors (go-fil-commcid tests, "empty32GiB"/"empty64GiB";
// the digest of baga6ea4seaqao7s73y24kcutaosvacpdjgfe5pw76ooefnyqw4ynr3d2y6x2mpq and
// baga6ea4seaqomqafu276g53zko4k23xzh4h4uecjwicbmvhsuqi7o4bhthhm4aq: the last 32 of the 39
// base32-decoded bytes). 2 KiB: comm_d of tests/data/porep/c1_2KiB_v1_1.json (zero data,
// shared/tools/c1gen_model.py defaults, whose comm_d matched a really sealed sector).
TEST(SyntheticC1, ZeroSectorCommDMatchesKnownValues) {
  EXPECT_EQ(hex_of(zero_tree_d_hashes(30).back()), "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e");
  EXPECT_EQ(hex_of(zero_tree_d_hashes(31).back()), "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02");
  const C1 real = read_c1_file(std::string(CUZK_TEST_DATA_DIR) + "/porep/c1_2KiB_v1_1.json").value();
  EXPECT_EQ(hex_of(zero_tree_d_hashes(6).back()), to_hex(real.comm_d));
  EXPECT_EQ(generate("StackedDrg2KiBV1_1", 7).comm_d, real.comm_d);
}

// Rebuilds a root from a leaf and its path: the running hash inserted at `index` among the
// siblings, hashed per level (storage-proofs-core InclusionPath::root).
template <class Hash>
Fr path_root(const MerkleProof& p, Hash hash) {
  Fr running = p.leaf;
  for (const PathElement& el : p.path) {
    std::vector<Fr> children = el.hashes;
    children.insert(children.begin() + el.index, running);
    running = hash(children);
  }
  return running;
}

// What Proof::verify checks (stacked/vanilla/params.rs), natively, on partitions 0 and the last
// (all partitions share the trees and the graph); empty when all hold.
std::string native_check(const C1& c1) {
  const RegisteredSealProof proof = registered_seal_proof(c1.registered_proof).value();
  const SectorShape shape = shape_for_sector_size(proof.sector_size).value();
  const StackedGraph graph(shape.nodes, proof.porep_id(), graph_version(proof.api_version));
  const Fr rid = Fr::from_bytes_le(c1.replica_id).value();
  const gadgets::PoseidonTreeHash tree_hash = poseidon().tree_hash();
  const auto poseidon_node = [&](const std::vector<Fr>& children) { return tree_hash.native(children); };
  const auto sha_node = [](const std::vector<Fr>& children) { return gadgets::Sha256TreeHash::native(children); };
  const Fr comm_c = c1.partitions[0][0].c_x.inclusion.root;
  const Fr comm_r_last = c1.partitions[0][0].comm_r_last_proof.root;
  const std::array<Fr, 2> roots{comm_c, comm_r_last};
  if (Fr::from_bytes_le(c1.comm_r).value() != gadgets::poseidon_hash(poseidon().arity(2), roots)) return "comm_r";
  const auto column_ok = [&](const ColumnProof& col) {
    return col.inclusion.root == comm_c && col.inclusion.leaf == gadgets::poseidon_hash(poseidon().arity(shape.layers), col.rows) &&
           path_root(col.inclusion, poseidon_node) == comm_c;
  };
  for (const uint32_t k : {uint32_t{0}, shape.partitions - 1}) {
    const std::vector<uint64_t> challenges = porep_challenges(proof.feature, rid, Fr::from_bytes_le(c1.comm_r).value(),
                                                              c1.seed, shape.nodes, k, shape.challenges_per_partition);
    for (size_t i = 0; i < challenges.size(); ++i) {
      const ChallengeProof& p = c1.partitions[k][i];
      const uint64_t c = challenges[i];
      const std::string at = "partition " + std::to_string(k) + " challenge " + std::to_string(i) + ": ";
      if (p.c_x.index != c) return at + "challenge";
      if (p.comm_d_proof.leaf != Fr::zero() || path_root(p.comm_d_proof, sha_node) != Fr::from_bytes_le(c1.comm_d).value())
        return at + "tree D";
      if (path_root(p.comm_r_last_proof, poseidon_node) != comm_r_last || p.comm_r_last_proof.root != comm_r_last)
        return at + "tree R";
      if (p.comm_r_last_proof.leaf != p.c_x.rows.back() || p.encoding_proof != p.labeling_proofs.back())
        return at + "encoding";  // key + data (0) = replica leaf
      if (!column_ok(p.c_x)) return at + "c_x column";
      std::array<uint32_t, kParentCount> parents{};
      graph.parents(c, parents);
      for (size_t j = 0; j < kParentCount; ++j) {
        const ColumnProof& col = j < kDrgDegree ? p.drg_parents[j] : p.exp_parents[j - kDrgDegree];
        if (col.index != parents[j] || !column_ok(col)) return at + "parent column " + std::to_string(j);
      }
      for (uint32_t layer = 1; layer <= shape.layers; ++layer) {
        std::vector<Fr> own;
        for (size_t j = 0; j < (layer == 1 ? kDrgDegree : kParentCount); ++j)
          own.push_back(j < kDrgDegree ? p.drg_parents[j].rows[layer - 1] : p.exp_parents[j - kDrgDegree].rows[layer - 2]);
        std::array<Fr, kLabelParents> expanded{};
        expand_label_parents(layer, own, expanded);
        const LabelingProof& lp = p.labeling_proofs[layer - 1];
        if (!std::equal(expanded.begin(), expanded.end(), lp.parents.begin(), lp.parents.end()) || lp.node != c)
          return at + "label parents, layer " + std::to_string(layer);
        if (create_label(rid, layer, c, expanded) != p.c_x.rows[layer - 1]) return at + "label, layer " + std::to_string(layer);
      }
    }
  }
  return {};
}

// The 2 KiB and 8 MiB partition circuits, compiled once each.
struct Circuit {
  ThreadPool pool{2};
  StackedCircuitShape shape;
  r1cs::CompiledR1cs<Fr> compiled;

  explicit Circuit(uint64_t sector_size) : shape(circuit_shape(shape_for_sector_size(sector_size).value())) {
    r1cs::KeygenCS<Fr> cs;
    const std::vector<ChallengeProof> blank = blank_challenges(shape);
    synthesize_partition(cs, shape, poseidon(), PartitionWitness{Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), blank});
    compiled = std::move(cs).finish();
  }

  // The first row a·b ≠ c, if any, and the circuit's public inputs (ONE excluded).
  std::pair<std::optional<size_t>, std::vector<Fr>> check(const C1& c1, size_t partition) {
    r1cs::WitnessCS<Fr> cs;
    synthesize_partition(cs, shape, poseidon(), partition_witness(c1, partition));
    const auto rows = r1cs::spmv(compiled, std::span<const Fr>(cs.inputs()), std::span<const Fr>(cs.aux()), pool);
    std::optional<size_t> bad;
    for (size_t i = 0; i < rows.a.size() && !bad; ++i)
      if (rows.a[i] * rows.b[i] != rows.c[i]) bad = i;
    return {bad, std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end())};
  }
};

void expect_satisfies(Circuit& circuit, const C1& c1) {
  const C1 parsed = parse_c1(to_json(c1), "synthetic").value();  // runs validate()
  EXPECT_EQ(parsed, c1);
  EXPECT_EQ(native_check(c1), "");
  for (size_t k = 0; k < c1.partitions.size(); ++k) {
    const auto [bad, inputs] = circuit.check(c1, k);
    EXPECT_FALSE(bad.has_value()) << "row " << *bad;
    EXPECT_EQ(inputs, c1_public_inputs(c1, static_cast<uint32_t>(k)).value());
  }
}

TEST(SyntheticC1, TwoKiBSatisfiesTheCircuitForBothGraphs) {
  Circuit circuit(2048);
  for (const auto& [name, seed] : {std::pair{"StackedDrg2KiBV1_1", 1}, std::pair{"StackedDrg2KiBV1", 2}}) {
    SCOPED_TRACE(name);
    const C1 c1 = generate(name, seed);
    EXPECT_EQ(c1.registered_proof, name);
    expect_satisfies(circuit, c1);
  }
  // A changed label of a challenge's parent no longer gives the challenge's label.
  C1 bad = generate("StackedDrg2KiBV1_1", 1);
  bad.partitions[0][0].drg_parents[2].rows[0] += Fr::one();
  EXPECT_TRUE(circuit.check(bad, 0).first.has_value());
  EXPECT_NE(native_check(bad), "");
}

// A synthetic-PoRep C1 (StackedDrg2KiBV1_1_Feat_SyntheticPoRep) is a whole sealed sector: its
// comm_d, replica_id and comm_r equal those shared/tools/seal2k_model.py computes for the same
// public values and porep_id 10, and its challenges those the Python model of the synthetic
// derivation selects (tests/data/porep/synthetic/gen.py). It satisfies the circuit with the
// public inputs a verifier derives from public data alone.
TEST(SyntheticC1, SyntheticPoRepTwoKiBMatchesModelsAndSatisfiesTheCircuit) {
  std::ifstream in(std::string(CUZK_TEST_DATA_DIR) + "/porep/synthetic/vectors.txt");
  ASSERT_TRUE(in);
  std::map<std::string, std::vector<std::string>> v;
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string key;
    f >> key;
    for (std::string word; f >> word;) v[key].push_back(word);
  }
  ASSERT_EQ(v["sector2k"].size(), 4u);
  ASSERT_EQ(v["sealed2k"].size(), 3u);
  const auto bytes = [](const std::string& hex) {
    Bytes32 out{};
    const std::vector<uint8_t> b = from_hex(hex).value();
    std::copy(b.begin(), b.end(), out.begin());
    return out;
  };
  SyntheticC1Options o;
  o.registered_proof = "StackedDrg2KiBV1_1_Feat_SyntheticPoRep";
  o.miner_id = std::stoull(v["sector2k"][0]);
  o.sector_id = std::stoull(v["sector2k"][1]);
  o.ticket = bytes(v["sector2k"][2]);
  o.porep_seed = bytes(v["sector2k"][3]);
  const C1 c1 = generate_synthetic_c1(o, poseidon(), pool()).value();
  EXPECT_EQ(c1.registered_proof, o.registered_proof);
  EXPECT_EQ(to_hex(c1.comm_d), v["sealed2k"][0]);
  EXPECT_EQ(to_hex(c1.replica_id), v["sealed2k"][1]);
  EXPECT_EQ(to_hex(c1.comm_r), v["sealed2k"][2]);
  ASSERT_EQ(c1.partitions.size(), 1u);
  ASSERT_EQ(c1.partitions[0].size(), v["challenges2k"].size());
  for (size_t i = 0; i < c1.partitions[0].size(); ++i)
    EXPECT_EQ(c1.partitions[0][i].c_x.index, std::stoull(v["challenges2k"][i])) << i;

  Circuit circuit(2048);
  expect_satisfies(circuit, c1);
  EXPECT_TRUE(check_vanilla_proofs(c1, poseidon(), &pool(), "synthetic"));
  // From public data alone (no replica_id given): the same inputs as the circuit's.
  const RegisteredSealProof proof = registered_seal_proof(o.registered_proof).value();
  PorepPublicData data = public_data_for(proof, shape_for_sector_size(2048).value());
  data.prover_id = prover_id_from_miner(*o.miner_id);
  data.sector_id = *o.sector_id;
  data.ticket = *o.ticket;
  data.seed = *o.porep_seed;
  data.comm_r = c1.comm_r;
  data.comm_d = c1.comm_d;
  EXPECT_EQ(partition_public_inputs(data, 0).value(), circuit.check(c1, 0).second);

  // Read as interactive PoRep, the same proofs are for other challenges: refused, naming the index.
  C1 relabelled = c1;
  relabelled.registered_proof = "StackedDrg2KiBV1_1";
  const auto refused = check_vanilla_proofs(relabelled, poseidon(), &pool(), "synthetic");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("c_x"), std::string::npos) << refused.error().message;
  // Another seed selects other synthetic challenges of the same sector (same comm_r).
  SyntheticC1Options other = o;
  other.porep_seed->at(0) ^= 1;
  const C1 reseeded = generate_synthetic_c1(other, poseidon(), pool()).value();
  EXPECT_EQ(reseeded.comm_r, c1.comm_r);
  EXPECT_TRUE(check_vanilla_proofs(reseeded, poseidon(), &pool(), "synthetic"));
  EXPECT_NE(reseeded.partitions[0][0].c_x.index * 100 + reseeded.partitions[0][1].c_x.index,
            c1.partitions[0][0].c_x.index * 100 + c1.partitions[0][1].c_x.index);
}

TEST(SyntheticC1, EightMiBSatisfiesTheCircuit) {
  Circuit circuit(uint64_t{8} << 20);
  expect_satisfies(circuit, generate("StackedDrg8MiBV1_1", 5));
}

TEST(SyntheticC1, SameSeedSameBytesOtherSeedOtherBytes) {
  const std::string a = to_json(generate("StackedDrg2KiBV1_1", 11));
  EXPECT_EQ(a, to_json(generate("StackedDrg2KiBV1_1", 11)));
  EXPECT_NE(a, to_json(generate("StackedDrg2KiBV1_1", 12)));
  // Nor does the thread count change a byte (8 MiB: tree levels wide enough to split).
  SyntheticC1Options big;
  big.registered_proof = "StackedDrg8MiBV1_1";
  ThreadPool one{1};
  EXPECT_EQ(to_json(generate_synthetic_c1(big, poseidon(), one).value()), to_json(generate("StackedDrg8MiBV1_1", 1)));

  // The overrides replace draws without shifting the stream: same ticket and seed.
  SyntheticC1Options o;
  o.seed = 11;
  const SyntheticC1Inputs drawn = synthetic_c1_inputs(o);
  o.miner_id = 1234;
  o.sector_id = 42;
  const SyntheticC1Inputs fixed = synthetic_c1_inputs(o);
  EXPECT_EQ(fixed.ticket, drawn.ticket);
  EXPECT_EQ(fixed.seed, drawn.seed);
  EXPECT_EQ(fixed.prover_id, prover_id_from_miner(1234));
  EXPECT_EQ(fixed.sector_id, 42u);
  const C1 c1 = generate_synthetic_c1(o, poseidon(), pool()).value();
  EXPECT_EQ(c1.ticket, drawn.ticket);
  EXPECT_EQ(c1.seed, drawn.seed);
  // replica_id from the published formula with these public values.
  const Bytes32 porep_id = registered_seal_proof("StackedDrg2KiBV1_1").value().porep_id();
  const Fr rid = replica_id(fixed.prover_id, 42, fixed.ticket, c1.comm_d, porep_id);
  EXPECT_EQ(hex_of(rid), to_hex(c1.replica_id));
}

TEST(SyntheticC1, RefusesNonInteractiveLargeSyntheticAndUnknownProofs) {
  SyntheticC1Options o;
  o.registered_proof = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
  EXPECT_EQ(generate_synthetic_c1(o, poseidon(), pool()).error().code, ErrorCode::kUnsupported);
  // A synthetic-PoRep C1 labels the whole sector: test sizes only, with an error that says so.
  o.registered_proof = "StackedDrg32GiBV1_1_Feat_SyntheticPoRep";
  const auto big = generate_synthetic_c1(o, poseidon(), pool());
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(big.error().message.find("every node"), std::string::npos) << big.error().message;
  o.registered_proof = "StackedDrg4KiBV1";
  EXPECT_EQ(generate_synthetic_c1(o, poseidon(), pool()).error().code, ErrorCode::kInvalidArgument);
}

// 32 GiB and 64 GiB: 10 partitions × 18 challenges, 11 layers, Sub / Top tree R and C paths.
TEST(SyntheticC1, LargeSectorsAreValidAndConsistent) {
  const std::pair<const char*, const char*> cases[] = {
      {"StackedDrg32GiBV1_1", "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
      {"StackedDrg64GiBV1_1", "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"}};
  for (const auto& [name, comm_d] : cases) {
    SCOPED_TRACE(name);
    const auto t0 = std::chrono::steady_clock::now();
    const C1 c1 = generate(name, 3);
    const auto t1 = std::chrono::steady_clock::now();
    const std::string json = to_json(c1);
    const auto t2 = std::chrono::steady_clock::now();
    const C1 parsed = parse_c1(json, name).value();
    const auto t3 = std::chrono::steady_clock::now();
    const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("%s: generate %.0f ms, to_json %.0f ms (%.1f MB), parse %.0f ms\n", name, ms(t0, t1), ms(t1, t2),
                json.size() / 1e6, ms(t2, t3));
    EXPECT_EQ(parsed, c1);
    EXPECT_EQ(to_hex(c1.comm_d), comm_d);

    const SectorShape shape = shape_for_sector_size(registered_seal_proof(name).value().sector_size).value();
    ASSERT_EQ(c1.partitions.size(), 10u);
    const MerkleProof::Kind kind = shape.top_arity ? MerkleProof::Kind::kTop : MerkleProof::Kind::kSub;
    for (const auto& partition : c1.partitions) {
      ASSERT_EQ(partition.size(), 18u);
      for (const ChallengeProof& p : partition) {
        EXPECT_EQ(p.c_x.rows.size(), 11u);
        EXPECT_EQ(p.comm_d_proof.path.size(), shape.tree_d_depth);
        // 32 GiB: 8 trees of 8^9 leaves, 9 base + sub; 64 GiB: 2 × 8 trees of 8^9, 9 base + sub + top.
        EXPECT_EQ(p.comm_r_last_proof.path.size(), shape.top_arity ? 11u : 10u);
        EXPECT_EQ(p.c_x.inclusion.path.size(), shape.tree_rc_path_len());
        EXPECT_EQ(p.comm_r_last_proof.kind, kind);
        EXPECT_EQ(p.c_x.inclusion.kind, kind);
        EXPECT_EQ(p.labeling_proofs.size(), 11u);
      }
    }
    EXPECT_EQ(native_check(c1), "");
  }
}

}  // namespace
}  // namespace cuzk::porep
