// A real 2 KiB C1 (made by shared/tools/c1gen_model.py from a sealed sector; tests/data/porep)
// through the partition circuit: every row holds (WitnessCS values against the compiled rows),
// the circuit's public inputs equal those derived from the C1's public data (replica_id, seed,
// the DRSample/Feistel graph), and any changed label, sibling or leaf breaks some row.

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "core/thread_pool.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/c1_check.hpp"
#include "porep/prover.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;
const std::filesystem::path kData = CUZK_TEST_DATA_DIR;

struct Fixture {
  ThreadPool pool{2};
  PorepPoseidon poseidon;
  StackedCircuitShape shape = circuit_shape(shape_for_sector_size(2048).value());
  r1cs::CompiledR1cs<Fr> compiled = [this] {
    r1cs::KeygenCS<Fr> cs;
    const std::vector<ChallengeProof> blank = blank_challenges(shape);
    synthesize_partition(cs, shape, poseidon, PartitionWitness{Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), blank});
    return std::move(cs).finish();
  }();

  // The first row a·b ≠ c, if any, and the circuit's public inputs (ONE excluded).
  std::pair<std::optional<size_t>, std::vector<Fr>> check(const C1& c1) {
    r1cs::WitnessCS<Fr> cs;
    synthesize_partition(cs, shape, poseidon, partition_witness(c1, 0));
    const auto rows = r1cs::spmv(compiled, std::span<const Fr>(cs.inputs()), std::span<const Fr>(cs.aux()), pool);
    std::optional<size_t> bad;
    for (size_t i = 0; i < rows.a.size() && !bad; ++i)
      if (rows.a[i] * rows.b[i] != rows.c[i]) bad = i;
    return {bad, std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end())};
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

TEST(PorepSatisfied, RealC1SatisfiesAndInputsMatchPublicData) {
  for (const char* file : {"c1_2KiB_v1_1.json", "c1_2KiB_v1.json"}) {
    SCOPED_TRACE(file);
    const C1 c1 = read_c1_file(kData / "porep" / file).value();
    const auto [bad, inputs] = fixture().check(c1);
    EXPECT_FALSE(bad.has_value()) << "row " << *bad;
    EXPECT_EQ(inputs, c1_public_inputs(c1, 0).value());
    EXPECT_EQ(inputs.size(), 39u);
  }
}

TEST(PorepSatisfied, AnyChangedLabelSiblingOrLeafBreaksARow) {
  const C1 good = read_c1_file(kData / "porep" / "c1_2KiB_v1_1.json").value();
  struct Edit {
    const char* what;
    void (*apply)(ChallengeProof&);
  };
  const Edit edits[] = {
      {"a DRG parent's label", [](ChallengeProof& p) { p.drg_parents[3].rows[0] += Fr::one(); }},
      {"an expander parent's label", [](ChallengeProof& p) { p.exp_parents[7].rows[1] += Fr::one(); }},
      {"the data leaf", [](ChallengeProof& p) { p.comm_d_proof.leaf += Fr::one(); }},
      {"a tree D sibling", [](ChallengeProof& p) { p.comm_d_proof.path[2].hashes[0] += Fr::one(); }},
      {"a tree R sibling", [](ChallengeProof& p) { p.comm_r_last_proof.path[1].hashes[4] += Fr::one(); }},
      {"a tree C sibling of a parent", [](ChallengeProof& p) { p.drg_parents[0].inclusion.path[0].hashes[6] += Fr::one(); }},
      {"a tree C sibling of the challenge", [](ChallengeProof& p) { p.c_x.inclusion.path[0].hashes[0] += Fr::one(); }},
  };
  for (const Edit& e : edits) {
    C1 bad = good;
    e.apply(bad.partitions[0][1]);
    EXPECT_TRUE(fixture().check(bad).first.has_value()) << e.what;
  }
  C1 bad = good;
  bad.comm_r[0] ^= 1;
  EXPECT_TRUE(fixture().check(bad).first.has_value()) << "comm_r";
}

