// GPU SpMV (gpu/spmv.hpp) against its CPU twin r1cs::spmv: random matrices with every row shape
// (empty, one term, a few, longer than a warp's threshold) and coefficient class (+1, −1, random,
// a small repeated set), both storage forms, the fallback to plain when the table overflows, an
// empty matrix, and a real compiled circuit (SHA-256 of one block with its digest packed into
// public inputs: SHA rows plus 255-term packing rows). Label gpu; the host-side coefficient
// encoding has its own test without a GPU (spmv_encode_test.cpp, label gpu_host).

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <vector>

#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/sha256.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/spmv.hpp"
#include "gpu/stream.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/random.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;
using Csr = r1cs::CsrMatrix<Fr>;

bool have_gpu() { return !list_devices().empty(); }

// Rows of length 0, 1, 2..6 and a few of 33..1000 (warp rows); coefficients +1, −1, one of
// `palette` (powers of two) or one of 3000 random values, in equal shares (the tagged table then
// holds about 3000 entries); columns random in [0, num_columns).
Csr random_csr(std::mt19937_64& g, size_t rows, uint32_t num_columns, const std::vector<Fr>& palette) {
  std::vector<Fr> randoms(3000);
  for (auto& v : randoms) v = test::random_element<Fr>(g);
  Csr m;
  m.row_start.push_back(0);
  std::uniform_int_distribution<int> shape(0, 99), coeff_kind(0, 3);
  for (size_t r = 0; r < rows; ++r) {
    const int s = shape(g);
    size_t len = s < 10 ? 0 : s < 40 ? 1 : s < 97 ? 2 + g() % 5 : 33 + g() % 968;
    if (r == 0) len = 1000;  // at least one long row in every matrix
    std::vector<uint32_t> cols(len);
    for (auto& c : cols) c = uint32_t(g() % num_columns);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (uint32_t c : cols) {
      m.column.push_back(c);
      switch (coeff_kind(g)) {
        case 0: m.coeff.push_back(Fr::one()); break;
        case 1: m.coeff.push_back(-Fr::one()); break;
        case 2: m.coeff.push_back(palette[g() % palette.size()]); break;
        default: m.coeff.push_back(randoms[g() % randoms.size()]); break;
      }
    }
    m.row_start.push_back(m.column.size());
  }
  return m;
}

// z with zeros, ones and random values (a witness is mostly bits).
std::vector<Fr> random_z(std::mt19937_64& g, size_t n) {
  std::vector<Fr> z(n);
  for (auto& v : z) {
    const uint64_t k = g() % 4;
    v = k == 0 ? Fr::zero() : k == 1 ? Fr::one() : test::random_element<Fr>(g);
  }
  return z;
}

// The GPU result for matrix m and z = [inputs ‖ aux].
std::vector<Fr> gpu_spmv(const Csr& m, const std::vector<Fr>& z, CoeffForm form, CoeffForm* built = nullptr) {
  Stream stream;
  DeviceCsr d(m.row_start, m.column, m.coeff, stream, form);
  if (built) *built = d.form();
  EXPECT_EQ(d.rows(), m.num_rows());
  EXPECT_EQ(d.nonzeros(), m.num_terms());
  DeviceBuffer<Fr> dz(std::max<size_t>(z.size(), 1), stream);
  dz.upload(z, stream);
  DeviceBuffer<Fr> dout(std::max<size_t>(m.num_rows(), 1), stream);
  spmv(d, dz.data(), dout.data(), stream);
  std::vector<Fr> out(m.num_rows());
  dout.download(out, stream, 0);
  stream.synchronize();
  return out;
}

std::vector<Fr> cpu_spmv(const Csr& m, uint32_t num_inputs, const std::vector<Fr>& z, ThreadPool& pool) {
  std::vector<Fr> out(m.num_rows());
  const std::span<const Fr> all(z);
  r1cs::spmv(m, num_inputs, all.first(num_inputs), all.subspan(num_inputs), std::span<Fr>(out), pool);
  return out;
}

void expect_rows_equal(const std::vector<Fr>& got, const std::vector<Fr>& want) {
  ASSERT_EQ(got.size(), want.size());
  size_t bad = 0;
  for (size_t r = 0; r < got.size(); ++r) {
    if (got[r] != want[r] && ++bad <= 5) ADD_FAILURE() << "row " << r << " differs";
  }
  EXPECT_EQ(bad, 0u);
}

TEST(GpuSpmv, RandomMatrixEqualsCpuBothForms) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  auto g = test::rng(61);
  ThreadPool pool(2);
  std::vector<Fr> palette;
  for (int i = 0; i < 8; ++i) palette.push_back(Fr::from_uint(uint64_t{1} << (i + 1)));
  const uint32_t num_columns = 5000, num_inputs = 7;
  const Csr m = random_csr(g, 20000, num_columns, palette);
  const std::vector<Fr> z = random_z(g, num_columns);
  const std::vector<Fr> want = cpu_spmv(m, num_inputs, z, pool);
  size_t nonzero_rows = 0;
  for (const Fr& v : want) nonzero_rows += !v.is_zero();
  ASSERT_GT(nonzero_rows, want.size() / 2) << "the oracle must not be trivially zero";
  for (CoeffForm form : {CoeffForm::tagged, CoeffForm::plain}) {
    CoeffForm built{};
    expect_rows_equal(gpu_spmv(m, z, form, &built), want);
    EXPECT_EQ(built, form);
  }
}

