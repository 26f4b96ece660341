// The GPU fixed-base multiplication (gpu/fixed_base.hpp) against the CPU's ec::FixedBaseTable, for
// G1 and G2: scalars 0 (the identity), 1, 2, r - 1, single bytes at every digit position, all
// bytes 0xff, and random ones; several chunks (the last one partial) and batches of the
// to-affine pass with identities inside. Label gpu: skips when no GPU is visible.

#include <gtest/gtest.h>

#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/fixed_base.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu/stream.hpp"
#include "support/random.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

template <class Curve>
void check_against_cpu(uint64_t salt) {
  if (list_devices().empty()) GTEST_SKIP() << "no GPU visible";
  auto g = test::rng(salt);
  std::vector<Fr> k = {Fr::zero(), Fr::one(), Fr::from_uint(2), -Fr::one(), Fr::zero()};
  for (unsigned byte = 0; byte < 32; ++byte) {  // 2^(8 byte) and 0xff · 2^(8 byte)
    k.push_back(Fr::from_uint(2).pow(ff::BigInt<1>(8 * byte)));
    k.push_back(Fr::from_uint(255) * k.back());
  }
  while (k.size() < 1000) k.push_back(k.size() % 97 == 0 ? Fr::zero() : test::random_element<Fr>(g));
  const ec::Affine<Curve> base = ec::Affine<Curve>::generator();
  const ec::FixedBaseTable<Curve> cpu(base);

  const Stream st;
  DeviceBuffer<Fr> scalars(k.size(), st);
  scalars.upload(std::span<const Fr>(k), st);
  DeviceBuffer<ec::Affine<Curve>> out(k.size(), st);
  FixedBaseMul<Curve> gpu(base, st);
  for (const size_t chunk : {size_t{333}, FixedBaseMul<Curve>::kChunk}) {
    out.zero(st);
    gpu.run(scalars.data(), out.data(), k.size(), chunk);
    std::vector<ec::Affine<Curve>> got(k.size());
    out.download(got, st);
    st.synchronize();
    for (size_t i = 0; i < k.size(); ++i)
      ASSERT_EQ(got[i], cpu.mul(k[i].to_int()).to_affine()) << "scalar " << i << ", chunk " << chunk;
  }
}

TEST(GpuFixedBase, G1MatchesCpu) { check_against_cpu<ec::G1Curve>(71); }
TEST(GpuFixedBase, G2MatchesCpu) { check_against_cpu<ec::G2Curve>(72); }

}  // namespace
}  // namespace cuzk::gpu
