#pragma once
// Multi-scalar multiplication sum_i k_i P_i on the GPU: Pippenger's bucket method, the device twin
// of msm::multi_exp (src/msm/pippenger.hpp) with the same Booth digits and density semantics.
//  1. scalars Montgomery -> canonical; terms with k = 0 or an infinite base are dropped, the
//     bases of terms with k = 1 are listed and summed apart (no buckets; the accumulation's madd
//     and launch shape), the rest are listed for Pippenger: one kernel writes both lists, each
//     block at its place in them (docs/PERF.md 53). With MsmTerms::in_place (random scalars: h)
//     there is no such pass: step 2 reads each scalar where it lies (docs/PERF.md 54);
//  2. per window (c or c + 1 bits: MsmWindows), (bucket, base | sign) pairs are radix-sorted by
//     bucket, and each thread accumulates a fixed run of the sorted pairs (XYZZ += +-affine:
//     ec/formulas.hpp's madd, 8M + 2S with G1's Y3 as one product of a sum, docs/PERF.md 50;
//     runs of up to 32-1024 pairs by size, evened out over whole waves of resident threads):
//     buckets inside a run are written directly, the pieces cut by run boundaries are compacted
//     and reduced by the same kernel, level after level, so a heavy bucket (a short top window,
//     equal scalars) takes log(size) levels, not one thread;
//  3. per window, sum_b (b+1) B_b by running sums over bucket segments on the GPU (for large
//     windows in two levels: the segments' totals are summed again the same way), segments and
//     the ones summed by a tree; the host combines the windows (a window's width in doublings).
// Host callers include only this header (no CUDA headers beyond gpu/stream.hpp, gpu/buffer.hpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ec/affine.hpp"
#include "ec/bls12_381.hpp"
#include "ec/jacobian.hpp"
#include "ff/bls12_381.hpp"
#include "gpu/order.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

// The Booth windows of a scalar: `count` windows, the first `wide` of c + 1 bits and the others
// of c bits, at least 256 bits in all (the top digit needs bit 255, above r's 255 bits, to be
// zero). Mixed widths give windows counts that uniform ones cannot (12 windows: 4 of 22 bits and
// 8 of 21 cover 256 bits with 16.8 M buckets, where 12 of 22 bits would need 25.2 M).
struct MsmWindows {
  unsigned count = 0, c = 0, wide = 0;
  unsigned widest() const { return wide > 0 ? c + 1 : c; }
  // Uniform windows of c bits (MsmOptions::window).
  static MsmWindows uniform(unsigned c) { return {(256 + c - 1) / c, c, 0}; }
  // `count` windows of widths as equal as possible, 256 bits in all.
  static MsmWindows even(unsigned count) { return {count, 256 / count, 256 % count}; }
};

// How the terms reach the buckets. classified: one pass puts each scalar in canonical form and
// sets apart the zeros, the bases at infinity and (split_ones) the ones, before the windows (the
// witness MSMs: mostly 0 and 1). in_place: no such pass; each group of windows reads its digits
// from the scalars where they lie and every term goes through the buckets (a zero is all zero
// digits, a base at infinity adds nothing): for random scalars, the prover's h (docs/PERF.md 54).
// Not with a density (throws).
enum class MsmTerms { classified, in_place };

struct MsmOptions {
  unsigned window = 0;        // uniform windows of this many bits, 1..22; 0: msm_windows(terms)
  MsmWindows windows{};       // these windows (count 1..256, 256 bits or more, at most 22 bits each)
  bool split_ones = true;     // sum the k = 1 terms apart (false: they go through the buckets)
  unsigned run_length = 0;    // sorted pairs per accumulating thread; 0 chooses
  size_t host_chunk = 0;      // run_host: terms per streamed chunk; 0: kHostChunk
  // Where base i's scalar lies: scalars[i] (natural), or scalars[bitrev(i)] over scalar_log_n
  // bits, i < 2^scalar_log_n: h as the H stage leaves it (NttDomain::h_from_rows), read in place
  // instead of permuted first (docs/PERF.md 45). Device scalars without a density only (run,
  // run_streamed); the term order does not matter to Pippenger, which sorts by bucket.
  Order scalar_order = Order::natural;
  unsigned scalar_log_n = 0;
  MsmTerms terms = MsmTerms::classified;
};

// run_host's default chunk: 2^24 G1 terms are 2.2 GB of bases and scalars (40 ms over PCIe from
// pinned memory, less than the ~128 ms G1 MSM of the chunk it overlaps on the H200).
inline constexpr size_t kHostChunk = size_t{1} << 24;

