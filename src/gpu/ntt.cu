// gpu::NttDomain's kernels (formulation in gpu/ntt.hpp). One kernel per pass: a tile of 2^k rows
// (the pass's column, stride 2^(L'-k)) by 2^c adjacent columns (so a row's global reads are
// 2^c·32 contiguous bytes) sits in shared memory; each thread runs up to three stages at a time
// on 8 elements in registers, or two on 4 (the tile's layout: gpu/ntt_tile.hpp).
#include "gpu/field.cuh"
#include "gpu/ntt.hpp"
// (gpu/ headers first: see field.cuh)
#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "poly/root_of_unity.hpp"

namespace cuzk::gpu {
namespace {

using F = DeviceFr;
using ntt_detail::group_bits;
using ntt_detail::group_row0;
using ntt_detail::kMaxPassBits;
using ntt_detail::pass_groups;
using ntt_detail::tile_swizzle;

constexpr unsigned kTile = 1u << kMaxPassBits;  // elements of a tile: 32 KiB of shared memory

enum class ScaleKind : int { none, constant, powers };

struct Pass {
  F* data;
  unsigned log_n;       // L
  unsigned k;           // bits of this pass
  unsigned stride_log;  // log of the column stride = L' - k (0: the last DIF pass, no twiddle)
  unsigned consumed;    // L - L': the passes before this one (DIF order)
  unsigned log_c;       // 2^log_c columns per tile
  unsigned local_log;   // K of the local root table
  const F* local;       // ω_(2^K)^j, j < 2^(K-1) (inverse roots for inverse transforms)
  const F* w_lo;        // ω^e two-level (inverse roots likewise)
  const F* w_hi;
  unsigned split;
  const F* flat;  // the second pass's boundary: ω^(t·2^consumed) by t (ntt_tables.hpp); the first
                  // pass's with NttRoots::full: ω^e by e; else null
  unsigned flat_xor;  // 0; n − 1 where an inverse DIF pass reads the full table at n − e (below)
  ScaleKind scale_in, scale_out;  // applied on load of the first executed pass / store of the last
  bool last;                      // the last executed pass: it stores reduced values (else [0, 2r))
  F scale_const;
  const F* s_lo;  // scale powers two-level, indexed by the coefficient's natural index
  const F* s_hi;
  const F* mul_in;   // null, or a vector in the input's order: x·mul_in[pos] on load of the first pass
  const F* sub_out;  // null, or a vector in the output's order: x − sub_out[pos] on store of the last
};

__device__ __forceinline__ unsigned bit_reverse(unsigned x, unsigned bits) {
  return bits == 0 ? 0 : __brev(x) >> (32 - bits);
}

__device__ __forceinline__ F load(const F* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1];
  return F{{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
}
__device__ __forceinline__ void store(F* p, const F& x) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(x.limbs[0], x.limbs[1], x.limbs[2], x.limbs[3]);
  q[1] = make_uint4(x.limbs[4], x.limbs[5], x.limbs[6], x.limbs[7]);
}

// Shared memory: four planes of 64-bit words (gpu/ntt_tile.hpp).
template <unsigned kStride>
__device__ __forceinline__ F sm_get(const uint2 (*sm)[kStride], unsigned i) {
  F x;
  i = tile_swizzle(i);
#pragma unroll
  for (int v = 0; v < 4; ++v) {
    const uint2 w = sm[v][i];
    x.limbs[2 * v] = w.x;
    x.limbs[2 * v + 1] = w.y;
  }
  return x;
}
template <unsigned kStride>
__device__ __forceinline__ void sm_put(uint2 (*sm)[kStride], unsigned i, const F& x) {
  i = tile_swizzle(i);
#pragma unroll
  for (int v = 0; v < 4; ++v) sm[v][i] = make_uint2(x.limbs[2 * v], x.limbs[2 * v + 1]);
}

// One out-of-line Montgomery multiplication: inlined, the 12 products of a radix-8 group (and its
// radix-4/2 twins, in both directions) make a kernel of ~150 KiB of SASS, far beyond the
// instruction cache; a call costs a few moves of 16 registers against ~300 instructions.
__device__ __noinline__ F mul(F a, F b) { return a * b; }
// Between the first load and the last store the values are lazily reduced, in [0, 2r)
// (field.cuh: a product of a reduced a and a lazy b is below 2r without the final subtraction;
// sums and differences come back by 2r): each product saves its 8-word subtract-and-select.
// w (twiddle or scale) is reduced.
__device__ __noinline__ F mul_lazy(F w, F x) { return F::mul_unreduced(w, x); }

__device__ __forceinline__ F two_level(const F* lo, const F* hi, unsigned e, unsigned split) {
  return mul(load(hi + (e >> split)), load(lo + (e & ((1u << split) - 1))));
}

// The boundary twiddle ω^((i2·k1) << consumed) of column i2, output k1 (i2·k1 < 2^(L - consumed)).
// Only the DIF passes read the full table for inverse transforms (flat_xor): the index's extra
// operation costs the DIT radix-8 pass a spill and 2 ms an H (PERF.md 49), and the prover's
// inverses are DIF (natural rows).
template <bool kDif>
__device__ __forceinline__ F boundary_twiddle(const Pass& p, unsigned i2, unsigned k1) {
  if (p.flat != nullptr) return load(p.flat + (kDif ? (i2 * k1) ^ p.flat_xor : i2 * k1));
  return two_level(p.w_lo, p.w_hi, (i2 * k1) << p.consumed, p.split);
}

__device__ __forceinline__ F scaled(const Pass& p, ScaleKind kind, const F& x, unsigned natural_index) {
  if (kind == ScaleKind::constant) return mul_lazy(p.scale_const, x);
  if (kind == ScaleKind::powers) return mul_lazy(two_level(p.s_lo, p.s_hi, natural_index, p.split), x);
  return x;
}

// R consecutive stages s_lo .. s_lo + R - 1 of the tile's column DFTs in registers: each thread
// takes 2^(kBits - R) sets of 2^R rows (the rows that differ in bits s_lo .. s_lo + R - 1),
// so a pass of k bits makes ceil(k / kBits) trips through shared memory instead of k.
// kLow: the group of the pass's lowest stages (s_lo = 0), where row0 has no bits below R, so
// j = m mod 2^s is known at compile time and the butterflies with j = 0 (twiddle 1) skip their
// multiply: 5 products per 8 elements instead of 8 (radix-8). The subtractions take the
// predicated add-back (field.cuh: sub_add_back).
template <bool kDif, unsigned kBits, unsigned R, bool kLow, unsigned kStride>
__device__ __forceinline__ void stage_group(uint2 (*sm)[kStride], const Pass& p, unsigned tile, unsigned s_lo) {
  static_assert(R <= kBits);
  constexpr unsigned kSets = 1u << (kBits - R), kSize = 1u << R;
  const unsigned others = tile >> R, threads = blockDim.x;
#pragma unroll
  for (unsigned set = 0; set < kSets; ++set) {
    const unsigned o = threadIdx.x + set * threads;
    if (o >= others) continue;
    const unsigned c = o & ((1u << p.log_c) - 1), q = o >> p.log_c;
    const unsigned row0 = group_row0(q, s_lo, R);
    F x[kSize];
#pragma unroll
    for (unsigned m = 0; m < kSize; ++m) x[m] = sm_get(sm, ((row0 | (m << s_lo)) << p.log_c) + c);
#pragma unroll
    for (unsigned step = 0; step < R; ++step) {
      const unsigned b = kDif ? R - 1 - step : step;  // DIF: top stage first; DIT: bottom first
      const unsigned s = s_lo + b;                    // half-width 2^s
#pragma unroll
      for (unsigned m = 0; m < kSize; ++m) {
        if (m & (1u << b)) continue;
        F& x0 = x[m];
        F& x1 = x[m | (1u << b)];
        if (s == 0 || (kLow && (m & ((1u << s) - 1)) == 0)) {  // j = 0: the twiddle is ω^0 = 1
          const F y = x1;
          x1 = F::sub_lazy(x0, y, true);
          x0 = F::add_lazy(x0, y);
          continue;
        }
        const unsigned j = kLow ? m & ((1u << s) - 1) : (row0 | (m << s_lo)) & ((1u << s) - 1);
        const F w = load(p.local + (j << (p.local_log - 1 - s)));  // ω_(2h)^j = ω_(2^K)^(j·2^K/2h)
        if (kDif) {
          const F d = F::sub_lazy(x0, x1, true);
          x0 = F::add_lazy(x0, x1);
          x1 = mul_lazy(w, d);
        } else {
          const F y = mul_lazy(w, x1);
          x1 = F::sub_lazy(x0, y, true);
          x0 = F::add_lazy(x0, y);
        }
      }
    }
#pragma unroll
    for (unsigned m = 0; m < kSize; ++m) sm_put(sm, ((row0 | (m << s_lo)) << p.log_c) + c, x[m]);
  }
}

template <bool kDif, unsigned kBits, unsigned kStride>
__device__ __forceinline__ void run_group(uint2 (*sm)[kStride], const Pass& p, unsigned tile, unsigned r,
                                          unsigned s_lo) {
  __syncthreads();
  constexpr unsigned kR3 = kBits >= 3 ? 3 : 1;  // stage_group<3> only where a thread holds 8
  if (s_lo == 0) {
    if (kBits >= 3 && r == 3) stage_group<kDif, kBits, kR3, true, kStride>(sm, p, tile, 0);
    else if (r == 2) stage_group<kDif, kBits, 2, true, kStride>(sm, p, tile, 0);
    else stage_group<kDif, kBits, 1, true, kStride>(sm, p, tile, 0);
  } else if (kBits >= 3 && r == 3) {
    stage_group<kDif, kBits, kR3, false, kStride>(sm, p, tile, s_lo);
  } else if (r == 2) {
    stage_group<kDif, kBits, 2, false, kStride>(sm, p, tile, s_lo);
  } else {
    stage_group<kDif, kBits, 1, false, kStride>(sm, p, tile, s_lo);
  }
}

// kDif: natural-order data in, size-2^k Gentleman-Sande DFTs on the columns, then the twiddle
// ω^((i2·k1) << consumed) on output k1 (stored in row bitrev(k1)) of column i2.
// !kDif: the transpose: the same twiddle on load, then Cooley-Tukey stages h = 1 .. 2^(k-1).
// The k stages run in groups of at most kBits (ntt_tile.hpp: group_bits).
// kTileLog: the tile's shared memory, 2^kTileLog elements (10, or 9 for tiles of 512 and fewer:
// the last pass has no columns to add, and 16 KiB instead of 32 let 8 blocks share an SM).
// The bound on blocks per SM keeps radix-8 at 128 registers (4 blocks of 128 threads) and radix-4
// at 80 (3 of 256): the 64-bit shared accesses want aligned register pairs, and left free ptxas
// takes 125-138 and 86-88 registers and fits a block fewer (2^21-2^24 4 % slower; PERF.md 19).
// kFused: the pass reads p.mul_in / p.sub_out (a separate instance, so that the other passes keep
// their registers: the pointers and loads cost the radix-8 passes a few spills; PERF.md 45).
template <bool kDif, unsigned kBits, unsigned kTileLog, bool kFused>
__global__ void __launch_bounds__((1u << kTileLog) >> kBits,
                                  (kBits == 3 ? 4 : 3) << (kMaxPassBits - kTileLog)) ntt_pass(Pass p) {
  constexpr unsigned kPerThread = 1u << kBits;  // elements a thread holds
  __shared__ uint2 sm[4][1u << kTileLog];
  const unsigned C = 1u << p.log_c;
  const unsigned tile = 1u << (p.k + p.log_c);
  const unsigned threads = blockDim.x;  // max(tile / kPerThread, 1)
  const unsigned t = threadIdx.x;
  const unsigned groups_log = p.stride_log - p.log_c;  // column groups per sub-problem
  const unsigned sub = blockIdx.x >> groups_log, group = blockIdx.x & ((1u << groups_log) - 1);
  const size_t base = (size_t(sub) << (p.stride_log + p.k)) + (size_t(group) << p.log_c);
  const bool twiddle = p.stride_log > 0;

  // Tile element i = t + m·threads: row r = i >> log_c, column c = i mod C (coalesced rows).
#pragma unroll
  for (unsigned m = 0; m < kPerThread; ++m) {
    const unsigned i = t + m * threads;
    if (i >= tile) break;
    const unsigned r = i >> p.log_c, c = i & (C - 1);
    const size_t pos = base + (size_t(r) << p.stride_log) + c;
    F x = load(p.data + pos);
    if (kFused && p.mul_in != nullptr) x = mul_lazy(load(p.mul_in + pos), x);
    if (p.scale_in != ScaleKind::none)  // DIF input is natural, DIT input bit-reversed
      x = scaled(p, p.scale_in, x, kDif ? unsigned(pos) : bit_reverse(unsigned(pos), p.log_n));
    if (!kDif && twiddle) {
      const unsigned i2 = (group << p.log_c) + c;
      x = mul_lazy(boundary_twiddle<kDif>(p, i2, bit_reverse(r, p.k)), x);
    }
    sm_put(sm, i, x);
  }

  const unsigned groups = pass_groups(p.k, kBits);
  if (kDif) {
    unsigned top = p.k;
    for (unsigned g = 0; g < groups; ++g) {
      const unsigned r = group_bits(p.k, kBits, g);
      run_group<kDif, kBits, (1u << kTileLog)>(sm, p, tile, r, top - r);
      top -= r;
    }
  } else {
    unsigned s_lo = 0;
    for (unsigned g = groups; g-- > 0;) {
      const unsigned r = group_bits(p.k, kBits, g);
      run_group<kDif, kBits, (1u << kTileLog)>(sm, p, tile, r, s_lo);
      s_lo += r;
    }
  }
  __syncthreads();

#pragma unroll
  for (unsigned m = 0; m < kPerThread; ++m) {
    const unsigned i = t + m * threads;
    if (i >= tile) break;
    const unsigned r = i >> p.log_c, cc = i & (C - 1);
    const size_t pos = base + (size_t(r) << p.stride_log) + cc;
    F x = sm_get(sm, i);
    if (kDif && twiddle) {
      const unsigned i2 = (group << p.log_c) + cc;
      x = mul_lazy(boundary_twiddle<kDif>(p, i2, bit_reverse(r, p.k)), x);
    }
    if (p.scale_out != ScaleKind::none)  // DIF output is bit-reversed, DIT output natural
      x = scaled(p, p.scale_out, x, kDif ? bit_reverse(unsigned(pos), p.log_n) : unsigned(pos));
    if (kFused && p.sub_out != nullptr) x = x.reduced() - load(p.sub_out + pos);  // both reduced, so is x
    else if (p.last) x = x.reduced();
    store(p.data + pos, x);
  }
}

// data[i] <-> data[bitrev(i)], each pair swapped by its smaller index.
__global__ void bit_reverse_kernel(F* data, unsigned log_n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >> log_n) return;
  const unsigned j = bit_reverse(i, log_n);
  if (i < j) {
    const F x = load(data + i), y = load(data + j);
    store(data + i, y);
    store(data + j, x);
  }
}

// a[i] = (a[i]·b[i] − c[i])·z_inv (the public h_pointwise).
__global__ void h_pointwise_kernel(F* a, const F* b, const F* c, F z_inv, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    store(a + i, (load(a + i) * load(b + i) - load(c + i)) * z_inv);
}

// full[e] = ω^e for e <= n: hi[e >> split]·lo[e mod 2^split], and full[n] = ω^0 (the tables stop
// below n).
__global__ void fill_full_roots_kernel(F* full, const F* lo, const F* hi, unsigned split, size_t n) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e <= n; e += size_t(gridDim.x) * blockDim.x)
    store(full + e, two_level(lo, hi, unsigned(e & (n - 1)), split));
}

