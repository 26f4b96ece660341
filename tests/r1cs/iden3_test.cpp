// iden3 .r1cs / .wtns files, checked against snarkjs 0.7.6 and iden3's r1csfile (the readers
// and writers circom users rely on) through `snarkjs` and tests/oracle/iden3.mjs.
#include "r1cs/iden3.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "support/format.hpp"
#include "support/process.hpp"
#include "support/random.hpp"

namespace cuzk::r1cs::iden3 {
namespace {

namespace fs = std::filesystem;
using ff::Fr;

using test::oracle_dir;
using test::Process;
using test::quote;
using test::run;
using test::snarkjs;

Process helper(const std::string& args) { return run("node " + quote(oracle_dir() / "iden3.mjs") + " " + args); }

std::vector<uint8_t> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_bytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

uint32_t get_u32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t get_u64(const std::vector<uint8_t>& b, size_t at) { return get_u32(b, at) | uint64_t(get_u32(b, at + 4)) << 32; }
void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
void put_u64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// x^3 + x + 5 = out (the circom/snarkjs tutorial circuit). Wires in iden3 order:
// 0 ONE, 1 out (public output), 2 x (private input), 3 x^2, 4 x^3.
R1csFile cubic_circuit() {
  R1csFile f;
  f.n_wires = 5;
  f.n_pub_out = 1;
  f.n_prv_in = 1;
  f.n_labels = 5;
  const Fr one = Fr::one();
  f.constraints = {
      {{{2, one}}, {{2, one}}, {{3, one}}},                                  // x * x = x^2
      {{{3, one}}, {{2, one}}, {{4, one}}},                                  // x^2 * x = x^3
      {{{4, one}, {2, one}, {0, Fr::from_uint(5)}}, {{0, one}}, {{1, one}}},  // (x^3 + x + 5) * 1 = out
  };
  f.wire_to_label = {0, 1, 2, 3, 4};
  return f;
}
std::vector<Fr> cubic_witness(uint64_t x) {
  return {Fr::one(), Fr::from_uint(x * x * x + x + 5), Fr::from_uint(x), Fr::from_uint(x * x), Fr::from_uint(x * x * x)};
}

// A coefficient biased towards the edge values 0, 1 and r - 1.
Fr random_coeff(std::mt19937_64& g) {
  switch (g() % 6) {
    case 0: return Fr::zero();
    case 1: return Fr::one();
    case 2: return -Fr::one();
    default: return test::random_element<Fr>(g);
  }
}

// Random R1CS; with `sorted`, every linear combination has distinct wires in ascending order
// (the only form r1csfile writes and snarkjs's JSON can express: it keys terms by wire).
R1csFile random_r1cs(std::mt19937_64& g, size_t n_constraints, uint32_t n_wires, bool sorted) {
  R1csFile f;
  f.n_wires = n_wires;
  f.n_pub_out = uint32_t(g() % 4);
  f.n_pub_in = uint32_t(g() % 4);
  f.n_prv_in = uint32_t(g() % 8);
  f.n_labels = n_wires + g() % 1000;
  f.constraints.resize(n_constraints);
  std::vector<uint32_t> wires(n_wires);
  std::iota(wires.begin(), wires.end(), 0u);
  for (Constraint& c : f.constraints) {
    for (std::vector<Term>* lc : {&c.a, &c.b, &c.c}) {
      const size_t n = g() % 6;  // includes empty combinations
      if (sorted) {
        std::shuffle(wires.begin(), wires.end(), g);
        std::vector<uint32_t> pick(wires.begin(), wires.begin() + std::min<size_t>(n, n_wires));
        std::sort(pick.begin(), pick.end());
        for (uint32_t w : pick) lc->push_back({w, random_coeff(g)});
      } else {
        for (size_t i = 0; i < n; ++i) lc->push_back({uint32_t(g() % n_wires), random_coeff(g)});
      }
    }
  }
  for (uint32_t i = 0; i < n_wires; ++i) f.wire_to_label.push_back(i + g() % 3 * (uint64_t(1) << 40));
  return f;
}

std::vector<Fr> random_witness(std::mt19937_64& g, size_t n) {
  std::vector<Fr> w(n);
  for (Fr& v : w) v = random_coeff(g);
  return w;
}

// The oracle's text form (tests/oracle/iden3.mjs).
std::string to_text(const R1csFile& f, const std::vector<Fr>& witness) {
  std::ostringstream out;
  out << "header " << test::hex(Fr::kModulus) << ' ' << f.n_wires << ' ' << f.n_pub_out << ' ' << f.n_pub_in << ' '
      << f.n_prv_in << ' ' << f.n_labels << ' ' << f.constraints.size() << '\n';
  for (const Constraint& c : f.constraints) {
    for (const std::vector<Term>* lc : {&c.a, &c.b, &c.c}) {
      out << "lc";
      for (const Term& t : *lc) out << ' ' << t.wire << ':' << test::hex(t.coeff);
      out << '\n';
    }
  }
  out << "map";
  for (uint64_t l : f.wire_to_label) out << ' ' << l;
  out << "\nwitness";
  for (const Fr& v : witness) out << ' ' << test::hex(v);
  out << '\n';
  return out.str();
}

class Iden3 : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("cuzk-iden3-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }

  fs::path dir_;
};

// ---- snarkjs reads what we write ----

TEST_F(Iden3, CubicCircuitPassesSnarkjsInfoAndWitnessCheck) {
  const auto r1cs = path("circuit.r1cs"), good = path("good.wtns"), bad = path("bad.wtns");
  ASSERT_TRUE(write_r1cs(r1cs, cubic_circuit()));
  const auto witness = cubic_witness(3);
  ASSERT_EQ(witness[1], Fr::from_uint(35));
  ASSERT_TRUE(write_wtns(good, witness));
  auto broken = witness;
  broken[4] += Fr::one();  // x^3 off by one: constraints 2 and 3 fail
  ASSERT_TRUE(write_wtns(bad, broken));

  const Process info = snarkjs("r1cs info " + quote(r1cs));
  ASSERT_EQ(info.rc, 0) << info.output;
  for (const char* line : {"Curve: bls12-381", "# of Wires: 5", "# of Constraints: 3", "# of Private Inputs: 1",
                           "# of Public Inputs: 0", "# of Labels: 5", "# of Outputs: 1"}) {
    EXPECT_NE(info.output.find(line), std::string::npos) << line << "\n" << info.output;
  }
  const Process accepted = snarkjs("wtns check " + quote(r1cs) + " " + quote(good));
  EXPECT_EQ(accepted.rc, 0) << accepted.output;
  EXPECT_NE(accepted.output.find("WITNESS IS CORRECT"), std::string::npos) << accepted.output;
  const Process rejected = snarkjs("wtns check " + quote(r1cs) + " " + quote(bad));
  EXPECT_EQ(rejected.rc, 1) << rejected.output;
  EXPECT_NE(rejected.output.find("WITNESS IS NOT CORRECT"), std::string::npos) << rejected.output;
}

TEST_F(Iden3, SnarkjsExportsOurRandomFilesExactly) {
  auto g = test::rng(0x1de3);
  const R1csFile file = random_r1cs(g, 300, 120, /*sorted=*/true);
  const auto witness = random_witness(g, 150);
  ASSERT_TRUE(write_r1cs(path("random.r1cs"), file));
  ASSERT_TRUE(write_wtns(path("random.wtns"), witness));
  const Process exported =
      helper("export " + quote(path("random.r1cs")) + " " + quote(path("random.wtns")) + " " + quote(path("out.txt")));
  ASSERT_EQ(exported.rc, 0) << exported.output;
  const auto text = read_bytes(path("out.txt"));
  EXPECT_EQ(std::string(text.begin(), text.end()), to_text(file, witness));
}

// ---- we read what snarkjs / r1csfile write ----

TEST_F(Iden3, ReadsFilesWrittenByR1csfileAndSnarkjsByteForByte) {
  auto g = test::rng(0x1de4);
  const R1csFile file = random_r1cs(g, 250, 90, /*sorted=*/true);
  const auto witness = random_witness(g, 90);
  {
    std::ofstream spec(path("spec.txt"));
    spec << to_text(file, witness);
  }
  const Process written = helper("write " + quote(path("spec.txt")) + " " + quote(path("theirs.r1cs")) + " " +
                             quote(path("theirs.wtns")));
  ASSERT_EQ(written.rc, 0) << written.output;

  const auto r1cs = read_r1cs(path("theirs.r1cs"));
  ASSERT_TRUE(r1cs) << r1cs.error().to_string();
  EXPECT_EQ(*r1cs, file);
  const auto values = read_wtns(path("theirs.wtns"));
  ASSERT_TRUE(values) << values.error().to_string();
  EXPECT_EQ(*values, witness);

  // Same sections in the same order, so our writer must produce the very same bytes.
  ASSERT_TRUE(write_r1cs(path("ours.r1cs"), file));
  ASSERT_TRUE(write_wtns(path("ours.wtns"), witness));
  EXPECT_EQ(read_bytes(path("ours.r1cs")), read_bytes(path("theirs.r1cs")));
  EXPECT_EQ(read_bytes(path("ours.wtns")), read_bytes(path("theirs.wtns")));
}

// ---- round trips and layout freedom, no oracle ----

TEST_F(Iden3, RandomFilesRoundTrip) {
  auto g = test::rng(0x1de5);
  for (int round = 0; round < 3; ++round) {
    R1csFile file = random_r1cs(g, 200 + g() % 200, 1 + uint32_t(g() % 300) + 16, /*sorted=*/false);
    if (round == 2) file.wire_to_label.clear();  // section 3 is optional
    ASSERT_TRUE(write_r1cs(path("r.r1cs"), file));
    const auto back = read_r1cs(path("r.r1cs"));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(*back, file);

    const auto witness = random_witness(g, g() % 500);
    ASSERT_TRUE(write_wtns(path("w.wtns"), witness));
    const auto values = read_wtns(path("w.wtns"));
    ASSERT_TRUE(values) << values.error().to_string();
    EXPECT_EQ(*values, witness);
  }
}

// Splits a file written by us into its preamble (magic, version, count) and sections.
struct Split {
  std::vector<uint8_t> preamble;
  std::vector<std::vector<uint8_t>> sections;  // each with its 12-byte type + size header
};
Split split(const std::vector<uint8_t>& bytes) {
  Split s;
  s.preamble.assign(bytes.begin(), bytes.begin() + 12);
  for (size_t at = 12; at < bytes.size();) {
    const size_t end = at + 12 + size_t(get_u64(bytes, at + 4));
    s.sections.emplace_back(bytes.begin() + long(at), bytes.begin() + long(end));
    at = end;
  }
  return s;
}
std::vector<uint8_t> join(const Split& s) {
  std::vector<uint8_t> out = s.preamble;
  put_u32(out, 8, uint32_t(s.sections.size()));
  for (const auto& section : s.sections) out.insert(out.end(), section.begin(), section.end());
  return out;
}

TEST_F(Iden3, SectionsInAnyOrderAndUnknownSectionsSkipped) {
  const R1csFile file = cubic_circuit();
  ASSERT_TRUE(write_r1cs(path("c.r1cs"), file));
  Split s = split(read_bytes(path("c.r1cs")));
  ASSERT_EQ(s.sections.size(), 3u);
  std::reverse(s.sections.begin(), s.sections.end());
  std::vector<uint8_t> unknown(12 + 7, 0xab);  // type 0xabababab, 7 bytes of payload
  put_u64(unknown, 4, 7);
  s.sections.insert(s.sections.begin() + 1, unknown);
  s.sections.push_back({9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});  // an empty section of type 9
  write_bytes(path("shuffled.r1cs"), join(s));
  const auto back = read_r1cs(path("shuffled.r1cs"));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, file);

