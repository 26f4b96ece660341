// check_vanilla_proofs: the 2 KiB fixtures (shared/tools/c1gen_model.py, which checks its own
// output) and synthetic C1s pass; each kind of damage is refused naming its JSON path, and the
// same damage leaves the partition circuit unsatisfied (or its public inputs not the chain's),
// so the check refuses what a proof would fail on. check_replica_id: the fixture's replica_id is
// the one derived from miner 1000, sector 1; another sector, or a C1 consistently made for
// another prover, is refused.

#include "porep/c1_check.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/json_check.hpp"
#include "core/thread_pool.hpp"
#include "porep/prover.hpp"
#include "porep/synthetic_c1.hpp"
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

std::string data_path(const char* name) { return std::string(CUZK_TEST_DATA_DIR) + "/porep/" + name; }

const C1& fixture() {
  static const C1 c1 = read_c1_file(data_path("c1_2KiB_v1_1.json")).value();
  return c1;
}

#ifdef CUZK_C1_CHECK_LARGE
// The 2 KiB partition circuit, compiled once: is a C1's partition 0 a satisfying witness whose
// public inputs are the ones a verifier derives from public data?
struct Circuit {
  StackedCircuitShape shape = circuit_shape(shape_for_sector_size(2048).value());
  r1cs::CompiledR1cs<Fr> compiled;

  Circuit() {
    r1cs::KeygenCS<Fr> cs;
    const std::vector<ChallengeProof> blank = blank_challenges(shape);
    synthesize_partition(cs, shape, poseidon(), PartitionWitness{Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), blank});
    compiled = std::move(cs).finish();
  }

  bool proves(const C1& c1) const {
    r1cs::WitnessCS<Fr> cs;
    synthesize_partition(cs, shape, poseidon(), partition_witness(c1, 0));
    const auto rows = r1cs::spmv(compiled, std::span<const Fr>(cs.inputs()), std::span<const Fr>(cs.aux()), pool());
    for (size_t i = 0; i < rows.a.size(); ++i)
      if (rows.a[i] * rows.b[i] != rows.c[i]) return false;
    const auto expected = c1_public_inputs(c1, 0);
    return expected && std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()) == *expected;
  }
};

const Circuit& circuit() {
  static const Circuit c;
  return c;
}
#endif

TEST(C1Check, FixturesAndSyntheticC1sPass) {
  for (const char* file : {"c1_2KiB_v1_1.json", "c1_2KiB_v1.json", "c1_2KiB_v1_1.curio.json"}) {
    const C1 c1 = read_c1_file(data_path(file)).value();
    const auto ok = check_vanilla_proofs(c1, poseidon(), nullptr, file);
    EXPECT_TRUE(ok) << file << ": " << ok.error().message;
  }
  for (const char* proof : {"StackedDrg2KiBV1_1", "StackedDrg2KiBV1"}) {
    SyntheticC1Options o;
    o.registered_proof = proof;
    o.seed = 7;
    const C1 c1 = generate_synthetic_c1(o, poseidon(), pool()).value();
    const auto ok = check_vanilla_proofs(c1, poseidon(), &pool(), proof);
    EXPECT_TRUE(ok) << proof << ": " << ok.error().message;
  }
}

constexpr std::string_view kP0 = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].";
constexpr std::string_view kP1 = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].";

Fr bump(const Fr& v) { return v + Fr::one(); }

struct Damage {
  const char* name;
  std::function<void(C1&)> edit;
  std::string expected;  // the start of the message
  // The circuit reads the damaged value. It does not read c_x's rows (it computes the labels),
  // tree R's leaf (it computes the encoding) or the labeling proofs; a C1 whose copies of them
  // disagree was not made by a sealer, and rust-fil-proofs' vanilla verification refuses it.
  bool circuit_reads = true;
};

