// The SnapDeals partition circuit (snap/circuit.hpp) against the constraint counts pinned by
// rust-fil-proofs storage-proofs-update/tests/circuit.rs and the independent Python model's R1CS
// fingerprint (shared/tools/snap_circuit_model.md, shared/SPEC-SNAP.md §5):
//   python3 shared/tools/snap_circuit_model.py --size 2KiB --no-tamper
// prints "R1CS fingerprint, circuit rows: 6f0a4765…7292", 1,705,039 rows, 5 inputs and 1,703,569
// aux. The fingerprint covers every coefficient (the zero j·ONE term of the first digest-index
// row included), variable index and row order, and does not depend on the witness, so a blank
// partition must give it.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

#include "r1cs/compiled.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/keygen_cs.hpp"
#include "snap/circuit.hpp"

namespace cuzk::snap {
namespace {

using ff::Fr;

const UpdatePoseidon& poseidon() {
  static const UpdatePoseidon p;
  return p;
}

struct Counted {
  uint64_t rows, inputs, aux;
};

Counted count(uint64_t nodes, uint32_t partition = 0) {
  const UpdateShape shape = update_shape(nodes).value();
  const PartitionProof blank = blank_partition_proof(shape);
  r1cs::CountingCS<Fr> cs;
  synthesize_partition(cs, shape, poseidon(), PartitionWitness{partition, Fr::zero(), Fr::zero(), Fr::zero(), &blank});
  return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

// Compiled on three threads (the challenges recorded in parallel parts, then joined): the
// fingerprint pins every row's place, so parts that met wrongly would change it; the sequential
// compile is the one SnapSynthetic and SnapVanilla prove with.
TEST(SnapCircuit, TwoKiBPartitionMatchesModelFingerprint) {
  const UpdateShape shape = update_shape(64).value();
  ThreadPool pool(3);
  Progress progress("compiling", shape.challenges, ProgressStyle::off);
  const r1cs::CompiledR1cs<Fr> compiled = compile_partition(shape, poseidon(), &pool, &progress);
  EXPECT_EQ(progress.done(), shape.challenges);  // every challenge counted once
  EXPECT_EQ(compiled.a.num_rows(), 1'705'039u);  // tests/circuit.rs test_empty_sector_update_constraints_2kib
  EXPECT_EQ(compiled.num_inputs, 5u);            // ONE, k_and_h_select, comm_r_old, comm_d_new, comm_r_new
  EXPECT_EQ(compiled.num_aux, 1'703'569u);       // model
  EXPECT_EQ(r1cs::row_digest(compiled, compiled.a.num_rows()),
            "6f0a47653f0fffd394bcaf873ab5de46b36b55733124a377b2991e1312ea7292");
}

// The smaller Rust test shapes counted (storage-proofs-update tests/circuit.rs: 1 KiB 8-4-0,
// 4 KiB 8-2-0, 8 KiB 8-4-0; aux from the model's full builds).
TEST(SnapCircuit, RustTestShapesCounted) {
  struct Case {
    uint64_t nodes, rows, aux;
  };
  for (const Case& c : {Case{32, 1'248'389, 1'247'309}, Case{128, 2'165'109, 2'163'189}, Case{256, 2'620'359, 2'618'009}}) {
    const Counted n = count(c.nodes);
    EXPECT_EQ(n.rows, c.rows) << c.nodes;
    EXPECT_EQ(n.aux, c.aux) << c.nodes;
    EXPECT_EQ(n.inputs, 5u) << c.nodes;
  }
}

}  // namespace
}  // namespace cuzk::snap