  // snarkjs agrees that the reordered file is the same circuit with a valid witness.
  ASSERT_TRUE(write_wtns(path("w.wtns"), cubic_witness(11)));
  Split w = split(read_bytes(path("w.wtns")));
  std::swap(w.sections[0], w.sections[1]);
  write_bytes(path("w.wtns"), join(w));
  const auto values = read_wtns(path("w.wtns"));
  ASSERT_TRUE(values) << values.error().to_string();
  EXPECT_EQ(*values, cubic_witness(11));
  const Process check = snarkjs("wtns check " + quote(path("shuffled.r1cs")) + " " + quote(path("w.wtns")));
  EXPECT_EQ(check.rc, 0) << check.output;
}

// ---- damaged and foreign files ----

// The error names the file and says where (an offset or a field).
void expect_error(const Error& e, const fs::path& file, ErrorCode code, const std::string& needle) {
  EXPECT_EQ(e.code, code) << e.to_string();
  EXPECT_NE(e.message.find(file.string()), std::string::npos) << e.to_string();
  EXPECT_NE(e.message.find(needle), std::string::npos) << "expected \"" << needle << "\" in: " << e.to_string();
}

TEST_F(Iden3, EveryTruncationIsAnErrorNamingTheOffset) {
  ASSERT_TRUE(write_r1cs(path("c.r1cs"), cubic_circuit()));
  ASSERT_TRUE(write_wtns(path("w.wtns"), cubic_witness(3)));
  for (const char* name : {"c.r1cs", "w.wtns"}) {
    const auto full = read_bytes(path(name));
    const fs::path cut = path(std::string("cut-") + name);
    for (size_t size = 0; size < full.size(); ++size) {
      write_bytes(cut, std::vector<uint8_t>(full.begin(), full.begin() + long(size)));
      const Error e = name[0] == 'c' ? read_r1cs(cut).error() : read_wtns(cut).error();
      expect_error(e, cut, ErrorCode::kCorruption, "offset ");
      if (::testing::Test::HasFailure()) FAIL() << "truncated to " << size << " bytes";
    }
  }
  // Spot checks of what the message says.
  const auto full = read_bytes(path("c.r1cs"));
  write_bytes(path("cut.r1cs"), std::vector<uint8_t>(full.begin(), full.begin() + 2));
  expect_error(read_r1cs(path("cut.r1cs")).error(), path("cut.r1cs"), ErrorCode::kCorruption, "offset 0: magic");
  write_bytes(path("cut.r1cs"), std::vector<uint8_t>(full.begin(), full.begin() + 30));
  // The header section (type 1, 64 bytes) starts at 24 and would end at 88.
  expect_error(read_r1cs(path("cut.r1cs")).error(), path("cut.r1cs"), ErrorCode::kCorruption,
               "offset 16: section 0 size: section of 64 bytes runs past the end of the file");
}

TEST_F(Iden3, ForeignOrDamagedHeadersAreRejected) {
  ASSERT_TRUE(write_r1cs(path("c.r1cs"), cubic_circuit()));
  ASSERT_TRUE(write_wtns(path("w.wtns"), cubic_witness(3)));
  const auto r1cs = read_bytes(path("c.r1cs"));
  const auto wtns = read_bytes(path("w.wtns"));
  // Our layout: preamble 0..12, section 1 header at 12, payload from 24: n8 at 24, prime at 28.
  ASSERT_EQ(get_u32(r1cs, 12), 1u);
  ASSERT_EQ(get_u32(r1cs, 24), 32u);
  const fs::path bad = path("bad.r1cs"), badw = path("bad.wtns");

  auto b = r1cs;
  b[0] = 'R';
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kInvalidArgument, "offset 0: magic");
  write_bytes(badw, r1cs);  // an .r1cs where a .wtns is expected
  expect_error(read_wtns(badw).error(), badw, ErrorCode::kInvalidArgument, "expected \"wtns\"");

