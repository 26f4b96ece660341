// The verifier and the key/proof encodings against a real bellperson proof (the 2 KiB PoRep
// proof of shared/fixtures/polka-storage-2KiB, copied to tests/data/groth16 with its inputs).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "groth16/params_file.hpp"
#include "groth16/verifier.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

const std::filesystem::path kData = std::filesystem::path(CUZK_TEST_DATA_DIR) / "groth16";

std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

std::vector<ff::Fr> fixture_inputs() {
  std::ifstream f(kData / "porep_2KiB.inputs.txt");
  std::vector<ff::Fr> out;
  for (std::string line; std::getline(f, line);) {
    ff::BigInt<4> v;
    for (char ch : line) {  // decimal digits: v = 10 v + d
      ff::BigInt<4> ten_v = v;
      for (int k = 0; k < 9; ++k) ff::add_in_place(ten_v, v);
      v = ten_v;
      ff::add_in_place(v, ff::BigInt<4>(static_cast<uint64_t>(ch - '0')));
    }
    out.push_back(ff::Fr::from_canonical(v).value());
  }
  return out;
}

struct Fixture {
  ThreadPool pool{2};
  VerifyingKey vk = parse_vk(slurp(kData / "porep_2KiB.vk.compressed.bin"), "porep_2KiB.vk", pool,
                             {PointEncoding::kCompressed})
                        .value();
  Proof proof = Proof::from_bytes(slurp(kData / "porep_2KiB.proof.bin")).value();
  std::vector<ff::Fr> inputs = fixture_inputs();
};

TEST(Verifier, AcceptsARealBellpersonProofAndRejectsAnyChange) {
  Fixture f;
  ASSERT_EQ(f.vk.ic.size(), 40u);
  ASSERT_EQ(f.inputs.size(), 39u);
  const PreparedVerifyingKey pvk(f.vk);
  EXPECT_TRUE(verify(pvk, f.proof, f.inputs).value());

  for (size_t i : {0u, 1u, 2u, 3u, 38u}) {  // replica_id, comm_d, comm_r, a challenge, the last
    auto changed = f.inputs;
    changed[i] += ff::Fr::one();
    EXPECT_FALSE(verify(pvk, f.proof, changed).value()) << "input " << i;
  }
  Proof swapped = f.proof;
  std::swap(swapped.a, swapped.c);
  EXPECT_FALSE(verify(pvk, swapped, f.inputs).value());

  // One flipped bit anywhere in the 192 bytes: undecodable, or decodes and fails to verify.
  auto rng = test::rng(1);
  const auto bytes = f.proof.to_bytes();
  for (int trial = 0; trial < 6; ++trial) {
    auto bad = bytes;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    auto p = Proof::from_bytes(bad);
    if (p) {
      EXPECT_FALSE(verify(pvk, *p, f.inputs).value());
    }
  }

  auto short_inputs = f.inputs;
  short_inputs.pop_back();
  auto e = verify(pvk, f.proof, short_inputs);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("38 public inputs, the key expects 39"), std::string::npos);
}

// The input accumulator ic[0] + Σ x_i·ic[i+1] both ways (a scalar multiplication each below 64
// inputs, one MSM from 64: a WindowPoSt partition has 25,839): a key of known exponents (alpha = a,
// beta = b, gamma = delta = 1, ic[i] = r_i, all times the generators) and the proof A = (ab + r_0 +
// Σ x_i r_i + c)·G1, B = G2, C = c·G1, which satisfies the pairing equation exactly when the
// accumulator is right; then any changed input is refused.
TEST(Verifier, InputAccumulatorOfFewAndManyInputs) {
  auto rng = test::rng(29);
  const auto random_fr = [&] {
    ff::BigInt<4> v;
    for (auto& limb : v.limbs) limb = rng();
    v.limbs[3] &= 0x0fffffffffffffffull;  // below 2^252 < r
    return ff::Fr::from_canonical(v).value();
  };
  const auto g1 = [](const ff::Fr& k) { return ec::scalar_mul(ec::G1Jacobian::generator(), k).to_affine(); };
  for (const size_t n : {10u, 63u, 64u, 300u}) {
    const ff::Fr a = random_fr(), b = random_fr(), c = random_fr();
    VerifyingKey vk;
    vk.alpha_g1 = g1(a);
    vk.beta_g2 = ec::scalar_mul(ec::G2Jacobian::generator(), b).to_affine();
    vk.gamma_g2 = ec::G2Jacobian::generator().to_affine();
    vk.delta_g2 = vk.gamma_g2;
    std::vector<ff::Fr> r(n + 1), x(n);
    ff::Fr acc = a * b + c;
    for (size_t i = 0; i <= n; ++i) {
      r[i] = random_fr();
      vk.ic.push_back(g1(r[i]));
    }
    acc += r[0];
    for (size_t i = 0; i < n; ++i) {
      // Small inputs too (challenge indices), and zero.
      x[i] = i % 3 == 0 ? random_fr() : i % 3 == 1 ? ff::Fr::from_uint(rng() & 0x3fffffff) : ff::Fr::zero();
      acc += x[i] * r[i + 1];
    }
    Proof proof;
    proof.a = g1(acc);
    proof.b = ec::G2Jacobian::generator().to_affine();
    proof.c = g1(c);
    const PreparedVerifyingKey pvk(vk);
    EXPECT_TRUE(verify(pvk, proof, x).value()) << n << " inputs";
    // The term alone (what a prover computes beside the proof) is (r_0 + Σ x_i r_i)·G1.
    const G1Affine term = inputs_term(pvk, x).value();
    EXPECT_EQ(term, g1(acc - a * b - c)) << n << " inputs";
    EXPECT_TRUE(verify_prepared(pvk, proof, term)) << n << " inputs";
    EXPECT_FALSE(verify_prepared(pvk, proof, g1(acc))) << n << " inputs";
    EXPECT_FALSE(inputs_term(pvk, std::span(x).first(n - 1))) << n << " inputs";
    for (size_t i : {size_t{0}, n / 2, n - 1}) {
      auto changed = x;
      changed[i] += ff::Fr::one();
      EXPECT_FALSE(verify(pvk, proof, changed).value()) << n << " inputs, input " << i;
    }
  }
}

