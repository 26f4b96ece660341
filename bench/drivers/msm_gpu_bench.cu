// `cuzk bench msm` (msm_gpu_bench.hpp says what it measures).

#include "gpu/curve.cuh"  // first: gpu/field.cuh says why

#include "msm_gpu_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/msm.hpp"
#include "gpu/stream.hpp"

namespace cuzk::bench {
namespace {

using gpu::DeviceFp;
using gpu::DeviceFp2;
using gpu::DeviceFr;

constexpr unsigned kBlock = 256;
constexpr size_t kTable = 1024;  // bases are A[i mod 2^10] + B[(i >> 10) mod 2^10] + C[i >> 20]

// a^(p - 2) (Fermat): one inversion per base, once per bench; no batching needed.
__device__ DeviceFp inverse(const DeviceFp& a) {
  DeviceFp e = DeviceFp::modulus();
  e.limbs[0] -= 2;  // p is odd and its low word exceeds 2
  DeviceFp r = DeviceFp::one();
  for (int w = 11; w >= 0; --w) {
    for (int b = 31; b >= 0; --b) {
      r = r.sqr();
      if ((e.limbs[w] >> b) & 1) r = r * a;
    }
  }
  return r;
}
// 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2), as u^2 = -1.
__device__ DeviceFp2 inverse(const DeviceFp2& a) {
  const DeviceFp t = inverse(a.c0.sqr() + a.c1.sqr());
  return {a.c0 * t, -(a.c1 * t)};
}

// Base i = A + B + C in XYZZ, then affine: with ZZ = Z^2, ZZZ = Z^3, 1/Z = ZZ / ZZZ,
// x = X (1/Z)^2, y = Y / ZZZ.
template <class DA, class DX>
__global__ void make_bases(const DA* a, const DA* b, const DA* c, size_t n, DA* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DX p = DX::from_affine(a[i % kTable]);
  p += b[(i / kTable) % kTable];
  p += c[i / (kTable * kTable)];
  const auto w = inverse(p.zzz);
  const auto iz = w * p.zz;
  out[i] = DA{p.x * iz.sqr(), p.y * w, false};
}

__device__ uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform 254-bit Montgomery words: valid field elements (2^254 < r), random enough.
__global__ void random_scalars(DeviceFr* out, size_t n, uint64_t seed) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceFr k;
  for (int w = 0; w < 4; ++w) {
    const uint64_t x = splitmix(seed * 0x632be59bd9b4e019ull + 4 * i + w);
    k.limbs[2 * w] = uint32_t(x);
    k.limbs[2 * w + 1] = uint32_t(x >> 32);
  }
  k.limbs[7] &= 0x3fffffffu;
  out[i] = k;
}

unsigned blocks_for(size_t n) { return unsigned((n + kBlock - 1) / kBlock); }

template <class Curve>
std::vector<ec::Affine<Curve>> random_points(std::mt19937_64& g, size_t n) {
  std::vector<ec::Affine<Curve>> out(n);
  for (auto& p : out) {
    ff::Fr::Int k;
    for (auto& l : k.limbs) l = g();
    k.limbs[3] &= 0x3fffffffffffffffull;
    p = ec::scalar_mul(ec::Jacobian<Curve>::generator(), ff::Fr::from_int(k)).to_affine();
  }
  return out;
}

template <class Curve>
int bench(const MsmGpuBenchOptions& o) {
  using DA = gpu::DeviceType<ec::Affine<Curve>>;
  using DX = gpu::DeviceType<ec::XYZZ<Curve>>;
  const gpu::Device device(o.device);
  const gpu::ScopedDevice scope(device);
  gpu::Stream s;
  const size_t n_max = size_t{1} << o.log_n_max;
  std::mt19937_64 g(20261129);
  const auto a = random_points<Curve>(g, kTable), b = random_points<Curve>(g, kTable);
  const auto c = random_points<Curve>(g, std::max<size_t>(1, (n_max + kTable * kTable - 1) / (kTable * kTable)));
  gpu::DeviceBuffer<ec::Affine<Curve>> da(a.size(), s), db(b.size(), s), dc(c.size(), s), bases(n_max, s);
  da.upload(a, s);
  db.upload(b, s);
  dc.upload(c, s);
  make_bases<DA, DX><<<blocks_for(n_max), kBlock, 0, s.get()>>>(reinterpret_cast<const DA*>(da.data()),
                                                                  reinterpret_cast<const DA*>(db.data()),
                                                                  reinterpret_cast<const DA*>(dc.data()), n_max,
                                                                  reinterpret_cast<DA*>(bases.data()));
  gpu::Stream::check_launch();
  gpu::DeviceBuffer<ff::Fr> scalars[2] = {gpu::DeviceBuffer<ff::Fr>(n_max, s), gpu::DeviceBuffer<ff::Fr>(n_max, s)};
  for (int k = 0; k < 2; ++k) {
    random_scalars<<<blocks_for(n_max), kBlock, 0, s.get()>>>(reinterpret_cast<DeviceFr*>(scalars[k].data()), n_max,
                                                              uint64_t(k + 1));
    gpu::Stream::check_launch();
  }
  // A spot check that the bases are curve points.
  std::vector<ec::Affine<Curve>> probe(std::min<size_t>(4, n_max));  // the last bases (largest C)
  bases.download(probe, s, n_max - probe.size());
  s.synchronize();
  for (const auto& p : probe) {
    if (!p.is_on_curve()) {
      std::fprintf(stderr, "msm bench: a generated base is not on the curve\n");
      return 1;
    }
  }

  // --host: the same inputs in pinned host memory (the small-card path: run_host streams them).
  gpu::PinnedBuffer<ec::Affine<Curve>> host_bases(o.host ? n_max : 0);
  gpu::PinnedBuffer<ff::Fr> host_scalars[2] = {gpu::PinnedBuffer<ff::Fr>(o.host ? n_max : 0),
                                               gpu::PinnedBuffer<ff::Fr>(o.host ? n_max : 0)};
  if (o.host) {
    bases.download(host_bases.span(), s);
    for (int k = 0; k < 2; ++k) scalars[k].download(host_scalars[k].span(), s);
    s.synchronize();
  }
  gpu::MsmOptions options;
  options.window = o.window;
  if (o.windows != 0) options.windows = gpu::MsmWindows::even(o.windows);
  options.run_length = o.run_length;
  options.terms = o.terms == "classified" ? gpu::MsmTerms::classified : gpu::MsmTerms::in_place;
  options.host_chunk = o.host_chunk_log != 0 ? size_t{1} << o.host_chunk_log : 0;

  gpu::Msm<Curve> msm(s);
  const char* group = std::is_same_v<Curve, ec::G1Curve> ? "g1" : "g2";
  if (!o.json)
    std::printf("%-4s %6s %4s %4s %10s %10s %10s %12s   %s\n", "grp", "log_n", "c", "W", "median_ms", "min_ms", "max_ms",
                "points/s", "prepare/sort/accumulate/reduce ms (median run)");
  for (unsigned log_n = o.log_n_min; log_n <= o.log_n_max; ++log_n) {
    const size_t n = size_t{1} << log_n;
    std::vector<std::pair<double, typename gpu::Msm<Curve>::Timing>> runs;
    for (unsigned r = 0; r <= o.repeat; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto result =
          o.host ? msm.run_host(host_bases.span().first(n), host_scalars[r % 2].span().first(n), options)
                 : msm.run(bases.data(), scalars[r % 2].data(), n, options);
      const auto t1 = std::chrono::steady_clock::now();
      (void)result;
      const auto& t = msm.last_timing();
      if (r > 0) runs.push_back({std::chrono::duration<double, std::milli>(t1 - t0).count(), t});
    }
    std::sort(runs.begin(), runs.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    const auto& med = runs[runs.size() / 2];
    const gpu::MsmWindows plan = o.windows != 0  ? gpu::MsmWindows::even(o.windows)
                                 : o.window != 0 ? gpu::MsmWindows::uniform(o.window)
                                                 : gpu::msm_windows(n);
    const double pps = double(n) / (med.first / 1e3);
    if (o.json) {
      std::printf(
          "{\"bench\":\"msm_gpu\",\"group\":\"%s\",\"log_n\":%u,\"n\":%zu,\"window\":%u,\"windows\":%u,\"repeat\":%zu,"
          "\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"points_per_s\":%.4g,\"prepare_ms\":%.3f,"
          "\"sort_ms\":%.3f,\"accumulate_ms\":%.3f,\"reduce_ms\":%.3f,\"inputs\":\"%s\",\"terms\":\"%s\","
          "\"device\":\"%s\"}\n",
          group, log_n, n, plan.widest(), plan.count, runs.size(), med.first, runs.front().first, runs.back().first, pps,
          med.second.prepare, med.second.sort, med.second.accumulate, med.second.reduce,
          o.host ? "pinned host, streamed" : "device", o.terms.c_str(), device.info().name.c_str());
    } else {
      std::printf("%-4s %6u %4u %4u %10.3f %10.3f %10.3f %12.4g   %.2f/%.2f/%.2f/%.2f\n", group, log_n,
                  plan.widest(), plan.count, med.first,
                  runs.front().first, runs.back().first, pps, med.second.prepare, med.second.sort,
                  med.second.accumulate, med.second.reduce);
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int run_msm_gpu_bench(const MsmGpuBenchOptions& options) {
  if (options.log_n_min > options.log_n_max || options.log_n_max > 30 || options.repeat == 0) {
    std::fprintf(stderr, "msm bench: bad sizes or repeat\n");
    return 2;
  }
  try {
    if (options.group == "g1") return bench<ec::G1Curve>(options);
    if (options.group == "g2") return bench<ec::G2Curve>(options);
    std::fprintf(stderr, "msm bench: group must be g1 or g2\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "msm bench: %s\n", e.what());
    return 1;
  }
}

}  // namespace cuzk::bench
