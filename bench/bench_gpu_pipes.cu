// Instruction rates of the GPU's SM pipes, alone and interleaved: the measurement behind the
// choice of a field product's instructions (docs/PERF.md 37: on the H200, IMAD.WIDE and IMAD.HI
// issue at half the IMAD rate and bound today's Fp product; DFMA beside them adds too little for
// a product split between the integer and FP64 units to pay).
//
// Each kernel runs one wave (every block resident at once), each thread 16 independent
// dependent chains per kind; a kind is one PTX instruction (or the pair named) in `asm volatile`
// (nvcc neither drops nor reorders them) in a loop that is not unrolled (ptxas has no run of one
// chain's steps to fold); cuobjdump's SASS of the kernels shows what ran (the carry pair becomes
// one IMAD.WIDE). Rates are counted in SM clocks (clock64 around each block's loop), so they do
// not depend on the clock the card runs at: warp instructions per clock per SM; an SM issues at
// most 4 (four schedulers, one each a clock).
//   bench_gpu_pipes [--iters 4096] [--device 0] [--json]

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include "gpu/buffer.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device.hpp"
#include "gpu/event.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {
namespace {

constexpr unsigned kThreads = 256;
constexpr int kChains = 16;  // independent chains a kind a thread: hides each pipe's latency

// The instruction kinds. Each op advances its chain by one instruction (two for the pairs).
enum class Op { imad, imad_hi, imad_wide, madc_pair, iadd, iadd64, lop3, dfma, dfma_rz, ffma };
constexpr int kOps = 10;
const char* op_name(Op op) {
  constexpr const char* kNames[kOps] = {"IMAD (mad.lo)",   "IMAD.HI (mad.hi)", "IMAD.WIDE (mad.wide)",
                                        "mad.lo.cc+madc.hi", "IADD3 (add.u32)", "add.u64 (IADD3 pair)",
                                        "LOP3 (lop3.b32)", "DFMA (fma.rn.f64)", "DFMA (fma.rz.f64)",
                                        "FFMA (fma.rn.f32)"};
  return kNames[int(op)];
}
// SASS instructions an op issues.
constexpr int instructions(Op op) { return op == Op::madc_pair || op == Op::iadd64 ? 2 : 1; }

// A chain's state in the type its instruction reads and writes, so that no register moves come
// between the steps: 32-bit words, 64-bit words, a pair of words (the carry pair), doubles, floats.
struct WordPair {
  uint32_t lo, hi;
};
template <Op kOp>
constexpr auto state_value() {
  if constexpr (kOp == Op::imad_wide || kOp == Op::iadd64) return uint64_t{};
  else if constexpr (kOp == Op::madc_pair) return WordPair{};
  else if constexpr (kOp == Op::dfma || kOp == Op::dfma_rz) return double{};
  else if constexpr (kOp == Op::ffma) return float{};
  else return uint32_t{};
}
template <Op kOp>
using StateOf = decltype(state_value<kOp>());

template <Op kOp>
__device__ __forceinline__ void step(StateOf<kOp>& c, uint32_t k1, uint32_t k2) {
  if constexpr (kOp == Op::imad) {
    asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(c) : "r"(k1), "r"(k2));
  } else if constexpr (kOp == Op::imad_hi) {
    asm volatile("mad.hi.u32 %0, %0, %1, %2;" : "+r"(c) : "r"(k1), "r"(k2));
  } else if constexpr (kOp == Op::imad_wide) {
    asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(c) : "r"(k1), "r"(k2));
  } else if constexpr (kOp == Op::madc_pair) {
    // The field product's pattern (gpu/field.cuh): a low product into a carry chain, then a high
    // one taking the carry.
    asm volatile("mad.lo.cc.u32 %0, %2, %3, %0;\n\tmadc.hi.u32 %1, %2, %3, %1;"
                 : "+r"(c.lo), "+r"(c.hi)
                 : "r"(k1), "r"(k2));
  } else if constexpr (kOp == Op::iadd) {
    asm volatile("add.u32 %0, %0, %1;" : "+r"(c) : "r"(k1));
  } else if constexpr (kOp == Op::iadd64) {
    asm volatile("add.u64 %0, %0, %1;" : "+l"(c) : "l"((uint64_t(k2) << 32) | k1));
  } else if constexpr (kOp == Op::lop3) {
    asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(c) : "r"(k1), "r"(k2));
  } else if constexpr (kOp == Op::dfma) {
    asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(c) : "d"(0.9999999), "d"(1.0e-3));
  } else if constexpr (kOp == Op::dfma_rz) {
    asm volatile("fma.rz.f64 %0, %0, %1, %2;" : "+d"(c) : "d"(0.9999999), "d"(1.0e-3));
  } else {
    asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(c) : "f"(0.9999f), "f"(1.0e-3f));
  }
}

