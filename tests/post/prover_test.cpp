// One partition proved on the CPU (post/prover.hpp) with a key of our own: from the model's
// vanilla proofs of really sealed sectors (tests/data/post), by full synthesis (ProvingCS) and by
// the witness-only path (WitnessCS, a, b, c from the compiled circuit), which give the same proof
// bytes for the same blinding; each verifies with inputs from public data alone. Vanilla proofs
// out of order, or answering other randomness, are refused before proving.

#include <gtest/gtest.h>

#include "core/thread_pool.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "post/prover.hpp"
#include "post/verify.hpp"
#include "post_data.hpp"

namespace cuzk::post {
namespace {

using test::kData;

TEST(PostProver, WindowPartitionBothPathsVerify) {
  ThreadPool pool(2);
  const PostPoseidon poseidon;
  const test::ModelRequest req = test::read_request("window-2KiB");
  const PostParams params = post_params(req.data.proof).value();
  const r1cs::CompiledR1cs<ff::Fr> circuit = compile_partition(circuit_shape(params), poseidon, &pool);
  const groth16::GpuChoice cpu{groth16::GpuChoice::Kind::off, 0};
  const groth16::Parameters key = groth16::setup_on(cpu, circuit, groth16::ToxicWaste::from_seed(3), pool).value();
  const groth16::PreparedVerifyingKey pvk(key.vk);
  const auto backend = groth16::make_prover(key, pool, cpu).value();               // full synthesis
  const auto with_circuit = groth16::make_prover(key, pool, cpu, &circuit).value();  // witness only
  std::vector<FallbackPoStSectorProof> vanilla;
  for (int i = 1; i <= 2; ++i)
    vanilla.push_back(read_vanilla_file((kData / ("window-2KiB.vanilla.sector" + std::to_string(i) + ".bin")).string()).value());

  const PartitionRequest request{req.data.proof, req.data.randomness, 0, vanilla};
  PostProveOptions options;
  options.blinding_seed = 9;
  const PostProof full = prove_partition(request, *backend, pvk, poseidon, options).value();
  options.synthesis_pool = &pool;
  const PostProof witness = prove_partition(request, *with_circuit, pvk, poseidon, options).value();
  EXPECT_EQ(full.proof.to_bytes(), witness.proof.to_bytes());
  const auto bytes = full.proof.to_bytes();
  EXPECT_TRUE(verify_post(pvk, bytes, req.data).value());
  PostPublicData other = req.data;
  other.randomness[3] ^= 1;
  EXPECT_FALSE(verify_post(pvk, bytes, other).value());

  // Refused before any synthesis, with the reason.
  std::vector<FallbackPoStSectorProof> reversed = {vanilla[1], vanilla[0]};
  auto r = prove_partition({req.data.proof, req.data.randomness, 0, reversed}, *backend, pvk, poseidon);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ascending sector order"), std::string::npos) << r.error().message;
  r = prove_partition({req.data.proof, other.randomness, 0, vanilla}, *backend, pvk, poseidon);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("vanilla proof 0 (sector 1): offset "), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("is not the derived challenge"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::post
