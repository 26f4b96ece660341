#pragma once
// Multi-scalar multiplication sum_i k_i P_i by Pippenger's bucket method (Bernstein et al.,
// "Faster batch forgery identification", §4; the form used by bellperson, blst and sppark):
//  1. scalars become canonical integers; terms with k = 0 or an infinite base are dropped, and
//     terms with k = 1 are summed directly (PoRep's aux vectors are mostly bits, PERF.md);
//  2. each remaining k is cut into W windows of c bits, recoded to signed (Booth) digits
//     d in [-2^(c-1), 2^(c-1)], so a window needs 2^(c-1) buckets, B[|d|-1] += sign(d) P;
//  3. each window's buckets reduce by running sums, S = sum_b (b+1) B[b] (two additions per
//     bucket), and the windows combine as sum_j 2^(jc) S_j by c doublings per window.
// Buckets take mixed (affine) additions: XYZZ ones, 8M + 2S each, for small inputs, and above
// kBatchAffineFrom terms affine ones in batches sharing one inversion, about 6M each. Tasks are
// (window, slice of the terms) pairs on the pool; a pool of one thread runs all on the caller.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/density_bitmap.hpp"
#include "core/thread_pool.hpp"
#include "ec/affine.hpp"
#include "ec/bls12_381.hpp"
#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::msm {

using Scalar = ff::Fr::Int;                  // canonical scalar, 4 limbs, < r < 2^255
inline constexpr size_t kScalarBits = 255;   // r < 2^255

// How the terms enter the buckets: XYZZ mixed additions, or affine additions in batches sharing
// one inversion (cheaper per term, but each batch pays an inversion and conflicting terms wait).
enum class Accumulation { automatic, xyzz, batch_affine };
inline constexpr size_t kBatchAffineFrom = 4096;  // significant terms; below, XYZZ

struct Options {
  unsigned window = 0;  // bits per window, 1..20; 0 chooses by window_bits
  Accumulation accumulation = Accumulation::automatic;
};

// Additions per batch of the batch-affine accumulation with 2^(c-1) buckets: a batch fills while
// fewer than half the buckets wait (a term hits a waiting bucket with probability under 1/2).
inline size_t batch_capacity(unsigned c) { return std::clamp<size_t>((size_t{1} << (c - 1)) / 2, 64, 2048); }

