// Verification of a real WindowPoSt proof from public data alone (post/verify.hpp): the 2 KiB
// proof rust-fil-proofs made in polka-storage's test (shared/fixtures/polka-storage-2KiB; one
// sector 77, randomness 0x01 × 32, the second slot padding). The public inputs are computed by our
// code and equal the model's (SPEC-POST.md §9); any change to the public data is rejected.

#include <gtest/gtest.h>

#include "core/thread_pool.hpp"
#include "groth16/params_file.hpp"
#include "post/verify.hpp"
#include "post_data.hpp"

namespace cuzk::post {
namespace {

using test::bytes32;
using test::kShared;

const std::filesystem::path kPolka = kShared / "fixtures/polka-storage-2KiB";

PostPublicData fixture() {
  PostPublicData d;
  d.proof = registered_post_proof("StackedDrgWindow2KiBV1_2").value();  // polka verifies with V1_2
  d.randomness.fill(0x01);
  d.sectors = {{77, bytes32("4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950")}};
  return d;
}

TEST(PostVerify, FixtureInputsAreTheModels) {
  const std::vector<ff::Fr> in = partition_public_inputs(fixture(), 0).value();
  ASSERT_EQ(in.size(), 22u);
  const ff::Fr comm_r = ff::Fr::from_hex("0x503958f20e44cf5d1b305b262833171d9a0d5214bc13a98701a1952af835fb4a");
  const uint64_t leaves[10] = {62, 13, 30, 16, 21, 30, 30, 34, 28, 40};
  for (size_t half = 0; half < 2; ++half) {
    EXPECT_EQ(in[11 * half], comm_r);
    for (size_t n = 0; n < 10; ++n) EXPECT_EQ(in[11 * half + 1 + n], ff::Fr::from_uint(leaves[n])) << half << " " << n;
  }
}

TEST(PostVerify, RealProofFromPublicDataAndEveryChangeIsRejected) {
  ThreadPool pool(2);
  const groth16::VerifyingKey vk =
      groth16::parse_vk(test::slurp(kPolka / "window_post_2KiB.vk.compressed.bin"), "vk", pool,
                        {groth16::PointEncoding::kCompressed})
          .value();
  const groth16::PreparedVerifyingKey pvk(vk);
  const std::vector<uint8_t> proof = test::slurp(kPolka / "window_post_2KiB.proof.bin");
  ASSERT_EQ(proof.size(), 192u);
  EXPECT_TRUE(verify_post(pvk, proof, fixture()).value());
  EXPECT_TRUE(verify_post(pvk, proof, fixture(), 0).value());
  // The V1 proof of this size derives the same inputs for one sector at position 0.
  PostPublicData v1 = fixture();
  v1.proof = registered_post_proof(5).value();
  EXPECT_TRUE(verify_post(pvk, proof, v1).value());

  for (size_t i = 0; i < 32; ++i) {
    PostPublicData d = fixture();
    d.randomness[i] ^= 0x01;
    EXPECT_FALSE(verify_post(pvk, proof, d).value()) << "randomness byte " << i;
    d = fixture();
    d.sectors[0].comm_r[i] ^= 0x01;
    const Expected<bool> r = verify_post(pvk, proof, d);
    EXPECT_TRUE(!r || !*r) << "comm_r byte " << i;
  }
  PostPublicData d = fixture();
  d.sectors[0].sector_id = 78;
  EXPECT_FALSE(verify_post(pvk, proof, d).value());
  d = fixture();
  d.sectors.push_back({78, d.sectors[0].comm_r});  // a second sector instead of padding
  EXPECT_FALSE(verify_post(pvk, proof, d).value());
  EXPECT_FALSE(verify_post(pvk, proof, fixture(), 1));  // no partition 1
  EXPECT_FALSE(verify_post(pvk, std::span(proof).first(191), fixture()));
}

TEST(PostVerify, ModelRequestsInputs) {
  for (const char* name : {"window-2KiB", "winning-2KiB"}) {
    const test::ModelRequest req = test::read_request(name);
    EXPECT_EQ(partition_public_inputs(req.data, 0).value(), req.inputs) << name;
  }
  // Randomness must be a canonical field element (as_safe_commitment).
  PostPublicData d = fixture();
  d.randomness.fill(0xff);
  const auto r = partition_public_inputs(d, 0);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("randomness"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::post
