// KeygenCS → CompiledR1cs: the CSR matrices against TestCS's rows, a circuit recorded in parts
// against one recording, SpMV against ProvingCS, and the file format (round trip; truncation and corruption give errors naming file and offset).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unistd.h>

#include "ff/bls12_381.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "support/circuits.hpp"
#include "support/random.hpp"

namespace cuzk::r1cs {
namespace {

using ff::Fr;

template <class Body>
CompiledR1cs<Fr> compile(Body body) {
  KeygenCS<Fr> k;
  body(k);
  return std::move(k).finish();
}

// Row r of a CSR matrix as an LC over tagged variables, to compare with TestCS's rows.
LinearCombination<Fr> row_of(const CsrMatrix<Fr>& m, uint32_t num_inputs, size_t r) {
  LinearCombination<Fr> lc;
  for (uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) {
    const uint32_t col = m.column[k];
    const Variable v = col < num_inputs ? Variable::input(col) : Variable::aux(col - num_inputs);
    EXPECT_TRUE(lc.empty() || lc.terms().back().var < v) << "columns sorted within a row";
    lc.add(m.coeff[k], v);
  }
  return lc;
}

TEST(KeygenCS, CsrEqualsTestCSRowsWithInputsInterleaved) {
  const uint64_t seed = test::seed();
  auto body = [&](auto& cs) { test::random_r1cs(cs, 300, seed); };
  TestCS<Fr> t;
  body(t);
  const CompiledR1cs<Fr> r = compile(body);
  ASSERT_EQ(r.num_inputs, t.num_inputs());
  ASSERT_EQ(r.num_aux, t.num_aux());
  ASSERT_EQ(r.num_constraints(), t.num_constraints());
  ASSERT_GT(t.num_inputs(), 10u) << "inputs must be allocated between rows for this test to bite";
  for (size_t i = 0; i < r.num_constraints(); ++i) {
    EXPECT_EQ(row_of(r.a, r.num_inputs, i), t.constraints()[i].a);
    EXPECT_EQ(row_of(r.b, r.num_inputs, i), t.constraints()[i].b);
    EXPECT_EQ(row_of(r.c, r.num_inputs, i), t.constraints()[i].c);
  }
  // The fingerprint from the compiled form equals TestCS's (inputs interleaved with aux).
  EXPECT_EQ(row_digest(r, r.num_constraints()), t.digest());
  EXPECT_NE(row_digest(r, r.num_constraints() - 1), t.digest());
}

// Rows for KeygenCS (no values): inputs and aux allocated between rows, each row over variables
// allocated so far, an earlier part's included (picked by number, as PoRep's challenges refer to
// the head's), with coefficients from -3 to 3.
void record_rows(KeygenCS<Fr>& cs, size_t rows, uint64_t seed) {
  std::mt19937_64 g(seed);
  const auto pick = [&] {
    return g() % 2 ? Variable::input(uint32_t(g() % cs.num_inputs())) : Variable::aux(uint32_t(g() % cs.num_aux()));
  };
  for (size_t r = 0; r < rows; ++r) {
    if (g() % 5 == 0) cs.alloc_input("input", [] { return Fr::zero(); });
    const Variable w = cs.alloc("w", [] { return Fr::zero(); });
    const Fr k = Fr::from_uint(g() % 7) - Fr::from_uint(3);
    cs.enforce("row", [&](LinearCombination<Fr> lc) { return lc + pick() + pick(); },
               [&](LinearCombination<Fr> lc) { return lc + k * pick(); },
               [&](LinearCombination<Fr> lc) { return lc + w; });
  }
}

// A circuit recorded in parts (each numbering on from the one before, its rows referring to the
// earlier parts' variables) and joined equals one KeygenCS that recorded it all, inputs
// interleaved included; a part that does not begin where the one before ended is refused.
TEST(KeygenCS, PartsJoinedEqualOneRecording) {
  const uint64_t seed = test::seed();
  KeygenCS<Fr> whole;
  for (uint64_t k = 0; k < 3; ++k) record_rows(whole, 100 + 50 * k, seed + k);
  const CompiledR1cs<Fr> expected = std::move(whole).finish();
  ASSERT_GT(expected.num_inputs, 20u);

  std::vector<KeygenCS<Fr>> parts;
  parts.emplace_back();
  for (uint64_t k = 0; k < 3; ++k) {
    if (k > 0) parts.emplace_back(parts.back().num_inputs(), parts.back().num_aux());
    record_rows(parts.back(), 100 + 50 * k, seed + k);
  }
  ThreadPool pool(2);
  EXPECT_TRUE(KeygenCS<Fr>::finish(std::move(parts), pool) == expected);

  std::vector<KeygenCS<Fr>> gap;
  gap.emplace_back();
  record_rows(gap[0], 20, seed);
  gap.emplace_back(gap[0].num_inputs(), gap[0].num_aux() + 1);
  EXPECT_THROW(KeygenCS<Fr>::finish(std::move(gap), pool), SynthesisError);
}

TEST(Spmv, EqualsProvingCSRowForRow) {
  const uint64_t seed = test::seed();
  const std::vector<std::function<void(KeygenCS<Fr>&, ProvingCS<Fr>&)>> bodies = {
      [&](auto& k, auto& p) { test::cubic(k, Fr::from_uint(seed)); test::cubic(p, Fr::from_uint(seed)); },
      [&](auto& k, auto& p) { test::random_r1cs(k, 3000, seed); test::random_r1cs(p, 3000, seed); },
      [&](auto& k, auto& p) { test::booleans(k, 5000, seed); test::booleans(p, 5000, seed); },
  };
  ThreadPool pool(2), serial(1);
  for (const auto& body : bodies) {
    KeygenCS<Fr> k;
    ProvingCS<Fr> p;
    body(k, p);
    const CompiledR1cs<Fr> r = std::move(k).finish();
    for (ThreadPool* tp : {&pool, &serial}) {
      const RowValues<Fr> v = spmv<Fr>(r, p.inputs(), p.aux(), *tp);
      EXPECT_EQ(v.a, p.a());
      EXPECT_EQ(v.b, p.b());
      EXPECT_EQ(v.c, p.c());
    }
  }
}

TEST(Spmv, RejectsAnAssignmentOfTheWrongSize) {
  const CompiledR1cs<Fr> r = compile([](auto& cs) { test::cubic(cs, Fr::from_uint(3)); });
  ThreadPool pool(1);
  std::vector<Fr> inputs(2), aux(2);
  EXPECT_THROW((void)spmv<Fr>(r, inputs, aux, pool), Exception);
}

class CompiledFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("cuzk_r1cs_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::vector<char> read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  void write(const std::filesystem::path& p, const std::vector<char>& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }

  std::filesystem::path dir_;
};

TEST_F(CompiledFile, RoundTrips) {
  const CompiledR1cs<Fr> r = compile([](auto& cs) { test::random_r1cs(cs, 500, test::seed()); });
  const auto path = dir_ / "random.r1cs";
  ASSERT_TRUE(r.save(path).has_value());
  const auto loaded = CompiledR1cs<Fr>::load(path);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
  EXPECT_TRUE(*loaded == r);
}

TEST_F(CompiledFile, MissingFileIsAnIoError) {
  const auto loaded = CompiledR1cs<Fr>::load(dir_ / "absent.r1cs");
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, ErrorCode::kIo);
  EXPECT_NE(loaded.error().message.find("absent.r1cs"), std::string::npos);
}

// Every prefix of a small file fails, naming the file and an offset.
TEST_F(CompiledFile, TruncatedAtEveryOffsetIsAnError) {
  const CompiledR1cs<Fr> r = compile([](auto& cs) { test::cubic(cs, Fr::from_uint(3)); });
  const auto good = dir_ / "cubic.r1cs";
  ASSERT_TRUE(r.save(good).has_value());
  const std::vector<char> bytes = read(good);
  ASSERT_GT(bytes.size(), 100u);
  const auto bad = dir_ / "truncated.r1cs";
  for (size_t n = 0; n < bytes.size(); ++n) {
    write(bad, std::vector<char>(bytes.begin(), bytes.begin() + std::ptrdiff_t(n)));
    const auto loaded = CompiledR1cs<Fr>::load(bad);
    ASSERT_FALSE(loaded.has_value()) << "prefix of " << n << " bytes loaded";
    EXPECT_NE(loaded.error().message.find("truncated.r1cs"), std::string::npos) << loaded.error().message;
    EXPECT_NE(loaded.error().message.find("offset"), std::string::npos) << loaded.error().message;
  }
  std::vector<char> longer = bytes;
  longer.push_back(0);
  write(bad, longer);
  EXPECT_FALSE(CompiledR1cs<Fr>::load(bad).has_value()) << "trailing bytes must be rejected";
}

// Flipping any single byte of a small file is detected (structure checks or a section checksum).
TEST_F(CompiledFile, AnyFlippedByteIsAnError) {
  const CompiledR1cs<Fr> r = compile([](auto& cs) { test::booleans(cs, 3, 3); });
  const auto good = dir_ / "booleans.r1cs";
  ASSERT_TRUE(r.save(good).has_value());
  const std::vector<char> bytes = read(good);
  const auto bad = dir_ / "flipped.r1cs";
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<char> flipped = bytes;
    flipped[i] = char(flipped[i] ^ (1 << (i % 8)));
    write(bad, flipped);
    const auto loaded = CompiledR1cs<Fr>::load(bad);
    ASSERT_FALSE(loaded.has_value()) << "byte " << i << " flipped and loaded";
    EXPECT_NE(loaded.error().message.find("flipped.r1cs"), std::string::npos) << loaded.error().message;
    EXPECT_NE(loaded.error().message.find("offset"), std::string::npos) << loaded.error().message;
  }
}

