// GPU fixed-base scalar multiplication (gpu/fixed_base.hpp says the method).

#include "gpu/curve.cuh"  // first: gpu/field.cuh says why

#include "gpu/fixed_base.hpp"

#include <algorithm>
#include <vector>

#include "ec/fixed_base.hpp"
#include "gpu/buffer.hpp"

namespace cuzk::gpu {
namespace {

constexpr unsigned kBlock = 128;
constexpr unsigned kWindow = 8;
constexpr unsigned kDigits = 32;                       // 256 bits of 8-bit digits (r < 2^255)
constexpr unsigned kEntries = (1u << kWindow) - 1;     // j = 1..255 per digit position
constexpr unsigned kBatch = 32;                        // points per inversion in to_affine_kernel

// Kernel 1: one thread a scalar, XYZZ sums of table entries into the scratch.
template <class F>
__global__ void __launch_bounds__(kBlock) mul_kernel(const DeviceAffine<F>* table, const DeviceFr* scalars,
                                                     DeviceXYZZ<F>* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceFr unit = DeviceFr::zero();
  unit.limbs[0] = 1;
  const DeviceFr k = scalars[i] * unit;  // Montgomery -> canonical (a product with the integer 1)
  DeviceXYZZ<F> acc = DeviceXYZZ<F>::identity();
  for (unsigned d = 0; d < kDigits; ++d) {
    const uint32_t digit = (k.limbs[d / 4] >> (8 * (d % 4))) & 0xff;
    if (digit != 0) acc += table[d * kEntries + digit - 1];
  }
  out[i] = acc;
}

// Kernel 2: XYZZ -> affine. Thread t converts points t, t + T, t + 2T, ... (T threads in all,
// kBatch points at most: coalesced), with one inversion of the product of their d = ZZ · ZZZ.
// The output's x and y hold each point's running product and d until the backward pass.
template <class F>
__global__ void __launch_bounds__(kBlock) to_affine_kernel(const DeviceXYZZ<F>* in, DeviceAffine<F>* out, size_t n) {
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  F acc = F::one();
  for (size_t i = t; i < n; i += threads) {
    const DeviceXYZZ<F> p = in[i];
    if (p.is_identity()) continue;
    const F d = p.zz * p.zzz;
    out[i].x = acc;  // the product of the earlier d
    out[i].y = d;
    acc = acc * d;
  }
  F inv = acc.inverse();
  const size_t count = t < n ? (n - 1 - t) / threads + 1 : 0;
  for (size_t j = count; j-- > 0;) {
    const size_t i = t + j * threads;
    const DeviceXYZZ<F> p = in[i];
    if (p.is_identity()) {
      out[i] = DeviceAffine<F>::identity();
      continue;
    }
    const F inv_d = inv * out[i].x;  // 1/d_i
    inv = inv * out[i].y;            // drop d_i from the running inverse
    out[i] = DeviceAffine<F>{p.x * (p.zzz * inv_d), p.y * (p.zz * inv_d), false};
  }
}

}  // namespace

template <class Curve>
struct FixedBaseMul<Curve>::Impl {
  using F = DeviceType<typename Curve::Field>;
  Impl(const ec::Affine<Curve>& base, const Stream& st) : stream(st), table(size_t(kDigits) * kEntries, st) {
    // ec::FixedBaseTable's entries are the same points in the same order; built by the CPU code.
    const ec::FixedBaseTable<Curve> cpu(base);
    static_assert(ec::FixedBaseTable<Curve>::kWindow == kWindow && ec::FixedBaseTable<Curve>::kDigits == kDigits);
    std::vector<ec::Affine<Curve>> host(table.size());
    for (unsigned d = 0; d < kDigits; ++d)
      for (unsigned j = 1; j <= kEntries; ++j) host[d * kEntries + j - 1] = cpu.entry(d, j);
    table.upload(host, st);
    st.synchronize();  // `host` goes out of scope
  }
  const Stream& stream;
  DeviceBuffer<ec::Affine<Curve>> table;
  DeviceBuffer<ec::XYZZ<Curve>> scratch;
};

template <class Curve>
FixedBaseMul<Curve>::FixedBaseMul(const ec::Affine<Curve>& base, const Stream& stream)
    : impl_(std::make_unique<Impl>(base, stream)) {}
template <class Curve>
FixedBaseMul<Curve>::~FixedBaseMul() = default;

template <class Curve>
void FixedBaseMul<Curve>::run(const ff::Fr* scalars, ec::Affine<Curve>* out, size_t n, size_t chunk) {
  using F = DeviceType<typename Curve::Field>;
  Impl& s = *impl_;
  if (n == 0) return;
  chunk = std::max<size_t>(chunk, 1);
  if (s.scratch.size() < std::min(n, chunk)) s.scratch = DeviceBuffer<ec::XYZZ<Curve>>(std::min(n, chunk), s.stream);
  const auto* table = reinterpret_cast<const DeviceAffine<F>*>(s.table.data());
  auto* scratch = reinterpret_cast<DeviceXYZZ<F>*>(s.scratch.data());
  for (size_t at = 0; at < n; at += chunk) {
    const size_t m = std::min(chunk, n - at);
    mul_kernel<F><<<unsigned((m + kBlock - 1) / kBlock), kBlock, 0, s.stream.get()>>>(
        table, reinterpret_cast<const DeviceFr*>(scalars + at), scratch, m);
    Stream::check_launch();
    const size_t threads = (m + kBatch - 1) / kBatch;
    to_affine_kernel<F><<<unsigned((threads + kBlock - 1) / kBlock), kBlock, 0, s.stream.get()>>>(
        scratch, reinterpret_cast<DeviceAffine<F>*>(out + at), m);
    Stream::check_launch();
  }
}

template class FixedBaseMul<ec::G1Curve>;
template class FixedBaseMul<ec::G2Curve>;

}  // namespace cuzk::gpu
