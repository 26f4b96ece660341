// Synthetic SnapDeals vanilla proofs (snap/synthetic_vanilla.hpp): for the small shapes the proofs
// pass validation (which generate checks too) and satisfy the circuit's rows; every production
// size generates (32 GiB in a second or so: the grouped trees); another seed gives other values.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "core/thread_pool.hpp"
#include "r1cs/compiled.hpp"
#include "snap/circuit.hpp"
#include "snap/synthetic_vanilla.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::snap {
namespace {

using ff::Fr;

const UpdatePoseidon& poseidon() {
  static const UpdatePoseidon p;
  return p;
}

TEST(SnapSynthetic, EverySizeGeneratesValidProofs) {
  for (uint64_t nodes : {uint64_t{1} << 5, uint64_t{1} << 6, uint64_t{1} << 9, uint64_t{1} << 10, uint64_t{1} << 18,
                         uint64_t{1} << 24, uint64_t{1} << 30, uint64_t{1} << 31}) {
    const UpdateShape shape = update_shape(nodes).value();
    const Expected<SyntheticUpdate> u = generate_synthetic_update(shape, poseidon(), 7);
    ASSERT_TRUE(u) << shape.name() << ": " << u.error().message;
    ASSERT_EQ(u->partitions.size(), shape.partitions) << shape.name();
    const PartitionProof& last = u->partitions.back();
    EXPECT_TRUE(validate_partition_proof(last, shape, poseidon(), shape.partitions - 1, u->pub, "s")) << shape.name();
    EXPECT_EQ(decode_partition_proof(encode_partition_proof(last), "s").value(), last) << shape.name();
    // SPEC-SNAP §7: a 32 GiB partition is 561,768 bytes (per challenge 2,484 + 1,516 + 2,484).
    if (nodes == uint64_t{1} << 30) {
      EXPECT_EQ(encode_partition_proof(last).size(), 561'768u);
    }
    if (shape.partitions > 1) {  // partition k's proof is not partition 0's
      EXPECT_FALSE(validate_partition_proof(last, shape, poseidon(), 0, u->pub, "s")) << shape.name();
    }
  }
  const UpdateShape s2k = update_shape(64).value();
  EXPECT_NE(generate_synthetic_update(s2k, poseidon(), 1)->pub.comm_r_new,
            generate_synthetic_update(s2k, poseidon(), 2)->pub.comm_r_new);
}

// 1 KiB (tree R 8-4-0: Sub proofs) partition satisfies the circuit; its inputs are the derived ones.
TEST(SnapSynthetic, SatisfiesCircuit) {
  ThreadPool pool(2);
  const UpdateShape shape = update_shape(32).value();
  const SyntheticUpdate u = generate_synthetic_update(shape, poseidon(), 3).value();
  const r1cs::CompiledR1cs<Fr> compiled = compile_partition(shape, poseidon());
  std::vector<Fr> z(size_t(compiled.num_inputs) + compiled.num_aux);
  synthesize_partition_witness(shape, poseidon(), PartitionWitness{0, u.pub.comm_r_old, u.pub.comm_d_new, u.pub.comm_r_new, &u.partitions[0]},
                               z, compiled.num_inputs);
  const std::span<const Fr> zs(z);
  const auto rows = r1cs::spmv(compiled, zs.first(compiled.num_inputs), zs.subspan(compiled.num_inputs), pool);
  std::optional<size_t> bad;
  for (size_t i = 0; i < rows.a.size() && !bad; ++i)
    if (rows.a[i] * rows.b[i] != rows.c[i]) bad = i;
  EXPECT_EQ(bad, std::nullopt);
  EXPECT_EQ(std::vector<Fr>(z.begin() + 1, z.begin() + compiled.num_inputs), partition_public_inputs(shape, 0, u.pub));
}

}  // namespace
}  // namespace cuzk::snap
