// Device field and curve throughput: Fr and Fp Montgomery multiplications and G1 XYZZ mixed
// additions per second, each thread running a dependent chain of `iters` operations in registers
// over 2^log2 elements (inputs random, distinct per thread; no zeros, no repeated points).
//   bench_gpu_field [--log2 24] [--iters 100] [--device 0] [--json]
// Prints a table (median and best of 5 timed runs after a warm-up), or one JSON object per line.

#include "gpu/curve.cuh"  // before any ff/ec header (gpu/field.cuh says why)

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ec/batch_normalize.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/event.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {
namespace {

constexpr unsigned kThreads = 256;

template <class D>
__global__ void mul_chain(const D* a, const D* b, D* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  D x = a[i];
  const D y = b[i];
  for (int k = 0; k < iters; ++k) x = x * y;
  out[i] = x;
}

// acc = P_i, then acc += Q_i `iters` times (madd-2008-s). P_i and Q_i are small distinct multiples
// of the generator, so no chain meets the doubling or identity branch.
__global__ void madd_chain(const DeviceG1Affine* points, size_t m, DeviceG1XYZZ* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceG1XYZZ acc = DeviceG1XYZZ::from_affine(points[i % m]);
  const DeviceG1Affine q = points[(i * 7 + 1) % m];
  for (int k = 0; k < iters; ++k) acc = acc + q;
  out[i] = acc;
}

template <class F>
std::vector<F> random_raw(size_t n, uint64_t seed) {
  // Uniform Montgomery words below the modulus: uniform field elements, cheap to make.
  std::mt19937_64 g(seed);
  std::vector<F> out(n);
  const uint64_t mask = ~0ull >> __builtin_clzll(F::kModulus.limbs[F::kLimbs - 1]);
  for (auto& x : out) {
    typename F::Int v;
    do {
      for (auto& l : v.limbs) l = g();
      v.limbs[F::kLimbs - 1] &= mask;
    } while (v >= F::kModulus);
    x = F::from_montgomery(v);
  }
  return out;
}

struct Result {
  std::string name;
  size_t n = 0;
  int iters = 0;
  double median_ms = 0, best_ms = 0;
  int regs = 0;
  size_t local_bytes = 0;
  double ops_per_s() const { return double(n) * iters / (median_ms * 1e-3); }
};

template <class Launch>
Result time_kernel(const std::string& name, const void* kernel, size_t n, int iters, const Stream& stream,
                   Launch launch) {
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  launch();  // warm-up
  Stream::check_launch();
  std::vector<float> ms;
  for (int r = 0; r < 5; ++r) {
    Event start, end;
    start.record(stream);
    launch();
    end.record(stream);
    end.synchronize();
    ms.push_back(Event::elapsed_ms(start, end));
  }
  std::sort(ms.begin(), ms.end());
  Result res{name, n, iters, ms[ms.size() / 2], ms[0], attr.numRegs, attr.localSizeBytes};
  return res;
}

template <class F>
Result bench_mul(const char* name, size_t n, int iters, const Stream& stream) {
  using D = DeviceType<F>;
  const auto a = random_raw<F>(n, 1), b = random_raw<F>(n, 2);
  DeviceBuffer<D> da(n, stream), db(n, stream), dout(n, stream);
  da.upload({reinterpret_cast<const D*>(a.data()), n}, stream);
  db.upload({reinterpret_cast<const D*>(b.data()), n}, stream);
  const unsigned blocks = unsigned((n + kThreads - 1) / kThreads);
  Result r = time_kernel(name, reinterpret_cast<const void*>(&mul_chain<D>), n, iters, stream, [&] {
    mul_chain<D><<<blocks, kThreads, 0, stream.get()>>>(da.data(), db.data(), dout.data(), n, iters);
  });
  // Spot check against the CPU: element 0's chain.
  F want = a[0];
  for (int k = 0; k < iters; ++k) want = want * b[0];
  F got;
  dout.download({reinterpret_cast<D*>(&got), 1}, stream);
  stream.synchronize();
  if (got != want) throw Exception({ErrorCode::kInternal, std::string(name) + ": device result differs from the CPU"});
  return r;
}

Result bench_madd(size_t n, int iters, const Stream& stream) {
  // m = 2^14 points (i+1)G: successive additions, then one batch normalisation.
  constexpr size_t m = 1 << 14;
  std::vector<ec::G1Jacobian> jac(m);
  jac[0] = ec::G1Jacobian::generator();
  for (size_t i = 1; i < m; ++i) jac[i] = jac[i - 1] + ec::G1Affine::generator();
  std::vector<ec::G1Affine> points(m);
  ec::batch_normalize<ec::G1Curve>(jac, points);
  DeviceBuffer<DeviceG1Affine> dp(m, stream);
  DeviceBuffer<DeviceG1XYZZ> dout(n, stream);
  dp.upload({reinterpret_cast<const DeviceG1Affine*>(points.data()), m}, stream);
  const unsigned blocks = unsigned((n + kThreads - 1) / kThreads);
  Result r = time_kernel("G1 XYZZ madd", reinterpret_cast<const void*>(&madd_chain), n, iters, stream, [&] {
    madd_chain<<<blocks, kThreads, 0, stream.get()>>>(dp.data(), m, dout.data(), n, iters);
  });
  ec::XYZZ<ec::G1Curve> want = ec::XYZZ<ec::G1Curve>::from_affine(points[0]);
  for (int k = 0; k < iters; ++k) want = want + points[1];
  DeviceG1XYZZ got;
  dout.download({&got, 1}, stream);
  stream.synchronize();
  if (to_cpu<ec::G1XYZZ>(got).to_affine() != want.to_affine())
    throw Exception({ErrorCode::kInternal, "G1 XYZZ madd: device result differs from the CPU"});
  return r;
}

int run(int argc, char** argv) {
  int log2 = 24, iters = 100, device = 0;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--log2" && i + 1 < argc) log2 = std::stoi(argv[++i]);
    else if (arg == "--iters" && i + 1 < argc) iters = std::stoi(argv[++i]);
    else if (arg == "--device" && i + 1 < argc) device = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--log2 24] [--iters 100] [--device 0] [--json]\n", argv[0]);
      return 2;
    }
  }
  const Device dev(device);
  dev.make_current();
  const DeviceInfo info = dev.info();
  const size_t n = size_t(1) << log2;
  Stream stream;
  std::vector<Result> results;
  results.push_back(bench_mul<ff::Fr>("Fr mul", n, iters, stream));
  results.push_back(bench_mul<ff::Fp>("Fp mul", n, iters, stream));
  results.push_back(bench_madd(n, iters, stream));
  if (json) {
    for (const auto& r : results)
      std::printf(
          "{\"bench\":\"%s\",\"device\":\"%s\",\"n\":%zu,\"iters\":%d,\"median_ms\":%.3f,\"best_ms\":%.3f,"
          "\"ops_per_s\":%.4e,\"regs\":%d,\"local_bytes\":%zu}\n",
          r.name.c_str(), info.name.c_str(), r.n, r.iters, r.median_ms, r.best_ms, r.ops_per_s(), r.regs,
          r.local_bytes);
  } else {
    std::printf("%s, %d SMs; 2^%d elements x %d dependent ops per thread\n", info.name.c_str(), info.multiprocessors,
                log2, iters);
    std::printf("%-14s %10s %10s %12s %6s %8s\n", "op", "median ms", "best ms", "Gop/s", "regs", "local B");
    for (const auto& r : results)
      std::printf("%-14s %10.2f %10.2f %12.2f %6d %8zu\n", r.name.c_str(), r.median_ms, r.best_ms, r.ops_per_s() / 1e9,
                  r.regs, r.local_bytes);
  }
  return 0;
}

}  // namespace
}  // namespace cuzk::gpu

int main(int argc, char** argv) {
  try {
    return cuzk::gpu::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_field: %s\n", e.what());
    return 1;
  }
}
