// Device field and curve throughput: Fr and Fp Montgomery multiplications, Fp squarings, G1 XYZZ
// mixed and general additions and G2 XYZZ mixed additions per second, each thread running a
// dependent chain of `iters` operations in registers over 2^log2 elements (inputs random,
// distinct per thread; no zeros, no repeated points). Each op runs with the even/odd
// multiplication and dedicated squaring ("new") and with the textbook CIOS ("cios"); the curve
// ops also with CIOS products and the dedicated squaring ("mix"); products, madd, add and G2
// madd also with Karatsuba products ("kara", docs/PERF.md 52); same inputs (field.cuh,
// detail::Mul*). The "regs" column is the kernel's register count (occupancy).
// Then one level of a batch-affine tree (docs/PERF.md 47): 2^affine-log2 pairs of G1 points read
// from device memory, each pair's sum in affine coordinates, one inversion for each thread's
// batch of pairs (Montgomery's trick), for several batch sizes: pairs summed per second, against
// the madd chain above.
//   bench_gpu_field [--log2 24] [--iters 100] [--affine-log2 26] [--device 0] [--json]
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

// The same field over another multiplication (field.cuh: MulEvenOdd, MulCios, MulCiosSqrEvenOdd).
template <class D, class Algo>
struct WithMulOf;
template <class C, class A, class Algo>
struct WithMulOf<DeviceField<C, A>, Algo> {
  using type = DeviceField<C, Algo>;
};
template <class D>
using Cios = typename WithMulOf<D, detail::MulCios>::type;
template <class D>
using Mix = typename WithMulOf<D, detail::MulCiosSqrEvenOdd>::type;
template <class D>
using Kara = typename WithMulOf<D, detail::MulKaratsuba>::type;
using NewFp = typename WithMulOf<DeviceFp, detail::MulEvenOdd>::type;

template <class D>
__global__ void mul_chain(const D* a, const D* b, D* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  D x = a[i];
  const D y = b[i];
  for (int k = 0; k < iters; ++k) x = x * y;
  out[i] = x;
}

// x = x^2 + y: the addition keeps the chain off the fixed points 0 and 1.
template <class D>
__global__ void sqr_chain(const D* a, const D* b, D* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  D x = a[i];
  const D y = b[i];
  for (int k = 0; k < iters; ++k) x = x.sqr() + y;
  out[i] = x;
}

// acc = P_i, then acc += Q_i `iters` times (madd-2008-s). P_i and Q_i are small distinct multiples
// of the generator, so no chain meets the doubling or identity branch.
template <class F>
__global__ void madd_chain(const DeviceAffine<F>* points, size_t m, DeviceXYZZ<F>* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceXYZZ<F> acc = DeviceXYZZ<F>::from_affine(points[i % m]);
  const DeviceAffine<F> q = points[(i * 7 + 1) % m];
  for (int k = 0; k < iters; ++k) acc = acc + q;
  out[i] = acc;
}

// The same with a projective addend Q = Q_i + Q'_i (ZZ, ZZZ != 1): add-2008-s (kLazy: the window
// sums' lazily reduced form, DeviceXYZZ::add_lazy).
template <class F, bool kLazy>
__global__ void add_chain(const DeviceAffine<F>* points, size_t m, DeviceXYZZ<F>* out, size_t n, int iters) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  DeviceXYZZ<F> acc = DeviceXYZZ<F>::from_affine(points[i % m]);
  const DeviceXYZZ<F> q = DeviceXYZZ<F>::from_affine(points[(i * 7 + 1) % m]) + points[(i * 7 + 2) % m];
  for (int k = 0; k < iters; ++k) acc = kLazy ? acc.add_lazy(q) : acc + q;
  out[i] = acc.reduced();
}

// in[i] = points[i % m]: 2^k pairs (in[2j], in[2j + 1]) of distinct points (i + 1)G, no sum P + P
// or P - P, tiled over an array the size of a tree level's.
template <class F>
__global__ void tile_points(const DeviceAffine<F>* points, size_t m, DeviceAffine<F>* in, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    in[i] = points[i % m];
}

