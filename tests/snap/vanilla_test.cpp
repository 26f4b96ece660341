// SnapDeals vanilla proofs (snap/vanilla.hpp) against the Python model's bytes: the ctest fixture
// snap.model_request runs `shared/tools/snap_circuit_model.py --write-request DIR`, which writes a
// 2 KiB PartitionProof (a real CC sector sealed by seal2k_model, re-encoded with random data) in
// Curio's bincode, the request's commitments and the expected public inputs (decimal). The model
// checks its proof with its own vanilla verifier and round-trips its bincode.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "ff/decimal.hpp"
#include "core/thread_pool.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/witness_cs.hpp"
#include "snap/circuit.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::snap {
namespace {

using ff::Fr;

const UpdatePoseidon& poseidon() {
  static const UpdatePoseidon p;
  return p;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

struct ModelRequest {
  std::vector<uint8_t> blob;
  UpdatePublic pub;
  std::vector<std::string> inputs_decimal;  // partition 0
};

const ModelRequest& request() {
  static const ModelRequest r = [] {
    const std::filesystem::path dir = CUZK_SNAP_REQUEST_DIR;
    ModelRequest out;
    const std::string blob = read_text(dir / "snap-2KiB.partition0.bin");
    out.blob.assign(blob.begin(), blob.end());
    const std::string json = read_text(dir / "snap-2KiB.request.json");
    // Plain string search (std::regex trips g++ 12's maybe-uninitialized warning under ASan).
    const auto hex_field = [&](const std::string& key) {
      const size_t at = json.find("\"" + key + "\": \"");
      EXPECT_NE(at, std::string::npos) << key;
      const std::vector<uint8_t> bytes = from_hex(json.substr(at + key.size() + 5, 64)).value();
      return Fr::from_bytes_le(std::span<const uint8_t, 32>(bytes.data(), 32)).value();
    };
    out.pub = {hex_field("comm_r_old_hex"), hex_field("comm_d_new_hex"), hex_field("comm_r_new_hex")};
    const std::string tail = json.substr(json.find("public_inputs_decimal"));
    for (size_t at = tail.find('"', tail.find('[')); at != std::string::npos; at = tail.find('"', at + 1)) {
      const size_t end = tail.find('"', at + 1);
      out.inputs_decimal.push_back(tail.substr(at + 1, end - at - 1));
      at = end;
    }
    return out;
  }();
  return r;
}

const UpdateShape& shape2k() {
  static const UpdateShape s = update_shape(64).value();
  return s;
}

TEST(SnapVanilla, DecodesModelPartitionProofAndRoundTrips) {
  const Expected<PartitionProof> p = decode_partition_proof(request().blob, "p0.bin");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(request().blob.size(), 15'064u);  // SPEC-SNAP §7
  EXPECT_EQ(p->apex_leafs.size(), 8u);
  ASSERT_EQ(p->challenge_proofs.size(), 10u);
  EXPECT_EQ(p->challenge_proofs[0].proof_d_new.path.size(), 6u);
  EXPECT_EQ(p->challenge_proofs[0].proof_r_old.path.size(), 2u);
  EXPECT_EQ(encode_partition_proof(*p), request().blob);
}

TEST(SnapVanilla, PublicInputsEqualModel) {
  const std::vector<Fr> inputs = partition_public_inputs(shape2k(), 0, request().pub);
  ASSERT_EQ(request().inputs_decimal.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(ff::to_decimal(inputs[i].to_int()), request().inputs_decimal[i]) << i;
}

TEST(SnapVanilla, ValidatesModelProofAndRefusesChangedPublicData) {
  const PartitionProof p = decode_partition_proof(request().blob, "p0.bin").value();
  const UpdatePublic pub = request().pub;
  const Expected<void> ok = validate_partition_proof(p, shape2k(), poseidon(), 0, pub, "p0.bin");
  ASSERT_TRUE(ok) << ok.error().message;
  for (int which = 0; which < 3; ++which) {
    UpdatePublic changed = pub;
    Fr& v = which == 0 ? changed.comm_r_old : which == 1 ? changed.comm_d_new : changed.comm_r_new;
    v += Fr::one();
    const Expected<void> bad = validate_partition_proof(p, shape2k(), poseidon(), 0, changed, "p0.bin");
    ASSERT_FALSE(bad) << which;
    EXPECT_NE(bad.error().message.find("p0.bin: "), std::string::npos) << bad.error().message;
  }
  // Another sector size's shape: the challenge/apex counts and paths do not fit.
  EXPECT_FALSE(validate_partition_proof(p, update_shape(128).value(), poseidon(), 0, pub, "p0.bin"));
  // The encoding: a new leaf off by one.
  PartitionProof enc = p;
  enc.challenge_proofs[4].proof_r_new.leaf += Fr::one();
  const Expected<void> bad = validate_partition_proof(enc, shape2k(), poseidon(), 0, pub, "p0.bin");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("challenge_proofs[4].proof_r_new"), std::string::npos) << bad.error().message;
}

// The challenges are the ones the model's proof was made for: each proof's path spells them.
TEST(SnapVanilla, ChallengesAreTheProofsLeafIndices) {
  const PartitionProof p = decode_partition_proof(request().blob, "p0.bin").value();
  const std::vector<uint64_t> c = partition_challenges(shape2k(), poseidon(), request().pub.comm_r_new, 0);
  ASSERT_EQ(c.size(), 10u);
  for (size_t i = 0; i < c.size(); ++i) {
    uint64_t index = 0;
    for (size_t l = 0; l < 6; ++l) index |= uint64_t{p.challenge_proofs[i].proof_d_new.path[l].index} << l;
    EXPECT_EQ(index, c[i]) << i;
  }
}

// Every truncation is a decoding error naming the source, an offset within the bytes given and a
// field of the PartitionProof; flipped bits are refused by the decoder or by validation (sampled
// offsets: a validation costs ~100 hashes), never a crash.
TEST(SnapVanilla, TruncationsAndFlipsAreErrors) {
  const std::vector<uint8_t>& blob = request().blob;
  for (size_t n = 0; n < blob.size(); ++n) {
    const Expected<PartitionProof> p = decode_partition_proof(std::span(blob).first(n), "t.bin");
    ASSERT_FALSE(p) << n;
    const std::string& m = p.error().message;
    ASSERT_EQ(m.rfind("t.bin: offset ", 0), 0u) << m;
    const size_t offset = std::stoull(m.substr(14));
    EXPECT_LE(offset, n) << m;
    const std::string field = m.substr(m.find(": ", 14) + 2);
    EXPECT_TRUE(field.starts_with("comm_c") || field.starts_with("apex_leafs") ||
                field.starts_with("challenge_proofs"))
        << m;
  }
  std::vector<uint8_t> longer = blob;
  longer.push_back(0);
  const Expected<PartitionProof> trailing = decode_partition_proof(longer, "t.bin");
  ASSERT_FALSE(trailing);
  EXPECT_EQ(trailing.error().message, "t.bin: offset 15064: end: 1 bytes after the proof");
  for (size_t at = 0; at < blob.size(); at += 11) {
    std::vector<uint8_t> b = blob;
    b[at] ^= static_cast<uint8_t>(1u << (at % 8));
    const Expected<PartitionProof> p = decode_partition_proof(b, "f.bin");
    if (!p) continue;
    EXPECT_FALSE(validate_partition_proof(*p, shape2k(), poseidon(), 0, request().pub, "f.bin")) << "flip at " << at;
  }
}

// A 2 KiB PartitionProof's layout (SPEC-SNAP §7): comm_c 32 B, apex_leafs 8 + 8·32 B, the
// challenge count 8 B, so challenge 0's proof_r_old starts at 304: its variant tag (u32), root,
// leaf, the path's count (8 B); element 0: 8 B count, 7 siblings, the index at 612.
// Tree R's paths are hashed together before the checks (porep/path_roots.hpp), yet the error
// named is the first in challenge order: a root mismatch in challenge 1 before a malformed path
// in challenge 2, and one in challenge 0 before both; on the IFMA kernel and the scalar one.
TEST(SnapVanilla, FirstFailingChallengeIsNamed) {
  const PartitionProof good = decode_partition_proof(request().blob, "p0.bin").value();
  ASSERT_GE(good.challenge_proofs.size(), 3u);
  for (gadgets::PoseidonKernel kernel : {gadgets::PoseidonKernel::best, gadgets::PoseidonKernel::scalar}) {
    const UpdatePoseidon up(kernel);
    ASSERT_TRUE(validate_partition_proof(good, shape2k(), up, 0, request().pub, "p0.bin"));
    PartitionProof p = good;
    p.challenge_proofs[1].proof_r_new.path[1].hashes[3] += Fr::one();
    auto r = validate_partition_proof(p, shape2k(), up, 0, request().pub, "p0.bin");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "p0.bin: challenge_proofs[1].proof_r_new.path: does not hash to the root");
    p.challenge_proofs[2].proof_r_old.path[0].hashes.pop_back();  // 6 siblings: not an arity-8 element
    r = validate_partition_proof(p, shape2k(), up, 0, request().pub, "p0.bin");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "p0.bin: challenge_proofs[1].proof_r_new.path: does not hash to the root");
    p.challenge_proofs[0].proof_r_old.path[0].hashes[0] += Fr::one();
    r = validate_partition_proof(p, shape2k(), up, 0, request().pub, "p0.bin");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "p0.bin: challenge_proofs[0].proof_r_old.path: does not hash to the root");
  }
}