F* dev(ff::Fr* p) { return reinterpret_cast<F*>(p); }
const F* dev(const ff::Fr* p) { return reinterpret_cast<const F*>(p); }

void launch_h_pointwise(ff::Fr* a, const ff::Fr* b, const ff::Fr* c, const ff::Fr& z_inv, size_t n,
                        const Stream& stream) {
  if (n == 0) return;
  const unsigned threads = 256;
  const size_t blocks = std::min<size_t>((n + threads - 1) / threads, size_t{132} * 16);
  h_pointwise_kernel<<<unsigned(blocks), threads, 0, stream.get()>>>(dev(a), dev(b), dev(c), F::from_cpu(z_inv), n);
  Stream::check_launch();
}

}  // namespace

NttDomain::NttDomain(unsigned log_n, const Stream& stream, NttRoots roots)
    : NttDomain(log_n,
                log_n <= ntt_detail::kMaxLogSize ? poly::root_of_unity<ff::Fr>(log_n) : ff::Fr::one(),
                ff::Fr::from_uint(poly::TwoAdicRoot<ff::Fr>::kGenerator), stream, roots) {}

NttDomain::NttDomain(unsigned log_n, const ff::Fr& omega, const ff::Fr& coset_shift, const Stream& stream,
                     NttRoots roots) {
  if (log_n > ntt_detail::kMaxLogSize)
    throw Exception(invalid_argument("gpu ntt: 2^" + std::to_string(log_n) + " exceeds 2^28"));
  const uint64_t n = uint64_t{1} << log_n;
  if (omega.pow(n) != ff::Fr::one() || (log_n > 0 && omega.pow(n / 2) == ff::Fr::one()))
    throw Exception(invalid_argument("gpu ntt: omega is not a primitive 2^" + std::to_string(log_n) + "-th root of unity"));
  if (coset_shift.pow(n) == ff::Fr::one())
    throw Exception(invalid_argument("gpu ntt: the coset shift lies in the subgroup"));
  const std::vector<ff::Fr> host = ntt_detail::build_tables(log_n, omega, coset_shift, layout_);
  passes_ = ntt_detail::pass_bits(log_n);
  size_inv_ = ff::Fr::from_uint(n).inverse();
  z_inv_ = (coset_shift.pow(n) - ff::Fr::one()).inverse();
  size_inv_z_inv_ = size_inv_ * z_inv_;
  tables_ = DeviceBuffer<ff::Fr>(host.size(), stream);
  tables_.upload(host, stream);
  if (roots == NttRoots::full && passes_.size() >= 2) {  // with one pass there is no boundary
    full_ = DeviceBuffer<ff::Fr>(n + 1, stream);  // ω^0 .. ω^n: inverses read ω^(n−e)
    const F* t = dev(tables_.data());
    fill_full_roots_kernel<<<132 * 16, 256, 0, stream.get()>>>(dev(full_.data()), t + layout_.w_lo, t + layout_.w_hi,
                                                               layout_.split, n);
    Stream::check_launch();
  }
  stream.synchronize();  // `host` dies here
}

