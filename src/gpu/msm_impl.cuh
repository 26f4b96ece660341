#pragma once
// GPU Pippenger MSM (gpu/msm.hpp says the algorithm): the kernels and Msm<Curve>'s members, for
// the two translation units that instantiate them (msm.cu: G1, msm_g2.cu: G2), so that nvcc
// compiles the curves in parallel. Include only from those.

#include "gpu/curve.cuh"  // first: gpu/field.cuh says why

#include "gpu/msm.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "gpu/buffer.hpp"
#include "gpu/event.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kBlock = 256;

// Launch shapes (threads per block, minimum blocks per SM; 0: none), measured on the H200
// (docs/PERF.md 16-17).
// Accumulation: G1 takes about 166 registers, so a block of 256 threads fits once per SM
// (8 warps, 1185 ms at 2^26) and blocks of 128 three times (12 warps, 852 ms); capping it at 128
// registers for 16 warps spills (1033 ms). G2 (about 250 registers) is faster with blocks of 256
// (2^24: 716 ms against 792). The even/odd field product needs more registers (ptxas: 188 for
// G1), so G1 keeps its 12 warps at <= 170 registers: one block of 384 threads per SM, 1.5 %
// faster than three of 128 (2^27: 740.8 against 752.0 ms, docs/PERF.md 39); 4 blocks of 128
// (128 registers) and 2 (no cap) were 4 % and 1 % slower than three.
// Window sums (bucket_sum_kernel): G1 256 threads, no minimum (11.3 ms at 2^24 against 13.5 with
// the accumulation's shape); G2, with its Fp2 products out of line by value, (256, 1): 58 ms
// against 171 without the minimum.
struct LaunchShape {
  unsigned threads, min_blocks;
};
template <class DX>
struct Launch {
  static constexpr LaunchShape kAccumulate{384, 1}, kSum{256, 0};
};
template <>
struct Launch<DeviceG2XYZZ> {
  static constexpr LaunchShape kAccumulate{256, 1}, kSum{256, 1};
};
// Widest window: a Booth digit reads width + 1 <= 23 bits (bits_at), and bucket_sum_kernel's
// lo < 2^22.
constexpr unsigned kMaxWindow = 22;
// A sort's keys (bucket indices of a group of windows) stay below 2^24: three radix passes of
// 8 bits (25 bits would take a fourth: +16 % sort time at 2^26).
constexpr unsigned kKeyBits = 24;
constexpr uint32_t kSign = 0x80000000u;      // in a pair's value: the base is negated
constexpr size_t kMaxPairs = size_t{1} << 30;  // per sort: 16 GiB of keys and values, both buffers
constexpr unsigned kMaxWindows = 256;          // 1-bit windows; Readback holds this many sums

unsigned blocks_for(size_t n) { return unsigned((n + kBlock - 1) / kBlock); }

// A significant term: canonical scalar (8 little-endian words) and its base's index.
struct Term {
  uint32_t k[8];
  uint32_t base;
};

// Window j of an MsmWindows plan: its first bit, width and bucket count (2^(width - 1)), and
// where a group's buckets of window j start: the group's windows j0.. lie one after another.
__host__ __device__ __forceinline__ unsigned window_start(const MsmWindows& w, unsigned j) {
  return j * w.c + (j < w.wide ? j : w.wide);
}
__host__ __device__ __forceinline__ unsigned window_width(const MsmWindows& w, unsigned j) {
  return w.c + (j < w.wide ? 1 : 0);
}
__host__ __device__ __forceinline__ size_t bucket_offset(const MsmWindows& w, unsigned j0, unsigned j) {
  const unsigned lo = j0 < w.wide ? j0 : w.wide, hi = j < w.wide ? j : w.wide;  // wide ones in [j0, j)
  return (size_t(hi - lo) << w.c) + (size_t(j - j0 - (hi - lo)) << (w.c - 1));
}

// Bits [pos, pos + len) of k, len <= 23; bits at 256 and above read as 0.
__device__ __forceinline__ uint32_t bits_at(const uint32_t (&k)[8], unsigned pos, unsigned len) {
  if (pos >= 256) return 0;
  const unsigned word = pos / 32, off = pos % 32;
  uint64_t v = k[word];
  if (word + 1 < 8) v |= uint64_t(k[word + 1]) << 32;
  return uint32_t(v >> off) & ((1u << len) - 1);
}

// Booth digit of the window of c bits at bit `start`, as msm::detail::booth_digit: w = bits
// [start - 1, start + c) (bit -1 read as 0), d = floor((w + 1) / 2) - 2^c w_c; returned as
// |d| << 1 | (d < 0).
__device__ __forceinline__ uint32_t booth_digit(const uint32_t (&k)[8], unsigned start, unsigned c) {
  const uint32_t w = start == 0 ? bits_at(k, 0, c) << 1 : bits_at(k, start - 1, c + 1);
  const uint32_t top = w >> c;
  const uint32_t half = (w + 1) >> 1;
  const uint32_t magnitude = top ? (1u << c) - half : half;
  return magnitude << 1 | top;
}

// Per word of the density bitmap, its popcount (scanned afterwards into each word's first base).
__global__ void popcount_kernel(const uint64_t* words, size_t count, uint32_t* out) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = uint32_t(__popcll(words[i]));
}

