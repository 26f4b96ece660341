// Vanilla proof decoding and validation (post/vanilla.hpp) on proofs we did not make: the
// reference model's 2 KiB proofs of really sealed sectors (tests/data/post) and Curio's real
// 32 GiB WindowPoSt vanilla proof (shared/fixtures/curio-32GiB: sector 1, StackedDrgWindow32GiBV1,
// zero randomness). Decoding then encoding gives the same bytes; the leaf indices equal the
// challenges the model derives (post_circuit_model.md); every truncation and every byte flip is
// refused with an error naming the offset, never a crash.

#include <gtest/gtest.h>

#include <string>

#include "post/vanilla.hpp"
#include "post_data.hpp"

namespace cuzk::post {
namespace {

using test::kData;
using test::kShared;
using test::slurp;

const PostPoseidon& poseidon() {
  static const PostPoseidon p;
  return p;
}

const std::filesystem::path kCurio = kShared / "fixtures/curio-32GiB/window_post_vanilla_sector1.bin";

uint64_t leaf_index(const porep::MerkleProof& m, uint32_t base_arity, uint32_t sub_arity, size_t base_levels) {
  uint64_t leaf = 0, weight = 1;
  for (size_t l = 0; l < m.path.size(); ++l) {
    leaf += m.path[l].index * weight;
    weight *= l < base_levels ? base_arity : sub_arity;
  }
  return leaf;
}

TEST(PostVanilla, ModelProofsDecodeReencodeAndValidate) {
  const test::ModelRequest window = test::read_request("window-2KiB");
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<uint8_t> bytes = slurp(kData / ("window-2KiB.vanilla.sector" + std::to_string(i + 1) + ".bin"));
    ASSERT_EQ(bytes.size(), 5'680u);
    const FallbackPoStSectorProof p = decode_vanilla(bytes, "window").value();
    EXPECT_EQ(p.sector_id, i + 1);
    EXPECT_EQ(encode_vanilla(p), bytes);
    const auto ok = validate(p, window.data.proof, window.data.randomness, i, poseidon(), "window");
    EXPECT_TRUE(ok) << ok.error().message;
  }
  const test::ModelRequest winning = test::read_request("winning-2KiB");
  const std::vector<uint8_t> bytes = slurp(kData / "winning-2KiB.vanilla.sector1.bin");
  ASSERT_EQ(bytes.size(), 36'816u);
  const FallbackPoStSectorProof p = decode_vanilla(bytes, "winning").value();
  EXPECT_EQ(encode_vanilla(p), bytes);
  EXPECT_TRUE(validate(p, winning.data.proof, winning.data.randomness, 0, poseidon()));
  // The same proof under the other kind, or other randomness, is refused with the reason.
  const auto wrong_kind = validate(p, window.data.proof, winning.data.randomness, 0, poseidon(), "winning");
  ASSERT_FALSE(wrong_kind);
  EXPECT_NE(wrong_kind.error().message.find("offset 48: vanilla_proof.sectors[0].inclusion_proofs: expected 10"),
            std::string::npos)
      << wrong_kind.error().message;
  Bytes32 other = winning.data.randomness;
  other[0] ^= 1;
  const auto wrong_rand = validate(p, winning.data.proof, other, 0, poseidon(), "winning");
  ASSERT_FALSE(wrong_rand);
  EXPECT_NE(wrong_rand.error().message.find("is not the derived challenge"), std::string::npos);
}

// post_circuit_model.md "Real 32 GiB vanilla proof": the challenges of sector 1 under zero
// randomness, V1_0_0, position 0.
TEST(PostVanilla, Curio32GiBProofDecodesAndItsPathsCheck) {
  const std::vector<uint8_t> bytes = slurp(kCurio);
  ASSERT_EQ(bytes.size(), 24'960u) << kCurio;
  const FallbackPoStSectorProof p = decode_vanilla(bytes, "curio").value();
  EXPECT_EQ(p.sector_id, 1u);
  EXPECT_EQ(encode_vanilla(p), bytes);
  ASSERT_EQ(p.sectors.size(), 1u);
  const SectorProof& sp = p.sectors[0];
  ASSERT_EQ(sp.inclusion_proofs.size(), 10u);
  const uint64_t expected[10] = {707914199, 439148358, 967788220, 548708700, 1061661429,
                                 6202012,   1055504637, 389535735, 1000069704, 600088878};
  for (size_t n = 0; n < 10; ++n) {
    EXPECT_EQ(sp.inclusion_proofs[n].kind, porep::MerkleProof::Kind::kSub);
    EXPECT_EQ(sp.layout[n].base, 9u);
    EXPECT_EQ(sp.layout[n].sub, 1u);
    EXPECT_EQ(leaf_index(sp.inclusion_proofs[n], 8, 8, 9), expected[n]) << n;
  }
  const RegisteredPostProof v1 = registered_post_proof(8).value();  // StackedDrgWindow32GiBV1
  const Bytes32 zero{};
  EXPECT_EQ(vanilla_challenges(v1, zero, 1, 0), std::vector<uint64_t>(expected, expected + 10));
  const auto ok = validate(p, v1, zero, 0, poseidon(), "curio");
  EXPECT_TRUE(ok) << ok.error().message;
  // V1_0_0 and V1_2_0 differ at any position but 0: position 1 is refused.
  EXPECT_FALSE(validate(p, v1, zero, 1, poseidon(), "curio"));
  // The V1_1 (current) proof of the same size uses position-free indices: position 0 agrees.
  EXPECT_TRUE(validate(p, registered_post_proof(13).value(), zero, 0, poseidon(), "curio"));
}

// The paths are hashed together, level by level (porep/path_roots.hpp), but the error named is
// still the first path's in path order: a root mismatch on path 3 before a bad shape on path 6, a
// bad shape on path 2 before the mismatch on path 3; on the IFMA kernel and the scalar one.
TEST(PostVanilla, FirstFailingPathIsNamed) {
  const FallbackPoStSectorProof good = decode_vanilla(slurp(kCurio), "curio").value();
  const RegisteredPostProof v1 = registered_post_proof(8).value();
  const Bytes32 zero{};
  const auto at = [&](size_t n) {
    return "curio: offset " + std::to_string(good.sectors[0].layout[n].offset) +
           ": vanilla_proof.sectors[0].inclusion_proofs[" + std::to_string(n) + "]";
  };
  for (gadgets::PoseidonKernel kernel : {gadgets::PoseidonKernel::best, gadgets::PoseidonKernel::scalar}) {
    const PostPoseidon poseidon(kernel);
    ASSERT_TRUE(validate(good, v1, zero, 0, poseidon, "curio"));
    FallbackPoStSectorProof p = good;
    std::vector<porep::MerkleProof>& paths = p.sectors[0].inclusion_proofs;
    paths[3].path[4].hashes[2] += ff::Fr::one();  // a sibling halfway up path 3
    auto r = validate(p, v1, zero, 0, poseidon, "curio");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, at(3) + ": the path does not hash to its root");
    paths[6].path[0].index = (paths[6].path[0].index + 1) % 8;  // path 6's leaf is another node
    r = validate(p, v1, zero, 0, poseidon, "curio");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, at(3) + ": the path does not hash to its root");
    paths[2].root += ff::Fr::one();
    r = validate(p, v1, zero, 0, poseidon, "curio");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, at(2) + ".root: is not the sector's comm_r_last");
    // The last path alone: a mismatch in the last lane of the second group of eight.
    FallbackPoStSectorProof q = good;
    q.sectors[0].inclusion_proofs[9].leaf += ff::Fr::one();
    r = validate(q, v1, zero, 0, poseidon, "curio");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, at(9) + ": the path does not hash to its root");
  }
}