void NttDomain::ntt(ff::Fr* data, Order in, Order out, const Stream& stream) const {
  transform(data, false, Scale::none, in, out, stream);
}
void NttDomain::intt(ff::Fr* data, Order in, Order out, const Stream& stream) const {
  transform(data, true, Scale::size_inv, in, out, stream);
}
void NttDomain::coset_ntt(ff::Fr* data, Order in, Order out, const Stream& stream) const {
  transform(data, false, Scale::coset, in, out, stream);
}
void NttDomain::coset_intt(ff::Fr* data, Order in, Order out, const Stream& stream) const {
  transform(data, true, Scale::coset_inv, in, out, stream);
}

void NttDomain::transform(ff::Fr* data, bool inverse, Scale scale, Order in, Order out, const Stream& stream,
                          Fused fused) const {
  const unsigned L = layout_.log_n;
  if (L == 0) return;  // n = 1: every transform and every scale factor (g^0, 1/1) is the identity
  if ((fused.mul_in != nullptr || fused.sub_out != nullptr) && in == out)
    throw Exception(invalid_argument("gpu ntt: a fused product or subtraction needs a transform without a permutation"));
  const F* tables = dev(tables_.data());
  const auto permute = [&] {
    const unsigned threads = 256;
    bit_reverse_kernel<<<unsigned((size() + threads - 1) / threads), threads, 0, stream.get()>>>(dev(data), L);
    Stream::check_launch();
  };

  Pass base{};
  base.data = dev(data);
  base.log_n = L;
  base.local_log = layout_.local_log;
  base.local = tables + (inverse ? layout_.local_inv : layout_.local_fwd);
  base.w_lo = tables + (inverse ? layout_.wi_lo : layout_.w_lo);
  base.w_hi = tables + (inverse ? layout_.wi_hi : layout_.w_hi);
  base.split = layout_.split;
  base.scale_const = F::from_cpu(scale == Scale::size_inv_z_inv ? size_inv_z_inv_ : size_inv_);
  const bool forward_coset = scale == Scale::coset || scale == Scale::coset_size_inv;
  base.s_lo = tables + (forward_coset ? layout_.g_lo : layout_.gi_lo);
  base.s_hi = tables + (scale == Scale::coset             ? layout_.g_hi
                        : scale == Scale::coset_size_inv  ? layout_.gn_hi
                        : scale == Scale::coset_inv_z_inv ? layout_.gzi_hi
                                                          : layout_.gi_hi);
  // g^i (g^i/n) multiplies the input coefficients; 1/n (z_inv/n), g^-i/n (g^-i·z_inv/n) the output ones.
  const ScaleKind in_kind = forward_coset ? ScaleKind::powers : ScaleKind::none;
  const ScaleKind out_kind = scale == Scale::size_inv || scale == Scale::size_inv_z_inv      ? ScaleKind::constant
                             : scale == Scale::coset_inv || scale == Scale::coset_inv_z_inv ? ScaleKind::powers
                                                                                             : ScaleKind::none;

  const unsigned P = unsigned(passes_.size());
  const auto launch = [&](bool dif, unsigned pass, bool first, bool last) {
    unsigned consumed = 0;
    for (unsigned q = 0; q < pass; ++q) consumed += passes_[q];
    Pass p = base;
    p.k = passes_[pass];
    p.consumed = consumed;
    p.stride_log = L - consumed - p.k;
    p.log_c = ntt_detail::pass_columns_log(p.k, p.stride_log);
    p.flat = pass == 1 && layout_.flat_log > 0 ? tables + (inverse ? layout_.flat_inv : layout_.flat_fwd) : nullptr;
    p.flat_xor = 0;
    if (pass == 0 && full_.size() > 0 && (dif || !inverse)) {
      // NttRoots::full: ω^e; for inverses ω^-e = ω^(n−e), and n − e = 1 + (e xor (n − 1)) for
      // e < n: the table from ω^1, read at e xor (n − 1). Inverse DIT passes keep the two-level
      // tables (boundary_twiddle says why).
      p.flat = dev(full_.data()) + (inverse ? 1 : 0);
      p.flat_xor = inverse ? unsigned(size() - 1) : 0;
    }
    p.scale_in = first ? in_kind : ScaleKind::none;
    p.scale_out = last ? out_kind : ScaleKind::none;
    p.last = last;
    p.mul_in = first ? dev(fused.mul_in) : nullptr;
    p.sub_out = last ? dev(fused.sub_out) : nullptr;
    const unsigned tile = 1u << (p.k + p.log_c);
    const unsigned bits = ntt_detail::pass_radix_bits(p.k);
    const unsigned threads = std::max(tile >> bits, 1u);
    const unsigned blocks = unsigned(size() >> (p.k + p.log_c));
    // [fused][DIF][radix-8][tile of 512 or fewer]
    static constexpr void (*kKernels[2][2][2][2])(Pass) = {
        {{{ntt_pass<false, 2, kMaxPassBits, false>, ntt_pass<false, 2, kMaxPassBits - 1, false>},
          {ntt_pass<false, 3, kMaxPassBits, false>, ntt_pass<false, 3, kMaxPassBits - 1, false>}},
         {{ntt_pass<true, 2, kMaxPassBits, false>, ntt_pass<true, 2, kMaxPassBits - 1, false>},
          {ntt_pass<true, 3, kMaxPassBits, false>, ntt_pass<true, 3, kMaxPassBits - 1, false>}}},
        {{{ntt_pass<false, 2, kMaxPassBits, true>, ntt_pass<false, 2, kMaxPassBits - 1, true>},
          {ntt_pass<false, 3, kMaxPassBits, true>, ntt_pass<false, 3, kMaxPassBits - 1, true>}},
         {{ntt_pass<true, 2, kMaxPassBits, true>, ntt_pass<true, 2, kMaxPassBits - 1, true>},
          {ntt_pass<true, 3, kMaxPassBits, true>, ntt_pass<true, 3, kMaxPassBits - 1, true>}}}};
    const bool fuse = p.mul_in != nullptr || p.sub_out != nullptr;
    kKernels[fuse][dif][bits == 3][tile <= kTile / 2]<<<blocks, threads, 0, stream.get()>>>(p);
    Stream::check_launch();
  };
  const auto dif = [&] {  // natural -> bit-reversed
    for (unsigned q = 0; q < P; ++q) launch(true, q, q == 0, q + 1 == P);
  };
  const auto dit = [&] {  // bit-reversed -> natural
    for (unsigned q = P; q-- > 0;) launch(false, q, q + 1 == P, q == 0);
  };

  if (in == Order::natural && out == Order::bit_reversed) {
    dif();
  } else if (in == Order::bit_reversed && out == Order::natural) {
    dit();
  } else if (in == Order::natural) {  // natural -> natural
    dif();
    permute();
  } else {  // bit-reversed -> bit-reversed
    permute();
    dif();
  }
}