// One level of a batch-affine tree: out[j] = in[2j] + in[2j + 1], affine, for `pairs` pairs;
// thread t of T sums the pairs j = t + k T, k < batch (pairs = T batch; neighbouring threads read
// neighbouring pairs), with one inversion for its batch (Montgomery's trick):
//   forward:  s_k = d_0 d_1 ... d_k, d = x2 - x1, stored in scratch[k T + t]     1M a pair
//   inv = 1 / s_(batch-1)                                                        Fermat: 381S + 229M
//   backward: 1/d_k = inv s_(k-1); inv = inv d_k                                 2M
//             l = (y2 - y1) / d_k; x3 = l^2 - x1 - x2; y3 = l (x1 - x3) - y1     2M + 1S
// 5M + 1S a pair and the inversion's share, against madd-2008-s's 8M + 2S. Distinct points only
// (d != 0, no identity): the tree's other cases are not what this measures.
// Two blocks an SM (<= 128 registers, 24 bytes spilled): 3.14 G pairs/s against 2.99 at 152
// registers and one block (docs/PERF.md 47).
template <class F>
__global__ void __launch_bounds__(kThreads, 2)
    affine_pairs_level(const DeviceAffine<F>* in, DeviceAffine<F>* out, F* scratch, unsigned batch) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x, T = size_t(gridDim.x) * blockDim.x;
  F acc = F::one();
  for (unsigned k = 0; k < batch; ++k) {
    const size_t j = t + k * T;
    acc = acc * (in[2 * j + 1].x - in[2 * j].x);
    scratch[k * T + t] = acc;
  }
  F inv = acc.inverse();
  for (unsigned k = batch; k-- > 0;) {
    const size_t j = t + k * T;
    const DeviceAffine<F> p = in[2 * j], q = in[2 * j + 1];
    const F d = q.x - p.x;
    const F dinv = k == 0 ? inv : inv * scratch[(k - 1) * T + t];
    inv = inv * d;
    const F l = (q.y - p.y) * dinv;
    const F x3 = l.sqr() - p.x - q.x;
    out[j] = {x3, l * (p.x - x3) - p.y, false};
  }
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

template <class F, class D, bool kSqr>
Result bench_field(const std::string& name, size_t n, int iters, const Stream& stream) {
  const auto a = random_raw<F>(n, 1), b = random_raw<F>(n, 2);
  DeviceBuffer<D> da(n, stream), db(n, stream), dout(n, stream);
  da.upload({reinterpret_cast<const D*>(a.data()), n}, stream);
  db.upload({reinterpret_cast<const D*>(b.data()), n}, stream);
  const unsigned blocks = unsigned((n + kThreads - 1) / kThreads);
  const auto kernel = [] {
    if constexpr (kSqr) return &sqr_chain<D>;
    else return &mul_chain<D>;
  }();
  Result r = time_kernel(name, reinterpret_cast<const void*>(kernel), n, iters, stream, [&] {
    kernel<<<blocks, kThreads, 0, stream.get()>>>(da.data(), db.data(), dout.data(), n, iters);
  });
  // Spot check against the CPU: element 0's chain.
  F want = a[0];
  for (int k = 0; k < iters; ++k) want = kSqr ? want.square() + b[0] : want * b[0];
  F got;
  dout.download({reinterpret_cast<D*>(&got), 1}, stream);
  stream.synchronize();
  if (got != want) throw Exception({ErrorCode::kInternal, name + ": device result differs from the CPU"});
  return r;
}

// m = 2^14 points (i+1)G: successive additions, then one batch normalisation.
template <class Curve>
std::vector<ec::Affine<Curve>> generator_multiples(size_t m) {
  std::vector<ec::Jacobian<Curve>> jac(m);
  jac[0] = ec::Jacobian<Curve>::generator();
  for (size_t i = 1; i < m; ++i) jac[i] = jac[i - 1] + ec::Affine<Curve>::generator();
  std::vector<ec::Affine<Curve>> points(m);
  ec::batch_normalize<Curve>(jac, points);
  return points;
}