// Where term i's scalar lies: scalars[i], or with rev_bits > 0 scalars[bitrev(at + i)] over
// rev_bits bits (MsmOptions::scalar_order; `scalars` is then the whole vector, `at` the chunk's
// first base).
struct ScalarIndex {
  unsigned rev_bits = 0;
  size_t at = 0;
  __device__ __forceinline__ size_t operator()(size_t i) const {
    return rev_bits == 0 ? i : __brev(uint32_t(at + i)) >> (32 - rev_bits);
  }
};

// A scalar's canonical form: a Montgomery product with the integer 1 is a R^-1.
__device__ __forceinline__ DeviceFr canonical(const DeviceFr& a) {
  DeviceFr unit = DeviceFr::zero();
  unit.limbs[0] = 1;
  return a * unit;
}

// Stage 1 per scalar: canonical form, its base (the density rank) and its class. The block appends
// its significant terms (Pippenger's) to sig_terms and its k = 1 terms' bases (summed apart) to
// one_bases: ranks by warp ballots, then
// one atomic a block and list for its place (counts[0], counts[1]). The lists are compacted as
// they are written, in the blocks' order, on which neither the buckets' sums nor the ones' sum
// depend (docs/PERF.md 53).
template <class DA>
__global__ void __launch_bounds__(kBlock) prepare_kernel(const DA* bases, const DeviceFr* scalars, ScalarIndex at,
                                                         const uint64_t* density, const uint32_t* word_first, size_t n,
                                                         bool split_ones, Term* sig_terms, uint32_t* one_bases,
                                                         uint32_t* counts) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  bool sig = false, one = false;
  Term t;
  if (i < n) {  // no return before the block's ranks: every lane votes
    uint32_t base = uint32_t(i);
    bool present = true;
    if (density != nullptr) {
      const uint64_t w = density[i / 64];
      const unsigned bit = unsigned(i % 64);
      present = (w >> bit) & 1;
      base = word_first[i / 64] + uint32_t(__popcll(w & ((uint64_t{1} << bit) - 1)));
    }
    if (present && !bases[base].infinity) {
      const DeviceFr k = canonical(scalars[at(i)]);
      uint32_t high = 0;
#pragma unroll
      for (int w = 1; w < 8; ++w) high |= k.limbs[w];
      const bool is_one = high == 0 && k.limbs[0] == 1;
      if (!k.is_zero()) {
        one = split_ones && is_one;
        sig = !one;
      }
#pragma unroll
      for (int w = 0; w < 8; ++w) t.k[w] = k.limbs[w];
    }
    t.base = base;
  }
  constexpr unsigned kWarps = kBlock / 32;
  __shared__ uint32_t warp_at[2][kWarps], block_at[2];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32, below = (1u << lane) - 1;
  const unsigned sig_votes = __ballot_sync(~0u, sig), one_votes = __ballot_sync(~0u, one);
  if (lane == 0) warp_at[0][warp] = __popc(sig_votes), warp_at[1][warp] = __popc(one_votes);
  __syncthreads();
  if (threadIdx.x < 2) {  // thread 0: the significant list, thread 1: the ones'
    uint32_t total = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      const uint32_t c = warp_at[threadIdx.x][w];
      warp_at[threadIdx.x][w] = total;
      total += c;
    }
    block_at[threadIdx.x] = total != 0 ? atomicAdd(&counts[threadIdx.x], total) : 0;
  }
  __syncthreads();
  if (sig) sig_terms[block_at[0] + warp_at[0][warp] + __popc(sig_votes & below)] = t;
  if (one) one_bases[block_at[1] + warp_at[1][warp] + __popc(one_votes & below)] = t.base;
}

// Where stage 2a finds item i's canonical scalar and its base; false: no term (its keys are the
// sentinel). The significant terms prepare_kernel listed (MsmTerms::classified):
struct TermList {
  const Term* terms;
  __device__ __forceinline__ bool operator()(size_t i, uint32_t (&k)[8], uint32_t& base) const {
#pragma unroll
    for (int w = 0; w < 8; ++w) k[w] = terms[i].k[w];
    base = terms[i].base;
    return true;
  }
};
// MsmTerms::in_place: the scalars where they lie, put in canonical form here, once a group of
// windows. Item i is base i, its scalar at `index(i)`; or, by_position (bit-reversed scalars, the
// whole vector from base 0), item i is position i of the vector and its base index(i) = bitrev(i)
// (its own inverse): coalesced reads, and no term where that base is n or more.
struct ScalarsInPlace {
  const DeviceFr* scalars;
  ScalarIndex index;
  size_t n;
  bool by_position;
  __device__ __forceinline__ bool operator()(size_t i, uint32_t (&k)[8], uint32_t& base) const {
    const size_t b = by_position ? index(i) : i;
    if (b >= n) return false;
    const DeviceFr c = canonical(scalars[by_position ? i : index(i)]);
#pragma unroll
    for (int w = 0; w < 8; ++w) k[w] = c.limbs[w];
    base = uint32_t(b);
    return true;
  }
};