std::vector<Damage> damages() {
  const std::string p0(kP0), p1(kP1);
  const std::string unreached = ": the path from the leaf does not reach the root";
  return {
      {"c_x path sibling", [](C1& c) { auto& h = c.partitions[0][1].c_x.inclusion.path[1].hashes[3]; h = bump(h); },
       p1 + "replica_column_proofs.c_x.inclusion_proof" + unreached + " (comm_c)"},
      {"tree D path sibling", [](C1& c) { auto& h = c.partitions[0][0].comm_d_proof.path[4].hashes[0]; h = bump(h); },
       p0 + "comm_d_proofs" + unreached + " (comm_d)"},
      {"tree D data leaf", [](C1& c) { auto& l = c.partitions[0][1].comm_d_proof.leaf; l = bump(l); },
       p1 + "comm_d_proofs" + unreached + " (comm_d)"},
      {"tree R path sibling", [](C1& c) { auto& h = c.partitions[0][1].comm_r_last_proof.path[0].hashes[6]; h = bump(h); },
       p1 + "comm_r_last_proof" + unreached + " (comm_r_last)"},
      {"exp parent path sibling", [](C1& c) { auto& h = c.partitions[0][0].exp_parents[5].inclusion.path[0].hashes[0]; h = bump(h); },
       p0 + "replica_column_proofs.exp_parents[5].inclusion_proof" + unreached + " (comm_c)"},
      {"column row", [](C1& c) { auto& r = c.partitions[0][0].drg_parents[2].rows[1]; r = bump(r); },
       p0 + "replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.leaf: not the Poseidon hash of the column's rows"},
      {"label", [](C1& c) { auto& r = c.partitions[0][1].c_x.rows[0]; r = bump(r); },
       p1 + "replica_column_proofs.c_x.column.rows[0]: not the layer-1 label of node " +
           std::to_string(fixture().partitions[0][1].c_x.index) + " computed from its parents and replica_id",
       false},
      {"last label", [](C1& c) { auto& r = c.partitions[0][0].c_x.rows[1]; r = bump(r); },
       p0 + "replica_column_proofs.c_x.column.rows[1]: not the layer-2 label of node 57 computed from its parents and replica_id",
       false},
      {"encoding", [](C1& c) { auto& l = c.partitions[0][0].comm_r_last_proof.leaf; l = bump(l); },
       p0 + "comm_r_last_proof.data.Single.leaf: not the encoding (the last label + the data leaf)", false},
      {"challenges swapped", [](C1& c) { std::swap(c.partitions[0][0], c.partitions[0][1]); },
       p0 + "replica_column_proofs.c_x.column.index: " + std::to_string(fixture().partitions[0][1].c_x.index) +
           " is not the challenge derived from replica_id and seed (57)"},
      {"DRG parents swapped", [](C1& c) { std::swap(c.partitions[0][0].drg_parents[2], c.partitions[0][0].drg_parents[3]); },
       p0 + "replica_column_proofs.drg_parents[2].column.index: 50 is not DRG parent 2 of node 57 (48)"},
      {"expander parents swapped", [](C1& c) { std::swap(c.partitions[0][0].exp_parents[1], c.partitions[0][0].exp_parents[2]); },
       p0 + "replica_column_proofs.exp_parents[1].column.index: 13 is not expander parent 1 of node 57 (41)"},
      {"comm_r", [](C1& c) { c.comm_r[0] ^= 1; },
       "c1.json: comm_r: not Poseidon(comm_c, comm_r_last) of the vanilla proofs' tree C and R roots"},
      {"replica_id", [](C1& c) { c.replica_id[0] ^= 1; },
       p0 + "replica_column_proofs.c_x.column.index: 57 is not the challenge derived from replica_id and seed"},
  };
}

TEST(C1Check, RefusesEachDamageNamingItsPath) {
  for (const Damage& d : damages()) {
    C1 c1 = fixture();
    d.edit(c1);
    const auto r = check_vanilla_proofs(c1, poseidon(), &pool(), "c1.json");
    ASSERT_FALSE(r) << d.name;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument) << d.name;
    EXPECT_EQ(r.error().message.substr(0, d.expected.size()), d.expected) << d.name;
    // The sequential check reports the same first failure.
    EXPECT_EQ(check_vanilla_proofs(c1, poseidon(), nullptr, "c1.json").error().message, r.error().message) << d.name;
  }
}

#ifdef CUZK_C1_CHECK_LARGE
// The same damages through the partition circuit: each one the circuit reads leaves it
// unsatisfied (or its public inputs not the chain's), so the check refuses what a proof would
// fail on. Slow (one synthesis each): the large label.
TEST(C1CheckLarge, TheCircuitRefusesWhatTheCheckRefuses) {
  EXPECT_TRUE(circuit().proves(fixture()));
  for (const Damage& d : damages()) {
    if (!d.circuit_reads) continue;
    C1 c1 = fixture();
    d.edit(c1);
    EXPECT_FALSE(circuit().proves(c1)) << d.name << ": the circuit accepts what the check refuses";
  }
}