TEST(Verifier, BatchAgreesWithSingleVerification) {
  Fixture f;
  const PreparedVerifyingKey pvk(f.vk);
  const std::vector<Proof> proofs(3, f.proof);
  std::vector<std::vector<ff::Fr>> inputs(3, f.inputs);
  EXPECT_TRUE(verify_batch(pvk, proofs, inputs).value());
  inputs[1][5] += ff::Fr::one();
  EXPECT_FALSE(verify_batch(pvk, proofs, inputs).value());
  EXPECT_TRUE(verify_batch(pvk, {}, {}).value());
}

TEST(Encoding, ProofRoundTripAndRejections) {
  Fixture f;
  const auto bytes = f.proof.to_bytes();
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()), slurp(kData / "porep_2KiB.proof.bin"));
  EXPECT_FALSE(Proof::from_bytes(std::span(bytes).first(191)));
  auto inf = bytes;  // B at infinity: flags 0xc0, rest zero
  std::fill(inf.begin() + 48, inf.begin() + 144, 0);
  inf[48] = 0xc0;
  auto e = Proof::from_bytes(inf);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("B: the point at infinity"), std::string::npos);
}

// A Parameters of random points, written and read back; then every kind of damage.
TEST(ParamsFile, RoundTripAndDamageNamesFileOffsetAndField) {
  ThreadPool pool(2);
  auto rng = test::rng(2);
  auto g1 = [&] { return ec::scalar_mul(ec::G1Jacobian::generator(), test::random_element<ff::Fr>(rng).to_int()).to_affine(); };
  auto g2 = [&] { return ec::scalar_mul(ec::G2Jacobian::generator(), test::random_element<ff::Fr>(rng).to_int()).to_affine(); };
  Parameters p;
  p.vk.alpha_g1 = g1();
  p.vk.beta_g1 = g1();
  p.vk.beta_g2 = g2();
  p.vk.gamma_g2 = g2();
  p.vk.delta_g1 = g1();
  p.vk.delta_g2 = g2();
  p.vk.ic = {g1(), g1(), g1()};
  for (auto* v : {&p.h, &p.l, &p.a, &p.b_g1}) for (int i = 0; i < 5; ++i) v->push_back(g1());
  for (int i = 0; i < 2; ++i) p.b_g2.push_back(g2());

  const auto dir = std::filesystem::temp_directory_path() / ("cuzk_params_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "t.params";
  ASSERT_TRUE(write_params(path, p));
  EXPECT_EQ(read_params(path, pool).value(), p);
  ASSERT_TRUE(write_vk(dir / "t.vk", p.vk));
  EXPECT_EQ(read_vk(dir / "t.vk", pool).value(), p.vk);

  const auto good = slurp(path);
  // vk: 96 + 96 + 192 + 192 + 96 + 192 = 864 bytes, ic: 4 + 3·96; h starts at 1156.
  ASSERT_EQ(good.size(), 864u + 4 + 3 * 96 + 4 * (4 + 5 * 96) + 4 + 2 * 192);
  for (size_t cut : {size_t{0}, size_t{50}, size_t{864}, size_t{1158}, good.size() - 1}) {
    auto e = parse_params(std::span(good).first(cut), "t.params", pool);
    ASSERT_FALSE(e) << cut;
    EXPECT_EQ(e.error().code, ErrorCode::kCorruption) << e.error().message;
    EXPECT_EQ(e.error().message.rfind("t.params: offset ", 0), 0u) << e.error().message;
  }
  auto bad = good;
  bad[1156 + 4 + 3 * 96 + 40] ^= 0x01;  // h[3]'s x coordinate: off the curve (or not canonical)
  auto e = parse_params(bad, "t.params", pool);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("t.params: offset 1448: h[3]: "), std::string::npos) << e.error().message;

  auto big = good;  // h claims 2^31 points
  big[1156] = 0x80;
  e = parse_params(big, "t.params", pool);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("h: 2147483653 points need"), std::string::npos) << e.error().message;

  auto trailing = good;
  trailing.push_back(0);
  EXPECT_FALSE(parse_params(trailing, "t.params", pool));

  auto unwritable = write_params(dir / "no-such-dir" / "t.params", p);
  ASSERT_FALSE(unwritable);
  EXPECT_EQ(unwritable.error().code, ErrorCode::kIo);
  EXPECT_NE(unwritable.error().message.find("no-such-dir/t.params: could not write"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::groth16