template <class T>
__device__ uint32_t fold_bits(const T& v) {
  if constexpr (sizeof(T) == 4) return *reinterpret_cast<const uint32_t*>(&v);
  else {
    uint32_t w[2];
    memcpy(w, &v, 8);
    return w[0] ^ w[1];
  }
}

// The chains of each kind of the pack, stepped one kind after another for each chain index.
template <Op... kKinds>
struct Chains {
  __device__ void init(uint32_t) {}
  __device__ __forceinline__ void step_all(int, uint32_t, uint32_t) {}
  __device__ uint32_t fold() const { return 0; }
};
template <Op kOp, Op... kRest>
struct Chains<kOp, kRest...> {
  StateOf<kOp> c[kChains];
  Chains<kRest...> rest;
  __device__ void init(uint32_t seed) {
    for (int j = 0; j < kChains; ++j) {
      using T = StateOf<kOp>;
      if constexpr (std::is_same_v<T, double>) c[j] = 1.0 + j * 1.0e-3 + seed * 1.0e-9;  // near 1: no overflow
      else if constexpr (std::is_same_v<T, float>) c[j] = 1.0f + j * 1.0e-3f;
      else if constexpr (std::is_same_v<T, WordPair>) c[j] = {seed * 131u + uint32_t(j), uint32_t(j) * 7u};
      else c[j] = T(seed) * 131u + T(j) * 7u;
    }
    rest.init(seed + 1);
  }
  __device__ __forceinline__ void step_all(int j, uint32_t k1, uint32_t k2) {
    step<kOp>(c[j], k1, k2);
    rest.step_all(j, k1, k2);
  }
  __device__ uint32_t fold() const {
    uint32_t x = rest.fold();
    for (int j = 0; j < kChains; ++j) {
      if constexpr (std::is_same_v<StateOf<kOp>, WordPair>) x ^= c[j].lo ^ c[j].hi;
      else x ^= fold_bits(c[j]);
    }
    return x;
  }
};

// Every kind of the pack steps its own kChains chains once an iteration, kinds interleaved.
template <Op... kKinds>
__global__ void pipes_kernel(uint64_t* cycles, uint32_t* sink, int iters, uint32_t k1, uint32_t k2) {
  Chains<kKinds...> chains;
  chains.init(threadIdx.x);
  __syncthreads();
  const uint64_t start = clock64();
  // Not unrolled: within an iteration each chain takes one step, so ptxas has no run of one
  // chain's steps to fold (a + k + k -> a + 2k). The loop's own counter, compare and branch (an
  // IADD3, an ISETP, a BRA an iteration) are not counted: they lower the ALU kinds' rates by
  // up to 2 in kChains + 2.
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < kChains; ++j) chains.step_all(j, k1, k2);
  }
  __syncthreads();
  const uint64_t end = clock64();
  sink[blockIdx.x * blockDim.x + threadIdx.x] = chains.fold();
  if (threadIdx.x == 0) cycles[blockIdx.x] = end - start;
}

struct Result {
  std::string name;
  std::vector<Op> kinds;
  double clocks = 0;          // the slowest block's loop, SM clocks (median of 5 runs)
  double per_kind = 0;        // each kind's warp instructions a clock an SM (SASS instructions)
  double total = 0;           // all kinds together
  double wall_ms = 0;
  int warps = 0;              // resident warps an SM
};

template <Op... kKinds>
Result measure(const std::string& name, const Device& dev, int iters, const Stream& stream) {
  const auto kernel = &pipes_kernel<kKinds...>;
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  const unsigned sms = unsigned(dev.info().multiprocessors);
  const unsigned blocks = sms * unsigned(per_sm);  // one wave: every block resident at once
  DeviceBuffer<uint64_t> cycles(blocks, stream);
  DeviceBuffer<uint32_t> sink(size_t(blocks) * kThreads, stream);
  std::vector<double> clocks, wall;
  for (int r = 0; r < 6; ++r) {  // the first run warms up
    Event start, end;
    start.record(stream);
    kernel<<<blocks, kThreads, 0, stream.get()>>>(cycles.data(), sink.data(), iters, 0x9e3779b9u, 0x7f4a7c15u);
    Stream::check_launch();
    end.record(stream);
    std::vector<uint64_t> c(blocks);
    cycles.download({c.data(), c.size()}, stream);
    stream.synchronize();
    const double ms = Event::elapsed_ms(start, end);
    if (r == 0) continue;
    clocks.push_back(double(*std::max_element(c.begin(), c.end())));
    wall.push_back(ms);
  }
  std::sort(clocks.begin(), clocks.end());
  std::sort(wall.begin(), wall.end());
  Result res{name, {kKinds...}};
  res.clocks = clocks[clocks.size() / 2];
  res.wall_ms = wall[wall.size() / 2];
  res.warps = per_sm * int(kThreads / 32);
  // Warp instructions of one kind on one SM: its warps × iterations × chains × SASS instructions an op.
  const double warps = double(per_sm) * (kThreads / 32);
  const int kind_instr = instructions(res.kinds[0]);  // the mixes pair kinds of one instruction each
  res.per_kind = warps * iters * kChains * kind_instr / res.clocks;
  double all = 0;
  for (Op k : res.kinds) all += warps * iters * kChains * instructions(k);
  res.total = all / res.clocks;
  return res;
}