// validate_sectors hashes several sectors' paths together; each result is still its own
// sector's: a good one passes beside bad ones, and each bad one names its own first failure.
TEST(PostVanilla, SectorsValidatedTogetherKeepTheirOwnResults) {
  const test::ModelRequest window = test::read_request("window-2KiB");
  std::vector<FallbackPoStSectorProof> p;
  for (size_t i = 0; i < 2; ++i)
    p.push_back(decode_vanilla(slurp(kData / ("window-2KiB.vanilla.sector" + std::to_string(i + 1) + ".bin")), "w")
                    .value());
  FallbackPoStSectorProof sibling = p[1], other_id = p[1], none = p[0];
  sibling.sectors[0].inclusion_proofs[1].path[0].hashes[0] += ff::Fr::one();
  other_id.sector_id += 1000;  // the challenges follow from the sector id
  none.sectors.clear();
  const std::vector<SectorToValidate> sectors = {
      {&p[0], 0, "a"}, {&sibling, 1, "b"}, {&other_id, 1, "c"}, {&none, 0, "d"}, {&p[1], 1, "e"}};
  for (gadgets::PoseidonKernel kernel : {gadgets::PoseidonKernel::best, gadgets::PoseidonKernel::scalar}) {
    const PostPoseidon poseidon(kernel);
    const std::vector<Expected<void>> r = validate_sectors(sectors, window.data.proof, window.data.randomness, poseidon);
    ASSERT_EQ(r.size(), sectors.size());
    EXPECT_TRUE(r[0]) << r[0].error().message;
    ASSERT_FALSE(r[1]);
    EXPECT_EQ(r[1].error().message, "b: offset " + std::to_string(sibling.sectors[0].layout[1].offset) +
                                        ": vanilla_proof.sectors[0].inclusion_proofs[1]: the path does not hash to its root");
    ASSERT_FALSE(r[2]);
    EXPECT_NE(r[2].error().message.find("c: offset "), std::string::npos);
    EXPECT_NE(r[2].error().message.find("is not the derived challenge"), std::string::npos) << r[2].error().message;
    ASSERT_FALSE(r[3]);
    EXPECT_EQ(r[3].error().message, "d: offset 40: vanilla_proof.sectors: expected 1 SectorProof, got 0");
    EXPECT_TRUE(r[4]) << r[4].error().message;
  }
}