// F: the device coordinate field (DeviceFp, DeviceFp2 or their CIOS twins).
enum class CurveOp { kMadd, kAdd, kAddLazy };
template <class Curve, class F, CurveOp kOp>
Result bench_curve(const std::string& name, const std::vector<ec::Affine<Curve>>& points, size_t n, int iters,
                   const Stream& stream) {
  const size_t m = points.size();
  DeviceBuffer<DeviceAffine<F>> dp(m, stream);
  DeviceBuffer<DeviceXYZZ<F>> dout(n, stream);
  dp.upload({reinterpret_cast<const DeviceAffine<F>*>(points.data()), m}, stream);
  const unsigned blocks = unsigned((n + kThreads - 1) / kThreads);
  const auto kernel = [] {  // instantiate only the kernel that runs (G2 add is not measured)
    if constexpr (kOp == CurveOp::kMadd) return &madd_chain<F>;
    else return &add_chain<F, kOp == CurveOp::kAddLazy>;
  }();
  Result r = time_kernel(name, reinterpret_cast<const void*>(kernel), n, iters, stream, [&] {
    kernel<<<blocks, kThreads, 0, stream.get()>>>(dp.data(), m, dout.data(), n, iters);
  });
  using X = ec::XYZZ<Curve>;
  X want = X::from_affine(points[0]);
  const X q = X::from_affine(points[1]) + points[2];
  for (int k = 0; k < iters; ++k) want = kOp == CurveOp::kMadd ? want + points[1] : want + q;
  X got;
  dout.download({reinterpret_cast<DeviceXYZZ<F>*>(&got), 1}, stream);
  stream.synchronize();
  if (got.to_affine() != want.to_affine())
    throw Exception({ErrorCode::kInternal, name + ": device result differs from the CPU"});
  return r;
}

// affine_pairs_level over 2^log2 pairs for each batch size; one result each (n = pairs, iters 1).
// Fewer pairs where the card has less than twice the buffers' size free (2^26: 24 GB).
template <class F>
void bench_affine_pairs(std::vector<Result>& out, const std::vector<ec::Affine<ec::G1Curve>>& points, int log2,
                        size_t available_bytes, const Stream& stream) {
  constexpr size_t kBytesPerPair = 3 * sizeof(DeviceAffine<F>) + sizeof(F);  // in (two), out, scratch
  while (log2 > 12 && 2 * (kBytesPerPair << log2) > available_bytes) --log2;
  const size_t pairs = size_t(1) << log2, m = points.size();
  DeviceBuffer<DeviceAffine<F>> dp(m, stream), din(2 * pairs, stream), dout(pairs, stream);
  DeviceBuffer<F> scratch(pairs, stream);
  dp.upload({reinterpret_cast<const DeviceAffine<F>*>(points.data()), m}, stream);
  tile_points<F><<<1024, kThreads, 0, stream.get()>>>(dp.data(), m, din.data(), 2 * pairs);
  Stream::check_launch();
  for (const unsigned batch : {64u, 256u, 512u, 1024u}) {
    const size_t threads = pairs / batch;
    if (threads < kThreads) continue;
    const unsigned blocks = unsigned(threads / kThreads);
    Result r = time_kernel("G1 affine b" + std::to_string(batch),
                           reinterpret_cast<const void*>(&affine_pairs_level<F>), pairs, 1, stream, [&] {
                             affine_pairs_level<F><<<blocks, kThreads, 0, stream.get()>>>(din.data(), dout.data(),
                                                                                          scratch.data(), batch);
                           });
    // Spot check against the CPU: the first, a middle and the last pair.
    for (const size_t j : {size_t(0), pairs / 2 + 3, pairs - 1}) {
      ec::Affine<ec::G1Curve> got;
      dout.download({reinterpret_cast<DeviceAffine<F>*>(&got), 1}, stream, j);
      stream.synchronize();
      const auto want =
          (ec::XYZZ<ec::G1Curve>::from_affine(points[(2 * j) % m]) + points[(2 * j + 1) % m]).to_affine();
      if (got != want)
        throw Exception({ErrorCode::kInternal, r.name + ": device sum differs from the CPU at pair " +
                                                   std::to_string(j)});
    }
    out.push_back(r);
  }
}