TEST_F(CompiledFile, ErrorsNameTheField) {
  const CompiledR1cs<Fr> r = compile([](auto& cs) { test::cubic(cs, Fr::from_uint(3)); });
  const auto path = dir_ / "cubic.r1cs";
  ASSERT_TRUE(r.save(path).has_value());
  std::vector<char> bytes = read(path);
  // A coefficient of C (the last section: coeff bytes then an 8-byte checksum) made >= r.
  std::vector<char> noncanonical = bytes;
  for (size_t i = bytes.size() - 8 - 32; i < bytes.size() - 8; ++i) noncanonical[i] = char(0xff);
  write(path, noncanonical);
  auto loaded = CompiledR1cs<Fr>::load(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("C.coeff"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("not canonical"), std::string::npos) << loaded.error().message;
  // The magic.
  std::vector<char> magic = bytes;
  magic[0] = 'X';
  write(path, magic);
  loaded = CompiledR1cs<Fr>::load(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("magic"), std::string::npos) << loaded.error().message;
  // A different field modulus.
  std::vector<char> modulus = bytes;
  modulus[16] = char(modulus[16] ^ 2);
  write(path, modulus);
  loaded = CompiledR1cs<Fr>::load(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("modulus"), std::string::npos) << loaded.error().message;
  // A version from the future.
  std::vector<char> version = bytes;
  version[8] = 9;
  write(path, version);
  loaded = CompiledR1cs<Fr>::load(path);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(loaded.error().message.find("version"), std::string::npos) << loaded.error().message;
}

}  // namespace
}  // namespace cuzk::r1cs