// stride > 1: every offset of the first 600 bytes and the last 100, every stride-th between (the
// 32 GiB proof's 24,960 cuts take minutes under ASan).
void expect_every_truncation_refused(const std::vector<uint8_t>& bytes, size_t stride = 1) {
  for (size_t n = 0; n < bytes.size(); n += (n < 600 || n + 100 >= bytes.size()) ? 1 : stride) {
    const auto r = decode_vanilla(std::span(bytes).first(n), "cut");
    ASSERT_FALSE(r) << "a proof cut to " << n << " bytes decoded";
    ASSERT_EQ(r.error().message.rfind("cut: offset ", 0), 0u) << r.error().message;
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  const auto r = decode_vanilla(longer, "long");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("offset " + std::to_string(bytes.size()) + ": end: 1 bytes after the proof"),
            std::string::npos)
      << r.error().message;
}

TEST(PostVanilla, EveryTruncationIsRefused) {
  expect_every_truncation_refused(slurp(kData / "window-2KiB.vanilla.sector1.bin"));
  expect_every_truncation_refused(slurp(kCurio), 61);
}

// Every byte of the 2 KiB proof flipped (one bit, rotating): decoding or validation refuses it
// (each byte is a length, tag, index, id or a value some check reaches), and says where.
TEST(PostVanilla, EveryByteFlipIsRefused) {
  const test::ModelRequest window = test::read_request("window-2KiB");
  const std::vector<uint8_t> bytes = slurp(kData / "window-2KiB.vanilla.sector1.bin");
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::vector<uint8_t> flipped = bytes;
    flipped[at] ^= uint8_t(1u << (at % 8));
    const auto p = decode_vanilla(flipped, "flip");
    if (!p) {
      ASSERT_EQ(p.error().message.rfind("flip: offset ", 0), 0u) << p.error().message;
      continue;
    }
    const auto ok = validate(*p, window.data.proof, window.data.randomness, 0, poseidon(), "flip");
    ASSERT_FALSE(ok) << "byte " << at << " flipped passed validation";
    ASSERT_EQ(ok.error().message.rfind("flip: offset ", 0), 0u) << ok.error().message;
  }
}

TEST(PostVanilla, ErrorsNameFieldAndOffset) {
  std::vector<uint8_t> bytes = slurp(kData / "window-2KiB.vanilla.sector1.bin");
  bytes[56] = 3;  // the first inclusion proof's variant tag (8 + 32 + 8 + 8)
  auto r = decode_vanilla(bytes, "v.bin");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "v.bin: offset 56: vanilla_proof.sectors[0].inclusion_proofs[0].data: variant 3 is none of 0 Single, 1 Sub, "
            "2 Top");
  bytes = slurp(kData / "window-2KiB.vanilla.sector1.bin");
  for (size_t i = 8; i < 40; ++i) bytes[i] = 0xff;  // comm_r ≥ r
  r = decode_vanilla(bytes, "v.bin");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "v.bin: offset 8: comm_r: not a canonical field element (≥ r)");
  bytes = slurp(kData / "window-2KiB.vanilla.sector1.bin");
  bytes[47] = 0x10;  // vanilla_proof.sectors length: huge
  r = decode_vanilla(bytes, "v.bin");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("offset 40: vanilla_proof.sectors: length"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace cuzk::post