int run(int argc, char** argv) {
  int iters = 4096, device = 0;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--iters" && i + 1 < argc) iters = std::stoi(argv[++i]);
    else if (arg == "--device" && i + 1 < argc) device = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--iters 4096] [--device 0] [--json]\n", argv[0]);
      return 2;
    }
  }
  const Device dev(device);
  dev.make_current();
  const DeviceInfo info = dev.info();
  Stream stream;
  std::vector<Result> r;
  // Each kind alone.
  r.push_back(measure<Op::imad>("imad", dev, iters, stream));
  r.push_back(measure<Op::imad_hi>("imad_hi", dev, iters, stream));
  r.push_back(measure<Op::imad_wide>("imad_wide", dev, iters, stream));
  r.push_back(measure<Op::madc_pair>("madc_pair", dev, iters, stream));
  r.push_back(measure<Op::iadd>("iadd", dev, iters, stream));
  r.push_back(measure<Op::iadd64>("iadd64", dev, iters, stream));
  r.push_back(measure<Op::lop3>("lop3", dev, iters, stream));
  r.push_back(measure<Op::dfma>("dfma", dev, iters, stream));
  r.push_back(measure<Op::dfma_rz>("dfma_rz", dev, iters, stream));
  r.push_back(measure<Op::ffma>("ffma", dev, iters, stream));
  // Pairs and a triple, one instruction of each kind in turn: which kinds share a pipe?
  r.push_back(measure<Op::imad, Op::imad_hi>("imad+imad_hi", dev, iters, stream));
  r.push_back(measure<Op::imad, Op::iadd>("imad+iadd", dev, iters, stream));
  r.push_back(measure<Op::imad, Op::lop3>("imad+lop3", dev, iters, stream));
  r.push_back(measure<Op::imad_hi, Op::iadd>("imad_hi+iadd", dev, iters, stream));
  r.push_back(measure<Op::imad_hi, Op::lop3>("imad_hi+lop3", dev, iters, stream));
  r.push_back(measure<Op::imad, Op::dfma>("imad+dfma", dev, iters, stream));
  r.push_back(measure<Op::imad_hi, Op::dfma>("imad_hi+dfma", dev, iters, stream));
  r.push_back(measure<Op::dfma, Op::iadd>("dfma+iadd", dev, iters, stream));
  r.push_back(measure<Op::dfma, Op::lop3>("dfma+lop3", dev, iters, stream));
  r.push_back(measure<Op::imad, Op::dfma, Op::lop3>("imad+dfma+lop3", dev, iters, stream));
  r.push_back(measure<Op::imad, Op::ffma>("imad+ffma", dev, iters, stream));
  if (json) {
    for (const auto& x : r) {
      std::printf("{\"bench\":\"pipes\",\"name\":\"%s\",\"device\":\"%s\",\"iters\":%d,\"clocks\":%.0f,"
                  "\"warp_instr_per_clock_per_sm_each\":%.3f,\"warp_instr_per_clock_per_sm\":%.3f,\"warps_per_sm\":%d,"
                  "\"wall_ms\":%.3f}\n",
                  x.name.c_str(), info.name.c_str(), iters, x.clocks, x.per_kind, x.total, x.warps, x.wall_ms);
    }
  } else {
    std::printf("%s, %d SMs; warp instructions a clock an SM (an SM issues at most 4)\n", info.name.c_str(),
                info.multiprocessors);
    std::printf("%-16s %-58s %8s %8s %6s %10s\n", "kernel", "kinds", "each", "total", "warps", "wall ms");
    for (const auto& x : r) {
      std::string kinds;
      for (Op k : x.kinds) kinds += (kinds.empty() ? "" : " + ") + std::string(op_name(k));
      std::printf("%-16s %-58s %8.3f %8.3f %6d %10.3f\n", x.name.c_str(), kinds.c_str(), x.per_kind, x.total, x.warps,
                  x.wall_ms);
    }
  }
  return 0;
}

}  // namespace
}  // namespace cuzk::gpu

int main(int argc, char** argv) {
  try {
    return cuzk::gpu::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_pipes: %s\n", e.what());
    return 1;
  }
}
