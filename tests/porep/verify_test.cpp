// Verification of a real PoRep proof from public data alone (porep/verify.hpp): the 2 KiB proof
// the official Rust stack made in polka-storage's test (shared/fixtures/polka-storage-2KiB; the
// proof and key are copied in tests/data/groth16, the public data below is its
// porep_2KiB.public.json). Every public input is computed by our code (replica_id, challenges,
// DRSample and Feistel parents); changing any byte of the public data must make it fail.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "core/thread_pool.hpp"
#include "groth16/params_file.hpp"
#include "porep/verify.hpp"

namespace cuzk::porep {
namespace {

const std::filesystem::path kData = CUZK_TEST_DATA_DIR;

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

Bytes32 bytes32(const std::string& hex) {
  const std::vector<uint8_t> v = from_hex(hex).value();
  Bytes32 out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

PorepPublicData fixture() {
  PorepPublicData d;
  d.prover_id = bytes32("0000000000000000000000000000000000000000000000000000000000000000");
  d.sector_id = 77;
  d.ticket = bytes32("0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c");
  d.seed = bytes32("0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d");
  d.comm_r = bytes32("4afb35f82a95a10187a913bc14520d9a1d173328265b301b5dcf440ef2583950");
  d.comm_d = bytes32("129c7562bb0c189544f5dccd365feaec2141eab458097a5ca8429c109d154421");
  d.porep_id = bytes32("0000000000000000000000000000000000000000000000000000000000000000");
  d.graph = graph_version(ApiVersion::kV1_2);  // V1_2_0 uses the V1_1 graph
  d.nodes = 64;
  d.partitions = 1;
  d.challenges_per_partition = 2;
  return d;
}

TEST(PorepVerify, RealProofFromPublicDataAndEveryByteMatters) {
  ThreadPool pool(2);
  const groth16::VerifyingKey vk = groth16::parse_vk(slurp(kData / "groth16/porep_2KiB.vk.compressed.bin"), "vk", pool,
                                                     {groth16::PointEncoding::kCompressed})
                                       .value();
  const groth16::PreparedVerifyingKey pvk(vk);
  const std::vector<uint8_t> proof = slurp(kData / "groth16/porep_2KiB.proof.bin");
  const PorepPublicData good = fixture();
  ASSERT_EQ(partition_public_inputs(good, 0).value().size(), 39u);
  EXPECT_TRUE(verify_porep(pvk, proof, good).value());

  size_t rejected = 0, tried = 0;
  for (Bytes32 PorepPublicData::*field : {&PorepPublicData::prover_id, &PorepPublicData::ticket, &PorepPublicData::seed,
                                          &PorepPublicData::comm_r, &PorepPublicData::comm_d,
                                          &PorepPublicData::porep_id}) {
    for (size_t i = 0; i < 32; ++i) {
      PorepPublicData bad = good;
      (bad.*field)[i] ^= 0x01;
      ++tried;
      const Expected<bool> r = verify_porep(pvk, proof, bad);  // non-canonical comm is an error
      if (!r.has_value() || !*r) ++rejected;
    }
  }
  for (uint64_t id : {76ull, 78ull, 77ull | (1ull << 40)}) {
    PorepPublicData bad = good;
    bad.sector_id = id;
    ++tried;
    if (!verify_porep(pvk, proof, bad).value()) ++rejected;
  }
  EXPECT_EQ(rejected, tried);
  PorepPublicData v10 = good;  // the V1_0 graph's parents differ
  v10.graph = GraphVersion::kV1_0;
  EXPECT_FALSE(verify_porep(pvk, proof, v10).value());
  // Malformed proofs are errors, not false.
  EXPECT_FALSE(verify_porep(pvk, std::span(proof).first(191), good).has_value());
}

}  // namespace
}  // namespace cuzk::porep
