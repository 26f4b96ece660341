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
#include <string>
#include <vector>

#include "core/error.hpp"
#include "gpu/buffer.hpp"
#include "gpu/event.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kBlock = 256;
// Launch shape of the accumulation kernels (measured on the H200, G1 2^26): G1 takes about 166
// registers, so a block of 256 threads fits once per SM (8 warps, 1185 ms) and blocks of 128
// three times (12 warps, 852 ms); capping it at 128 registers for 16 warps spills (1033 ms).
// G2 (about 250 registers) is faster with blocks of 256 (2^24: 716 ms against 792). The even/odd
// field product needs more registers (ptxas: 188 for G1), so G1 asks for 3 blocks per SM
// (<= 170 registers) to keep its 12 warps.
template <class DX>
struct AccLaunch {
  static constexpr unsigned kThreads = 128, kMinBlocks = 3;
};
template <>
struct AccLaunch<DeviceG2XYZZ> {
  static constexpr unsigned kThreads = 256, kMinBlocks = 1;
};
constexpr unsigned kScalarBits = 255;        // r < 2^255
constexpr uint32_t kSign = 0x80000000u;      // in a pair's value: the base is negated
constexpr size_t kMaxPairs = size_t{1} << 30;  // per sort: 16 GiB of keys and values, both buffers

unsigned blocks_for(size_t n) { return unsigned((n + kBlock - 1) / kBlock); }

// A significant term: canonical scalar (8 little-endian words) and its base's index.
struct Term {
  uint32_t k[8];
  uint32_t base;
};

// Bits [pos, pos + len) of k, len <= 23; bits at 256 and above read as 0.
__device__ __forceinline__ uint32_t bits_at(const uint32_t (&k)[8], unsigned pos, unsigned len) {
  if (pos >= 256) return 0;
  const unsigned word = pos / 32, off = pos % 32;
  uint64_t v = k[word];
  if (word + 1 < 8) v |= uint64_t(k[word + 1]) << 32;
  return uint32_t(v >> off) & ((1u << len) - 1);
}

// Booth digit of window j as msm::detail::booth_digit: w = bits [jc - 1, jc + c) (bit -1 read as
// 0), d = floor((w + 1) / 2) - 2^c w_c; returned as |d| << 1 | (d < 0).
__device__ __forceinline__ uint32_t booth_digit(const uint32_t (&k)[8], unsigned j, unsigned c) {
  const uint32_t w = j == 0 ? bits_at(k, 0, c) << 1 : bits_at(k, j * c - 1, c + 1);
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

// Stage 1 per scalar: canonical form (a Montgomery product with the integer 1 is a R^-1), its
// base (the density rank), and its class: sig_flag (Pippenger) or one_flag (summed apart).
template <class DA>
__global__ void prepare_kernel(const DA* bases, const DeviceFr* scalars, const uint64_t* density,
                               const uint32_t* word_first, size_t n, bool split_ones, Term* terms, uint8_t* sig_flag,
                               uint8_t* one_flag) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint8_t sig = 0, one = 0;
  uint32_t base = uint32_t(i);
  bool present = true;
  if (density != nullptr) {
    const uint64_t w = density[i / 64];
    const unsigned bit = unsigned(i % 64);
    present = (w >> bit) & 1;
    base = word_first[i / 64] + uint32_t(__popcll(w & ((uint64_t{1} << bit) - 1)));
  }
  Term t;
  if (present && !bases[base].infinity) {
    DeviceFr unit = DeviceFr::zero();
    unit.limbs[0] = 1;
    const DeviceFr k = scalars[i] * unit;
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
  terms[i] = t;
  sig_flag[i] = sig;
  one_flag[i] = one;
}

// Stage 2a: the (bucket key, base | sign) pairs of windows [j0, j0 + group) for m terms, window
// jl's pairs at [jl m, (jl + 1) m). key = jl 2^(c-1) + |d| - 1; a zero digit gets `sentinel`.
__global__ void digits_kernel(const Term* terms, size_t m, unsigned c, unsigned j0, unsigned group,
                              uint32_t* keys, uint32_t* values) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= m) return;
  uint32_t k[8];