// Each op with the default multiplication, then with CIOS.
template <class F, bool kSqr>
void field_pair(std::vector<Result>& out, const std::string& name, size_t n, int iters, const Stream& stream) {
  using D = typename WithMulOf<DeviceType<F>, detail::MulEvenOdd>::type;
  out.push_back(bench_field<F, D, kSqr>(name + " new", n, iters, stream));
  out.push_back(bench_field<F, Cios<D>, kSqr>(name + " cios", n, iters, stream));
  if constexpr (!kSqr) out.push_back(bench_field<F, Kara<D>, kSqr>(name + " kara", n, iters, stream));
}

int run(int argc, char** argv) {
  int log2 = 24, iters = 100, affine_log2 = 26, device = 0;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--log2" && i + 1 < argc) log2 = std::stoi(argv[++i]);
    else if (arg == "--iters" && i + 1 < argc) iters = std::stoi(argv[++i]);
    else if (arg == "--affine-log2" && i + 1 < argc) affine_log2 = std::stoi(argv[++i]);
    else if (arg == "--device" && i + 1 < argc) device = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--log2 24] [--iters 100] [--affine-log2 26] [--device 0] [--json]\n", argv[0]);
      return 2;
    }
  }
  if (affine_log2 < 12 || affine_log2 > 28) {
    std::fprintf(stderr, "bench_gpu_field: --affine-log2 %d is outside 12..28\n", affine_log2);
    return 2;
  }
  const Device dev(device);
  dev.make_current();
  const DeviceInfo info = dev.info();
  const size_t n = size_t(1) << log2;
  Stream stream;
  std::vector<Result> results;
  field_pair<ff::Fr, false>(results, "Fr mul", n, iters, stream);
  field_pair<ff::Fp, false>(results, "Fp mul", n, iters, stream);
  field_pair<ff::Fp, true>(results, "Fp sqr", n, iters, stream);
  constexpr size_t m = 1 << 14;
  {
    const auto g1 = generator_multiples<ec::G1Curve>(m);
    results.push_back(bench_curve<ec::G1Curve, NewFp, CurveOp::kMadd>("G1 madd new", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Cios<NewFp>, CurveOp::kMadd>("G1 madd cios", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Mix<NewFp>, CurveOp::kMadd>("G1 madd mix", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Kara<NewFp>, CurveOp::kMadd>("G1 madd kara", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, NewFp, CurveOp::kAdd>("G1 add new", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, NewFp, CurveOp::kAddLazy>("G1 add lazy", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Cios<NewFp>, CurveOp::kAdd>("G1 add cios", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Mix<NewFp>, CurveOp::kAdd>("G1 add mix", g1, n, iters, stream));
    results.push_back(bench_curve<ec::G1Curve, Kara<NewFp>, CurveOp::kAdd>("G1 add kara", g1, n, iters, stream));
    bench_affine_pairs<NewFp>(results, g1, affine_log2, dev.available_bytes(), stream);
  }
  {
    // G2 chains are ~3x longer per op: a quarter of the threads keeps the run short.
    const size_t n2 = std::max<size_t>(n / 4, kThreads);
    const auto g2 = generator_multiples<ec::G2Curve>(m);
    results.push_back(
        bench_curve<ec::G2Curve, DeviceFp2T<NewFp>, CurveOp::kMadd>("G2 madd new", g2, n2, iters, stream));
    results.push_back(
        bench_curve<ec::G2Curve, DeviceFp2T<Cios<NewFp>>, CurveOp::kMadd>("G2 madd cios", g2, n2, iters, stream));
    results.push_back(
        bench_curve<ec::G2Curve, DeviceFp2T<Mix<NewFp>>, CurveOp::kMadd>("G2 madd mix", g2, n2, iters, stream));
    results.push_back(
        bench_curve<ec::G2Curve, DeviceFp2T<Kara<NewFp>>, CurveOp::kMadd>("G2 madd kara", g2, n2, iters, stream));
  }
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