// Stage 2a: the (bucket key, base | sign) pairs of windows [j0, j0 + group) for m items, window
// j0 + jl's pairs at [jl m, (jl + 1) m). key = bucket_offset(j0, j) + |d| - 1; a zero digit gets
// `sentinel` (the group's bucket count).
template <class Terms>
__global__ void digits_kernel(Terms terms, size_t m, MsmWindows plan, unsigned j0, unsigned group, uint32_t* keys,
                              uint32_t* values) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m) return;
  uint32_t k[8] = {}, base = 0;
  const bool term = terms(i, k, base);
  const uint32_t sentinel = uint32_t(bucket_offset(plan, j0, j0 + group));
  for (unsigned jl = 0; jl < group; ++jl) {
    const unsigned j = j0 + jl;
    const uint32_t d = booth_digit(k, window_start(plan, j), window_width(plan, j));
    const uint32_t magnitude = d >> 1;
    keys[jl * m + i] = !term || magnitude == 0 ? sentinel : uint32_t(bucket_offset(plan, j0, j)) + magnitude - 1;
    values[jl * m + i] = base | ((d & 1) ? kSign : 0);
  }
}

// Stage 2b: thread t accumulates sorted (key, value) entries [t L, (t + 1) L). A run of equal
// keys wholly inside is a full bucket, written directly. A run cut by the range's start
// (left-open) becomes piece slot 2t, one cut only by its end (right-open) slot 2t + 1: each
// bucket is written once, here or by a later level. The pieces, compacted, are again sorted by
// key and go through the same kernel (values now XYZZ) until none is left: a bucket of k entries
// takes log_L(k) levels instead of a k / L chain. Keys equal to `sentinel` end the input.
template <class DA>
struct AffineLoad {  // level 1: +-base by the pair's value
  const DA* bases;
  const uint32_t* values;
  __device__ __forceinline__ DA operator()(size_t i) const {
    const uint32_t v = values[i];
    const DA p = bases[v & ~kSign];
    return (v & kSign) ? -p : p;
  }
};
template <class DX>
struct PieceLoad {  // later levels: the pieces of the level before
  const DX* pieces;
  __device__ __forceinline__ const DX& operator()(size_t i) const { return pieces[i]; }
};

template <class DX, class Load>
__global__ void __launch_bounds__(Launch<DX>::kAccumulate.threads, Launch<DX>::kAccumulate.min_blocks)
    accumulate_kernel(Load load, const uint32_t* keys, size_t count, uint32_t sentinel, unsigned run, DX* buckets,
                      uint32_t* piece_key, DX* piece, uint8_t* piece_flag) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const size_t begin = t * run;
  if (begin >= count) return;
  const size_t end = min(begin + run, count);
  uint8_t flag_left = 0, flag_right = 0;
  uint32_t current = keys[begin];
  if (current != sentinel) {
    const bool left_open = begin > 0 && keys[begin - 1] == current;
    bool first = true;
    DX acc = DX::identity();
    size_t i = begin;
    for (; i < end; ++i) {
      const uint32_t key = keys[i];
      if (key == sentinel) break;
      if (key != current) {
        if (first && left_open) {
          piece[2 * t] = acc;
          piece_key[2 * t] = current;
          flag_left = 1;
        } else {
          buckets[current] = acc;
        }
        first = false;
        acc = DX::identity();
        current = key;
      }
      acc += load(i);
    }
    const bool right_open = i == end && end < count && keys[end] == current;
    if (first && left_open) {
      piece[2 * t] = acc;
      piece_key[2 * t] = current;
      flag_left = 1;
    } else if (right_open) {
      piece[2 * t + 1] = acc;
      piece_key[2 * t + 1] = current;
      flag_right = 1;
    } else {
      buckets[current] = acc;
    }
  }
  piece_flag[2 * t] = flag_left;
  piece_flag[2 * t + 1] = flag_right;
}

// Stage 3a: thread t over the group's buckets [t len, (t + 1) len), segment s of its window
// (bucket lo = s len; every window has a multiple of len buckets): running sums from the top give
// S = sum (b - lo + 1) B_b and R = sum B_b, and the window's sum_b (b + 1) B_b is the sum over its
// segments of S + lo R. One level (shifted null): out[t] = S + lo R, lo R by doubling (c doublings
// a thread, as much again as its 2 len additions when len ~ 2c). Two levels: out[t] = S, and R goes
// to shifted[t - 1] (the window's last slot, for s = 0, gets the identity), so that this kernel run
// again over `shifted` (windows of 2^c / len buckets) gives sum_s s R_s, which the host multiplies
// by len.
template <class DX>
__global__ void __launch_bounds__(Launch<DX>::kSum.threads, Launch<DX>::kSum.min_blocks)
    bucket_sum_kernel(const DX* buckets, MsmWindows plan, unsigned j0, size_t segments, unsigned len, DX* out,
                      DX* shifted) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= segments) return;
  // The group's wide windows come first (2^c buckets each), then the narrow ones (2^(c-1)).
  const size_t at = t * len;
  const unsigned wide = j0 < plan.wide ? plan.wide - j0 : 0;
  const size_t wide_end = size_t(wide) << plan.c;
  const size_t window_buckets = at < wide_end ? size_t{1} << plan.c : size_t{1} << (plan.c - 1);
  const size_t lo = (at < wide_end ? at : at - wide_end) & (window_buckets - 1);
  const DX* b = buckets + at;
  DX running = DX::identity(), sum = DX::identity();  // lazily reduced (DeviceXYZZ::add_lazy)
  for (unsigned k = len; k-- > 0;) {
    running = running.add_lazy(b[k]);
    sum = sum.add_lazy(running);
  }
  running = running.reduced();
  if (shifted != nullptr) {
    out[t] = sum.reduced();
    shifted[lo == 0 ? t + window_buckets / len - 1 : t - 1] = lo == 0 ? DX::identity() : running;
    return;
  }
  DX scaled = DX::identity();  // lo * running by double-and-add, lo < 2^22
  for (int bit = 22; bit >= 0; --bit) {
    scaled = scaled.dbl();
    if ((lo >> bit) & 1) scaled += running;
  }
  out[t] = sum.reduced() + scaled;
}