// 32 GiB (10 × 18 challenges, 11 layers, Sub paths): passes, and a broken sub-tree sibling of a
// challenge's own column in partition 3 is named; the time is printed (docs/formats.md).
TEST(C1CheckLarge, ThirtyTwoGiB) {
  SyntheticC1Options o;
  o.registered_proof = "StackedDrg32GiBV1_1";
  o.seed = 5;
  C1 c1 = generate_synthetic_c1(o, poseidon(), pool()).value();
  const auto t0 = std::chrono::steady_clock::now();
  const auto ok = check_vanilla_proofs(c1, poseidon(), &pool(), "c1.json");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("check_vanilla_proofs, 32 GiB, %u threads: %.0f ms\n", pool().threads(), ms);
  ASSERT_TRUE(ok) << ok.error().message;
  // And the strict JSON read of its text (core/json_check.hpp) against the whole parse.
  const std::string text = to_json(c1);
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_TRUE(check_json(text, "c1.json"));
  const auto t2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(parse_c1(text, "c1.json"));
  const auto t3 = std::chrono::steady_clock::now();
  const auto ms_between = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::printf("32 GiB C1, %.1f MB: check_json %.0f ms, parse_c1 (with it) %.0f ms\n", text.size() / 1e6, ms_between(t1, t2),
              ms_between(t2, t3));
  auto& h = c1.partitions[3][17].c_x.inclusion.path[9].hashes[2];  // the sub element (9 base levels)
  h = bump(h);
  EXPECT_EQ(check_vanilla_proofs(c1, poseidon(), &pool(), "c1.json").error().message,
            "c1.json: vanilla_proofs.StackedDrg32GiBV1[3][17].replica_column_proofs.c_x.inclusion_proof: the path from the "
            "leaf does not reach the root (comm_c)");
}
#endif

// A labeling proof's parents are not read by the circuit (it takes the parents' rows), but a C1
// whose labeling proofs disagree with its columns was not made by a sealer: refused, named.
TEST(C1Check, RefusesLabelingProofParentsThatDisagreeWithTheColumns) {
  C1 c1 = fixture();
  auto& v = c1.partitions[0][1].labeling_proofs[1].parents[5];
  v = bump(v);
  EXPECT_EQ(check_vanilla_proofs(c1, poseidon(), nullptr, "c1.json").error().message,
            std::string(kP1) + "labeling_proofs[1].parents[5]: not the parent label the parent columns hold");
  c1 = fixture();
  c1.partitions[0][0].encoding_proof.parents[36] = Fr::zero();
  EXPECT_EQ(check_vanilla_proofs(c1, poseidon(), nullptr, "c1.json").error().message,
            std::string(kP0) + "encoding_proof.parents[36]: differs from the last layer's labeling proof");
}

TEST(C1Check, ReplicaIdMustFollowFromTheProverAndSector) {
  // Fixture: miner 1000 (prover id = uvarint(1000)), sector 1 (c1gen_model.py defaults).
  const Bytes32 prover = prover_id_from_miner(1000);
  EXPECT_TRUE(check_replica_id(fixture(), prover, 1));
  const auto r = check_replica_id(fixture(), prover, 2, "c1.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message.rfind("c1.json: replica_id: 2940faa406e4c6cbad015e2b08e76fd9e3b0e5b852cea7f8174c02ba33039a01 is not "
                                    "the one derived from prover id e807",
                                    0),
            0u)
      << r.error().message;
  EXPECT_FALSE(check_replica_id(fixture(), prover_id_from_miner(1001), 1));
  // A C1 made, consistently, for another miner: its vanilla proofs hold, its replica_id is not
  // this sector's (the proof would verify against the C1 and never against the chain).
  SyntheticC1Options o;
  o.miner_id = 2000;
  o.sector_id = 5;
  const C1 other = generate_synthetic_c1(o, poseidon(), pool()).value();
  EXPECT_TRUE(check_vanilla_proofs(other, poseidon(), &pool()));
  EXPECT_TRUE(check_replica_id(other, prover_id_from_miner(2000), 5));
  EXPECT_FALSE(check_replica_id(other, prover_id_from_miner(1000), 5));
  EXPECT_FALSE(check_replica_id(other, prover_id_from_miner(2000), 6));
}

}  // namespace
}  // namespace cuzk::porep
