// The larger SnapDeals shapes counted with CountingCS (no rows or values kept): the rows pinned by
// rust-fil-proofs storage-proofs-update/tests/circuit.rs (16 KiB, 32 KiB, 32 GiB) and those the
// model derives (8 MiB, 512 MiB, 64 GiB; shared/SPEC-SNAP.md §5 table, aux from the model's
// --counts). Labelled `large`: a few minutes of one core in Release.

#include <gtest/gtest.h>

#include <cstdint>

#include "r1cs/counting_cs.hpp"
#include "snap/circuit.hpp"

namespace cuzk::snap {
namespace {

using ff::Fr;

TEST(SnapCircuit, LargeShapesCounted) {
  struct Case {
    uint64_t nodes;
    uint32_t partition;
    uint64_t rows, aux;
  };
  const Case cases[] = {
      {uint64_t{1} << 9, 1, 6'300'021, 6'293'944},      // 16 KiB, partition 1 (pinned rows)
      {uint64_t{1} << 10, 0, 6'760'091, 6'753'564},     // 32 KiB (pinned rows)
      {uint64_t{1} << 18, 3, 10'007'503, 9'998'039},    // 8 MiB (derived)
      {uint64_t{1} << 24, 0, 57'450'479, 57'401'314},   // 512 MiB (derived)
      {uint64_t{1} << 30, 15, 81'049'499, 80'978'488},  // 32 GiB (pinned rows: test_empty_sector_update_constraints_32gib)
      {uint64_t{1} << 31, 0, 85'006'101, 84'931'220},   // 64 GiB (derived)
  };
  const UpdatePoseidon poseidon;
  for (const Case& c : cases) {
    const UpdateShape shape = update_shape(c.nodes).value();
    const PartitionProof blank = blank_partition_proof(shape);
    r1cs::CountingCS<Fr> cs;
    synthesize_partition(cs, shape, poseidon, PartitionWitness{c.partition, Fr::zero(), Fr::zero(), Fr::zero(), &blank});
    EXPECT_EQ(cs.num_constraints(), c.rows) << shape.name();
    EXPECT_EQ(cs.num_aux(), c.aux) << shape.name();
    EXPECT_EQ(cs.num_inputs(), 5u) << shape.name();
  }
}

}  // namespace
}  // namespace cuzk::snap
