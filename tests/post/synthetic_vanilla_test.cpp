// Synthetic vanilla proofs (post/synthetic_vanilla.hpp): valid for every kind and size (validate()
// runs inside, with challenges derived as for real sectors), byte-stable through bincode, and a
// circuit built from them is satisfied with the public inputs a verifier derives from public data
// alone; the 32 GiB and 64 GiB ones checked on one circuit sector of the real shape.

#include <gtest/gtest.h>

#include <algorithm>
#include <span>

#include "core/thread_pool.hpp"
#include "post/synthetic_vanilla.hpp"
#include "r1cs/test_cs.hpp"

namespace cuzk::post {
namespace {

const PostPoseidon& poseidon() {
  static const PostPoseidon p;
  return p;
}

TEST(PostSyntheticVanilla, TwoKiBPartitionsAreSatisfiedWithPublicInputs) {
  ThreadPool pool(2);
  for (uint64_t id : {10u, 5u, 0u}) {  // window V1_1, window V1, winning
    for (uint32_t sectors : {0u, 1u}) {
      SyntheticVanillaOptions o;
      o.proof = registered_post_proof(id).value();
      o.seed = 11 + id;
      o.sectors = sectors;
      o.first_sector_id = 40;
      const SyntheticVanilla v = generate_synthetic_vanilla(o, poseidon(), pool).value();
      const PostParams params = post_params(o.proof).value();
      ASSERT_EQ(v.proofs.size(), sectors == 0 && o.proof.kind == PostKind::kWindow ? 2u : 1u);
      for (const FallbackPoStSectorProof& p : v.proofs) {
        const std::vector<uint8_t> bytes = encode_vanilla(p);
        const FallbackPoStSectorProof back = decode_vanilla(bytes, "synthetic").value();
        EXPECT_EQ(encode_vanilla(back), bytes);
        EXPECT_EQ(back.sectors[0].inclusion_proofs, p.sectors[0].inclusion_proofs);
      }
      const std::vector<SectorWitness> circuit = circuit_sectors(params, v.proofs).value();
      r1cs::TestCS<ff::Fr> cs;
      synthesize_partition(cs, circuit_shape(params), poseidon(), circuit);
      EXPECT_TRUE(cs.is_satisfied()) << id << " " << sectors;
      EXPECT_EQ(std::vector<ff::Fr>(cs.inputs().begin() + 1, cs.inputs().end()),
                partition_public_inputs(v.public_data(), 0).value())
          << id;
    }
  }
}

// Five sectors of StackedDrgWindow2KiBV1 (V1_0_0: challenge index = position · 10 + n) make three
// partitions; each partition's circuit, built from the vanilla proofs of its sectors (validated at
// their global positions), allocates the inputs the verifier derives for that partition, and the
// last one is padded.
TEST(PostSyntheticVanilla, LaterPartitionsUseGlobalPositions) {
  ThreadPool pool(2);
  SyntheticVanillaOptions o;
  o.proof = registered_post_proof(5).value();
  o.sectors = 5;
  const SyntheticVanilla v = generate_synthetic_vanilla(o, poseidon(), pool).value();
  const PostPublicData data = v.public_data();
  ASSERT_EQ(partition_count(data), 3u);
  const PostParams params = post_params(o.proof).value();
  for (uint32_t k = 0; k < 3; ++k) {
    const auto chunk = std::span(v.proofs).subspan(2 * k, std::min<size_t>(2, v.proofs.size() - 2 * k));
    const std::vector<SectorWitness> circuit = circuit_sectors(params, chunk).value();
    r1cs::TestCS<ff::Fr> cs;
    synthesize_partition(cs, circuit_shape(params), poseidon(), circuit);
    EXPECT_TRUE(cs.is_satisfied()) << k;
    EXPECT_EQ(std::vector<ff::Fr>(cs.inputs().begin() + 1, cs.inputs().end()), partition_public_inputs(data, k).value())
        << k;
  }
  // Sector 3 (position 2) does not answer position 0's challenges.
  EXPECT_FALSE(validate(v.proofs[2], o.proof, v.randomness, 0, poseidon()));
  EXPECT_FALSE(partition_public_inputs(data, 3));
}

// The same seed gives the same proofs on any number of threads.
TEST(PostSyntheticVanilla, Reproducible) {
  SyntheticVanillaOptions o;
  ThreadPool one(1), three(3);
  const SyntheticVanilla a = generate_synthetic_vanilla(o, poseidon(), one).value();
  const SyntheticVanilla b = generate_synthetic_vanilla(o, poseidon(), three).value();
  ASSERT_EQ(a.proofs.size(), b.proofs.size());
  for (size_t i = 0; i < a.proofs.size(); ++i) EXPECT_EQ(encode_vanilla(a.proofs[i]), encode_vanilla(b.proofs[i]));
  EXPECT_EQ(a.randomness, b.randomness);
}

// Production sizes: Sub (32 GiB) and Top (64 GiB) proofs of the real path shape, and one circuit
// sector satisfied with its comm_r and challenges as public inputs.
TEST(PostSyntheticVanilla, LargeSizesOneSectorSatisfied) {
  ThreadPool pool(2);
  for (uint64_t id : {8u, 9u, 3u}) {  // window 32 GiB V1, window 64 GiB V1, winning 32 GiB
    SyntheticVanillaOptions o;
    o.proof = registered_post_proof(id).value();
    o.sectors = 1;
    const SyntheticVanilla v = generate_synthetic_vanilla(o, poseidon(), pool).value();
    const PostParams params = post_params(o.proof).value();
    const FallbackPoStSectorProof& p = v.proofs[0];
    const std::vector<uint8_t> bytes = encode_vanilla(p);
    if (id == 8) {
      EXPECT_EQ(bytes.size(), 24'960u);  // the size of Curio's real 32 GiB proof
    }
    EXPECT_TRUE(validate(decode_vanilla(bytes, "synthetic").value(), o.proof, v.randomness, 0, poseidon()));
    if (id == 3) continue;  // 66 inclusion proofs: validated above; its circuit is 66 copies of one challenge
    PostCircuitShape shape = circuit_shape(params);
    const auto& inclusions = p.sectors[0].inclusion_proofs;
    shape.sector_count = 1;
    shape.challenge_count = params.challenge_count;
    r1cs::TestCS<ff::Fr> cs;
    synthesize_sector(cs, shape, poseidon(), SectorWitness{p.comm_r, p.sectors[0].comm_c, p.sectors[0].comm_r_last, inclusions}, 0);
    EXPECT_TRUE(cs.is_satisfied()) << id;
    const std::vector<ff::Fr> in(cs.inputs().begin() + 1, cs.inputs().end());
    const std::vector<uint64_t> leaves = vanilla_challenges(o.proof, v.randomness, p.sector_id, 0);
    ASSERT_EQ(in.size(), 1 + leaves.size());
    EXPECT_EQ(in[0], p.comm_r);
    for (size_t n = 0; n < leaves.size(); ++n) EXPECT_EQ(in[1 + n], ff::Fr::from_uint(leaves[n]));
  }
}

}  // namespace
}  // namespace cuzk::post