TEST(GpuSpmv, TooManyDistinctCoefficientsFallsBackToPlain) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  auto g = test::rng(62);
  ThreadPool pool(2);
  // 70000 one-term rows with fresh random coefficients: more than the 65534 table entries.
  Csr m;
  m.row_start.push_back(0);
  for (uint32_t r = 0; r < 70000; ++r) {
    m.column.push_back(r % 1000);
    m.coeff.push_back(test::random_element<Fr>(g));
    m.row_start.push_back(m.column.size());
  }
  const std::vector<Fr> z = random_z(g, 1000);
  CoeffForm built{};
  expect_rows_equal(gpu_spmv(m, z, CoeffForm::tagged, &built), cpu_spmv(m, 1, z, pool));
  EXPECT_EQ(built, CoeffForm::plain);
}

TEST(GpuSpmv, EmptyMatrices) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  const std::vector<Fr> z(4, Fr::one());
  // No rows at all, in both spellings CsrMatrix allows.
  Csr none;
  EXPECT_TRUE(gpu_spmv(none, z, CoeffForm::tagged).empty());
  none.row_start = {0};
  EXPECT_TRUE(gpu_spmv(none, z, CoeffForm::tagged).empty());
  // Rows without terms are zero (the output buffer starts with garbage, so this is written).
  Csr blank;
  blank.row_start.assign(1001, 0);
  Stream stream;
  DeviceCsr d(blank.row_start, blank.column, blank.coeff, stream);
  DeviceBuffer<Fr> dz(4, stream);
  dz.upload(z, stream);
  std::vector<Fr> junk(1000, Fr::one()), out(1000, Fr::one());
  DeviceBuffer<Fr> dout(1000, stream);
  dout.upload(junk, stream);
  spmv(d, dz.data(), dout.data(), stream);
  dout.download(out, stream);
  stream.synchronize();
  for (const Fr& v : out) ASSERT_TRUE(v.is_zero());
}

TEST(GpuSpmv, InconsistentCsrIsRejected) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  Stream stream;
  const std::vector<uint64_t> rows = {0, 2, 1};  // decreasing
  const std::vector<uint32_t> cols = {0};
  const std::vector<Fr> coeff = {Fr::one()};
  EXPECT_THROW(DeviceCsr(rows, cols, coeff, stream), Exception);
  const std::vector<uint64_t> short_rows = {0, 2};  // ends at 2, one term
  EXPECT_THROW(DeviceCsr(short_rows, cols, coeff, stream), Exception);
}

// SHA-256 of one 64-byte block, its 256 output bits packed into two public inputs.
template <class CS>
void sha_circuit(CS& cs, const std::vector<uint8_t>& msg) {
  std::vector<gadgets::Boolean> bits;
  for (size_t i = 0; i < 8 * msg.size(); ++i) {
    r1cs::Namespace ns(cs, [i] { return "msg bit " + std::to_string(i); });
    bits.emplace_back(gadgets::AllocatedBit::alloc(cs, ((msg[i / 8] >> (7 - i % 8)) & 1) != 0));
  }
  const std::vector<gadgets::Boolean> digest = gadgets::sha256(cs, bits);
  gadgets::pack_into_inputs(cs, std::span<const gadgets::Boolean>(digest));
}

TEST(GpuSpmv, CompiledSha256CircuitEqualsCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no GPU";
  ThreadPool pool(2);
  std::vector<uint8_t> msg(64);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = uint8_t(i * 37 + 11);
  r1cs::KeygenCS<Fr> k;
  sha_circuit(k, msg);
  const r1cs::CompiledR1cs<Fr> r = std::move(k).finish();
  r1cs::WitnessCS<Fr> w;
  sha_circuit(w, msg);
  ASSERT_EQ(w.inputs().size(), r.num_inputs);
  ASSERT_EQ(w.aux().size(), r.num_aux);
  std::vector<Fr> z = w.inputs();
  z.insert(z.end(), w.aux().begin(), w.aux().end());
  const r1cs::RowValues<Fr> want =
      r1cs::spmv(r, std::span<const Fr>(w.inputs()), std::span<const Fr>(w.aux()), pool);
  // The witness satisfies the circuit, so a∘b = c row for row: the oracle is not vacuous.
  for (size_t i = 0; i < r.num_constraints(); ++i) ASSERT_EQ(want.a[i] * want.b[i], want.c[i]) << "row " << i;
  for (CoeffForm form : {CoeffForm::tagged, CoeffForm::plain}) {
    Stream stream;
    const DeviceCsr a(r.a.row_start, r.a.column, r.a.coeff, stream, form);
    EXPECT_GT(a.long_rows(), 0u) << "the packing rows are longer than a warp's threshold";
    expect_rows_equal(gpu_spmv(r.a, z, form), want.a);
    expect_rows_equal(gpu_spmv(r.b, z, form), want.b);
    expect_rows_equal(gpu_spmv(r.c, z, form), want.c);
  }
}

}  // namespace
}  // namespace cuzk::gpu
