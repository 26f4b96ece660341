// The production PoRep shapes counted with CountingCS (no rows or values kept): the published
// constraint counts of shared/SPEC.md §1. Labelled `large`: about a minute of one core in
// Release, so the sanitizer run skips it (the same code runs there through the 2 KiB tests).

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "porep/circuit.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

// The production shapes, counted without storing anything (SPEC.md §1): 8 MiB 3,844,929 rows,
// 512 MiB 4,423,433; 32 GiB is published as 130,278,541 rows with 328 inputs (the Rust cuzk
// measured 130,169,893 aux); 64 GiB 131,185,849 rows.
// (2 KiB is also compiled with KeygenCS in circuit_test.cpp: the two counters agree.)
TEST(PorepCircuit, ProductionShapesCounted) {
  struct Case {
    const char* name;
    StackedCircuitShape shape;
    uint64_t rows, inputs, aux;
  };
  const Case cases[] = {
      {"2KiB", {uint64_t(1) << 6, 2, {8, 0, 0}, 2}, 2'687'921, 40, 2'685'673},
      {"8MiB", {uint64_t(1) << 18, 2, {8, 0, 0}, 2}, 3'844'929, 40, 0},
      {"512MiB", {uint64_t(1) << 24, 2, {8, 0, 0}, 2}, 4'423'433, 40, 0},
      {"32GiB", {uint64_t(1) << 30, 11, {8, 8, 0}, 18}, 130'278'541, 328, 130'169'893},
      {"64GiB", {uint64_t(1) << 31, 11, {8, 8, 2}, 18}, 131'185'849, 328, 0},
  };
  const PorepPoseidon poseidon;
  for (const Case& k : cases) {
    const std::vector<ChallengeProof> blank = blank_challenges(k.shape);
    r1cs::CountingCS<Fr> cs;
    synthesize_partition(cs, k.shape, poseidon,
                         PartitionWitness{Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), blank});
    EXPECT_EQ(cs.num_constraints(), k.rows) << k.name;
    EXPECT_EQ(cs.num_inputs(), k.inputs) << k.name;
    if (k.aux != 0) {
      EXPECT_EQ(cs.num_aux(), k.aux) << k.name;
    }
  }
}

}  // namespace
}  // namespace cuzk::porep
