// groth16::prove_verified (groth16/partition_prover.hpp), the recipe every proof kind's partition
// goes through: synthesis by the backend's path (the witness for a backend holding the compiled
// circuit, else the full assignment), public inputs checked against the expected ones first
// (the input's fault), the proof verified before it is returned (a device's fault when not).

#include "groth16/partition_prover.hpp"

#include <gtest/gtest.h>

#include "groth16/setup.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

struct PartitionFixture {
  ThreadPool pool{2};
  static void circuit(auto& cs) { test::random_r1cs(cs, 400, 41); }
  r1cs::CompiledR1cs<Fr> compiled = test::compile([](auto& cs) { circuit(cs); });
  Parameters params = setup(compiled, ToxicWaste::from_seed(test::seed()), pool).value();
  PreparedVerifyingKey pvk{params.vk};
  std::vector<Fr> inputs = test::public_inputs(test::synthesize([](auto& cs) { circuit(cs); }));
  int full_calls = 0, witness_calls = 0;
  CircuitSynthesis synthesis() {
    CircuitSynthesis s;
    s.full = [this](r1cs::ProvingCS<Fr>& cs) {
      ++full_calls;
      circuit(cs);
    };
    s.witness = [this](std::span<Fr> z, size_t n) {
      ++witness_calls;
      r1cs::WitnessCS<Fr> cs;
      circuit(cs);
      ASSERT_EQ(n, cs.inputs().size());
      ASSERT_EQ(z.size(), cs.inputs().size() + cs.aux().size());
      std::copy(cs.inputs().begin(), cs.inputs().end(), z.begin());
      std::copy(cs.aux().begin(), cs.aux().end(), z.begin() + long(n));
    };
    return s;
  }
};

TEST(ProveVerified, EachBackendSynthesisesItsWayAndTheProofVerifies) {
  PartitionFixture f;
  const Blinding blinding = Blinding::from_seed(3);
  CpuProver full(f.params, f.pool);
  const PartitionProof a = prove_verified(full, f.pvk, f.synthesis(), f.inputs, blinding, "partition 0").value();
  EXPECT_EQ(f.full_calls, 1);
  EXPECT_EQ(f.witness_calls, 0);
  CpuProver from_witness(f.params, f.pool, &f.compiled);
  const PartitionProof b = prove_verified(from_witness, f.pvk, f.synthesis(), f.inputs, blinding, "partition 0").value();
  EXPECT_EQ(f.witness_calls, 1);
  EXPECT_EQ(a.proof, b.proof);  // the same r, s: the same proof either way
  EXPECT_TRUE(verify(f.pvk, b.proof, f.inputs).value());
  EXPECT_GT(b.times.prove_ms, 0.0);
  EXPECT_GT(b.times.verify_ms, 0.0);
}

TEST(ProveVerified, InputsOtherThanTheExpectedAreTheInputsFault) {
  PartitionFixture f;
  CpuProver cpu(f.params, f.pool);
  std::vector<Fr> other = f.inputs;
  ASSERT_GE(other.size(), 2u);
  other[1] += Fr::one();
  const auto e = prove_verified(cpu, f.pvk, f.synthesis(), other, Blinding::from_seed(3), "partition 4");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(e.error().message.find("partition 4: public input 1 of the circuit"), std::string::npos) << e.error().message;
}

// A key for another circuit with the same sizes proves, but the proof does not verify with the
// verifying key given: kVerifyFailed (the device's fault for the engine), and no proof.
TEST(ProveVerified, AProofThatDoesNotVerifyIsNotReturned) {
  PartitionFixture f;
  const Parameters other = setup(f.compiled, ToxicWaste::from_seed(test::seed() + 1), f.pool).value();
  CpuProver wrong_key(other, f.pool);
  const auto e = prove_verified(wrong_key, f.pvk, f.synthesis(), f.inputs, Blinding::from_seed(3), "partition 2");
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, ErrorCode::kVerifyFailed);
  EXPECT_NE(e.error().message.find("partition 2: the proof by cpu does not verify"), std::string::npos)
      << e.error().message;
}

}  // namespace
}  // namespace cuzk::groth16