#pragma unroll
  for (int w = 0; w < 8; ++w) k[w] = terms[i].k[w];
  const uint32_t base = terms[i].base;
  const uint32_t buckets = 1u << (c - 1), sentinel = group * buckets;
  for (unsigned jl = 0; jl < group; ++jl) {
    const uint32_t d = booth_digit(k, j0 + jl, c);
    const uint32_t magnitude = d >> 1;
    keys[jl * m + i] = magnitude == 0 ? sentinel : jl * buckets + magnitude - 1;
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
__global__ void __launch_bounds__(AccLaunch<DX>::kThreads, AccLaunch<DX>::kMinBlocks) accumulate_kernel(Load load, const uint32_t* keys, size_t count,
                                                            uint32_t sentinel, unsigned run, DX* buckets,
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

// Stage 3a: thread (window jl, segment s) over buckets [lo, lo + len): running sums from the top
// give sum (b - lo + 1) B_b and sum B_b; adding lo times the latter gives sum (b + 1) B_b.
template <class DX>
__global__ void __launch_bounds__(kBlock) bucket_sum_kernel(const DX* buckets, unsigned c, unsigned group,
                                                            unsigned segments, DX* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= size_t(group) * segments) return;
  const size_t nb = size_t{1} << (c - 1), len = nb / segments;
  const size_t jl = t / segments, s = t % segments, lo = s * len;
  const DX* b = buckets + jl * nb + lo;
  DX running = DX::identity(), sum = DX::identity();
  for (size_t k = len; k-- > 0;) {
    running += b[k];
    sum += running;
  }
  DX scaled = DX::identity();  // lo * running by double-and-add, lo < 2^22
  for (int bit = 22; bit >= 0; --bit) {
    scaled = scaled.dbl();
    if ((lo >> bit) & 1) scaled += running;
  }
  out[t] = sum + scaled;
}

// data[g w + i] += data[g w + i + half] for i < half: one level of a tree over groups of width w.
template <class DX>
__global__ void fold_kernel(DX* data, size_t groups, size_t width, size_t half) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const size_t g = t / half, i = t % half;
  data[g * width + i] += data[g * width + i + half];
}

// The k = 1 terms: thread t sums the bases of list[t per, (t + 1) per); slots past the list
// stay the identity.
template <class DA, class DX>
__global__ void __launch_bounds__(kBlock) ones_kernel(const DA* bases, const Term* list, size_t count, size_t per,
                                                      size_t threads, DX* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  DX acc = DX::identity();
  const size_t end = min(count, (t + 1) * per);
  for (size_t i = t * per; i < end; ++i) acc += bases[list[i].base];
  out[t] = acc;
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

}  // namespace

