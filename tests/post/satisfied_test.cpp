// The circuit on real vanilla proofs (the model's 2 KiB sectors, tests/data/post): every row
// satisfied, the allocated public inputs equal both the model's and those partition_public_inputs
// derives from public data; a padded partition (one real sector) likewise; a changed leaf breaks
// exactly the rows the model says; the witness-only path (sectors in parallel, into one z) equals
// WitnessCS on the whole partition.

#include <gtest/gtest.h>

#include <string>

#include "core/thread_pool.hpp"
#include "post/circuit.hpp"
#include "post/vanilla.hpp"
#include "post_data.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::post {
namespace {

using test::kData;

const PostPoseidon& poseidon() {
  static const PostPoseidon p;
  return p;
}

std::vector<FallbackPoStSectorProof> proofs_of(const std::string& name, size_t sectors) {
  std::vector<FallbackPoStSectorProof> out;
  for (size_t i = 1; i <= sectors; ++i) {
    const auto bytes = test::slurp(kData / (name + ".vanilla.sector" + std::to_string(i) + ".bin"));
    out.push_back(decode_vanilla(bytes, name).value());
  }
  return out;
}

// A model request's partition: its proofs, their circuit sectors (which refer into them: moved,
// never copied) and the circuit's shape.
struct ModelPartition {
  PostParams params;
  std::vector<FallbackPoStSectorProof> proofs;
  std::vector<SectorWitness> sectors;
  PostCircuitShape shape;
};
ModelPartition model_partition(const char* name) {
  const test::ModelRequest req = test::read_request(name);
  ModelPartition m{post_params(req.data.proof).value(), proofs_of(name, req.data.sectors.size()), {}, {}};
  m.sectors = circuit_sectors(m.params, m.proofs).value();
  m.shape = circuit_shape(m.params);
  return m;
}

struct Synthesised {
  bool satisfied;
  std::vector<ff::Fr> inputs;  // ONE excluded
};

Synthesised synthesise(const PostParams& params, const std::vector<FallbackPoStSectorProof>& proofs) {
  const std::vector<SectorWitness> sectors = circuit_sectors(params, proofs).value();
  r1cs::TestCS<ff::Fr> cs;
  synthesize_partition(cs, circuit_shape(params), poseidon(), sectors);
  return {cs.is_satisfied(), std::vector<ff::Fr>(cs.inputs().begin() + 1, cs.inputs().end())};
}

TEST(PostSatisfied, WindowPartitionFromModelProofs) {
  const test::ModelRequest req = test::read_request("window-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  const auto proofs = proofs_of("window-2KiB", 2);
  for (size_t i = 0; i < proofs.size(); ++i) ASSERT_TRUE(validate(proofs[i], req.data.proof, req.data.randomness, i, poseidon()));
  const Synthesised s = synthesise(params, proofs);
  EXPECT_TRUE(s.satisfied);
  ASSERT_EQ(req.inputs.size(), 22u);
  EXPECT_EQ(s.inputs, req.inputs);
  EXPECT_EQ(partition_public_inputs(req.data, 0).value(), req.inputs);
}

// One real sector, the second slot a copy of it (SPEC-POST.md §5): satisfied, and its inputs are
// what the verifier derives for that one sector.
TEST(PostSatisfied, PaddedWindowPartition) {
  test::ModelRequest req = test::read_request("window-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  const auto proofs = proofs_of("window-2KiB", 1);
  const Synthesised s = synthesise(params, proofs);
  EXPECT_TRUE(s.satisfied);
  req.data.sectors.resize(1);
  const std::vector<ff::Fr> expected = partition_public_inputs(req.data, 0).value();
  EXPECT_EQ(s.inputs, expected);
  EXPECT_EQ(std::vector<ff::Fr>(expected.begin(), expected.begin() + 11), std::vector<ff::Fr>(req.inputs.begin(), req.inputs.begin() + 11));
  EXPECT_EQ(std::vector<ff::Fr>(expected.begin() + 11, expected.end()), std::vector<ff::Fr>(expected.begin(), expected.begin() + 11));
}

TEST(PostSatisfied, WinningPartitionFromModelProof) {
  const test::ModelRequest req = test::read_request("winning-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  const auto proofs = proofs_of("winning-2KiB", 1);
  ASSERT_TRUE(validate(proofs[0], req.data.proof, req.data.randomness, 0, poseidon()));
  const Synthesised s = synthesise(params, proofs);
  EXPECT_TRUE(s.satisfied);
  ASSERT_EQ(req.inputs.size(), 132u);
  EXPECT_EQ(s.inputs, req.inputs);
  EXPECT_EQ(partition_public_inputs(req.data, 0).value(), req.inputs);
}

// The model's tamper check: the first challenged leaf + 1 leaves that path's root equality as the
// one unsatisfied row.
TEST(PostSatisfied, ChangedLeafBreaksItsRootRow) {
  const test::ModelRequest req = test::read_request("window-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  auto proofs = proofs_of("window-2KiB", 2);
  proofs[0].sectors[0].inclusion_proofs[0].leaf += ff::Fr::one();
  const std::vector<SectorWitness> sectors = circuit_sectors(params, proofs).value();
  r1cs::TestCS<ff::Fr> cs;
  synthesize_partition(cs, circuit_shape(params), poseidon(), sectors);
  const auto bad = cs.first_unsatisfied();
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->find("sector_0/challenge_inclusion_0"), std::string::npos) << *bad;
  EXPECT_NE(bad->find("enforce root is correct"), std::string::npos) << *bad;
}

TEST(PostSatisfied, WitnessOnlyEqualsWitnessCs) {
  ThreadPool pool(3);
  for (const char* name : {"window-2KiB", "winning-2KiB"}) {
    const ModelPartition m = model_partition(name);
    const std::vector<SectorWitness>& sectors = m.sectors;
    const PostCircuitShape& shape = m.shape;
    r1cs::WitnessCS<ff::Fr> whole;
    synthesize_partition(whole, shape, poseidon(), sectors);
    std::vector<ff::Fr> expected = whole.inputs();
    expected.insert(expected.end(), whole.aux().begin(), whole.aux().end());
    for (ThreadPool* p : {static_cast<ThreadPool*>(nullptr), &pool}) {  // hashes traced ahead
      std::vector<ff::Fr> z(expected.size());
      synthesize_partition_witness(shape, poseidon(), sectors, z, whole.inputs().size(), p);
      EXPECT_TRUE(z == expected) << name << (p ? " (pool)" : "");
    }
  }
}

// The hashes traced ahead are exactly those each sector's synthesis makes, in its order: every
// entry taken, none missed, and the witness the same as computing them; a sector with a path
// element of no tree arity gets no traces (its synthesis computes, then refuses the path).
TEST(PostSatisfied, SectorTracesAreTakenInOrder) {
  for (const char* name : {"window-2KiB", "winning-2KiB"}) {
    const ModelPartition m = model_partition(name);
    const std::vector<SectorWitness>& sectors = m.sectors;
    const PostCircuitShape& shape = m.shape;
    std::vector<gadgets::PoseidonTraces> traces = sector_traces(poseidon(), sectors);
    ASSERT_EQ(traces.size(), sectors.size());
    for (size_t k = 0; k < sectors.size(); ++k) {
      EXPECT_EQ(traces[k].size(), 1 + shape.challenge_count * 2) << name << " sector " << k;  // 2 KiB: 2 levels
      r1cs::WitnessCS<ff::Fr> traced, computed;
      synthesize_sector(traced, shape, poseidon(), sectors[k], k, &traces[k]);
      synthesize_sector(computed, shape, poseidon(), sectors[k], k);
      EXPECT_EQ(traces[k].taken(), traces[k].size()) << name << " sector " << k;
      EXPECT_EQ(traces[k].missed(), 0u) << name << " sector " << k;
      EXPECT_TRUE(traced.aux() == computed.aux()) << name << " sector " << k;
    }
  }
  const test::ModelRequest req = test::read_request("window-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  auto proofs = proofs_of("window-2KiB", 2);
  r1cs::WitnessCS<ff::Fr> whole;  // z's size from the good partition
  synthesize_partition(whole, circuit_shape(params), poseidon(), circuit_sectors(params, proofs).value());
  proofs[1].sectors[0].inclusion_proofs[3].path[1].hashes.pop_back();  // arity 7
  const std::vector<SectorWitness> sectors = circuit_sectors(params, proofs).value();
  const std::vector<gadgets::PoseidonTraces> traces = sector_traces(poseidon(), sectors);
  EXPECT_EQ(traces[0].size(), 21u);
  EXPECT_EQ(traces[1].size(), 0u);
  std::vector<ff::Fr> z(whole.inputs().size() + whole.aux().size());
  try {
    synthesize_partition_witness(circuit_shape(params), poseidon(), sectors, z, whole.inputs().size());
    ADD_FAILURE() << "a path element of arity 7 was synthesised";
  } catch (const Exception& e) {
    EXPECT_NE(std::string(e.what()).find("por: path element does not fit its arity"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::post
