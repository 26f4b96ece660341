#pragma once
// Radix-2 NTT over a prime field, in place, on a ThreadPool (see ntt_natural_order for the
// formulation). For cache reuse the stages whose butterflies stay inside a block of 2^kBlockLog
// elements run block by block (each block does all of them while it sits in L2), and the stages
// before them are fused two at a time (one radix-4 pass = two radix-2 stages): a 2^20 transform
// makes 5 sweeps over memory (4 radix-4, 1 blocked) plus the bit-reversal permutation, not 20.
//
// The only table is the m/2 twiddles (O(m), shared by all stages), built once per domain.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/thread_pool.hpp"

namespace cuzk::poly {

namespace ntt_detail {

inline constexpr unsigned kBlockLog = 12;  // 4096 Fr = 128 KiB: fits L2 with its twiddles
inline constexpr size_t kGrain = size_t{1} << 12;

inline uint64_t reverse_bits(uint64_t x, unsigned bits) {
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
  x = __builtin_bswap64(x);
  return bits == 0 ? 0 : x >> (64 - bits);
}

// Cooley-Tukey butterfly: (a, b) <- (a + w·b, a - w·b).
template <class F>
inline void butterfly(F& a, F& b, const F& w) {
  const F t = b * w;
  b = a - t;
  a = a + t;
}

}  // namespace ntt_detail

// W[b] = ω^brv(b), b < m/2, brv reversing log m - 1 bits (empty for m = 1). Stage with nb blocks
// gives block b the twiddle ω_{2nb}^brv_{log nb}(b) = W[b]: every stage reads a prefix of W.
template <class F>
std::vector<F> twiddle_table(const F& omega, unsigned log_m, ThreadPool& pool) {
  if (log_m == 0) return {};
  // With L = log m - 1 and b < 2^k: brv_L(b + 2^k) = brv_L(b) + 2^(L-1-k), so the table doubles
  // level by level, W[2^k + b] = W[b]·ω^(2^(L-1-k)), writing sequentially (no scattered stores).
  const unsigned levels = log_m - 1;
  std::vector<F> squares(levels + 1, omega);  // squares[i] = ω^(2^i)
  for (unsigned i = 1; i <= levels; ++i) squares[i] = squares[i - 1].square();
  std::vector<F> table(size_t{1} << levels);
  table[0] = F::one();
  for (unsigned k = 0; k < levels; ++k) {
    const size_t nb = size_t{1} << k;
    const F step = squares[levels - 1 - k];
    pool.parallel_for(nb, ntt_detail::kGrain, [&](size_t begin, size_t end) {
      for (size_t b = begin; b < end; ++b) table[nb + b] = table[b] * step;
    });
  }
  return table;
}

// data[i] <-> data[bitreverse(i)], in place; data.size() a power of two.
template <class F>
void bit_reverse_permute(std::span<F> data, ThreadPool& pool) {
  const unsigned log_m = unsigned(std::countr_zero(data.size()));
  pool.parallel_for(data.size(), ntt_detail::kGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const size_t j = ntt_detail::reverse_bits(i, log_m);
      if (i < j) std::swap(data[i], data[j]);  // each pair is swapped by its smaller index only
    }
  });
}

// data[k] <- Σ_i data[i]·ω^(ik), natural order in and out; twiddles = twiddle_table(ω, log m).
//
// Stages split polynomials rather than sequences: a block of 2h coefficients holds P mod
// (x^2h - s^2), and the butterfly (a, b) <- (a + s·b, a - s·b) splits it into P mod (x^h - s) and
// P mod (x^h + s) (Bernstein, "Multidigit multiplication for mathematicians", 2001, §2-3). With
// s = W[block index] the leaves are P(ω^brv(k)): natural order in, bit-reversed out, then one
// permutation. The twiddle is constant over a block, and stage nb reads W[0, nb): both keep the
// table's reads sequential at every size.
template <class F>
void ntt_natural_order(std::span<F> data, std::span<const F> twiddles, ThreadPool& pool) {
  using namespace ntt_detail;
  const size_t m = data.size();
  if (m <= 1) return;
  const unsigned log_m = unsigned(std::countr_zero(m));
  const unsigned block_log = log_m < kBlockLog ? log_m : kBlockLog;
  F* const x = data.data();
  const F* const w = twiddles.data();

  // Stages with half-width h >= 2^block_log sweep the whole array. An odd one out goes first:
  // h = m/2 has the single twiddle W[0] = 1, so no multiplication.
  unsigned lh = log_m - 1;  // log h of the next stage
  if ((log_m - block_log) % 2 == 1) {
    const size_t h = m / 2;
    pool.parallel_for(h, kGrain, [&](size_t begin, size_t end) {
      for (size_t j = begin; j < end; ++j) {
        const F a = x[j], b = x[j + h];
        x[j] = a + b;
        x[j + h] = a - b;
      }
    });
    --lh;
  }
  // The rest two at a time: one radix-4 pass does stage h (block b, twiddle W[b]) and stage h/2
  // (blocks 2b and 2b+1) on x0..x3 = base + j + {0, h/2, h, 3h/2}, j < h/2.
  for (; lh >= block_log + 1; lh -= 2) {  // block_log >= 1 here, so lh >= 2
    const size_t h = size_t{1} << lh, q = h / 2;
    pool.parallel_for(m / 4, kGrain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        const size_t b = i >> (lh - 1), j = i & (q - 1);
        F* y = x + (b << (lh + 1)) + j;
        butterfly(y[0], y[h], w[b]);
        butterfly(y[q], y[h + q], w[b]);
        butterfly(y[0], y[q], w[2 * b]);
        butterfly(y[h], y[h + q], w[2 * b + 1]);
      }
    });
  }
  // Stages with h < 2^block_log stay inside one block of 2^block_log elements: all of them run
  // block by block while the block sits in L2.
  const size_t block = size_t{1} << block_log;
  pool.parallel_for(m >> block_log, 1, [&](size_t begin, size_t end) {
    for (size_t blk = begin; blk < end; ++blk) {
      const size_t offset = blk << block_log;
      for (unsigned l = block_log; l-- > 0;) {
        const size_t h = size_t{1} << l;
        for (size_t s = 0; s < block; s += 2 * h) {
          const F& t = w[(offset + s) >> (l + 1)];
          F* y = x + offset + s;
          for (size_t j = 0; j < h; ++j) butterfly(y[j], y[j + h], t);
        }
      }
    }
  });
  bit_reverse_permute(data, pool);
}

}  // namespace cuzk::poly
