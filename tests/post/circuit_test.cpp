// The FallbackPoSt partition circuit (post/circuit.hpp) against the independent Python model
// (shared/tools/post_circuit_model.py, its .md "Results (seed 1)" table: rows before the x_i·0 = 0
// rows, inputs with ONE, aux and the R1CS fingerprint of the circuit rows, printed by
//   python3 shared/tools/post_circuit_model.py --shape <name> --no-tamper)
// and the counts rust-fil-proofs publishes or pins (SPEC-POST.md §3: storage-proofs-post
// tests/fallback_circuit.rs; constants.rs for 32/64 GiB, in circuit_large_test.cpp). The
// fingerprint covers every coefficient, variable index and row order and does not depend on the
// witness, so a blank partition must give it.

#include <gtest/gtest.h>

#include <string>

#include "core/thread_pool.hpp"
#include "post/circuit.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/row_digest.hpp"

namespace cuzk::post {
namespace {

using ff::Fr;

const PostPoseidon& poseidon() {
  static const PostPoseidon p;
  return p;
}

PostCircuitShape shape_of(PostKind kind, uint64_t sector_size) {
  return circuit_shape(post_params(kind, sector_size).value());
}

struct Case {
  const char* name;
  PostCircuitShape shape;
  size_t rows, inputs, aux;
  const char* fingerprint;
};

void expect_model(const Case& k, ThreadPool* pool = nullptr) {
  const r1cs::CompiledR1cs<Fr> c = compile_partition(k.shape, poseidon(), pool);
  EXPECT_EQ(c.a.num_rows(), k.rows) << k.name;
  EXPECT_EQ(c.num_inputs, k.inputs) << k.name;
  EXPECT_EQ(c.num_aux, k.aux) << k.name;
  EXPECT_EQ(r1cs::row_digest(c, c.a.num_rows()), k.fingerprint) << k.name;
}

TEST(PostCircuit, Window2KiBMatchesModel) {
  // 2 sectors × (313 + 10 × 1,062); 23 inputs = the polka fixture key's 23 ic points.
  expect_model({"window-2KiB", shape_of(PostKind::kWindow, 2048), 21'866, 23, 22'128,
                "8a2c0d48ccf8b908cc1f015ea64e386a11e0349a5c94a30aa34a8f8e5f37f779"});
}

TEST(PostCircuit, Winning2KiBMatchesModel) {
  // 66 copies of one sector, one challenge each: 66 × 1,375 rows, 1 + 66 × 2 inputs.
  expect_model({"winning-2KiB", shape_of(PostKind::kWinning, 2048), 90'750, 133, 91'674,
                "a770d642c8b6425a6f575cc4e8812bb7d57030c907a260100880ea83edebcb71"});
}

// fallback_circuit.rs: 64 leaves per base tree, 5 challenges; rows and inputs pinned there,
// aux and fingerprints the model's.
TEST(PostCircuit, RustTestShapesMatch) {
  const Case cases[] = {
      {"test-base-8", {64, {8, 0, 0}, 3, 5}, 16'869, 19, 17'067,
       "a5ff15a9b9f24e883066392c4910147bc6151afe9f9a1feb76eb2801d2850af6"},
      {"test-sub-8-4", {256, {8, 4, 0}, 3, 5}, 22'674, 19, 22'917,
       "a99fa74712f875c8878fc69efab31dce906c95874c462bee150c730e908cedfc"},
      {"test-top-8-4-2", {512, {8, 4, 2}, 3, 5}, 27'384, 19, 27'642,
       "75537f17ce18fcbca8ad9f714d5dbeb2b219aa3103f58ce5914c8f2c9f22ebbb"},
      {"test-2part-base-8", {64, {8, 0, 0}, 2, 5}, 11'246, 13, 11'378,
       "ce22e60909b74cc3c86acf413811c11668f2b3a5b88bc247f84afa713d01f035"},
  };
  for (const Case& k : cases) expect_model(k);
}

// Sectors recorded in parallel (KeygenCS parts joined) give the sequential circuit.
TEST(PostCircuit, ParallelCompileEqualsSequential) {
  ThreadPool pool(3);
  for (PostKind kind : {PostKind::kWindow, PostKind::kWinning}) {
    const PostCircuitShape shape = shape_of(kind, 2048);
    Progress one("compiling", shape.sector_count, ProgressStyle::off), many("compiling", shape.sector_count, ProgressStyle::off);
    const r1cs::CompiledR1cs<Fr> sequential = compile_partition(shape, poseidon(), nullptr, &one);
    const r1cs::CompiledR1cs<Fr> parallel = compile_partition(shape, poseidon(), &pool, &many);
    EXPECT_TRUE(parallel == sequential) << kind_name(kind);
    // The progress counts every sector once, either way.
    EXPECT_EQ(one.done(), shape.sector_count);
    EXPECT_EQ(many.done(), shape.sector_count);
  }
}

// The other registered shapes, counted (SPEC-POST.md §3 table; WinningPoSt always 133 inputs,
// WindowPoSt up to 512 MiB 23), and the BenchCS figure of fallback_circuit.rs: a 32 GiB tree R
// (8-8-0 here; the test's DiskTree shape gives the same 10 levels), 5 sectors, 10 challenges:
// 266,665 rows = 5 × 53,333.
TEST(PostCircuit, RegisteredShapesCounted) {
  struct Count {
    PostCircuitShape shape;
    uint64_t rows, inputs;
  };
  const Count cases[] = {
      {shape_of(PostKind::kWinning, uint64_t{8} << 20), 230'670, 133},
      {shape_of(PostKind::kWinning, uint64_t{512} << 20), 300'630, 133},
      {shape_of(PostKind::kWinning, uint64_t{32} << 30), 370'590, 133},
      {shape_of(PostKind::kWinning, uint64_t{64} << 30), 391'314, 133},
      {shape_of(PostKind::kWindow, uint64_t{8} << 20), 64'266, 23},
      {shape_of(PostKind::kWindow, uint64_t{512} << 20), 85'466, 23},
      {{uint64_t{1} << 30, {8, 8, 0}, 5, 10}, 266'665, 56},
  };
  for (const Count& k : cases) {
    const std::vector<porep::MerkleProof> blank = blank_inclusions(k.shape);
    const SectorWitness sector{Fr::zero(), Fr::zero(), Fr::zero(), blank};
    const std::vector<SectorWitness> sectors(k.shape.sector_count, sector);
    r1cs::CountingCS<Fr> cs;
    synthesize_partition(cs, k.shape, poseidon(), sectors);
    EXPECT_EQ(cs.num_constraints(), k.rows) << k.shape.nodes << " nodes, " << k.shape.sector_count << " sectors";
    EXPECT_EQ(cs.num_inputs(), k.inputs) << k.shape.nodes << " nodes";
  }
}

}  // namespace
}  // namespace cuzk::post