TEST(SnapVanilla, ErrorsNameFieldAndOffset) {
  const auto decode_with = [&](size_t at, std::span<const uint8_t> bytes) {
    std::vector<uint8_t> b = request().blob;
    std::copy(bytes.begin(), bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
    const Expected<PartitionProof> p = decode_partition_proof(b, "t.bin");
    return p ? std::string("decoded") : p.error().message;
  };
  const std::array<uint8_t, 4> variant3 = {3, 0, 0, 0};
  EXPECT_EQ(decode_with(304, variant3),
            "t.bin: offset 304: challenge_proofs[0].proof_r_old.data: variant 3 is none of 0 Single, 1 Sub, 2 Top");
  ASSERT_EQ(request().blob[612 - 8 - 7 * 32], 7);  // element 0's sibling count
  const std::array<uint8_t, 1> index8 = {8};      // a position among 8 nodes is 0..7
  EXPECT_EQ(decode_with(612, index8),
            "t.bin: offset 612: challenge_proofs[0].proof_r_old.data.Single.path.path[0].index: 8 is not a position "
            "among 8 nodes");
  const std::array<uint8_t, 2> many = {0xff, 0xff};  // 65535 siblings: more than the bytes left
  const std::string too_many = decode_with(612 - 8 - 7 * 32, many);
  EXPECT_EQ(too_many.rfind("t.bin: offset 380: challenge_proofs[0].proof_r_old.data.Single.path.path[0].hashes: "
                           "length 65535 does not fit the ",
                           0),
            0u)
      << too_many;
  std::array<uint8_t, 32> ones{};  // 2^256 − 1 ≥ r
  ones.fill(0xff);
  EXPECT_EQ(decode_with(32 + 8, ones), "t.bin: offset 40: apex_leafs[0]: not a canonical field element (≥ r)");
}

// The circuit on the model's proof (the witness-only path: synthesize_partition_witness into z,
// challenges in parallel, checked against the compiled rows): every row holds, the inputs are the ones verify derives; a
// tampered leaf_d_new breaks some row.
TEST(SnapCircuit, ModelProofSatisfiesCircuit) {
  ThreadPool pool(2);
  const r1cs::CompiledR1cs<Fr> compiled = compile_partition(shape2k(), poseidon());
  const auto first_bad_row = [&](const PartitionProof& p, std::vector<Fr>* inputs) -> std::optional<size_t> {
    const PartitionWitness w{0, request().pub.comm_r_old, request().pub.comm_d_new, request().pub.comm_r_new, &p};
    std::vector<Fr> z(size_t(compiled.num_inputs) + compiled.num_aux);
    synthesize_partition_witness(shape2k(), poseidon(), w, z, compiled.num_inputs, &pool);
    const std::span<const Fr> zs(z);
    const auto rows = r1cs::spmv(compiled, zs.first(compiled.num_inputs), zs.subspan(compiled.num_inputs), pool);
    if (inputs != nullptr) inputs->assign(z.begin() + 1, z.begin() + compiled.num_inputs);
    for (size_t i = 0; i < rows.a.size(); ++i)
      if (rows.a[i] * rows.b[i] != rows.c[i]) return i;
    return std::nullopt;
  };
  const PartitionProof p = decode_partition_proof(request().blob, "p0.bin").value();
  std::vector<Fr> inputs;
  EXPECT_EQ(first_bad_row(p, &inputs), std::nullopt);
  EXPECT_EQ(inputs, partition_public_inputs(shape2k(), 0, request().pub));

  // The challenges in parallel (above) give what one WitnessCS over the whole partition gives.
  {
    const PartitionWitness w{0, request().pub.comm_r_old, request().pub.comm_d_new, request().pub.comm_r_new, &p};
    r1cs::WitnessCS<Fr> whole;
    synthesize_partition(whole, shape2k(), poseidon(), w);
    std::vector<Fr> z(size_t(compiled.num_inputs) + compiled.num_aux);
    synthesize_partition_witness(shape2k(), poseidon(), w, z, compiled.num_inputs, &pool);
    EXPECT_TRUE(std::equal(whole.inputs().begin(), whole.inputs().end(), z.begin()));
    EXPECT_TRUE(std::equal(whole.aux().begin(), whole.aux().end(), z.begin() + compiled.num_inputs, z.end()));
  }
  PartitionProof tampered = p;
  tampered.challenge_proofs[0].proof_d_new.leaf += Fr::one();
  EXPECT_NE(first_bad_row(tampered, nullptr), std::nullopt);
}

}  // namespace
}  // namespace cuzk::snap
