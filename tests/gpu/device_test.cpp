// src/gpu's kernels on the GPU against their CPU twins in ff/ and ec/ (label gpu). Every test
// skips when no GPU is visible; on the H200 they must all pass before GPU work is called done.

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "cases.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/event.hpp"
#include "gpu/stream.hpp"
#include "kernels.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fp;
using ff::Fp2;
using ff::Fr;

#define CUZK_REQUIRE_GPU() \
  if (list_devices().empty()) GTEST_SKIP() << "no GPU visible"

// Sizes around the block size (256) and a large one.
constexpr size_t kSizes[] = {1, 255, 257, 4099, 100003};

TEST(GpuRuntime, ListsDevicesAndSelectsThem) {
  CUZK_REQUIRE_GPU();
  const auto devices = list_devices();
  for (const auto& d : devices) {
    EXPECT_GT(d.multiprocessors, 0);
    EXPECT_GT(d.total_bytes, 0u);
    EXPECT_LE(d.free_bytes, d.total_bytes);
  }
  EXPECT_THROW(Device(int(devices.size())), Exception);
  EXPECT_THROW(Device(-1), Exception);
  const Device last(int(devices.size()) - 1);
  {
    ScopedDevice scope(last);
    int current = -1;
    CUDA_CHECK(cudaGetDevice(&current));
    EXPECT_EQ(current, last.ordinal());
  }
  EXPECT_EQ(last.info().name, devices.back().name);
}

TEST(GpuRuntime, CudaCheckNamesTheCall) {
  CUZK_REQUIRE_GPU();
  try {
    CUDA_CHECK(cudaSetDevice(-7));
    FAIL() << "no throw";
  } catch (const Exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaSetDevice(-7)"), std::string::npos) << what;
    EXPECT_NE(what.find("device_test.cpp"), std::string::npos) << what;
  }
  cudaGetLastError();  // clear the recorded error so later launch checks do not see it
}

TEST(GpuRuntime, BuffersRoundTripAndEventsTime) {
  CUZK_REQUIRE_GPU();
  Stream stream;
  constexpr size_t n = 1 << 20;
  PinnedBuffer<uint64_t> host(n), back(n);
  for (size_t i = 0; i < n; ++i) host[i] = i * 0x9e3779b97f4a7c15ull;
  Event start, end;
  start.record(stream);
  DeviceBuffer<uint64_t> dev(n, stream);
  EXPECT_EQ(dev.size(), n);
  dev.upload(host.span(), stream);
  dev.download(back.span(), stream);
  end.record(stream);
  end.synchronize();
  EXPECT_EQ(std::memcmp(host.data(), back.data(), n * sizeof(uint64_t)), 0);
  EXPECT_GE(Event::elapsed_ms(start, end), 0.0f);
  // A partial copy at an offset, and the range check.
  std::vector<uint64_t> part(3, 7);
  dev.upload(std::span<const uint64_t>(part), stream, n - 3);
  dev.download(back.span().subspan(0, 3), stream, n - 3);
  stream.synchronize();
  EXPECT_EQ(back[2], 7u);
  EXPECT_THROW(dev.upload(std::span<const uint64_t>(part), stream, n - 2), Exception);
  // Moves leave the source empty; a second stream orders after the first through an event.
  DeviceBuffer<uint64_t> moved = std::move(dev);
  EXPECT_EQ(dev.size(), 0u);
  EXPECT_EQ(moved.size(), n);
  Stream other;
  Event ready(false);
  moved.zero(stream);
  ready.record(stream);
  ready.wait(other);
  moved.download(back.span(), other);
  other.synchronize();
  EXPECT_EQ(back[0], 0u);
  EXPECT_EQ(back[n - 1], 0u);
}

template <class F>
struct GpuFieldTest : ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr, Fp2>;
TYPED_TEST_SUITE(GpuFieldTest, Fields);