// data[g w + i] += data[g w + i + half] for i < half: one level of a tree over groups of width w.
template <class DX>
__global__ void fold_kernel(DX* data, size_t groups, size_t width, size_t half) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const size_t g = t / half, i = t % half;
  data[g * width + i] += data[g * width + i + half];
}

// The k = 1 terms: thread t < threads sums the bases of one_bases[t], [t + threads], ... (every
// `threads`-th, so a warp's index loads are coalesced) into out[t]; threads up to `slots` (a power
// of two, for fold_all) write the identity. In the accumulation's launch shape, whose madd it runs
// (docs/PERF.md 39, 53).
template <class DA, class DX>
__global__ void __launch_bounds__(Launch<DX>::kAccumulate.threads, Launch<DX>::kAccumulate.min_blocks)
    ones_kernel(const DA* bases, const uint32_t* one_bases, size_t count, size_t threads, size_t slots, DX* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= slots) return;
  DX acc = DX::identity();
  if (t < threads)
    for (size_t i = t; i < count; i += threads) acc += bases[one_bases[i]];
  out[t] = acc;
}

// Threads of `kernel` in blocks of `block` that the current device holds at once.
template <class Kernel>
size_t resident_threads(Kernel kernel, unsigned block) {
  int blocks = 0, device = 0, sms = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, int(block), 0));
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return size_t(std::max(blocks, 1)) * size_t(sms) * block;
}

// Sorted pairs per accumulating thread when the caller leaves it open: long runs leave fewer
// pieces for the merge levels, short ones make more threads. Measured on the H200 over 2^16..2^27
// and runs of 32..1024 (docs/PERF.md 17): G1 is within 3 % of its best with about 2^18 threads,
// G2 (whose pieces cost full G2 additions) with runs about 8x longer.
template <class DX>
unsigned default_run_length(size_t pairs) {
  constexpr bool kG2 = std::is_same_v<DX, DeviceG2XYZZ>;
  const size_t target = pairs >> (kG2 ? 15 : 18);
  return unsigned(std::clamp<size_t>(std::bit_floor(std::max<size_t>(target, 1)), 32, kG2 ? 512 : 1024));
}

// A device buffer that only grows.
template <class T>
struct Grow {
  DeviceBuffer<T> buf;
  T* get(size_t n, const Stream& s) {
    if (buf.size() < n) {
      buf = DeviceBuffer<T>();
      buf = DeviceBuffer<T>(std::max<size_t>(n, 1), s);
    }
    return buf.data();
  }
};

// Reduces groups of `width` (a power of two) points in place by a tree; each group's sum ends
// at its first slot.
template <class DX>
void fold_all(DX* data, size_t groups, size_t width, const Stream& s) {
  for (size_t half = width / 2; half >= 1; half /= 2) {
    fold_kernel<<<blocks_for(groups * half), kBlock, 0, s.get()>>>(data, groups, width, half);
    Stream::check_launch();
  }
}

// Segments of about 2c buckets (a power of two dividing every window's count): a thread's
// lo * running (c doublings) then costs no more than its running sums (2 additions a bucket).
unsigned segment_length(const MsmWindows& plan) {
  return unsigned(std::min<size_t>(size_t{1} << (plan.c - 1), std::bit_ceil(size_t{2} * plan.c)));
}

// Two-level window sums (bucket_sum_kernel) from this many segments in a narrow window: they skip
// the doublings but cost a second launch and its folds, which small MSMs feel (docs/PERF.md 18).
constexpr size_t kTwoLevelSegments = size_t{1} << 12;

// Stage 3 for windows j0 .. j0 + g: bucket_sum_kernel over segments of len buckets, then each
// window's segments by a tree, and its sum (at its first segment) to out[0 .. g) on the host: the
// group's wide windows, then its narrow ones (fold_all wants equal widths). With `shifted`, the
// first level of two (bucket_sum_kernel says what each holds).
template <class DX>
void sum_windows(const DX* buckets, const MsmWindows& plan, unsigned j0, unsigned g, unsigned len, DX* sums,
                 DX* shifted, void* out, const Stream& s) {
  const size_t segments = bucket_offset(plan, j0, j0 + g) / len;
  constexpr unsigned block = Launch<DX>::kSum.threads;
  bucket_sum_kernel<<<unsigned((segments + block - 1) / block), block, 0, s.get()>>>(buckets, plan, j0, segments, len,
                                                                                     sums, shifted);
  Stream::check_launch();
  const unsigned wide = std::min(g, j0 < plan.wide ? plan.wide - j0 : 0u);
  const size_t narrow_segments = (size_t{1} << (plan.c - 1)) / len, wide_segments = 2 * narrow_segments;
  DX* narrow_sums = sums + wide * wide_segments;
  DX* host = static_cast<DX*>(out);
  if (wide > 0) {
    fold_all(sums, wide, wide_segments, s);
    CUDA_CHECK(cudaMemcpy2DAsync(host, sizeof(DX), sums, wide_segments * sizeof(DX), sizeof(DX), wide,
                                 cudaMemcpyDeviceToHost, s.get()));
  }
  if (g > wide) {
    fold_all(narrow_sums, g - wide, narrow_segments, s);
    CUDA_CHECK(cudaMemcpy2DAsync(host + wide, sizeof(DX), narrow_sums, narrow_segments * sizeof(DX), sizeof(DX),
                                 g - wide, cudaMemcpyDeviceToHost, s.get()));
  }
}

}  // namespace