// The witness written into z with the challenges one after another and in parallel (each into
// its own range of z) equals the sequential WitnessCS's [inputs ‖ aux], element for element, on
// 1, 2 and 3 threads, for the real C1 and for one with a parent's row changed (which does change
// the witness). z starts filled with a sentinel, so an element left unwritten shows. A z of the
// wrong size, or a wrong input count, is refused.
TEST(PorepSatisfied, WitnessIntoBufferEqualsSequential) {
  const C1 c1 = read_c1_file(kData / "porep" / "c1_2KiB_v1_1.json").value();
  const auto& f = fixture();
  C1 changed = c1;
  changed.partitions[0][1].drg_parents[0].rows[0] += Fr::one();
  for (const C1* input : std::array<const C1*, 2>{&c1, &changed}) {
    r1cs::WitnessCS<Fr> cs;
    const PartitionWitness w = partition_witness(*input, 0);
    synthesize_partition(cs, f.shape, f.poseidon, w);
    ASSERT_GE(w.challenges.size(), 2u);
    if (input == &changed) {  // the change reached the witness
      r1cs::WitnessCS<Fr> original;
      synthesize_partition(original, f.shape, f.poseidon, partition_witness(c1, 0));
      EXPECT_NE(original.aux(), cs.aux());
    }
    std::vector<Fr> expected = cs.inputs();
    expected.insert(expected.end(), cs.aux().begin(), cs.aux().end());
    const size_t n_in = cs.inputs().size();
    for (unsigned threads : {0u, 1u, 2u, 3u}) {
      std::optional<ThreadPool> pool;
      if (threads > 0) pool.emplace(threads);
      std::vector<Fr> z(expected.size(), Fr::from_uint(7));
      synthesize_partition_witness(f.shape, f.poseidon, w, z, n_in, pool ? &*pool : nullptr);
      EXPECT_TRUE(z == expected) << threads << " threads";
    }
  }
  const PartitionWitness w = partition_witness(c1, 0);
  r1cs::CountingCS<Fr> count;
  synthesize_partition(count, f.shape, f.poseidon, w);
  const size_t n = count.num_inputs() + count.num_aux();
  for (const auto& [size, inputs] : std::vector<std::pair<size_t, size_t>>{
           {n - 1, count.num_inputs()}, {n + 1, count.num_inputs()}, {n, count.num_inputs() + 1}, {n, 0}}) {
    std::vector<Fr> z(size);
    EXPECT_THROW(synthesize_partition_witness(f.shape, f.poseidon, w, z, inputs), r1cs::SynthesisError)
        << "z of " << size << " with " << inputs << " inputs";
  }
}

// A C1 whose proofs answer other challenges (here: another seed) is refused before any
// synthesis by the native check the engine's handler runs at parse time (c1_check.hpp), naming
// the value, and by prove_partition too (its circuit's public inputs are not the ones derived
// from the public data: the input's fault); a consistent C1 with parameters of another circuit
// is refused by the prover instead of producing a proof.
TEST(PorepProve, RefusesInconsistentC1AndForeignParameters) {
  const C1 good = read_c1_file(kData / "porep" / "c1_2KiB_v1_1.json").value();
  const groth16::Parameters empty;
  const groth16::PreparedVerifyingKey pvk{groth16::VerifyingKey{}};
  groth16::CpuProver cpu(empty, fixture().pool);
  C1 other_seed = good;
  other_seed.seed[0] ^= 1;
  const auto checked = check_vanilla_proofs(other_seed, fixture().poseidon, &fixture().pool, "C1");
  ASSERT_FALSE(checked.has_value());
  EXPECT_NE(checked.error().message.find("C1: vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column.index: 57 "
                                         "is not the challenge derived from replica_id and seed"),
            std::string::npos)
      << checked.error().message;
  auto refused = prove_partition(other_seed, 0, cpu, pvk, fixture().poseidon);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(refused.error().message.find("C1 partition 0: public input"), std::string::npos) << refused.error().message;
  auto foreign = prove_partition(good, 0, cpu, pvk, fixture().poseidon);
  EXPECT_FALSE(foreign.has_value());
}

}  // namespace
}  // namespace cuzk::porep