  b = r1cs;
  put_u32(b, 4, 2);
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kInvalidArgument, "offset 4: version: version 2");
  auto w = wtns;
  put_u32(w, 4, 3);
  write_bytes(badw, w);
  expect_error(read_wtns(badw).error(), badw, ErrorCode::kInvalidArgument, "offset 4: version: version 3");

  // BN254's r (circom's default prime), little-endian.
  const auto bn254 = test::hex_bytes("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
  b = r1cs;
  w = wtns;
  for (size_t i = 0; i < 32; ++i) b[28 + i] = w[28 + i] = bn254[31 - i];
  write_bytes(bad, b);
  write_bytes(badw, w);
  const std::string bn254_named = "offset 28: prime: prime 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001 (BN254's r)";
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kInvalidArgument, bn254_named);
  expect_error(read_wtns(badw).error(), badw, ErrorCode::kInvalidArgument, bn254_named);

  b = r1cs;
  put_u32(b, 24, 48);  // a 48-byte field
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kInvalidArgument, "offset 24: field size n8: field of 48 bytes");

  // A section size beyond the file: the constraints section (the second one) claims 2^40 bytes.
  const size_t constraints_at = 12 + 12 + size_t(get_u64(r1cs, 16));
  ASSERT_EQ(get_u32(r1cs, constraints_at), 2u);
  b = r1cs;
  put_u64(b, constraints_at + 4, uint64_t(1) << 40);
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption,
               "offset " + std::to_string(constraints_at + 4) + ": section 1 size: section of 1099511627776 bytes");

  // Counts that would allocate far more than the file holds fail before allocating.
  b = r1cs;
  put_u32(b, 24 + 4 + 32 + 24, 0xffffffff);  // n_constraints
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption, "offset 84: header n_constraints: 4294967295");
  b = r1cs;
  put_u32(b, constraints_at + 12, 0x10000000);  // constraint 0's A term count
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption, "constraint 0 A term count: 268435456 terms");
  w = wtns;
  put_u32(w, 24 + 4 + 32, 0xffffffff);  // n_witness
  write_bytes(badw, w);
  expect_error(read_wtns(badw).error(), badw, ErrorCode::kCorruption, "offset 60: header n_witness: 4294967295");

  // A wire outside n_wires, and a coefficient that is not below r.
  b = r1cs;
  put_u32(b, constraints_at + 16, 5);  // constraint 0, A, term 0: wire 2 -> 5
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption, "constraint 0 A wire: wire 5 >= n_wires 5");
  b = r1cs;
  for (size_t i = 0; i < 32; ++i) b[constraints_at + 20 + i] = r1cs[28 + i];  // coefficient = r
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption,
               "offset " + std::to_string(constraints_at + 20) + ": constraint 0 A coefficient: value 0x73eda7");

  // More inputs and outputs than wires; a header section given twice.
  b = r1cs;
  put_u32(b, 72, 10);  // n_prv_in
  write_bytes(bad, b);
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption,
               "offset 60: header n_wires: 5 wires cannot hold ONE and 11 inputs/outputs");
  Split twice = split(r1cs);
  twice.sections.push_back(twice.sections[0]);
  write_bytes(bad, join(twice));
  expect_error(read_r1cs(bad).error(), bad, ErrorCode::kCorruption,
               "offset " + std::to_string(r1cs.size()) + ": section 3 type: duplicate section of type 1");

  // A missing file is an I/O error naming it.
  expect_error(read_r1cs(path("absent.r1cs")).error(), path("absent.r1cs"), ErrorCode::kIo, "cannot open");
}

