// Synthetic-PoRep challenge derivation (challenges.hpp) against two independent sources:
// rust-fil-proofs' own hard-coded vector (storage-proofs-porep/src/stacked/vanilla/challenges.rs,
// test_synth_challenges_against_hardcoded, @87348a74), and the Python stdlib model
// tests/data/porep/synthetic/gen.py (its own RFC 8439 ChaCha20, hashlib's keyed BLAKE2b), whose
// vectors.txt holds a 32 GiB-shaped case. Regenerate with
//   python3 tests/data/porep/synthetic/gen.py /work/shared tests/data/porep/synthetic

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "porep/challenges.hpp"
#include "porep/verify.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

Bytes32 bytes32_of(const std::string& hex) {
  const auto v = *from_hex(hex);
  EXPECT_EQ(v.size(), 32u) << hex;
  Bytes32 out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

std::vector<uint64_t> numbers(std::istringstream& in) {
  std::vector<uint64_t> out;
  for (uint64_t v; in >> v;) out.push_back(v);
  return out;
}

// rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes,
// replica_id = Fr(55), comm_r = Fr(101), 21 synthetic challenges, 10 PoRep challenges selected
// with randomness [1; 32].
TEST(SyntheticChallenges, MatchRustFilProofsHardcodedVector) {
  const Fr rid = Fr::from_uint(55), comm_r = Fr::from_uint(101);
  Bytes32 rand{};
  rand.fill(1);
  const std::vector<uint64_t> set = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                     801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  EXPECT_EQ(synthetic_challenge_set(rid, comm_r, 1 << 10, 21, 0, 21), set);
  // Seeking: any one challenge alone is the same as in the whole set.
  for (uint64_t i = 0; i < set.size(); ++i) EXPECT_EQ(synthetic_challenge_set(rid, comm_r, 1 << 10, 21, i, 1).front(), set[i]);
  EXPECT_EQ(synthetic_challenges(rid, comm_r, rand, 1 << 10, 0, 10, 21),
            (std::vector<uint64_t>{176, 781, 801, 986, 290, 211, 692, 856, 986, 332}));
  // Either input moves them.
  EXPECT_NE(synthetic_challenge_set(rid, Fr::from_uint(102), 1 << 10, 21, 0, 21), set);
  EXPECT_NE(synthetic_challenge_set(Fr::from_uint(56), comm_r, 1 << 10, 21, 0, 21), set);
  EXPECT_THROW(synthetic_challenge_set(rid, comm_r, 1 << 10, 21, 20, 2), Exception);
}

TEST(SyntheticChallenges, MatchPythonModel32GiB) {
  std::ifstream in(std::string(CUZK_TEST_DATA_DIR) + "/porep/synthetic/vectors.txt");
  ASSERT_TRUE(in);
  Fr rid, comm_r;
  Bytes32 seed{};
  std::vector<uint64_t> set;
  std::map<uint32_t, std::vector<uint64_t>> indexes, challenges;
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string key;
    f >> key;
    if (key == "case32g") {
      std::string a, b, c;
      f >> a >> b >> c;
      rid = *Fr::from_bytes_le(bytes32_of(a));
      comm_r = *Fr::from_bytes_le(bytes32_of(b));
      seed = bytes32_of(c);
    } else if (key == "set") {
      set = numbers(f);
    } else if (key == "indexes" || key == "challenges") {
      uint32_t k = 0;
      f >> k;
      (key == "indexes" ? indexes : challenges)[k] = numbers(f);
    }
  }
  const uint64_t nodes = uint64_t{1} << 30;
  ASSERT_EQ(set.size(), 12u);
  EXPECT_EQ(synthetic_challenge_count(nodes), uint64_t{1} << 18);
  EXPECT_EQ(synthetic_challenge_count(64), 64u);
  EXPECT_EQ(synthetic_challenge_set(rid, comm_r, nodes, synthetic_challenge_count(nodes), 0, 12), set);
  ASSERT_EQ(challenges.size(), 11u);  // partitions 0..9 and 259 (read as 3)
  for (const auto& [k, want] : challenges) {
    SCOPED_TRACE(k);
    EXPECT_EQ(synthetic_challenge_indexes(rid, seed, uint64_t{1} << 18, k, 18), indexes.at(k));
    EXPECT_EQ(synthetic_challenges(rid, comm_r, seed, nodes, k, 18), want);
    EXPECT_EQ(porep_challenges(PorepFeature::kSyntheticPoRep, rid, comm_r, seed, nodes, k, 18), want);
  }
  // The interactive derivation is another one, and ignores comm_r.
  EXPECT_NE(porep_challenges(PorepFeature::kNone, rid, comm_r, seed, nodes, 0, 18), challenges.at(0));
  EXPECT_EQ(porep_challenges(PorepFeature::kNone, rid, comm_r, seed, nodes, 0, 18),
            interactive_challenges(rid, seed, nodes, 0, 18));
  EXPECT_THROW(porep_challenges(PorepFeature::kNonInteractivePoRep, rid, comm_r, seed, nodes, 0, 18), Exception);
}

// The registered proofs Curio seals with when UseSyntheticPoRep is set: ids 10..14 (go-state-types
// abi, rust-filecoin-proofs-api registry.rs), API 1.2, the V1_1 graph, porep_id = the id.
TEST(SyntheticChallenges, RegisteredProofsAndPublicData) {
  const RegisteredSealProof p = registered_seal_proof(uint64_t{13}).value();
  EXPECT_EQ(p.name, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(p.feature, PorepFeature::kSyntheticPoRep);
  EXPECT_EQ(to_hex(p.porep_id()), "0d" + std::string(62, '0'));
  EXPECT_EQ(vanilla_proof_variant(p), "StackedDrg32GiBV1");
  for (uint64_t id = 10; id <= 14; ++id) {
    const RegisteredSealProof q = registered_seal_proof(id).value();
    EXPECT_EQ(q.sector_size, kRegisteredSealProofs[id - 5].sector_size) << id;
    const PorepPublicData d = public_data_for(q, shape_for_sector_size(q.sector_size).value());
    EXPECT_EQ(d.feature, PorepFeature::kSyntheticPoRep);
    EXPECT_EQ(d.graph, GraphVersion::kV1_1);
  }
  EXPECT_EQ(registered_seal_proof("StackedDrg2KiBV1_1_Feat_SyntheticPoRep")->id, 10u);
  EXPECT_EQ(public_data_for(*registered_seal_proof(uint64_t{8}), shape_for_sector_size(uint64_t{32} << 30).value()).feature,
            PorepFeature::kNone);
}

}  // namespace
}  // namespace cuzk::porep