void NttDomain::h_from_rows(ff::Fr* a, ff::Fr* b, ff::Fr* c, Order rows, const Stream& stream) const {
  if (layout_.log_n == 0) {  // every transform is the identity; z_inv has no pass to ride in
    launch_h_pointwise(a, b, c, z_inv_, 1, stream);
    return;
  }
  const Order other = rows == Order::natural ? Order::bit_reversed : Order::natural;
  for (ff::Fr* v : {a, b}) {
    transform(v, true, Scale::none, rows, other, stream);             // values -> n·coefficients
    transform(v, false, Scale::coset_size_inv, other, rows, stream);  // -> values at g·ω^i
  }
  transform(c, true, Scale::size_inv_z_inv, rows, other, stream);  // C·z_inv, coefficients
  // A·B at g·ω^i on load, (A·B mod (x^n − g^n))·z_inv − C·z_inv on store.
  transform(a, true, Scale::coset_inv_z_inv, rows, other, stream, {.mul_in = b, .sub_out = c});
}

void h_pointwise(ff::Fr* a, const ff::Fr* b, const ff::Fr* c, const ff::Fr& z_inv, size_t n, const Stream& stream) {
  launch_h_pointwise(a, b, c, z_inv, n, stream);
}

}  // namespace cuzk::gpu
