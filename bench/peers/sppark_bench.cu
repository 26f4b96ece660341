// sppark peer benchmark: BLS12-381 G1 MSM and Fr NTT timed with sppark's own kernels, so that
// shared/PERF.md's peer figures are re-measured beside ours on the same card (issue 6).
//
// Not part of CMake/CI: built by bench/peers/build_sppark.sh against a checkout of sppark and
// blst kept outside this repository. This file is our harness only; it calls sppark's public
// entry points (msm_t::invoke, NTT::Base_dev_ptr) and never copies their code.
//
// Input policy (shared/PERF.md "Method": no zeros, no repeated points):
//   * points: n distinct affine points P_i = B[i mod 2^16] + C[i div 2^16], where B and C are
//     b_j*G and c_k*G for random 64-bit b_j, c_k (top bit set), all built on the GPU. Distinct
//     because the sums b_j + c_k collide with probability ~n^2 / 2^64. Points are resident on
//     the device, outside the timed region (the way a prover keeps its SRS resident).
//   * scalars: uniform-ish 255-bit integers reduced below r, canonical form (mont = false).
//   * --scalars device (default): points and scalars both in device memory (msm_t's
//     device-pointer invoke), so no PCIe traffic is timed (PERF.md's "data on GPU").
//   * --scalars host: sppark's canonical resident use: msm_t(points, n) uploads the
//     points once (constructor, untimed), invoke(out, scalars) reads the scalars from pinned host
//     memory inside the timed region (sppark overlaps that upload with its digit sort).
//   * NTT: random Fr elements on the device, forward, natural order in and out (NN), in place.
// Timing: host wall clock around one call including its synchronisation (for the MSM this
// includes sppark's CPU-side bucket collection, which is part of its MSM); one warm-up call,
// then --reps calls; median, min and max reported.
// Checks before timing: MSM at 2^16 equals blst_p1s_mult_pippenger on the same points and
// scalars (all points on the curve); NTT at the first size: inverse(forward(x)) == x and
// forward(x)[0] == sum x_i.
//
// Every stage runs under a watchdog (--stage-timeout seconds, default 60): a stage that hangs
// prints its name and ends the process, so a device run never burns its whole time limit.
//
// Usage: sppark_bench [--msm 16,20,22,24,26,27] [--ntt 20,24,26,27] [--msm-reps 5]
//                     [--ntt-reps 10] [--scalars host|device] [--json] [--no-check]
//                     [--stage-timeout 60]

#include <cuda.h>

#include <ff/bls12-381.hpp>
#include <ec/jacobian_t.hpp>
#include <ec/xyzz_t.hpp>

typedef jacobian_t<fp_t> point_t;
typedef xyzz_t<fp_t> bucket_t;
typedef bucket_t::affine_t affine_t;
typedef fr_t scalar_t;

#include <msm/pippenger.cuh>
#include <ntt/ntt.cuh>

// blst's public header cannot be included beside sppark's host field (blst_t.hpp pulls blst's
// internal vect.h, which also defines limb_t), so the few blst calls used are declared here with
// blst's C layouts: affine = {X, Y}, Jacobian = {X, Y, Z}, Fr = 4 limbs, all Montgomery.
extern "C" {
struct blst_fr { uint64_t l[4]; };
struct blst_p1 { uint64_t x[6], y[6], z[6]; };
struct blst_p1_affine { uint64_t x[6], y[6]; };
void blst_fr_add(blst_fr* ret, const blst_fr* a, const blst_fr* b);
bool blst_p1_is_equal(const blst_p1* a, const blst_p1* b);
bool blst_p1_affine_on_curve(const blst_p1_affine* p);
const blst_p1_affine* blst_p1_affine_generator(void);
size_t blst_p1s_mult_pippenger_scratch_sizeof(size_t npoints);
void blst_p1s_mult_pippenger(blst_p1* ret, const blst_p1_affine* const points[], size_t npoints,
                             const uint8_t* const scalars[], size_t nbits, uint64_t* scratch);
}

#include <algorithm>
#include <array>
#include <atomic>
#include <thread>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// msm_t's points type. sppark's default (affine_t::mem_t) makes its device-pointer invoke()
// recurse into itself forever (its inner call passes a mem_t pointer that only the template
// overload accepts), so the harness instantiates msm_t with affine_h = affine_t: for G1 over
// fp_t the two types have the same 96-byte layout (X, Y; (0, 0) is infinity).
using affine_mem_t = affine_t;