TYPED_TEST(GpuFieldTest, EveryOpMatchesCpu) {
  CUZK_REQUIRE_GPU();
  using F = TypeParam;
  auto g = cuzk::test::rng(620);
  for (size_t n : kSizes) {
    const auto a = test::field_values<F>(g, n);
    const auto b = test::partner_values<F>(g, std::span<const F>(a));
    std::vector<F> out(n);
    for (auto op : {test::FieldOp::kAdd, test::FieldOp::kSub, test::FieldOp::kMul, test::FieldOp::kSqr,
                    test::FieldOp::kNeg, test::FieldOp::kDbl}) {
      test::field_op<F>(op, a, b, out);
      for (size_t i = 0; i < n; ++i) {
        F want;
        switch (op) {
          case test::FieldOp::kAdd: want = a[i] + b[i]; break;
          case test::FieldOp::kSub: want = a[i] - b[i]; break;
          case test::FieldOp::kMul: want = a[i] * b[i]; break;
          case test::FieldOp::kSqr: want = a[i].square(); break;
          case test::FieldOp::kNeg: want = -a[i]; break;
          case test::FieldOp::kDbl: want = a[i].dbl(); break;
        }
        ASSERT_EQ(out[i], want) << "op " << int(op) << ", n " << n << ", element " << i;
      }
    }
  }
}

// Every pair of edges (p-1, raw words p-1, 0, 1, ...), multiplied and added on the device.
TYPED_TEST(GpuFieldTest, EdgePairs) {
  CUZK_REQUIRE_GPU();
  using F = TypeParam;
  if constexpr (!std::is_same_v<F, Fp2>) {
    const auto e = test::edge_elements<F>();
    std::vector<F> a, b;
    for (const F& x : e)
      for (const F& y : e) a.push_back(x), b.push_back(y);
    std::vector<F> out(a.size());
    test::field_op<F>(test::FieldOp::kMul, a, b, out);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(out[i], a[i] * b[i]) << i;
    test::field_op<F>(test::FieldOp::kAdd, a, b, out);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(out[i], a[i] + b[i]) << i;
    test::field_op<F>(test::FieldOp::kSub, a, b, out);
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(out[i], a[i] - b[i]) << i;
  }
}

template <class T>
struct GpuCurveTest : ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(GpuCurveTest, Curves);

// Same formula, same steps: device coordinates equal the CPU's bit for bit (so also projectively).
template <class Curve, template <class> class Form>
void check_points(uint64_t salt) {
  using P = Form<Curve>;
  auto g = cuzk::test::rng(salt);
  const auto bases = test::random_affine_points<Curve>(g, std::is_same_v<Curve, ec::G1Curve> ? 128 : 32);
  for (size_t n : {size_t(5), size_t(257), size_t(4099), size_t(20011)}) {
    const auto c = test::point_cases<Curve, Form>(g, std::span<const ec::Affine<Curve>>(bases), n);
    std::vector<P> out(n);
    for (auto op : {test::PointOp::kAdd, test::PointOp::kMadd, test::PointOp::kDbl}) {
      test::point_op<P>(op, c.a, c.b, c.q, out);
      for (size_t i = 0; i < n; ++i) {
        const P want = op == test::PointOp::kAdd    ? c.a[i] + c.b[i]
                       : op == test::PointOp::kMadd ? c.a[i] + c.q[i]
                                                    : c.a[i].dbl();
        ASSERT_EQ(std::memcmp(&out[i], &want, sizeof(P)), 0) << "op " << int(op) << ", n " << n << ", case " << i;
      }
      if (n == 5) {  // the formulas' branches (cases.hpp): O+O, O+P, P+O, P+P, P+(-P)
        if (op != test::PointOp::kDbl) {
          EXPECT_TRUE(out[0].is_identity());
          EXPECT_TRUE(out[4].is_identity());
          EXPECT_EQ(out[3].to_affine(), c.a[3].dbl().to_affine());
        } else {
          EXPECT_TRUE(out[0].is_identity());
        }
      }
    }
  }
}

TYPED_TEST(GpuCurveTest, XyzzMatchesCpu) {
  CUZK_REQUIRE_GPU();
  check_points<TypeParam, ec::XYZZ>(621);
}
TYPED_TEST(GpuCurveTest, JacobianMatchesCpu) {
  CUZK_REQUIRE_GPU();
  check_points<TypeParam, ec::Jacobian>(622);
}

}  // namespace
}  // namespace cuzk::gpu
