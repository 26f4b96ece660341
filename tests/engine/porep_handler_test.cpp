// PorepHandler::parse, as the daemon meets Curio's requests for sectors sealed with
// UseSyntheticPoRep: a synthetic-PoRep C1 in Curio's wrapper with registered_proof 10 (the Go id
// Curio sends), its miner and sector, is admitted as a 2 KiB PoRep job; the same C1 claimed as
// another registered proof, or for another miner, is refused naming the field; a
// non-interactive-PoRep request is refused as unsupported.

#include "engine/porep_handler.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/base64.hpp"
#include "core/error.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::engine {
namespace {

PorepHandlerOptions options(ThreadPool& pool) {
  PorepHandlerOptions o;
  o.param_dir = "/nonexistent-cuzk-params";  // parse needs no key (its size is then estimated as 0)
  o.pool = &pool;
  return o;
}

struct Fixture {
  ThreadPool pool{2};
  PorepHandler handler{options(pool)};

  JobRequest request(const std::string& registered_proof_name, uint64_t miner, uint64_t sector) {
    porep::SyntheticC1Options o;
    o.registered_proof = registered_proof_name;
    o.miner_id = miner;
    o.sector_id = sector;
    const porep::PorepPoseidon poseidon;
    const std::string json = porep::to_json(porep::generate_synthetic_c1(o, poseidon, pool).value());
    const std::string wrapped = "{\"SectorNum\":" + std::to_string(sector) + ",\"Phase1Out\":\"" +
                                base64_encode(std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size())) +
                                "\",\"SectorSize\":2048}";
    JobRequest r;
    r.kind = ProofKind::porep_seal_commit;
    r.vanilla_proof.assign(wrapped.begin(), wrapped.end());
    r.sector_size = 2048;
    r.miner_id = miner;
    r.sector_number = sector;
    return r;
  }
};

TEST(PorepHandler, AdmitsSyntheticPoRepAsCurioSendsIt) {
  Fixture f;
  JobRequest r = f.request("StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 1234, 9);
  r.registered_proof = 10;
  const auto job = f.handler.parse(r);
  ASSERT_TRUE(job) << job.error().to_string();
  EXPECT_EQ((*job)->circuit_id, "porep-2k");
  EXPECT_EQ((*job)->partitions, 1u);

  r.registered_proof = 5;  // the interactive 2 KiB proof
  const auto wrong = f.handler.parse(r);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("registered_proof: the request says 5"), std::string::npos) << wrong.error().message;

  r.registered_proof = 10;
  r.miner_id = 1235;
  const auto other_miner = f.handler.parse(r);
  ASSERT_FALSE(other_miner);
  EXPECT_NE(other_miner.error().message.find("replica_id"), std::string::npos) << other_miner.error().message;
}

TEST(PorepHandler, RefusesNonInteractivePoRep) {
  Fixture f;
  JobRequest r = f.request("StackedDrg2KiBV1_1", 1234, 9);
  // The raw C1 (no wrapper) with the NI name in place of the interactive one.
  const porep::PorepPoseidon poseidon;
  porep::SyntheticC1Options o;
  o.miner_id = 1234;
  o.sector_id = 9;
  std::string json = porep::to_json(porep::generate_synthetic_c1(o, poseidon, f.pool).value());
  json.replace(json.find("StackedDrg2KiBV1_1"), 18, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
  r.vanilla_proof.assign(json.begin(), json.end());
  const auto refused = f.handler.parse(r);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(refused.error().message.find("non-interactive PoRep is not supported"), std::string::npos)
      << refused.error().message;
}

}  // namespace
}  // namespace cuzk::engine
