// The gRPC wire boundary (service/wire.hpp): a SubmitProofRequest becomes a job request field for
// field; enum values the protocol does not define are refused naming the field, never clamped;
// bytes that are not a request are refused.

#include "service/wire.hpp"

#include <gtest/gtest.h>

#include "cuzk/v1/proving.pb.h"

namespace cuzk::service {
namespace {

cuzk::v1::SubmitProofRequest curio_request() {
  cuzk::v1::SubmitProofRequest r;
  r.set_request_id("wdpost-1000-3-0a0b0c0d");
  r.set_proof_kind(cuzk::v1::WINDOW_POST_PARTITION);
  r.set_priority(cuzk::v1::HIGH);
  r.set_sector_size(uint64_t{32} << 30);
  r.set_registered_proof(13);
  r.set_vanilla_proof(std::string("\x01\x02\x00\x03", 4));
  r.set_sector_number(77);
  r.set_miner_id(1000);
  return r;
}

TEST(Wire, ARequestBecomesAJobFieldForField) {
  const engine::JobRequest j = to_job_request(curio_request()).value();
  EXPECT_EQ(j.request_id, "wdpost-1000-3-0a0b0c0d");
  EXPECT_EQ(j.kind, engine::ProofKind::window_post_partition);
  EXPECT_EQ(j.priority, engine::Priority::high);
  EXPECT_EQ(j.sector_size, uint64_t{32} << 30);
  EXPECT_EQ(j.registered_proof, 13u);
  EXPECT_EQ(j.vanilla_proof, (std::vector<uint8_t>{1, 2, 0, 3}));
  EXPECT_EQ(j.sector_number, 77u);
  EXPECT_EQ(j.miner_id, 1000u);
  // proto3 sends no zeros: registered_proof 0 arrives absent and is not checked; priority 0 is
  // left unspecified for the engine (normal).
  cuzk::v1::SubmitProofRequest zero = curio_request();
  zero.set_registered_proof(0);
  zero.set_priority(cuzk::v1::PRIORITY_UNSPECIFIED);
  const engine::JobRequest z = to_job_request(zero).value();
  EXPECT_FALSE(z.registered_proof.has_value());
  EXPECT_EQ(z.priority, engine::Priority::unspecified);
  // Through the bytes a client sends.
  EXPECT_EQ(parse_submit_request(curio_request().SerializeAsString()).value().request_id, j.request_id);
}

TEST(Wire, UndefinedEnumValuesAreRefusedNamingTheField) {
  cuzk::v1::SubmitProofRequest r = curio_request();
  r.set_proof_kind(cuzk::v1::ProofKind(9));
  auto e = to_job_request(r);
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.error().message.rfind("proof_kind: 9 is not", 0), 0u) << e.error().message;
  r = curio_request();
  r.set_priority(cuzk::v1::Priority(5));
  e = to_job_request(r);
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().message.rfind("priority: 5 is not", 0), 0u) << e.error().message;
  r.set_priority(cuzk::v1::Priority(-1));
  EXPECT_FALSE(to_job_request(r).has_value());
}

TEST(Wire, BytesThatAreNotARequestAreRefused) {
  const auto e = parse_submit_request(std::string("\xff\xff\xff\xff\x0f", 5));
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(e.error().message.find("not a cuzk.v1.SubmitProofRequest"), std::string::npos);
}

TEST(Wire, IdsAreBoundedNamingTheField) {
  cuzk::v1::SubmitProofRequest r = curio_request();
  r.set_request_id(std::string(kMaxIdBytes, 'x'));
  EXPECT_TRUE(to_job_request(r).has_value());  // the limit itself is accepted
  r.set_request_id(std::string(kMaxIdBytes + 1, 'x'));
  auto e = to_job_request(r);
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.error().message, "request_id: 257 bytes, over the limit of 256");
  // Through the bytes a client sends, as the gRPC server gets them: 1 MiB.
  r.set_request_id(std::string(1 << 20, 'y'));
  e = parse_submit_request(r.SerializeAsString());
  ASSERT_FALSE(e.has_value());
  EXPECT_EQ(e.error().message, "request_id: 1048576 bytes, over the limit of 256");
  // The other ids (the server's job_id and circuit_id) go through the same check.
  EXPECT_TRUE(check_id("circuit_id", "porep-32g").has_value());
  EXPECT_TRUE(check_id("job_id", "").has_value());
  const auto c = check_id("circuit_id", std::string(300, 'c'));
  ASSERT_FALSE(c.has_value());
  EXPECT_EQ(c.error().message, "circuit_id: 300 bytes, over the limit of 256");
}

TEST(Wire, AwaitTimeoutsSaturateInsteadOfWrapping) {
  using Clock = std::chrono::steady_clock;
  using std::chrono::milliseconds;
  const Clock::time_point now = Clock::now();
  EXPECT_EQ(deadline_after(now, 0), Clock::time_point::max());  // 0: no deadline
  EXPECT_EQ(deadline_after(now, 1500), now + milliseconds(1500));
  // now + ms in a signed 64-bit count of nanoseconds wraps from ~9.2e12 ms: those were in the past.
  for (const uint64_t ms : {uint64_t{9'300'000'000'000}, uint64_t{1} << 63, ~uint64_t{0}}) {
    EXPECT_EQ(deadline_after(now, ms), Clock::time_point::max()) << ms;
  }
  // A long timeout that fits is kept as it is (a year).
  EXPECT_EQ(deadline_after(now, 31'536'000'000), now + milliseconds(31'536'000'000));
}

}  // namespace
}  // namespace cuzk::service
