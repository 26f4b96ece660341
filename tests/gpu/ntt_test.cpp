// gpu::NttDomain (its transforms and Groth16's H chain, h_from_rows) and gpu::h_pointwise on the
// device against poly::EvaluationDomain<ff::Fr>, the CPU twin (label gpu; each test skips when no
// GPU is visible).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/ntt.hpp"
#include "gpu/stream.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
#include "poly/root_of_unity.hpp"
#include "support/random.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;
using CpuDomain = poly::EvaluationDomain<Fr>;

#define CUZK_REQUIRE_GPU() \
  if (list_devices().empty()) GTEST_SKIP() << "no GPU visible"

enum class Kind { ntt, intt, coset_ntt, coset_intt };
constexpr Kind kKinds[] = {Kind::ntt, Kind::intt, Kind::coset_ntt, Kind::coset_intt};
constexpr Order kOrders[] = {Order::natural, Order::bit_reversed};
constexpr unsigned kLogSizes[] = {0, 1, 2, 5, 10, 11, 16, 20};

const char* name(Kind k) {
  switch (k) {
    case Kind::ntt: return "ntt";
    case Kind::intt: return "intt";
    case Kind::coset_ntt: return "coset_ntt";
    case Kind::coset_intt: return "coset_intt";
  }
  return "?";
}
const char* name(Order o) { return o == Order::natural ? "natural" : "bit_reversed"; }

std::vector<Fr> random_vector(size_t n, uint64_t salt) {
  auto g = test::rng(salt);
  std::vector<Fr> v(n);
  for (auto& x : v) x = test::random_element<Fr>(g);
  return v;
}

void cpu_transform(const CpuDomain& d, Kind k, std::vector<Fr>& v, ThreadPool& pool) {
  switch (k) {
    case Kind::ntt: d.ntt(v, pool); break;
    case Kind::intt: d.intt(v, pool); break;
    case Kind::coset_ntt: d.coset_ntt(v, pool); break;
    case Kind::coset_intt: d.coset_intt(v, pool); break;
  }
}
void gpu_transform(const NttDomain& d, Kind k, Fr* v, Order in, Order out, const Stream& s) {
  switch (k) {
    case Kind::ntt: d.ntt(v, in, out, s); break;
    case Kind::intt: d.intt(v, in, out, s); break;
    case Kind::coset_ntt: d.coset_ntt(v, in, out, s); break;
    case Kind::coset_intt: d.coset_intt(v, in, out, s); break;
  }
}

void bit_reverse(std::vector<Fr>& v, ThreadPool& pool) { poly::bit_reverse_permute<Fr>(v, pool); }

std::vector<Fr> run_gpu(const NttDomain& d, Kind k, const std::vector<Fr>& input, Order in, Order out,
                        const Stream& s) {
  DeviceBuffer<Fr> buf(input.size(), s);
  buf.upload(input, s);
  gpu_transform(d, k, buf.data(), in, out, s);
  std::vector<Fr> result(input.size());
  buf.download(result, s);
  s.synchronize();
  return result;
}

// First index where a and b differ, or -1.
long first_difference(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return long(i);
  return a.size() == b.size() ? -1 : long(a.size());
}

// Every transform, every order pair, bellperson's roots, against the CPU twin on random data.
TEST(GpuNtt, EveryTransformAndOrderEqualsTheCpuTwin) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  Stream stream;
  for (unsigned log_n : kLogSizes) {
    const size_t n = size_t{1} << log_n;
    const auto cpu_domain = CpuDomain::for_size(n);
    ASSERT_TRUE(cpu_domain);
    const NttDomain domain(log_n, stream);
    ASSERT_EQ(domain.size(), n);
    unsigned salt = 0;
    for (Kind k : kKinds) {
      const std::vector<Fr> input = random_vector(n, 100 * log_n + salt++);
      std::vector<Fr> expected = input;
      cpu_transform(*cpu_domain, k, expected, pool);
      std::vector<Fr> expected_brv = expected;
      bit_reverse(expected_brv, pool);
      std::vector<Fr> input_brv = input;
      bit_reverse(input_brv, pool);
      for (Order in : kOrders) {
        for (Order out : kOrders) {
          const auto got = run_gpu(domain, k, in == Order::natural ? input : input_brv, in, out, stream);
          EXPECT_EQ(first_difference(got, out == Order::natural ? expected : expected_brv), -1)
              << name(k) << " 2^" << log_n << " " << name(in) << " -> " << name(out);
        }
      }
    }
  }
}

