// Interop with snarkjs 0.7.6, an independent Groth16 implementation: a circuit written through
// our constraint system goes out as .r1cs + .wtns; snarkjs makes the .zkey; cuzk proves from it
// and snarkjs verifies; snarkjs proves and cuzk verifies; a changed byte is rejected by both.
// The powers-of-tau file (power 8, BLS12-381) is made once per ctest run by the fixture test
// groth16.snarkjs_ptau (tests/groth16/CMakeLists.txt) at the path CUZK_PTAU.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "core/mapped_file.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "groth16/zkey.hpp"
#include "groth16/zkey_prover.hpp"
#include "r1cs/iden3.hpp"
#include "r1cs/iden3_convert.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/process.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;
using test::quote;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
void spit(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// A random circuit of 60 rows (a few public inputs), its iden3 files, and snarkjs's key for it.
struct Interop : ::testing::Test {
  test::TempDir dir{"snarkjs"};
  ThreadPool pool{2};
  std::vector<Fr> witness;
  size_t n_public = 0;

  void SetUp() override {
    const std::filesystem::path ptau = CUZK_PTAU;
    ASSERT_TRUE(std::filesystem::exists(ptau)) << ptau << ": run through ctest (its fixture makes the file)";
    const auto circuit = [](auto& cs) { test::random_r1cs(cs, 60, 5); };
    r1cs::KeygenCS<Fr> kcs;
    circuit(kcs);
    const auto compiled = std::move(kcs).finish();
    r1cs::WitnessCS<Fr> wcs;
    circuit(wcs);
    witness = wcs.inputs();
    witness.insert(witness.end(), wcs.aux().begin(), wcs.aux().end());
    n_public = compiled.num_inputs - 1;
    ASSERT_GT(n_public, 0u);
    ASSERT_TRUE(r1cs::iden3::write_r1cs(dir / "c.r1cs", r1cs::iden3_from_compiled(compiled)));
    ASSERT_TRUE(r1cs::iden3::write_wtns(dir / "c.wtns", witness));
    auto setup = test::snarkjs("groth16 setup " + quote(dir / "c.r1cs") + " " + quote(ptau) + " " + quote(dir / "c.zkey"));
    ASSERT_EQ(setup.rc, 0) << setup.output;
    auto vk = test::snarkjs("zkey export verificationkey " + quote(dir / "c.zkey") + " " + quote(dir / "vk.json"));
    ASSERT_EQ(vk.rc, 0) << vk.output;
  }

  test::Process snarkjs_verify(const std::string& proof, const std::string& pub) {
    return test::snarkjs("groth16 verify " + quote(dir / "vk.json") + " " + quote(dir / pub) + " " + quote(dir / proof));
  }
};

TEST_F(Interop, ZkeyReadsAsSnarkjsExportsIt) {
  const Zkey zkey = read_zkey(dir / "c.zkey", pool).value();
  EXPECT_EQ(zkey.n_vars, witness.size());
  EXPECT_EQ(zkey.n_public, n_public);
  const VerifyingKey theirs = vk_from_snarkjs_json(slurp(dir / "vk.json"), "vk.json").value();
  EXPECT_EQ(zkey.vk.alpha_g1, theirs.alpha_g1);
  EXPECT_EQ(zkey.vk.beta_g2, theirs.beta_g2);
  EXPECT_EQ(zkey.vk.gamma_g2, theirs.gamma_g2);
  EXPECT_EQ(zkey.vk.delta_g2, theirs.delta_g2);
  EXPECT_EQ(zkey.vk.ic, theirs.ic);
  // Our JSON export of the same key: the same text once whitespace is dropped (e(alpha, beta)
  // included, so the Fp12 tower and its coefficient order agree with ffjavascript's).
  const auto squeeze = [](std::string s) {
    std::erase_if(s, [](char c) { return c == ' ' || c == '\n'; });
    return s;
  };
  EXPECT_EQ(squeeze(vk_to_snarkjs_json(zkey.vk)), squeeze(slurp(dir / "vk.json")));
}

TEST_F(Interop, CuzkProvesFromTheZkeyAndSnarkjsVerifies) {
  const Zkey zkey = read_zkey(dir / "c.zkey", pool).value();
  const Proof proof = prove_zkey(zkey, witness, Blinding::random(), pool).value();
  const std::vector<Fr> pub(witness.begin() + 1, witness.begin() + 1 + static_cast<std::ptrdiff_t>(n_public));
  EXPECT_TRUE(verify(PreparedVerifyingKey(zkey.vk), proof, pub).value());
  spit(dir / "proof.json", proof_to_snarkjs_json(proof));
  spit(dir / "public.json", public_to_snarkjs_json(pub));
  auto ok = snarkjs_verify("proof.json", "public.json");
  EXPECT_EQ(ok.rc, 0) << ok.output;
  EXPECT_NE(ok.output.find("OK"), std::string::npos) << ok.output;

  // A wrong public input: snarkjs rejects.
  std::vector<Fr> wrong = pub;
  wrong[0] += Fr::one();
  spit(dir / "wrong.json", public_to_snarkjs_json(wrong));
  EXPECT_NE(snarkjs_verify("proof.json", "wrong.json").rc, 0);

  // One changed digit in pi_c's x: snarkjs rejects, and so do we (bad point or failed check).
  std::string text = slurp(dir / "proof.json");
  const size_t at = text.find("\"pi_c\": [\"") + 12;
  text[at] = text[at] == '1' ? '2' : '1';
  spit(dir / "bad.json", text);
  EXPECT_NE(snarkjs_verify("bad.json", "public.json").rc, 0);
  auto ours = proof_from_snarkjs_json(text, "bad.json");
  if (ours) {
    EXPECT_FALSE(verify(PreparedVerifyingKey(zkey.vk), *ours, pub).value());
  }
}

TEST_F(Interop, SnarkjsProvesAndCuzkVerifies) {
  auto p = test::snarkjs("groth16 prove " + quote(dir / "c.zkey") + " " + quote(dir / "c.wtns") + " " +
                         quote(dir / "sp.json") + " " + quote(dir / "spub.json"));
  ASSERT_EQ(p.rc, 0) << p.output;
  const VerifyingKey vk = vk_from_snarkjs_json(slurp(dir / "vk.json"), "vk.json").value();
  const Proof proof = proof_from_snarkjs_json(slurp(dir / "sp.json"), "sp.json").value();
  const std::vector<Fr> pub = public_from_snarkjs_json(slurp(dir / "spub.json"), "spub.json").value();
  ASSERT_EQ(pub.size(), n_public);
  const PreparedVerifyingKey pvk(vk);
  EXPECT_TRUE(verify(pvk, proof, pub).value());
  // The same proof with one bit of its encoding flipped is rejected (undecodable or invalid).
  auto bytes = proof.to_bytes();
  bytes[150] ^= 0x04;
  auto changed = Proof::from_bytes(bytes);
  if (changed) {
    EXPECT_FALSE(verify(pvk, *changed, pub).value());
  }
  std::vector<Fr> wrong = pub;
  wrong.back() += Fr::one();
  EXPECT_FALSE(verify(pvk, proof, wrong).value());
}

// A damaged .zkey: every error names the file and the offset or field, and nothing crashes.
TEST_F(Interop, DamagedZkeyIsAnErrorNamingFileAndField) {
  const std::string good = slurp(dir / "c.zkey");
  const auto try_read = [&](const std::string& bytes) {
    spit(dir / "bad.zkey", bytes);
    return read_zkey(dir / "bad.zkey", pool);
  };
  for (size_t cut : {size_t{0}, size_t{3}, size_t{11}, size_t{40}, good.size() / 3, good.size() / 2, good.size() - 1}) {
    auto e = try_read(good.substr(0, cut));
    ASSERT_FALSE(e) << cut;
    EXPECT_NE(e.error().message.find((dir / "bad.zkey").string() + ": offset "), std::string::npos) << e.error().message;
  }
  std::string magic = good;
  magic[0] = 'x';
  EXPECT_NE(try_read(magic).error().message.find("magic: not a .zkey file"), std::string::npos);
  // Flip one bit at 40 places past the header: an error (or another valid key), never a crash.
  size_t errors = 0;
  for (size_t at = 200; at < good.size(); at += good.size() / 40) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    auto e = try_read(bad);
    if (!e) {
      ++errors;
      EXPECT_NE(e.error().message.find("bad.zkey: offset "), std::string::npos) << e.error().message;
    }
  }
  EXPECT_GT(errors, 0u);
}

TEST(SnarkjsJson, BadInputNamesTheField) {
  EXPECT_NE(proof_from_snarkjs_json("{", "p.json").error().message.find("p.json: not valid JSON"), std::string::npos);
  const std::string no_c = R"({"pi_a": ["1", "2", "1"], "pi_b": [["0","0"],["1","0"],["0","0"]], "protocol": "groth16", "curve": "bls12381"})";
  auto e = proof_from_snarkjs_json(no_c, "p.json");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("pi_a: point is not on the curve"), std::string::npos) << e.error().message;
  auto bn = proof_from_snarkjs_json(R"({"protocol": "groth16", "curve": "bn128"})", "p.json");
  EXPECT_NE(bn.error().message.find("curve: expected \"bls12381\""), std::string::npos) << bn.error().message;
  auto pub = public_from_snarkjs_json(R"(["12", "x"])", "pub.json");
  EXPECT_NE(pub.error().message.find("pub.json: [1]: not a decimal number"), std::string::npos) << pub.error().message;
}

}  // namespace
}  // namespace cuzk::groth16