template <class Curve>
struct Msm<Curve>::Workspace {
  using DX = DeviceType<ec::XYZZ<Curve>>;
  // What a run reads back to the host, page-locked (allocated by the first run), so that no copy
  // goes through the driver's staging of pageable memory, where another thread's pageable copy,
  // waiting for that thread's stream, held ours: an express proof's MSMs waited for PoRep's
  // accumulation kernels (0.78-0.89 s at worst; 0.30-0.38 s page-locked, docs/PERF.md 38).
  struct Readback {
    uint32_t counts[2];  // prepare_kernel's: significant and k = 1 terms
    uint32_t pieces;     // a merge level's
    ec::XYZZ<Curve> ones;
    ec::XYZZ<Curve> window_sums[kMaxWindows], scaled_sums[kMaxWindows];
  };
  PinnedBuffer<Readback> readback;
  Grow<Term> sig_terms;
  Grow<uint8_t> piece_flag, temp;
  Grow<uint32_t> one_bases, word_first, counts, keys[2], values[2], piece_key[2];
  Grow<DX> buckets, piece[2], sums, shifted, sums2, ones;
  size_t resident = 0;       // accumulating threads the GPU holds at once (balanced_run)
  size_t ones_resident = 0;  // ones_kernel's threads the GPU holds at once
  Grow<ec::Affine<Curve>> host_bases[2];  // run_host's double buffer
  Grow<ff::Fr> host_scalars[2];
};