// NttRoots::full (the first pass's boundary twiddles from a table of all n powers, the inverses
// read at n − e) gives the bytes of the two-level form, which the test above holds to the CPU
// twin: every transform and order, and the H chain, at two passes (2^11, 2^16) and three (2^22,
// where the second pass reads its own flat table), against a domain without the table.
TEST(GpuNtt, FullRootTableGivesTheTwoLevelResults) {
  CUZK_REQUIRE_GPU();
  Stream stream;
  for (unsigned log_n : {11u, 16u, 22u}) {
    const size_t n = size_t{1} << log_n;
    const NttDomain two_level(log_n, stream);
    const NttDomain full(log_n, stream, NttRoots::full);
    ASSERT_EQ(two_level.roots(), NttRoots::two_level);
    ASSERT_EQ(full.roots(), NttRoots::full);
    unsigned salt = 0;
    for (Kind k : kKinds) {
      const std::vector<Fr> input = random_vector(n, 300 * log_n + salt++);
      for (Order in : kOrders) {
        for (Order out : kOrders) {
          EXPECT_EQ(first_difference(run_gpu(full, k, input, in, out, stream), run_gpu(two_level, k, input, in, out, stream)),
                    -1)
              << name(k) << " 2^" << log_n << " " << name(in) << " -> " << name(out);
        }
      }
    }
    const std::vector<Fr> a = random_vector(n, 7), b = random_vector(n, 8), c = random_vector(n, 9);
    std::vector<Fr> h[2];
    const NttDomain* domains[2] = {&two_level, &full};
    for (int d = 0; d < 2; ++d) {
      DeviceBuffer<Fr> va(n, stream), vb(n, stream), vc(n, stream);
      va.upload(a, stream);
      vb.upload(b, stream);
      vc.upload(c, stream);
      domains[d]->h_from_rows(va.data(), vb.data(), vc.data(), Order::natural, stream);
      h[d].resize(n);
      va.download(h[d], stream);
      stream.synchronize();
    }
    EXPECT_EQ(first_difference(h[1], h[0]), -1) << "h_from_rows 2^" << log_n;
  }
  // One pass (2^10) has no boundary: no table is made.
  EXPECT_EQ(NttDomain(10, stream, NttRoots::full).roots(), NttRoots::two_level);
}

// A large round trip on the device (the CPU twin at 2^22 would take long on CI-sized machines):
// iNTT after NTT gives the input back, coset likewise; and one spot value of the NTT.
TEST(GpuNtt, LargeRoundTrip) {
  CUZK_REQUIRE_GPU();
  constexpr unsigned log_n = 22;
  const size_t n = size_t{1} << log_n;
  Stream stream;
  const NttDomain domain(log_n, stream);
  const std::vector<Fr> input = random_vector(n, 7);
  DeviceBuffer<Fr> buf(n, stream);
  buf.upload(input, stream);
  domain.ntt(buf.data(), Order::natural, Order::bit_reversed, stream);
  std::vector<Fr> values(n);
  buf.download(values, stream);
  domain.intt(buf.data(), Order::bit_reversed, Order::natural, stream);
  std::vector<Fr> back(n);
  buf.download(back, stream);
  domain.coset_ntt(buf.data(), Order::natural, Order::natural, stream);
  domain.coset_intt(buf.data(), Order::natural, Order::bit_reversed, stream);
  std::vector<Fr> back_brv(n);
  buf.download(back_brv, stream);
  stream.synchronize();
  EXPECT_EQ(first_difference(back, input), -1);
  std::vector<Fr> input_brv = input;
  ThreadPool pool;
  bit_reverse(input_brv, pool);
  EXPECT_EQ(first_difference(back_brv, input_brv), -1);
  // values[bitrev(k)] = P(ω^k) for a few k, by Horner on the CPU.
  const Fr omega = poly::root_of_unity<Fr>(log_n);
  for (uint64_t k : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, uint64_t{n - 1}}) {
    const Fr x = omega.pow(k);
    Fr acc = Fr::zero();
    for (size_t i = n; i-- > 0;) acc = acc * x + input[i];
    EXPECT_EQ(values[poly::ntt_detail::reverse_bits(k, log_n)], acc) << "k = " << k;
  }
}

TEST(GpuNtt, SnarkjsRootsEqualTheCpuTwin) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  Stream stream;
  for (unsigned log_n : {3u, 12u, 17u}) {
    const size_t n = size_t{1} << log_n;
    const Fr omega = poly::snarkjs_root_of_unity(log_n), shift = poly::snarkjs_root_of_unity(log_n + 1);
    ASSERT_NE(omega, poly::root_of_unity<Fr>(log_n));  // not bellperson's: the test would be vacuous
    const auto cpu_domain = CpuDomain::with_roots(log_n, omega, shift);
    ASSERT_TRUE(cpu_domain);
    const NttDomain domain(log_n, omega, shift, stream);
    // snarkjs's H: iNTT then coset NTT, with no reordering in between (bitrev in the middle).
    const std::vector<Fr> input = random_vector(n, 900 + log_n);
    std::vector<Fr> expected = input;
    cpu_domain->intt(expected, pool);
    cpu_domain->coset_ntt(expected, pool);
    DeviceBuffer<Fr> buf(n, stream);
    buf.upload(input, stream);
    domain.intt(buf.data(), Order::natural, Order::bit_reversed, stream);
    domain.coset_ntt(buf.data(), Order::bit_reversed, Order::natural, stream);
    std::vector<Fr> got(n);
    buf.download(got, stream);
    stream.synchronize();
    EXPECT_EQ(first_difference(got, expected), -1) << "2^" << log_n;
    for (Kind k : kKinds) {
      std::vector<Fr> want = input;
      cpu_transform(*cpu_domain, k, want, pool);
      EXPECT_EQ(first_difference(run_gpu(domain, k, input, Order::natural, Order::natural, stream), want), -1)
          << name(k) << " 2^" << log_n;
    }
  }
  using poly::snarkjs_root_of_unity;
  EXPECT_THROW(NttDomain(4, snarkjs_root_of_unity(5), snarkjs_root_of_unity(6), stream), Exception);  // not primitive 2^4
  EXPECT_THROW(NttDomain(4, snarkjs_root_of_unity(4), snarkjs_root_of_unity(3), stream), Exception);  // shift in subgroup
  EXPECT_THROW(NttDomain(29, stream), Exception);
}