// Random damage (bytes overwritten, counts and sizes set to random or extreme values) gives an
// Error or, where the damage lands in a coefficient, label or value, a file; never a crash or an
// out-of-bounds read (the sanitizer build runs this too).
TEST_F(Iden3, RandomDamageNeverCrashes) {
  auto g = test::rng(0x1de6);
  ASSERT_TRUE(write_r1cs(path("r.r1cs"), random_r1cs(g, 20, 30, /*sorted=*/false)));
  ASSERT_TRUE(write_wtns(path("w.wtns"), random_witness(g, 20)));
  const auto r1cs = read_bytes(path("r.r1cs"));
  const auto wtns = read_bytes(path("w.wtns"));
  const fs::path bad = path("bad");
  size_t errors = 0;
  for (int i = 0; i < 400; ++i) {
    auto b = (i % 2 == 0) ? r1cs : wtns;
    for (int k = 0; k < 1 + int(g() % 3); ++k) {
      const size_t at = g() % (b.size() - 4);
      const uint32_t values[] = {uint32_t(g()), 0, 0xffffffff, uint32_t(g() % 64)};
      if (g() % 2) put_u32(b, at, values[g() % 4]);
      else b[at] = uint8_t(g());
    }
    write_bytes(bad, b);
    const bool ok = (i % 2 == 0) ? read_r1cs(bad).has_value() : read_wtns(bad).has_value();
    if (!ok) {
      ++errors;
      const Error e = (i % 2 == 0) ? read_r1cs(bad).error() : read_wtns(bad).error();
      EXPECT_NE(e.message.find(bad.string()), std::string::npos) << e.to_string();
    }
  }
  EXPECT_GT(errors, 100u);  // most damage is caught
}