template <class Curve>
Msm<Curve>::Msm(const Stream& stream) : stream_(stream), ws_(std::make_unique<Workspace>()) {}
template <class Curve>
Msm<Curve>::~Msm() = default;

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run(const ec::Affine<Curve>* bases, const ff::Fr* scalars, size_t n,
                                    MsmOptions options) {
  return run_impl(bases, scalars, nullptr, n, options, 0);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run(const ec::Affine<Curve>* bases, const ff::Fr* scalars,
                                    const uint64_t* density_words, size_t n, MsmOptions options) {
  if (density_words == nullptr) throw Exception(invalid_argument("Msm::run: null density words"));
  return run_impl(bases, scalars, density_words, n, options, 0);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_host(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                                         MsmOptions options) {
  if (bases.size() < scalars.size()) throw Exception(invalid_argument("Msm::run_host: fewer bases than scalars"));
  if (options.scalar_order != Order::natural)
    throw Exception(invalid_argument("Msm::run_host: host scalars are read in natural order only"));
  return run_chunks(bases, scalars.data(), true, nullptr, {}, scalars.size(), options);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_streamed(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars, size_t n,
                                             MsmOptions options) {
  if (bases.size() < n) throw Exception(invalid_argument("Msm::run_streamed: fewer bases than scalars"));
  return run_chunks(bases, scalars, false, nullptr, {}, n, options);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_streamed(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars,
                                             const uint64_t* density_words, std::span<const uint64_t> host_words,
                                             size_t n, MsmOptions options) {
  if (density_words == nullptr || host_words.size() < (n + 63) / 64)
    throw Exception(invalid_argument("Msm::run_streamed: density words missing"));
  return run_chunks(bases, scalars, false, density_words, host_words, n, options);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_chunks(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars,
                                           bool scalars_on_host, const uint64_t* density,
                                           std::span<const uint64_t> host_words, size_t n, MsmOptions options) {
  if (n == 0) return ec::Jacobian<Curve>::identity();
  Workspace& w = *ws_;
  size_t chunk = std::min(n, options.host_chunk != 0 ? options.host_chunk : kHostChunk);
  if (density != nullptr && chunk < n) chunk = (chunk + 63) / 64 * 64;  // whole density words a chunk
  const size_t chunks = (n + chunk - 1) / chunk;
  // Chunk i: terms [i·chunk, + len); its bases start at first[i] (with density, the set bits
  // before the chunk) and number first[i + 1] − first[i].
  std::vector<size_t> first(chunks + 1, 0);
  for (size_t i = 0; i < chunks; ++i) {
    const size_t at = i * chunk, len = std::min(chunk, n - at);
    size_t used = len;
    if (density != nullptr) {
      used = 0;
      for (size_t word = at / 64; word < (at + len + 63) / 64; ++word) {
        uint64_t bits = host_words[word];
        if (word == (at + len) / 64) bits &= (uint64_t{1} << ((at + len) % 64)) - 1;  // the last, partial word
        used += size_t(std::popcount(bits));
      }
    }
    first[i + 1] = first[i] + used;
  }
  if (bases.size() < first[chunks]) throw Exception(invalid_argument("Msm: fewer bases than the density needs"));
  Stream copy;
  Event copied[2] = {Event(false), Event(false)};
  ec::Affine<Curve>* b[2] = {nullptr, nullptr};
  ff::Fr* k[2] = {nullptr, nullptr};
  for (int slot = 0; slot < 2 && size_t(slot) < chunks; ++slot) {
    b[slot] = w.host_bases[slot].get(chunk, stream_);
    if (scalars_on_host) k[slot] = w.host_scalars[slot].get(chunk, stream_);
  }
  // The copy stream may use the buffers only once their allocation is done on stream_.
  Event allocated(false);
  allocated.record(stream_);
  allocated.wait(copy);
  // Chunk i goes to slot i % 2. Slot reuse is safe: run_impl returns only when stream_ has
  // finished, so chunk i - 1's buffers are free when chunk i + 1's copy is queued.
  const auto enqueue = [&](size_t i) {
    const size_t at = i * chunk, len = std::min(chunk, n - at);
    CUDA_CHECK(cudaMemcpyAsync(b[i % 2], bases.data() + first[i], (first[i + 1] - first[i]) * sizeof(ec::Affine<Curve>),
                               cudaMemcpyHostToDevice, copy.get()));
    if (scalars_on_host)
      CUDA_CHECK(cudaMemcpyAsync(k[i % 2], scalars + at, len * sizeof(ff::Fr), cudaMemcpyHostToDevice, copy.get()));
    copied[i % 2].record(copy);
  };
  enqueue(0);
  ec::Jacobian<Curve> total = ec::Jacobian<Curve>::identity();
  Timing sum;
  for (size_t i = 0; i < chunks; ++i) {
    if (i + 1 < chunks) enqueue(i + 1);
    copied[i % 2].wait(stream_);
    const size_t at = i * chunk, len = std::min(chunk, n - at);
    // Bit-reversed scalars are gathered from the whole vector (run_impl's `at`).
    const ff::Fr* terms = scalars_on_host                             ? k[i % 2]
                          : options.scalar_order == Order::natural ? scalars + at
                                                                     : scalars;
    total += run_impl(b[i % 2], terms, density != nullptr ? density + at / 64 : nullptr, len, options, at);
    sum += timing_;
  }
  timing_ = sum;
  copy.synchronize();
  return total;
}

template <class Curve>
void Msm<Curve>::release_workspace() {
  auto fresh = std::make_unique<Workspace>();
  fresh->readback = std::move(ws_->readback);  // kept: cudaFreeHost would wait for the whole device
  ws_ = std::move(fresh);
}

template <class Curve>
size_t Msm<Curve>::workspace_bytes() const {
  const Workspace& w = *ws_;
  size_t total = 0;
  const auto add = [&](const auto&... g) { ((total += g.buf.bytes()), ...); };
  add(w.sig_terms, w.one_bases, w.piece_flag, w.temp, w.word_first, w.counts);
  add(w.keys[0], w.keys[1], w.values[0], w.values[1], w.piece_key[0], w.piece_key[1]);
  add(w.buckets, w.piece[0], w.piece[1], w.sums, w.shifted, w.sums2, w.ones);
  add(w.host_bases[0], w.host_bases[1], w.host_scalars[0], w.host_scalars[1]);
  return total;
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_impl(const ec::Affine<Curve>* bases_cpu, const ff::Fr* scalars_cpu,
                                         const uint64_t* density, size_t n, MsmOptions options, size_t at) {
  using DA = DeviceType<ec::Affine<Curve>>;
  using DX = DeviceType<ec::XYZZ<Curve>>;
  using Jacobian = ec::Jacobian<Curve>;
  if (options.window > kMaxWindow) throw Exception(invalid_argument("Msm::run: window wider than 22 bits"));
  if (const MsmWindows& w = options.windows; w.count != 0) {
    if (w.c == 0 || w.widest() > kMaxWindow || w.wide > w.count || w.count * w.c + w.wide < 256 ||
        w.count > kMaxWindows)
      throw Exception(invalid_argument("Msm::run: windows must cover 256 bits, 1 to 22 bits each, 256 at most"));
  }
  if (n >= (size_t{1} << 31)) throw Exception(invalid_argument("Msm::run: 2^31 terms or more"));
  if (options.terms == MsmTerms::in_place && density != nullptr)
    throw Exception(invalid_argument("Msm::run: terms in place with a density"));
  ScalarIndex scalar_index;
  if (options.scalar_order == Order::bit_reversed) {
    if (density != nullptr) throw Exception(invalid_argument("Msm::run: bit-reversed scalars with a density"));
    if (options.scalar_log_n > 31 || at + n > (size_t{1} << options.scalar_log_n))
      throw Exception(invalid_argument("Msm::run: bit-reversed scalars need scalar_log_n <= 31 and n <= 2^scalar_log_n"));
    scalar_index = {options.scalar_log_n, at};
  }
  timing_ = {};
  if (n == 0) return Jacobian::identity();
  const Stream& s = stream_;
  Workspace& w = *ws_;
  const DA* bases = reinterpret_cast<const DA*>(bases_cpu);
  const DeviceFr* scalars = reinterpret_cast<const DeviceFr*>(scalars_cpu);
  if (w.readback.size() == 0) {
    w.readback = PinnedBuffer<typename Workspace::Readback>(1);
    std::construct_at(w.readback.data());
  }
  typename Workspace::Readback& rb = w.readback[0];
  Event e_start, e_compacted, e_prepared, e_end;
  float sort_ms = 0, acc_ms = 0;
  e_start.record(s);

  // Stage 1 (MsmTerms::classified): the significant terms listed, the ones summed apart. In place,
  // the m items are the scalars themselves (ScalarsInPlace) and none is set apart.
  const bool in_place = options.terms == MsmTerms::in_place;
  const bool by_position =
      in_place && scalar_index.rev_bits != 0 && at == 0 && 2 * n >= (size_t{1} << scalar_index.rev_bits);
  const ScalarsInPlace in_place_terms{scalars, scalar_index, n, by_position};
  size_t m = by_position ? size_t{1} << scalar_index.rev_bits : n, m1 = 0;
  Term* sig_terms = nullptr;
  uint32_t* one_bases = nullptr;
  uint32_t* counts = w.counts.get(2, s);  // prepare_kernel's two lists, then a merge level's keys and pieces
  if (!in_place) {
    const uint32_t* word_first = nullptr;
    if (density != nullptr) {
      const size_t words = (n + 63) / 64;
      uint32_t* first = w.word_first.get(words, s);
      popcount_kernel<<<blocks_for(words), kBlock, 0, s.get()>>>(density, words, first);
      Stream::check_launch();
      size_t bytes = 0;
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, first, first, words, s.get()));
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(w.temp.get(bytes, s), bytes, first, first, words, s.get()));
      word_first = first;
    }
    sig_terms = w.sig_terms.get(n, s);
    one_bases = w.one_bases.get(options.split_ones ? n : 0, s);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, 2 * sizeof(uint32_t), s.get()));
    prepare_kernel<<<blocks_for(n), kBlock, 0, s.get()>>>(bases, scalars, scalar_index, density, word_first, n,
                                                          options.split_ones, sig_terms, one_bases, counts);
    Stream::check_launch();
    CUDA_CHECK(cudaMemcpyAsync(rb.counts, counts, sizeof rb.counts, cudaMemcpyDeviceToHost, s.get()));
    s.synchronize();
    m = rb.counts[0], m1 = rb.counts[1];
  }
  e_compacted.record(s);
  if (m1 > 0) {  // one wave of the card's resident threads, at least 16 terms each; then a tree
    using OnesKernel = void (*)(const DA*, const uint32_t*, size_t, size_t, size_t, DX*);
    constexpr OnesKernel ones_fn = ones_kernel<DA, DX>;
    constexpr unsigned ones_block = Launch<DX>::kAccumulate.threads;
    if (w.ones_resident == 0) w.ones_resident = resident_threads(ones_fn, ones_block);
    const size_t threads = std::min(w.ones_resident, (m1 + 15) / 16);
    const size_t slots = std::bit_ceil(threads);
    DX* ones = w.ones.get(slots, s);
    ones_fn<<<unsigned((slots + ones_block - 1) / ones_block), ones_block, 0, s.get()>>>(bases, one_bases, m1,
                                                                                        threads, slots, ones);
    Stream::check_launch();
    fold_all(ones, 1, slots, s);
  }
  e_prepared.record(s);

  // Stage 2 and 3, by groups of windows.
  const MsmWindows plan = options.windows.count != 0 ? options.windows
                          : options.window != 0      ? MsmWindows::uniform(options.window)
                                                     : msm_windows(m);
  const unsigned windows = plan.count;
  const size_t max_nb = size_t{1} << (plan.widest() - 1);
  // Per window sum_b (b + 1) B_b, or with two-level sums its two parts: window_sums[j] +
  // len * scaled_sums[j] (in rb).
  unsigned len = 0;
  bool two_level = false;
  if (m > 0) {
    // A group's pairs fit one sort (kMaxPairs) and its keys kKeyBits.
    const unsigned group = unsigned(std::clamp<size_t>(
        std::min(kMaxPairs / m, ((size_t{1} << kKeyBits) - 1) / max_nb), 1, windows));
    constexpr unsigned acc_block = Launch<DX>::kAccumulate.threads;
    const size_t max_pairs = m * group;
    const unsigned cap = options.run_length != 0 ? options.run_length : default_run_length<DX>(max_pairs);
    if (w.resident == 0) w.resident = resident_threads(accumulate_kernel<DX, AffineLoad<DA>>, acc_block);
    // A caller's run length stays as given (the tests pick runs that cross every boundary).
    const auto run_for = [&](size_t pairs) {
      return options.run_length != 0 ? cap : balanced_run(pairs, cap, w.resident);
    };
    // Threads per sort: at most ceil(pairs / cap), rounded up to whole waves when balanced.
    const size_t max_threads = ((max_pairs + cap - 1) / cap + w.resident - 1) / w.resident * w.resident;
    uint32_t* keys[2] = {w.keys[0].get(max_pairs, s), w.keys[1].get(max_pairs, s)};
    uint32_t* values[2] = {w.values[0].get(max_pairs, s), w.values[1].get(max_pairs, s)};
    DX* buckets = w.buckets.get(group * max_nb, s);
    // Piece slots (2 per thread) and their compacted copy.
    uint32_t* slot_key = w.piece_key[0].get(2 * max_threads, s);
    DX* slot = w.piece[0].get(2 * max_threads, s);
    uint8_t* slot_flag = w.piece_flag.get(2 * max_threads, s);
    uint32_t* level_key = w.piece_key[1].get(2 * max_threads, s);
    DX* level = w.piece[1].get(2 * max_threads, s);
    len = segment_length(plan);
    two_level = (size_t{1} << (plan.c - 1)) / len >= kTwoLevelSegments;
    DX* sums = w.sums.get(group * max_nb / len, s);
    // The second level's windows: 2^c / len buckets (the first level's segments).
    const MsmWindows plan2{plan.count, plan.c - unsigned(std::countr_zero(len)), plan.wide};
    const unsigned len2 = two_level ? segment_length(plan2) : 1;
    DX* shifted = two_level ? w.shifted.get(group * max_nb / len, s) : nullptr;
    DX* sums2 = two_level ? w.sums2.get(group * max_nb / len / len2, s) : nullptr;
    for (unsigned j0 = 0; j0 < windows; j0 += group) {
      const unsigned g = std::min(group, windows - j0);
      const size_t pairs = m * g;
      const size_t group_buckets = bucket_offset(plan, j0, j0 + g);
      const uint32_t sentinel = uint32_t(group_buckets);
      const int end_bit = std::bit_width(sentinel);
      Event a, b, d;
      a.record(s);
      if (in_place)
        digits_kernel<<<blocks_for(m), kBlock, 0, s.get()>>>(in_place_terms, m, plan, j0, g, keys[0], values[0]);
      else
        digits_kernel<<<blocks_for(m), kBlock, 0, s.get()>>>(TermList{sig_terms}, m, plan, j0, g, keys[0], values[0]);
      Stream::check_launch();
      cub::DoubleBuffer<uint32_t> kb(keys[0], keys[1]), vb(values[0], values[1]);
      size_t bytes = 0;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, pairs, 0, end_bit, s.get()));
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.temp.get(bytes, s), bytes, kb, vb, pairs, 0, end_bit, s.get()));
      b.record(s);
      CUDA_CHECK(cudaMemsetAsync(buckets, 0, group_buckets * sizeof(DX), s.get()));  // zz = 0: the identity
      const unsigned run = run_for(pairs);
      const size_t threads = (pairs + run - 1) / run;
      accumulate_kernel<DX><<<unsigned((threads + acc_block - 1) / acc_block), acc_block, 0, s.get()>>>(
          AffineLoad<DA>{bases, vb.Current()}, kb.Current(), pairs, sentinel, run, buckets, slot_key, slot, slot_flag);
      Stream::check_launch();
      for (size_t slots = 2 * threads;;) {
        // Compact the pieces (keys and points, by the same flags), then one more level over them.
        size_t kbytes = 0, pbytes = 0;
        CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, kbytes, slot_key, slot_flag, level_key, counts, slots, s.get()));
        CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, pbytes, slot, slot_flag, level, counts + 1, slots, s.get()));
        uint8_t* tmp = w.temp.get(std::max(kbytes, pbytes), s);
        CUDA_CHECK(cub::DeviceSelect::Flagged(tmp, kbytes, slot_key, slot_flag, level_key, counts, slots, s.get()));
        CUDA_CHECK(cub::DeviceSelect::Flagged(tmp, pbytes, slot, slot_flag, level, counts + 1, slots, s.get()));
        CUDA_CHECK(cudaMemcpyAsync(&rb.pieces, counts, sizeof rb.pieces, cudaMemcpyDeviceToHost, s.get()));
        s.synchronize();
        const uint32_t pieces = rb.pieces;
        if (pieces == 0) break;
        const unsigned piece_run = 8;
        const size_t piece_threads = (pieces + piece_run - 1) / piece_run;
        accumulate_kernel<DX><<<unsigned((piece_threads + acc_block - 1) / acc_block), acc_block, 0, s.get()>>>(
            PieceLoad<DX>{level}, level_key, pieces, UINT32_MAX, piece_run, buckets, slot_key, slot, slot_flag);
        Stream::check_launch();
        slots = 2 * piece_threads;
      }
      d.record(s);
      sum_windows(buckets, plan, j0, g, len, sums, shifted, rb.window_sums + j0, s);
      if (two_level) sum_windows(shifted, plan2, j0, g, len2, sums2, static_cast<DX*>(nullptr), rb.scaled_sums + j0, s);
      s.synchronize();
      sort_ms += Event::elapsed_ms(a, b);
      acc_ms += Event::elapsed_ms(b, d);
    }
  }
  if (m1 > 0) CUDA_CHECK(cudaMemcpyAsync(&rb.ones, w.ones.buf.data(), sizeof(DX), cudaMemcpyDeviceToHost, s.get()));
  e_end.record(s);
  s.synchronize();
  const ec::XYZZ<Curve> ones_sum = m1 > 0 ? rb.ones : ec::XYZZ<Curve>::identity();

  // Horner over the windows, top first: sum_j 2^start(j) S_j (window j + 1 starts width(j)
  // bits above window j).
  Jacobian acc = Jacobian::identity();
  if (m > 0) {
    for (unsigned j = windows; j-- > 0;) {
      for (unsigned i = 0; i < window_width(plan, j); ++i) acc = acc.dbl();
      acc += rb.window_sums[j].to_jacobian();
      if (two_level) {
        Jacobian t = rb.scaled_sums[j].to_jacobian();
        for (unsigned i = 0; i < unsigned(std::countr_zero(len)); ++i) t = t.dbl();
        acc += t;
      }
    }
  }
  timing_.prepare = Event::elapsed_ms(e_start, e_compacted);
  timing_.ones = Event::elapsed_ms(e_compacted, e_prepared);
  timing_.sort = sort_ms;
  timing_.accumulate = acc_ms;
  timing_.reduce = Event::elapsed_ms(e_start, e_end) - timing_.prepare - timing_.ones - sort_ms - acc_ms;
  timing_.terms = n, timing_.significant = in_place ? n : m, timing_.ones_terms = m1;
  return acc + ones_sum.to_jacobian();
}

}  // namespace cuzk::gpu