// The window width c for m scalars of 255 bits: the c minimising the count of field
// multiplications, W(c) (a m + 24 2^(c-1)) with W(c) = ceil(256/c) (one more bit than the scalar
// so that the Booth carry out of the top window is 0): a = 10 per XYZZ mixed addition (8M + 2S),
// 6.5 per batched affine one (2M + 1S, 3M for Montgomery's trick, some deferrals) plus its share
// of the batch's inversion (about 450 M by Fermat); the running sums cost 24 per bucket.
inline unsigned window_bits(size_t m, Accumulation accumulation = Accumulation::xyzz) {
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned c = 1; c <= 20; ++c) {
    const double per_term =
        accumulation == Accumulation::batch_affine ? 6.5 + 450.0 / double(batch_capacity(c)) : 10.0;
    const double windows = double((kScalarBits + c) / c);
    const double cost = windows * (per_term * double(m) + 24.0 * double(size_t{1} << (c - 1)));
    if (c == 1 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

// Sum scalars[i] bases[i]; bases.size() >= scalars.size().
template <class Curve>
ec::Jacobian<Curve> multi_exp(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                              ThreadPool& pool);

// bellperson's density-aware form: one scalar per variable, density.size() == scalars.size();
// the k-th scalar whose bit is set pairs with bases[k] (bases.size() >= density.count()); the
// others are skipped.
template <class Curve>
ec::Jacobian<Curve> multi_exp(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                              const DensityBitmap& density, ThreadPool& pool);

// As multi_exp (density may be null), with the window width or accumulation forced: for tests
// and benchmarks.
template <class Curve>
ec::Jacobian<Curve> multi_exp_with(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                                   const DensityBitmap* density, Options options, ThreadPool& pool);

namespace detail {

// Bits [pos, pos + len) of k, len <= 32; bits past the top limb read as 0.
inline uint64_t bits_at(const Scalar& k, size_t pos, unsigned len) {
  const size_t limb = pos / 64, off = pos % 64;
  uint64_t v = k.limbs[limb] >> off;
  if (off + len > 64 && limb + 1 < Scalar::kLimbs) v |= k.limbs[limb + 1] << (64 - off);
  return v & ((uint64_t{1} << len) - 1);
}

// Booth digit of window j: with w = bits [jc - 1, jc + c) (bit -1 read as 0), the digit is
// d = floor((w + 1) / 2) - 2^c w_c. Summed over j the carries telescope to k as long as bit
// Wc - 1 of k is 0. Returned as |d| << 1 | (d < 0).
inline uint32_t booth_digit(const Scalar& k, size_t j, unsigned c) {
  const uint64_t w = j == 0 ? bits_at(k, 0, c) << 1 : bits_at(k, j * c - 1, c + 1);
  const uint64_t top = w >> c;
  const uint64_t half = (w + 1) >> 1;  // in [0, 2^c]
  const uint64_t magnitude = top ? (uint64_t{1} << c) - half : half;
  return uint32_t(magnitude << 1 | top);
}

// Terms are cut into chunks of this many scalars; each chunk is compacted in place.
inline constexpr size_t kChunk = 4096;

// The significant terms after stage 1: chunk ch holds ints/index[ch kChunk, + count[ch]).
struct Terms {
  std::span<const Scalar> ints;
  std::span<const uint32_t> index;  // base of each term
  std::span<const size_t> count;
};

// Calls add(term, digit) for every term of chunks [chunk_begin, chunk_end) whose window-j digit
// is nonzero; prefetch(digit) is told the next term's digit one term ahead.
template <class Add, class Prefetch>
void for_each_digit(const Terms& terms, size_t chunk_begin, size_t chunk_end, size_t j, unsigned c, Add&& add,
                    Prefetch&& prefetch) {
  for (size_t ch = chunk_begin; ch < chunk_end; ++ch) {
    const size_t begin = ch * kChunk, end = begin + terms.count[ch];
    uint32_t next = end > begin ? booth_digit(terms.ints[begin], j, c) : 0;
    for (size_t i = begin; i < end; ++i) {
      const uint32_t digit = next;
      if (i + 1 < end) {
        next = booth_digit(terms.ints[i + 1], j, c);
        if (next > 1) prefetch(next);
      }
      if (digit > 1) add(uint32_t(i), digit);  // digit <= 1: |d| = 0
    }
  }
}

// S = sum_b (b+1) B[b] as the sum over t of the running sums B[top] + ... + B[t];
// add_bucket(b, r) adds bucket b into the running sum r.
template <class Curve, class AddBucket>
ec::XYZZ<Curve> running_sum(size_t buckets, AddBucket&& add_bucket) {
  ec::XYZZ<Curve> running, sum;
  for (size_t b = buckets; b-- > 0;) {
    add_bucket(b, running);
    sum += running;
  }
  return sum;
}

// One window over a slice of the terms with XYZZ buckets and mixed additions (8M + 2S each).
template <class Curve>
ec::XYZZ<Curve> window_sum_xyzz(std::span<const ec::Affine<Curve>> bases, const Terms& terms, size_t chunk_begin,
                                size_t chunk_end, size_t j, unsigned c) {
  using Bucket = ec::XYZZ<Curve>;
  std::vector<Bucket> bucket(size_t{1} << (c - 1));
  for_each_digit(
      terms, chunk_begin, chunk_end, j, c,
      [&](uint32_t term, uint32_t digit) {
        const ec::Affine<Curve>& p = bases[terms.index[term]];
        Bucket& b = bucket[(digit >> 1) - 1];
        b = (digit & 1) ? b + ec::Affine<Curve>{p.x, -p.y, false} : b + p;
      },
      [&](uint32_t digit) { __builtin_prefetch(&bucket[(digit >> 1) - 1]); });
  return running_sum<Curve>(bucket.size(), [&](size_t b, Bucket& r) {
    if (!bucket[b].is_identity()) r += bucket[b];
  });
}

// One window over a slice of the terms with affine buckets, added to in batches that share one
// inversion (Montgomery's trick): lambda = (y2 - y1)/(x2 - x1), x3 = lambda^2 - x1 - x2,
// y3 = lambda (x1 - x3) - y1: 2M + 1S per addition, 3M more for Montgomery's trick, plus a share
// of the one inversion; against 8M + 2S for an XYZZ mixed addition. A term whose bucket already waits in the current
// batch is deferred to a later batch; once a round fails to halve the deferred terms, those left
// go to XYZZ buckets, so a pathological input (every digit equal) costs no more than the XYZZ
// path.
template <class Curve>
ec::XYZZ<Curve> window_sum_batch_affine(std::span<const ec::Affine<Curve>> bases, const Terms& terms,
                                        size_t chunk_begin, size_t chunk_end, size_t j, unsigned c) {
  using Affine = ec::Affine<Curve>;
  using Field = typename Curve::Field;
  const size_t buckets = size_t{1} << (c - 1);
  const size_t capacity = batch_capacity(c);
  std::vector<Affine> bucket(buckets);
  std::vector<uint32_t> batch_of(buckets);  // the batch in which bucket b waits, if any
  uint32_t batch = 1;
  // What a pending addition B + P does once 1/d is known; the denominator d follows from it.
  enum class Kind : uint8_t {
    add,          // d = x_P - x_B
    add_negated,  // B + (-P): d = x_P - x_B as well, lambda has the opposite sign
    dbl,          // P = B: d = 2 y_B
    cancel,       // P = -B: d = 1, the bucket empties
  };
  struct Pending {
    uint32_t bucket, term;
    Kind kind;
  };
  std::vector<Pending> pending;
  pending.reserve(capacity);
  std::vector<Field> denominator(capacity), prefix(capacity);
  std::vector<uint32_t> deferred;

  auto flush = [&] {
    const size_t count = pending.size();
    if (count == 0) return;
    prefix[0] = denominator[0];
    for (size_t k = 1; k < count; ++k) prefix[k] = prefix[k - 1] * denominator[k];
    Field inverse = prefix[count - 1].inverse();  // 1 / (d_0 ... d_(count-1))
    for (size_t k = count; k-- > 0;) {
      const Field inv = k > 0 ? inverse * prefix[k - 1] : inverse;  // 1 / d_k
      if (k > 0) inverse *= denominator[k];
      Affine& b = bucket[pending[k].bucket];
      const Affine& p = bases[terms.index[pending[k].term]];
      switch (pending[k].kind) {
        case Kind::add: {
          const Field lambda = (p.y - b.y) * inv;        // (y_P - y_B) / (x_P - x_B)
          const Field x3 = lambda.square() - b.x - p.x;  // x3 = lambda^2 - x_B - x_P
          b.y = lambda * (b.x - x3) - b.y;               // y3 = lambda (x_B - x3) - y_B
          b.x = x3;
          break;
        }
        case Kind::add_negated: {
          const Field lambda = (p.y + b.y) * inv;        // minus (-y_P - y_B) / (x_P - x_B)
          const Field x3 = lambda.square() - b.x - p.x;
          b.y = lambda * (x3 - b.x) - b.y;
          b.x = x3;
          break;
        }
        case Kind::dbl: {
          const Field xx = b.x.square();
          const Field lambda = (xx.dbl() + xx) * inv;    // 3 x_B^2 / (2 y_B)
          const Field x3 = lambda.square() - b.x.dbl();
          b.y = lambda * (b.x - x3) - b.y;
          b.x = x3;
          break;
        }
        case Kind::cancel:
          b = Affine::identity();
          break;
      }
    }
    pending.clear();
    ++batch;
  };
  auto add = [&](uint32_t term, uint32_t digit) {
    const uint32_t index = (digit >> 1) - 1;
    const bool negate = digit & 1;
    if (batch_of[index] == batch) {
      deferred.push_back(term);
      return;
    }
    Affine& b = bucket[index];
    const Affine& p = bases[terms.index[term]];
    if (b.infinity) {
      b = negate ? Affine{p.x, -p.y, false} : p;
      return;
    }
    const size_t k = pending.size();
    Kind kind = negate ? Kind::add_negated : Kind::add;
    denominator[k] = p.x - b.x;
    if (denominator[k].is_zero()) {  // P = B or P = -B (rare: equal bases or scalars)
      const bool same = negate ? (b.y + p.y).is_zero() : b.y == p.y;
      kind = same ? Kind::dbl : Kind::cancel;
      denominator[k] = same ? b.y.dbl() : Field::one();
    }
    batch_of[index] = batch;
    pending.push_back({index, term, kind});
    if (pending.size() == capacity) flush();
  };
  auto point = [&](uint32_t term, bool negate) {
    const Affine& p = bases[terms.index[term]];
    return negate ? Affine{p.x, -p.y, false} : p;
  };

  for_each_digit(terms, chunk_begin, chunk_end, j, c, add,
                 [&](uint32_t digit) { __builtin_prefetch(&bucket[(digit >> 1) - 1]); });
  flush();
  // Rounds over the deferred terms while each at least halves them (random digits: a few).
  while (!deferred.empty()) {
    std::vector<uint32_t> work;
    work.swap(deferred);
    for (uint32_t term : work) add(term, booth_digit(terms.ints[term], j, c));
    flush();
    if (2 * deferred.size() > work.size()) break;
  }
  std::vector<ec::XYZZ<Curve>> overflow;
  if (!deferred.empty()) {
    overflow.resize(buckets);
    for (uint32_t term : deferred) {
      const uint32_t digit = booth_digit(terms.ints[term], j, c);
      overflow[(digit >> 1) - 1] += point(term, digit & 1);
    }
  }
  return running_sum<Curve>(buckets, [&](size_t b, ec::XYZZ<Curve>& r) {
    if (!bucket[b].infinity) r += bucket[b];
    if (!overflow.empty() && !overflow[b].is_identity()) r += overflow[b];
  });
}

template <class Curve>
ec::Jacobian<Curve> pippenger(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                              const DensityBitmap* density, Options options, ThreadPool& pool) {
  using Affine = ec::Affine<Curve>;
  using Bucket = ec::XYZZ<Curve>;
  using Jacobian = ec::Jacobian<Curve>;
  const size_t n = scalars.size();
  if (density != nullptr) {
    if (density->size() != n) throw std::invalid_argument("multi_exp: density and scalars differ in size");
    if (bases.size() < density->count()) throw std::invalid_argument("multi_exp: fewer bases than dense scalars");
  } else if (bases.size() < n) {
    throw std::invalid_argument("multi_exp: fewer bases than scalars");
  }
  // Terms and bases are indexed by uint32_t (half the memory of size_t at 2^27 terms).
  if (bases.size() > UINT32_MAX || n > UINT32_MAX) throw std::invalid_argument("multi_exp: more than 2^32 terms");
  if (n == 0) return Jacobian::identity();

  // Stage 1: per chunk, canonical scalars of the significant terms packed at the chunk's start,
  // their base indices beside them, and the sum of the bases whose scalar is 1.
  const size_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<size_t> first_base(chunks);  // index of the chunk's first base
  if (density != nullptr) {
    const auto& words = density->words();
    size_t count = 0;
    for (size_t c = 0; c < chunks; ++c) {
      first_base[c] = count;
      for (size_t w = c * kChunk / 64; w < std::min(words.size(), (c + 1) * kChunk / 64); ++w)
        count += size_t(std::popcount(words[w]));
    }
  } else {
    for (size_t c = 0; c < chunks; ++c) first_base[c] = c * kChunk;
  }
  std::vector<Scalar> ints(n);
  std::vector<uint32_t> index(n);
  std::vector<size_t> significant(chunks);
  std::vector<Bucket> ones(chunks);
  pool.parallel_for(chunks, 1, [&](size_t chunk_begin, size_t chunk_end) {
    for (size_t c = chunk_begin; c < chunk_end; ++c) {
      const size_t begin = c * kChunk, end = std::min(n, begin + kChunk);
      size_t base = first_base[c], out = begin;
      Bucket one = Bucket::identity();
      for (size_t i = begin; i < end; ++i) {
        if (density != nullptr && !density->test(i)) continue;
        const Affine& p = bases[base++];
        if (p.infinity) continue;
        const Scalar k = scalars[i].to_int();
        if (k.is_zero()) continue;
        if (k == Scalar(1)) {
          one += p;
          continue;
        }
        ints[out] = k;
        index[out] = uint32_t(base - 1);
        ++out;
      }
      significant[c] = out - begin;
      ones[c] = one;
    }
  });
  size_t m = 0;
  for (size_t s : significant) m += s;
  Bucket ones_sum = Bucket::identity();
  for (const Bucket& b : ones) ones_sum += b;
  if (m == 0) return ones_sum.to_jacobian();

  // Stage 2: buckets per (window, slice of chunks).
  const Accumulation accumulation =
      options.accumulation != Accumulation::automatic ? options.accumulation
      : m >= kBatchAffineFrom                         ? Accumulation::batch_affine
                                                      : Accumulation::xyzz;
  const unsigned c = options.window != 0 ? options.window : window_bits(m, accumulation);
  const size_t windows = (kScalarBits + c) / c;  // ceil(256 / c)
  const size_t buckets = size_t{1} << (c - 1);
  size_t slices = 1;
  if (pool.threads() > 1) {
    // Enough tasks to keep every thread busy, while each slice still carries several times the
    // terms of its bucket reduction.
    slices = std::max<size_t>(1, (2 * pool.threads() + windows - 1) / windows);
    slices = std::min(slices, std::max<size_t>(1, m / (4 * buckets)));
    slices = std::min(slices, chunks);
  }
  const Terms terms{ints, index, significant};
  std::vector<Bucket> window_sums(windows * slices);
  pool.for_each_index(windows * slices, [&](size_t task) {
    const size_t j = task / slices, slice = task % slices;
    const size_t chunk_begin = chunks * slice / slices, chunk_end = chunks * (slice + 1) / slices;
    window_sums[task] = accumulation == Accumulation::batch_affine
                            ? window_sum_batch_affine<Curve>(bases, terms, chunk_begin, chunk_end, j, c)
                            : window_sum_xyzz<Curve>(bases, terms, chunk_begin, chunk_end, j, c);
  });

  // Stage 3: Horner over the windows, top first.
  Jacobian acc = Jacobian::identity();
  for (size_t j = windows; j-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    for (size_t s = 0; s < slices; ++s) acc += window_sums[j * slices + s].to_jacobian();
  }
  return acc + ones_sum.to_jacobian();
}

}  // namespace detail

template <class Curve>
ec::Jacobian<Curve> multi_exp(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                              ThreadPool& pool) {
  return detail::pippenger<Curve>(bases, scalars, nullptr, {}, pool);
}

template <class Curve>
ec::Jacobian<Curve> multi_exp(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                              const DensityBitmap& density, ThreadPool& pool) {
  return detail::pippenger<Curve>(bases, scalars, &density, {}, pool);
}

template <class Curve>
ec::Jacobian<Curve> multi_exp_with(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                                   const DensityBitmap* density, Options options, ThreadPool& pool) {
  if (options.window > 20) throw std::invalid_argument("multi_exp_with: window wider than 20 bits");
  return detail::pippenger<Curve>(bases, scalars, density, options, pool);
}

extern template ec::Jacobian<ec::G1Curve> multi_exp(std::span<const ec::Affine<ec::G1Curve>>, std::span<const ff::Fr>,
                                                  ThreadPool&);
extern template ec::Jacobian<ec::G1Curve> multi_exp(std::span<const ec::Affine<ec::G1Curve>>, std::span<const ff::Fr>,
                                                  const DensityBitmap&, ThreadPool&);
extern template ec::Jacobian<ec::G1Curve> multi_exp_with(std::span<const ec::Affine<ec::G1Curve>>,
                                                       std::span<const ff::Fr>, const DensityBitmap*, Options,
                                                       ThreadPool&);
extern template ec::Jacobian<ec::G2Curve> multi_exp(std::span<const ec::Affine<ec::G2Curve>>, std::span<const ff::Fr>,
                                                  ThreadPool&);
extern template ec::Jacobian<ec::G2Curve> multi_exp(std::span<const ec::Affine<ec::G2Curve>>, std::span<const ff::Fr>,
                                                  const DensityBitmap&, ThreadPool&);
extern template ec::Jacobian<ec::G2Curve> multi_exp_with(std::span<const ec::Affine<ec::G2Curve>>,
                                                       std::span<const ff::Fr>, const DensityBitmap*, Options,
                                                       ThreadPool&);

}  // namespace cuzk::msm