// A real circom output (r1csfile's own test fixture, BN254) is refused with the prime named.
TEST_F(Iden3, RealCircomBn254FileIsRefused) {
  const fs::path example = oracle_dir() / "node_modules/r1csfile/test/testutils/example.r1cs";
  if (!fs::exists(example)) GTEST_SKIP() << example << " not installed";
  expect_error(read_r1cs(example).error(), example, ErrorCode::kInvalidArgument, "(BN254's r)");
}

TEST_F(Iden3, WriterRefusesInconsistentInput) {
  R1csFile f = cubic_circuit();
  f.constraints[1].b.push_back({7, Fr::one()});
  expect_error(write_r1cs(path("x.r1cs"), f).error(), path("x.r1cs"), ErrorCode::kInvalidArgument,
               "constraint 1 uses wire 7 >= n_wires 5");
  f = cubic_circuit();
  f.wire_to_label.pop_back();
  expect_error(write_r1cs(path("x.r1cs"), f).error(), path("x.r1cs"), ErrorCode::kInvalidArgument,
               "wire_to_label has 4 entries");
  f = cubic_circuit();
  f.n_prv_in = 4;
  expect_error(write_r1cs(path("x.r1cs"), f).error(), path("x.r1cs"), ErrorCode::kInvalidArgument, "n_wires 5");
}

}  // namespace
}  // namespace cuzk::r1cs::iden3