template <class Curve>
struct Msm<Curve>::Workspace {
  using DX = DeviceType<ec::XYZZ<Curve>>;
  Grow<Term> terms, sig_terms, one_terms;
  Grow<uint8_t> sig_flag, one_flag, piece_flag, temp;
  Grow<uint32_t> word_first, counts, keys[2], values[2], piece_key[2];
  Grow<DX> buckets, piece[2], sums, ones;
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
  return run_impl(bases, scalars, nullptr, n, options);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run(const ec::Affine<Curve>* bases, const ff::Fr* scalars,
                                    const uint64_t* density_words, size_t n, MsmOptions options) {
  if (density_words == nullptr) throw Exception(invalid_argument("Msm::run: null density words"));
  return run_impl(bases, scalars, density_words, n, options);
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_host(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                                         MsmOptions options) {
  if (bases.size() < scalars.size()) throw Exception(invalid_argument("Msm::run_host: fewer bases than scalars"));
  const size_t n = scalars.size();
  if (n == 0) return ec::Jacobian<Curve>::identity();
  Workspace& w = *ws_;
  const size_t chunk = std::min(n, options.host_chunk != 0 ? options.host_chunk : kHostChunk);
  const size_t chunks = (n + chunk - 1) / chunk;
  Stream copy;
  Event copied[2] = {Event(false), Event(false)};
  ec::Affine<Curve>* b[2] = {nullptr, nullptr};
  ff::Fr* k[2] = {nullptr, nullptr};
  for (int slot = 0; slot < 2 && size_t(slot) < chunks; ++slot) {
    b[slot] = w.host_bases[slot].get(chunk, stream_);
    k[slot] = w.host_scalars[slot].get(chunk, stream_);
  }
  // The copy stream may use the buffers only once their allocation is done on stream_.
  Event allocated(false);
  allocated.record(stream_);
  allocated.wait(copy);
  // Chunk i goes to slot i % 2. Slot reuse is safe: run_impl returns only when stream_ has
  // finished, so chunk i - 1's buffers are free when chunk i + 1's copy is queued.
  const auto enqueue = [&](size_t i) {
    const size_t at = i * chunk, len = std::min(chunk, n - at);
    CUDA_CHECK(cudaMemcpyAsync(b[i % 2], bases.data() + at, len * sizeof(ec::Affine<Curve>), cudaMemcpyHostToDevice,
                               copy.get()));
    CUDA_CHECK(cudaMemcpyAsync(k[i % 2], scalars.data() + at, len * sizeof(ff::Fr), cudaMemcpyHostToDevice, copy.get()));
    copied[i % 2].record(copy);
  };
  enqueue(0);
  ec::Jacobian<Curve> total = ec::Jacobian<Curve>::identity();
  Timing sum;
  for (size_t i = 0; i < chunks; ++i) {
    if (i + 1 < chunks) enqueue(i + 1);
    copied[i % 2].wait(stream_);
    total += run_impl(b[i % 2], k[i % 2], nullptr, std::min(chunk, n - i * chunk), options);
    sum.prepare += timing_.prepare, sum.sort += timing_.sort, sum.accumulate += timing_.accumulate;
    sum.reduce += timing_.reduce;
  }
  timing_ = sum;
  copy.synchronize();
  return total;
}

template <class Curve>
ec::Jacobian<Curve> Msm<Curve>::run_impl(const ec::Affine<Curve>* bases_cpu, const ff::Fr* scalars_cpu,
                                         const uint64_t* density, size_t n, MsmOptions options) {
  using DA = DeviceType<ec::Affine<Curve>>;
  using DX = DeviceType<ec::XYZZ<Curve>>;
  using Jacobian = ec::Jacobian<Curve>;
  if (options.window > 21) throw Exception(invalid_argument("Msm::run: window wider than 21 bits"));
  if (n >= (size_t{1} << 31)) throw Exception(invalid_argument("Msm::run: 2^31 terms or more"));
  timing_ = {};
  if (n == 0) return Jacobian::identity();
  const Stream& s = stream_;
  Workspace& w = *ws_;
  const DA* bases = reinterpret_cast<const DA*>(bases_cpu);
  const DeviceFr* scalars = reinterpret_cast<const DeviceFr*>(scalars_cpu);
  Event e_start, e_prepared, e_end;
  float sort_ms = 0, acc_ms = 0;
  e_start.record(s);

  // Stage 1.
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
  Term* terms = w.terms.get(n, s);
  uint8_t* sig_flag = w.sig_flag.get(n, s);
  uint8_t* one_flag = w.one_flag.get(n, s);
  prepare_kernel<<<blocks_for(n), kBlock, 0, s.get()>>>(bases, scalars, density, word_first, n, options.split_ones,
                                                        terms, sig_flag, one_flag);
  Stream::check_launch();
  // Compaction: the significant terms, then the k = 1 ones (the host reads both counts).
  Term* sig_terms = w.sig_terms.get(n, s);
  Term* one_terms = w.one_terms.get(n, s);
  uint32_t* counts = w.counts.get(2, s);
  size_t bytes_sig = 0, bytes_one = 0;
  CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes_sig, terms, sig_flag, sig_terms, counts, n, s.get()));
  CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes_one, terms, one_flag, one_terms, counts + 1, n, s.get()));
  uint8_t* temp = w.temp.get(std::max(bytes_sig, bytes_one), s);
  CUDA_CHECK(cub::DeviceSelect::Flagged(temp, bytes_sig, terms, sig_flag, sig_terms, counts, n, s.get()));
  CUDA_CHECK(cub::DeviceSelect::Flagged(temp, bytes_one, terms, one_flag, one_terms, counts + 1, n, s.get()));
  uint32_t host_counts[2] = {0, 0};
  CUDA_CHECK(cudaMemcpyAsync(host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost, s.get()));
  s.synchronize();
  const size_t m = host_counts[0], m1 = host_counts[1];
  if (m1 > 0) {  // a sum per thread over 16 or more terms, then a tree
    const size_t threads = std::bit_ceil(std::min<size_t>(size_t{1} << 16, (m1 + 15) / 16));
    const size_t per = (m1 + threads - 1) / threads;
    DX* ones = w.ones.get(threads, s);
    ones_kernel<<<blocks_for(threads), kBlock, 0, s.get()>>>(bases, one_terms, m1, per, threads, ones);
    Stream::check_launch();
    fold_all(ones, 1, threads, s);
  }
  e_prepared.record(s);

  // Stage 2 and 3, by groups of windows.
  const unsigned c = options.window != 0 ? options.window : msm_window_bits(m);
  const unsigned windows = (kScalarBits + c) / c;
  const size_t nb = size_t{1} << (c - 1);
  std::vector<ec::XYZZ<Curve>> window_sums(windows);
  if (m > 0) {
    const unsigned group = unsigned(std::clamp<size_t>(kMaxPairs / m, 1, windows));
    const unsigned run = options.run_length != 0 ? options.run_length : 32;
    const size_t max_pairs = m * group;
    const size_t max_threads = (max_pairs + run - 1) / run;
    constexpr unsigned acc_block = AccLaunch<DX>::kThreads;
    uint32_t* keys[2] = {w.keys[0].get(max_pairs, s), w.keys[1].get(max_pairs, s)};
    uint32_t* values[2] = {w.values[0].get(max_pairs, s), w.values[1].get(max_pairs, s)};
    DX* buckets = w.buckets.get(group * nb, s);
    // Piece slots (2 per thread) and their compacted copy.
    uint32_t* slot_key = w.piece_key[0].get(2 * max_threads, s);
    DX* slot = w.piece[0].get(2 * max_threads, s);
    uint8_t* slot_flag = w.piece_flag.get(2 * max_threads, s);
    uint32_t* level_key = w.piece_key[1].get(2 * max_threads, s);
    DX* level = w.piece[1].get(2 * max_threads, s);
    // Segments of 2c buckets or so: a thread's lo * running (c doublings) then costs no more
    // than its running sums (2 additions per bucket).
    const unsigned segments = unsigned(nb / std::min<size_t>(nb, std::bit_ceil(size_t{2} * c)));
    DX* sums = w.sums.get(size_t(group) * segments, s);
    for (unsigned j0 = 0; j0 < windows; j0 += group) {
      const unsigned g = std::min(group, windows - j0);
      const size_t pairs = m * g;
      const uint32_t sentinel = uint32_t(g * nb);
      const int end_bit = std::bit_width(sentinel);
      Event a, b, d;
      a.record(s);
      digits_kernel<<<blocks_for(m), kBlock, 0, s.get()>>>(sig_terms, m, c, j0, g, keys[0], values[0]);
      Stream::check_launch();
      cub::DoubleBuffer<uint32_t> kb(keys[0], keys[1]), vb(values[0], values[1]);
      size_t bytes = 0;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, pairs, 0, end_bit, s.get()));
      CUDA_CHECK(cub::DeviceRadixSort::SortPairs(w.temp.get(bytes, s), bytes, kb, vb, pairs, 0, end_bit, s.get()));
      b.record(s);
      CUDA_CHECK(cudaMemsetAsync(buckets, 0, g * nb * sizeof(DX), s.get()));  // zz = 0: the identity
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
        uint32_t pieces = 0;
        CUDA_CHECK(cudaMemcpyAsync(&pieces, counts, sizeof pieces, cudaMemcpyDeviceToHost, s.get()));
        s.synchronize();
        if (pieces == 0) break;
        const unsigned piece_run = 8;
        const size_t piece_threads = (pieces + piece_run - 1) / piece_run;
        accumulate_kernel<DX><<<unsigned((piece_threads + acc_block - 1) / acc_block), acc_block, 0, s.get()>>>(
            PieceLoad<DX>{level}, level_key, pieces, UINT32_MAX, piece_run, buckets, slot_key, slot, slot_flag);
        Stream::check_launch();
        slots = 2 * piece_threads;
      }
      d.record(s);
      bucket_sum_kernel<<<blocks_for(size_t(g) * segments), kBlock, 0, s.get()>>>(buckets, c, g, segments, sums);
      Stream::check_launch();
      fold_all(sums, g, segments, s);
      // Window jl's sum is at sums[jl segments].
      CUDA_CHECK(cudaMemcpy2DAsync(window_sums.data() + j0, sizeof(DX), sums, segments * sizeof(DX), sizeof(DX), g,
                                   cudaMemcpyDeviceToHost, s.get()));
      s.synchronize();
      sort_ms += Event::elapsed_ms(a, b);
      acc_ms += Event::elapsed_ms(b, d);
    }
  }
  ec::XYZZ<Curve> ones_sum;
  if (m1 > 0) CUDA_CHECK(cudaMemcpyAsync(&ones_sum, w.ones.buf.data(), sizeof(DX), cudaMemcpyDeviceToHost, s.get()));
  e_end.record(s);
  s.synchronize();

  // Horner over the windows, top first: sum_j 2^(jc) S_j.
  Jacobian acc = Jacobian::identity();
  if (m > 0) {
    for (size_t j = windows; j-- > 0;) {
      for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
      acc += window_sums[j].to_jacobian();
    }
  }
  timing_.prepare = Event::elapsed_ms(e_start, e_prepared);
  timing_.sort = sort_ms;
  timing_.accumulate = acc_ms;
  timing_.reduce = Event::elapsed_ms(e_start, e_end) - timing_.prepare - sort_ms - acc_ms;
  return acc + ones_sum.to_jacobian();
}

}  // namespace cuzk::gpu