// The windows chosen for m significant terms (exposed for the bench and the tests).
MsmWindows msm_windows(size_t m);

// Sorted pairs per accumulating thread for `pairs` pairs: at most `cap`, and even over the waves
// of `resident` threads the GPU holds at once (blocks per SM x SMs x block), so that no last,
// partial wave leaves most SMs idle while its few blocks run (exposed for the tests).
unsigned balanced_run(size_t pairs, unsigned cap, size_t resident);

template <class Curve>
class Msm {
 public:
  // All work is queued on `stream` (which must outlive this object); run() returns after it ends.
  explicit Msm(const Stream& stream);
  ~Msm();
  Msm(const Msm&) = delete;
  Msm& operator=(const Msm&) = delete;

  // sum scalars[i] bases[i], i < n; both device pointers.
  ec::Jacobian<Curve> run(const ec::Affine<Curve>* bases, const ff::Fr* scalars, size_t n, MsmOptions options = {});
  // bellperson's density form: scalars[i] for i < n, skipped where bit i of the device words
  // (bit i % 64 of word i / 64) is clear; the k-th set bit pairs with bases[k].
  ec::Jacobian<Curve> run(const ec::Affine<Curve>* bases, const ff::Fr* scalars, const uint64_t* density_words,
                          size_t n, MsmOptions options = {});
  // Host memory (pinned, or the copies are not asynchronous): the terms go through two device
  // buffers in chunks of options.host_chunk; chunk i + 1 is copied on a second stream while
  // chunk i is summed, and the chunks' sums are added on the host. The small-card path: only
  // 2 chunks of bases live on the GPU.
  ec::Jacobian<Curve> run_host(std::span<const ec::Affine<Curve>> bases, std::span<const ff::Fr> scalars,
                               MsmOptions options = {});
  // Bases in host memory (pinned), scalars already on the device (n of them): the bases stream
  // through the two device buffers as in run_host (the prover's path when the key does not fit
  // the card). The density form as run's: the words on the device, and the same words on the host
  // (to find each chunk's first base; chunks are then whole words).
  ec::Jacobian<Curve> run_streamed(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars, size_t n,
                                   MsmOptions options = {});
  ec::Jacobian<Curve> run_streamed(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars,
                                   const uint64_t* density_words, std::span<const uint64_t> host_words, size_t n,
                                   MsmOptions options = {});

  // Device memory the workspace holds now (it grows to the largest run, chunk or MSM, and stays).
  size_t workspace_bytes() const;
  // Frees the workspace (the next run allocates it again): for a caller whose other stages need
  // the memory, as the streamed prover's H does.
  void release_workspace();

  // The last run's phases in milliseconds (prepare: canonical form and compaction; ones: the
  // k = 1 terms' sum; sort, accumulate, reduce: Pippenger's stages 2 and 3; with
  // MsmTerms::in_place, sort includes the canonical form) and its terms (n, the significant ones
  // that went through the buckets: all n in place, the k = 1 ones); summed over the chunks of
  // run_host and run_streamed. For the benches (docs/PERF.md 53).
  struct Timing {
    float prepare = 0, ones = 0, sort = 0, accumulate = 0, reduce = 0;
    size_t terms = 0, significant = 0, ones_terms = 0;
    Timing& operator+=(const Timing& t) {
      prepare += t.prepare, ones += t.ones, sort += t.sort, accumulate += t.accumulate, reduce += t.reduce;
      terms += t.terms, significant += t.significant, ones_terms += t.ones_terms;
      return *this;
    }
  };
  const Timing& last_timing() const { return timing_; }

 private:
  struct Workspace;
  // at: the first base's index in the whole vector (run_chunks' chunk), for bit-reversed scalars.
  ec::Jacobian<Curve> run_impl(const ec::Affine<Curve>* bases, const ff::Fr* scalars, const uint64_t* density,
                               size_t n, MsmOptions options, size_t at);
  ec::Jacobian<Curve> run_chunks(std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars, bool scalars_on_host,
                                 const uint64_t* density, std::span<const uint64_t> host_words, size_t n,
                                 MsmOptions options);
  const Stream& stream_;
  std::unique_ptr<Workspace> ws_;
  Timing timing_;
};

extern template class Msm<ec::G1Curve>;
extern template class Msm<ec::G2Curve>;

}  // namespace cuzk::gpu
