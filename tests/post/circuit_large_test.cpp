// The production WindowPoSt shapes counted with CountingCS: the figures rust-fil-proofs publishes
// in filecoin-proofs constants.rs (comments on WINDOW_POST_SECTOR_COUNT: "this gives 125,279,217
// constraints" for 32 GiB, 129,887,900 for 64 GiB); inputs and aux from the model's --table
// (SPEC-POST.md §3). Labelled large: tens of seconds of one core.

#include <gtest/gtest.h>

#include "post/circuit.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::post {
namespace {

TEST(PostCircuit, ProductionWindowShapesCounted) {
  struct Case {
    uint64_t sector_size, rows, inputs, aux;
  };
  const Case cases[] = {
      {uint64_t{32} << 30, 125'279'217, 25'840, 126'902'376},
      {uint64_t{64} << 30, 129'887'900, 25'301, 131'500'200},
  };
  const PostPoseidon poseidon;
  for (const Case& k : cases) {
    const PostCircuitShape shape = circuit_shape(post_params(PostKind::kWindow, k.sector_size).value());
    const std::vector<porep::MerkleProof> blank = blank_inclusions(shape);
    const std::vector<SectorWitness> sectors(shape.sector_count,
                                             SectorWitness{ff::Fr::zero(), ff::Fr::zero(), ff::Fr::zero(), blank});
    r1cs::CountingCS<ff::Fr> cs;
    synthesize_partition(cs, shape, poseidon, sectors);
    EXPECT_EQ(cs.num_constraints(), k.rows) << k.sector_size;
    EXPECT_EQ(cs.num_inputs(), k.inputs) << k.sector_size;
    EXPECT_EQ(cs.num_aux(), k.aux) << k.sector_size;
  }
}

}  // namespace
}  // namespace cuzk::post