TEST(GpuNtt, ZerosStayZeros) {
  CUZK_REQUIRE_GPU();
  Stream stream;
  const NttDomain domain(16, stream);
  const std::vector<Fr> zeros(domain.size(), Fr::zero());
  for (Kind k : kKinds)
    EXPECT_EQ(first_difference(run_gpu(domain, k, zeros, Order::natural, Order::bit_reversed, stream), zeros), -1)
        << name(k);
}

// Groth16's H on the device, end to end: iNTT (natural -> bitrev), coset NTT (bitrev -> natural),
// h_pointwise with 1/Z(g), coset iNTT, equal to the CPU twin's recipe.
TEST(GpuNtt, HPointwiseAndTheHRecipeEqualTheCpu) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool;
  Stream stream;
  for (unsigned log_n : {0u, 6u, 15u}) {
    const size_t n = size_t{1} << log_n;
    const auto cpu = CpuDomain::for_size(n);
    ASSERT_TRUE(cpu);
    const NttDomain domain(log_n, stream);
    std::vector<Fr> a = random_vector(n, 50 + log_n), b = random_vector(n, 60 + log_n), c = random_vector(n, 70 + log_n);
    const std::vector<Fr> a_rows = a, b_rows = b, c_rows = c;
    DeviceBuffer<Fr> da(n, stream), db(n, stream), dc(n, stream);
    da.upload(a, stream);
    db.upload(b, stream);
    dc.upload(c, stream);
    for (DeviceBuffer<Fr>* d : {&da, &db, &dc}) {
      domain.intt(d->data(), Order::natural, Order::bit_reversed, stream);
      domain.coset_ntt(d->data(), Order::bit_reversed, Order::natural, stream);
    }
    const Fr z_inv = cpu->vanishing_on_coset().inverse();
    EXPECT_EQ(domain.z_inv(), z_inv) << "2^" << log_n;
    h_pointwise(da.data(), db.data(), dc.data(), z_inv, n, stream);
    domain.coset_intt(da.data(), Order::natural, Order::natural, stream);
    std::vector<Fr> got(n);
    da.download(got, stream);
    stream.synchronize();
    for (auto* v : {&a, &b, &c}) {
      cpu->intt(*v, pool);
      cpu->coset_ntt(*v, pool);
    }
    for (size_t i = 0; i < n; ++i) a[i] = a[i] * b[i] - c[i];
    cpu->divide_by_vanishing_on_coset(a, pool);
    cpu->coset_intt(a, pool);
    EXPECT_EQ(first_difference(got, a), -1) << "2^" << log_n;
    // The prover's chain, factors folded, from rows in either order (bit-reversed: element i at
    // bitrev(i)): the same h, in the other order.
    for (Order rows : kOrders) {
      const auto put = [&](DeviceBuffer<Fr>& d, std::vector<Fr> v) {
        if (rows == Order::bit_reversed) bit_reverse(v, pool);
        d.upload(v, stream);
        stream.synchronize();  // v dies here
      };
      put(da, a_rows);
      put(db, b_rows);
      put(dc, c_rows);
      domain.h_from_rows(da.data(), db.data(), dc.data(), rows, stream);
      da.download(got, stream);
      stream.synchronize();
      if (rows == Order::natural) bit_reverse(got, pool);
      EXPECT_EQ(first_difference(got, a), -1) << "h_from_rows, 2^" << log_n << ", rows " << name(rows);
    }
  }
  // h_pointwise alone on an odd length.
  const size_t n = 1001;
  std::vector<Fr> a = random_vector(n, 1), b = random_vector(n, 2), c = random_vector(n, 3);
  const Fr z = random_vector(1, 4)[0];
  DeviceBuffer<Fr> da(n, stream), db(n, stream), dc(n, stream);
  da.upload(a, stream);
  db.upload(b, stream);
  dc.upload(c, stream);
  h_pointwise(da.data(), db.data(), dc.data(), z, n, stream);
  std::vector<Fr> got(n);
  da.download(got, stream);
  stream.synchronize();
  for (size_t i = 0; i < n; ++i) a[i] = (a[i] * b[i] - c[i]) * z;
  EXPECT_EQ(first_difference(got, a), -1);
}

}  // namespace
}  // namespace cuzk::gpu