constexpr uint32_t kBlockLog = 16;  // |B| = 2^16 base points, |C| = n / 2^16

// r, the BLS12-381 scalar field modulus, little-endian 64-bit limbs.
__constant__ const uint64_t kR[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                            0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

struct GeneratorLimbs {
  uint32_t w[24];  // X then Y, Montgomery form, 32-bit limbs (blst's layout)
};

__host__ __device__ inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

#ifdef __CUDA_ARCH__
// Input generation only (not timed). sppark's jacobian_t is host-only (vec_select), so the few
// formulas needed are written here on sppark's device fp_t.
struct AffinePoint {
  fp_t x, y;
};
struct JacobianPoint {
  fp_t x, y, z;
};

// EFD dbl-2009-l (a = 0): https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html
__device__ JacobianPoint dbl(const JacobianPoint& p) {
  fp_t a = p.x ^ 2;                   // A = X1^2
  fp_t b = p.y ^ 2;                   // B = Y1^2
  fp_t c = b ^ 2;                     // C = B^2
  fp_t d = ((p.x + b) ^ 2) - a - c;   // (X1+B)^2-A-C
  d = d + d;                          // D = 2*((X1+B)^2-A-C)
  fp_t e = a + a + a;                 // E = 3*A
  fp_t f = e ^ 2;                     // F = E^2
  JacobianPoint r;
  r.x = f - d - d;                    // X3 = F-2*D
  fp_t c8 = c + c;
  c8 = c8 + c8;
  c8 = c8 + c8;                       // 8*C
  r.y = e * (d - r.x) - c8;           // Y3 = E*(D-X3)-8*C
  r.z = p.y * p.z;
  r.z = r.z + r.z;                    // Z3 = 2*Y1*Z1
  return r;
}

// EFD madd-2007-bl (Z2 = 1); inputs never equal or opposite here (random 64-bit multiples).
__device__ JacobianPoint madd(const JacobianPoint& p, const AffinePoint& q) {
  fp_t z1z1 = p.z ^ 2;                // Z1Z1 = Z1^2
  fp_t u2 = q.x * z1z1;               // U2 = X2*Z1Z1
  fp_t s2 = q.y * p.z * z1z1;         // S2 = Y2*Z1*Z1Z1
  fp_t h = u2 - p.x;                  // H = U2-X1
  fp_t hh = h ^ 2;                    // HH = H^2
  fp_t i = hh + hh;
  i = i + i;                          // I = 4*HH
  fp_t j = h * i;                     // J = H*I
  fp_t r = s2 - p.y;
  r = r + r;                          // r = 2*(S2-Y1)
  fp_t v = p.x * i;                   // V = X1*I
  JacobianPoint o;
  o.x = (r ^ 2) - j - v - v;          // X3 = r^2-J-2*V
  fp_t y1j = p.y * j;
  o.y = r * (v - o.x) - y1j - y1j;    // Y3 = r*(V-X3)-2*Y1*J
  o.z = ((p.z + h) ^ 2) - z1z1 - hh;  // Z3 = (Z1+H)^2-Z1Z1-HH
  return o;
}

__device__ AffinePoint to_affine(const JacobianPoint& p) {
  fp_t zi = p.z.reciprocal();
  fp_t zi2 = zi ^ 2;
  return {p.x * zi2, p.y * zi2 * zi};  // (X/Z^2, Y/Z^3)
}
#endif

// out[i] = k_i * G for a random 64-bit k_i with its top bit set (double-and-add).
__global__ void random_multiples_of_g(affine_mem_t* out, size_t n, uint64_t seed,
                                      GeneratorLimbs g) {
#ifdef __CUDA_ARCH__
  size_t i = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (i >= n) return;
  AffinePoint base;
  for (int l = 0; l < 12; l++) {
    base.x[l] = g.w[l];
    base.y[l] = g.w[12 + l];
  }
  uint64_t k = splitmix64(seed ^ (i * 0x2545f4914f6cdd1dULL)) | (1ULL << 63);
  JacobianPoint acc{base.x, base.y, fp_t::one()};
  for (int bit = 62; bit >= 0; bit--) {
    acc = dbl(acc);
    if ((k >> bit) & 1) acc = madd(acc, base);
  }
  reinterpret_cast<AffinePoint*>(out)[i] = to_affine(acc);
#else
  (void)out, (void)n, (void)seed, (void)g;
#endif
}

// out[i] = B[i mod 2^kBlockLog] + C[i >> kBlockLog], normalised to affine.
__global__ void sum_blocks(affine_mem_t* out, size_t n, const affine_mem_t* b,
                           const affine_mem_t* c) {
#ifdef __CUDA_ARCH__
  size_t i = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (i >= n) return;
  const AffinePoint& pb = reinterpret_cast<const AffinePoint*>(b)[i & ((size_t(1) << kBlockLog) - 1)];
  const AffinePoint& pc = reinterpret_cast<const AffinePoint*>(c)[i >> kBlockLog];
  JacobianPoint sum{pb.x, pb.y, fp_t::one()};
  reinterpret_cast<AffinePoint*>(out)[i] = to_affine(madd(sum, pc));
#else
  (void)out, (void)n, (void)b, (void)c;
#endif
}

// Random 255-bit integers reduced below r (one conditional subtraction: 2^255 < 2r).
__global__ void random_scalars(uint64_t* out, size_t n, uint64_t seed) {
  size_t i = threadIdx.x + size_t(blockIdx.x) * blockDim.x;
  if (i >= n) return;
  uint64_t v[4];
  for (int l = 0; l < 4; l++) v[l] = splitmix64(seed + 4 * i + l);
  v[3] &= 0x7fffffffffffffffULL;
  bool ge = false;
  for (int l = 3; l >= 0; l--) {
    if (v[l] != kR[l]) {
      ge = v[l] > kR[l];
      break;
    }
    if (l == 0) ge = true;
  }
  if (ge) {
    uint64_t borrow = 0;
    for (int l = 0; l < 4; l++) {
      uint64_t d = v[l] - kR[l];
      uint64_t b1 = v[l] < kR[l];
      uint64_t d2 = d - borrow;
      uint64_t b2 = d < borrow;
      v[l] = d2;
      borrow = b1 | b2;
    }
  }
  for (int l = 0; l < 4; l++) out[4 * i + l] = v[l];
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

void check(const RustError& e, const char* what) {
  if (e.code != cudaSuccess) {
    std::fprintf(stderr, "sppark error in %s: %d %s\n", what, e.code,
                 e.message ? e.message : "");
    std::exit(1);
  }
}

unsigned blocks_for(size_t n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

struct Stats {
  double median, min, max;
};

Stats summarise(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  size_t k = ms.size();
  double median = k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
  return {median, ms.front(), ms.back()};
}

// Milliseconds since the first call (the program start, in practice).
double now_ms() {
  using clock = std::chrono::steady_clock;
  static const clock::time_point start = clock::now();
  return std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

std::vector<uint32_t> parse_logs(const char* s) {
  std::vector<uint32_t> out;
  std::string str(s);
  size_t pos = 0;
  while (pos < str.size()) {
    size_t comma = str.find(',', pos);
    if (comma == std::string::npos) comma = str.size();
    if (comma > pos) out.push_back(uint32_t(std::stoul(str.substr(pos, comma - pos))));
    pos = comma + 1;
  }
  return out;
}

void report(bool json, const char* op, uint32_t lg, size_t reps, const Stats& s,
            const char* inputs) {
  if (json) {
    std::printf("{\"peer\":\"sppark\",\"op\":\"%s\",\"log_n\":%u,\"n\":%zu,\"reps\":%zu,"
                "\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"inputs\":\"%s\"}\n",
                op, lg, size_t(1) << lg, reps, s.median, s.min, s.max, inputs);
  } else {
    std::printf("%-8s 2^%-3u median %10.3f ms  min %10.3f  max %10.3f  (%zu reps, %s)\n", op,
                lg, s.median, s.min, s.max, reps, inputs);
  }
  std::fflush(stdout);
}

using Msm = msm_t<bucket_t, point_t, affine_t, scalar_t, affine_mem_t>;

// Watchdog: the current stage's name and deadline; a detached thread ends the process when a
// stage overruns (a hung cooperative kernel cannot be interrupted any other way).
struct Watchdog {
  std::atomic<const char*> stage{"start"};
  std::atomic<double> deadline_ms{0};
  double timeout_ms = 60000;
  void enter(const char* name) {
    std::fprintf(stderr, "[%9.0f ms] %s\n", now_ms(), name);
    stage = name;
    deadline_ms = now_ms() + timeout_ms;
  }
  void start() {
    std::thread([this] {
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        double d = deadline_ms;
        if (d > 0 && now_ms() > d) {
          std::fprintf(stderr, "WATCHDOG: stage '%s' exceeded %.0f s, exiting\n",
                       stage.load(), timeout_ms / 1000);
          std::fflush(stdout);
          _exit(3);
        }
      }
    }).detach();
  }
};

enum class ScalarSource { host, device };

// The MSM over the first n points and scalars, via sppark's msm_t, either way.
class SpparkMsm {
 public:
  SpparkMsm(ScalarSource source, const affine_mem_t* host_points, const affine_mem_t* d_points,
            size_t n)
      : source_(source),
        n_(n),
        d_points_(const_cast<affine_mem_t*>(d_points)),
        msm_(source == ScalarSource::host ? host_points : nullptr, n) {}

  point_t run(const scalar_t* host_scalars, const uint64_t* d_scalars) {
    point_t out;
    if (source_ == ScalarSource::host) {
      check(msm_.invoke(out, static_cast<const affine_t*>(nullptr), n_, host_scalars, false),
            "msm (host scalars)");
    } else {
      check(msm_.invoke(out, dev_ptr_t<affine_mem_t>{d_points_, n_}, n_,
                        dev_ptr_t<scalar_t>{reinterpret_cast<scalar_t*>(
                                                const_cast<uint64_t*>(d_scalars)), n_},
                        false),
            "msm (device scalars)");
    }
    return out;
  }

 private:
  ScalarSource source_;
  size_t n_;
  affine_mem_t* d_points_;
  Msm msm_;
};

// MSM at 2^16 against blst's CPU Pippenger on the same points and scalars.
bool check_msm(SpparkMsm& msm, const blst_p1_affine* points, const uint64_t* scalars,
               const scalar_t* host_scalars, const uint64_t* d_scalars) {
  const size_t n = size_t(1) << 16;
  static_assert(sizeof(affine_mem_t) == sizeof(blst_p1_affine), "affine layout");
  static_assert(sizeof(point_t) == sizeof(blst_p1), "jacobian layout");
  for (size_t i = 0; i < n; i++) {
    if (!blst_p1_affine_on_curve(&points[i])) {
      std::fprintf(stderr, "point %zu is not on the curve\n", i);
      return false;
    }
  }
  blst_p1 expected;
  const blst_p1_affine* point_ptrs[2] = {points, nullptr};
  const uint8_t* scalar_ptrs[2] = {reinterpret_cast<const uint8_t*>(scalars), nullptr};
  std::vector<uint64_t> scratch(blst_p1s_mult_pippenger_scratch_sizeof(n) / 8 + 1);
  blst_p1s_mult_pippenger(&expected, point_ptrs, n, scalar_ptrs, 255, scratch.data());
  point_t ours = msm.run(host_scalars, d_scalars);
  blst_p1 got;
  std::memcpy(&got, &ours, sizeof(got));
  return blst_p1_is_equal(&got, &expected);
}

// x reduced below r, as four 64-bit limbs (x < 2^256 < 6r).
std::array<uint64_t, 4> canonical(blst_fr x) {
  static constexpr uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                    0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  std::array<uint64_t, 4> v{x.l[0], x.l[1], x.l[2], x.l[3]};
  for (;;) {
    int cmp = 0;
    for (int l = 3; l >= 0 && cmp == 0; l--) cmp = v[l] < r[l] ? -1 : v[l] > r[l] ? 1 : 0;
    if (cmp < 0) return v;
    uint64_t borrow = 0;
    for (int l = 0; l < 4; l++) {
      unsigned __int128 d = (unsigned __int128)v[l] - r[l] - borrow;
      v[l] = uint64_t(d);
      borrow = uint64_t(d >> 64) & 1;
    }
  }
}

// inverse(forward(x)) == x and forward(x)[0] == sum x_i, at 2^lg.
bool check_ntt(uint32_t lg, fr_t* d_data) {
  const size_t n = size_t(1) << lg;
  auto& gpu = select_gpu(0);
  std::vector<blst_fr> input(n), forward(n), back(n);
  check(cudaMemcpy(input.data(), d_data, n * sizeof(blst_fr), cudaMemcpyDeviceToHost), "ntt in");
  NTT::Base_dev_ptr(gpu, d_data, lg, NTT::InputOutputOrder::NN, NTT::Direction::forward,
                    NTT::Type::standard);
  gpu.sync();
  check(cudaMemcpy(forward.data(), d_data, n * sizeof(blst_fr), cudaMemcpyDeviceToHost),
        "ntt fwd");
  NTT::Base_dev_ptr(gpu, d_data, lg, NTT::InputOutputOrder::NN, NTT::Direction::inverse,
                    NTT::Type::standard);
  gpu.sync();
  check(cudaMemcpy(back.data(), d_data, n * sizeof(blst_fr), cudaMemcpyDeviceToHost), "ntt inv");
  blst_fr sum;
  std::memset(&sum, 0, sizeof(sum));
  for (size_t i = 0; i < n; i++) blst_fr_add(&sum, &sum, &input[i]);
  // Compare residues, not bit patterns: a lazily reduced output in [r, 2r) is still correct.
  auto same = [](blst_fr a, blst_fr b) { return canonical(a) == canonical(b); };
  bool roundtrip = true, moved = false;
  for (size_t i = 0; i < n; i++) {
    roundtrip &= same(input[i], back[i]);
    moved |= !same(input[i], forward[i]);
  }
  bool dc = same(sum, forward[0]);
  std::fprintf(stderr, "ntt check: roundtrip %d, dc term %d, transform moved data %d\n",
               roundtrip, dc, moved);
  return roundtrip && dc && moved;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint32_t> msm_logs = {16, 20, 22, 24, 26, 27};
  std::vector<uint32_t> ntt_logs = {20, 24, 26, 27};
  size_t msm_reps = 5, ntt_reps = 10;
  bool json = false, run_checks = true;
  ScalarSource source = ScalarSource::device;
  Watchdog watchdog;
  (void)now_ms();
  for (int a = 1; a < argc; a++) {
    std::string arg = argv[a];
    auto next = [&]() -> const char* {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++a];
    };
    if (arg == "--msm") msm_logs = parse_logs(next());
    else if (arg == "--ntt") ntt_logs = parse_logs(next());
    else if (arg == "--msm-reps") msm_reps = std::stoul(next());
    else if (arg == "--ntt-reps") ntt_reps = std::stoul(next());
    else if (arg == "--scalars") source = std::string(next()) == "device" ? ScalarSource::device
                                                                        : ScalarSource::host;
    else if (arg == "--stage-timeout") watchdog.timeout_ms = 1000.0 * std::stod(next());
    else if (arg == "--json") json = true;
    else if (arg == "--no-check") run_checks = false;
    else {
      std::fprintf(stderr, "usage: %s [--msm 16,20,..] [--ntt 20,24,..] [--msm-reps N] "
                           "[--ntt-reps N] [--scalars host|device] [--json] [--no-check] "
                           "[--stage-timeout S]\n", argv[0]);
      return 2;
    }
  }
  watchdog.start();
  watchdog.enter("select gpu");
  auto& gpu = select_gpu(0);
  std::fprintf(stderr, "device: %s, %d SMs, %u host threads\n", gpu.props().name,
               gpu.sm_count(), std::thread::hardware_concurrency());
  const char* msm_inputs = source == ScalarSource::host
                               ? "points resident on device, scalars from pinned host memory"
                               : "points and scalars in device memory";

  bool all_ok = true;
  if (!msm_logs.empty()) {
    uint32_t max_msm = 16;
    for (auto lg : msm_logs) max_msm = std::max(max_msm, lg);
    const size_t n = size_t(1) << max_msm;
    const size_t nb = size_t(1) << kBlockLog;
    // |C| rounded up to whole blocks of 128: sppark's reciprocal() pairs each lane with its
    // neighbour (shfl_xor 1), so every lane of a warp must be live.
    const size_t nc = std::max<size_t>(128, n >> kBlockLog);
    GeneratorLimbs g;
    std::memcpy(g.w, blst_p1_affine_generator(), sizeof(g.w));
    affine_mem_t *d_points, *d_b, *d_c;
    uint64_t* d_scalars;
    watchdog.enter("generate points and scalars on the device");
    check(cudaMalloc(&d_points, n * sizeof(affine_mem_t)), "malloc points");
    check(cudaMalloc(&d_b, nb * sizeof(affine_mem_t)), "malloc b");
    check(cudaMalloc(&d_c, nc * sizeof(affine_mem_t)), "malloc c");
    check(cudaMalloc(&d_scalars, n * 32), "malloc scalars");
    random_multiples_of_g<<<blocks_for(nb, 128), 128>>>(d_b, nb, 1, g);
    random_multiples_of_g<<<blocks_for(nc, 128), 128>>>(d_c, nc, 2, g);
    sum_blocks<<<blocks_for(n, 256), 256>>>(d_points, n, d_b, d_c);
    random_scalars<<<blocks_for(n, 256), 256>>>(d_scalars, n, 3);
    check(cudaGetLastError(), "input kernels");
    check(cudaDeviceSynchronize(), "input generation");

    // Host copies: points for msm_t's constructor and blst, scalars pinned for invoke.
    watchdog.enter("copy inputs to the host");
    std::vector<affine_mem_t> host_points(source == ScalarSource::host ? n : nb);
    check(cudaMemcpy(host_points.data(), d_points, host_points.size() * sizeof(affine_mem_t),
                     cudaMemcpyDeviceToHost), "download points");
    uint64_t* host_scalars;
    size_t host_scalar_count = source == ScalarSource::host ? n : nb;
    check(cudaMallocHost(&host_scalars, host_scalar_count * 32), "pinned scalars");
    check(cudaMemcpy(host_scalars, d_scalars, host_scalar_count * 32, cudaMemcpyDeviceToHost),
          "download scalars");
    auto* scalars_fr = reinterpret_cast<const scalar_t*>(host_scalars);

    if (run_checks) {
      watchdog.enter("check msm 2^16 against blst");
      SpparkMsm msm(source, host_points.data(), d_points, nb);
      bool ok = check_msm(msm, reinterpret_cast<const blst_p1_affine*>(host_points.data()),
                          host_scalars, scalars_fr, d_scalars);
      all_ok &= ok;
      std::fprintf(stderr, "check msm 2^16 vs blst: %s\n", ok ? "PASS" : "FAIL");
    }
    for (auto lg : msm_logs) {
      const size_t m = size_t(1) << lg;
      watchdog.enter("msm setup (msm_t constructor)");
      SpparkMsm msm(source, host_points.data(), d_points, m);
      std::vector<double> ms;
      for (size_t r = 0; r <= msm_reps; r++) {
        watchdog.enter(r == 0 ? "msm warm-up" : "msm timed");
        double start = now_ms();
        (void)msm.run(scalars_fr, d_scalars);
        double t = now_ms() - start;
        if (r > 0) ms.push_back(t);
      }
      report(json, "msm_g1", lg, msm_reps, summarise(ms), msm_inputs);
    }
    check(cudaFreeHost(host_scalars), "free pinned");
    check(cudaFree(d_points), "free");
    check(cudaFree(d_b), "free");
    check(cudaFree(d_c), "free");
    check(cudaFree(d_scalars), "free");
  }

  for (size_t k = 0; k < ntt_logs.size(); k++) {
    uint32_t lg = ntt_logs[k];
    const size_t n = size_t(1) << lg;
    fr_t* d_data;
    watchdog.enter("ntt input");
    check(cudaMalloc(&d_data, n * sizeof(fr_t)), "malloc ntt");
    random_scalars<<<blocks_for(n, 256), 256>>>(reinterpret_cast<uint64_t*>(d_data), n, 4 + lg);
    check(cudaDeviceSynchronize(), "ntt input");
    if (k == 0 && run_checks) {
      watchdog.enter("check ntt");
      bool ok = check_ntt(lg, d_data);
      all_ok &= ok;
      std::fprintf(stderr, "check ntt 2^%u roundtrip + dc term: %s\n", lg, ok ? "PASS" : "FAIL");
    }
    std::vector<double> ms;
    watchdog.enter("ntt timed");
    for (size_t r = 0; r <= ntt_reps; r++) {
      double start = now_ms();
      NTT::Base_dev_ptr(gpu, d_data, lg, NTT::InputOutputOrder::NN, NTT::Direction::forward,
                        NTT::Type::standard);
      gpu.sync();
      double t = now_ms() - start;
      if (r > 0) ms.push_back(t);
    }
    report(json, "ntt_fr", lg, ntt_reps, summarise(ms), "device, NN, forward");
    check(cudaFree(d_data), "free ntt");
  }
  watchdog.deadline_ms = 0;
  std::fprintf(stderr, "checks: %s\n", all_ok ? "PASS" : "FAIL");
  return all_ok ? 0 : 1;
}
