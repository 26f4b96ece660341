#pragma once
// NTT over Fr on the GPU: the device twin of poly::EvaluationDomain<ff::Fr> (same ω, same coset
// shift g, same mathematics), with the index order of input and output chosen by the caller.
//
// Formulation (four-step, Bailey 1990, applied recursively): log n bits split into passes of
// k <= 10 bits. In decimation-in-frequency order (natural in, bit-reversed out) pass p does, for
// every column i2 of its sub-problem of size 2^L' (stride 2^(L'-k)), a size-2^k DFT over the
// column (radix-2 Gentleman-Sande stages, three at a time on 8 elements in registers between
// trips through shared memory where k is a multiple of 3, else two at a time on 4; local roots
// ω_(2^k)^j), then multiplies output k1 by
// ω_(2^L')^(i2·k1) and leaves 2^k independent sub-problems of size 2^(L'-k).
// Bit-reversed in, natural out is the transposed network: the passes in reverse order, each
// twiddle first, then Cooley-Tukey butterflies. Neither needs a permutation pass (DESIGN.md
// decision 5); natural->natural and bitrev->bitrev add one in-place bit-reversal swap.
//
// Twiddles ω^e (e < n) come from two small tables, ω^e = hi[e >> B]·lo[e mod 2^B], B = ceil(log n/2):
// 2^14 + 2^14 entries (1 MiB) at 2^28 instead of a 4 GiB table (gpu/ntt_tables.hpp); the second
// pass's from a flat table of its 2^(L-k0) exponents; the first pass's, with NttRoots::full, from
// a table of all n + 1 powers where the caller has the memory (one product an element less:
// docs/PERF.md 49). The coset factors g^i (and g^-i/n) use the two-level split; they and 1/n are
// fused into the first or last pass.
// Between the passes the values are lazily reduced, in [0, 2r); the last pass stores them reduced.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"
#include "gpu/buffer.hpp"
#include "gpu/ntt_tables.hpp"
#include "gpu/order.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

// Where the first pass's boundary twiddles ω^e (e < n) come from: `two_level` builds each from
// the two small tables (a product an element); `full` loads it from a table of the n + 1 powers
// ω^0 .. ω^n, (n + 1)·32 bytes on the device (4.3 GB at 2^27), which the inverses read at n − e
// (docs/PERF.md 49). The results are the same.
enum class NttRoots { two_level, full };

class NttDomain {
 public:
  // ω and g as poly::EvaluationDomain<ff::Fr>::for_size(2^log_n). Throws on log_n > 28.
  NttDomain(unsigned log_n, const Stream& stream, NttRoots roots = NttRoots::two_level);
  // Any primitive 2^log_n-th root and coset shift (snarkjs's roots); checked like
  // EvaluationDomain::with_roots. Blocks until the tables are on the device.
  NttDomain(unsigned log_n, const ff::Fr& omega, const ff::Fr& coset_shift, const Stream& stream,
            NttRoots roots = NttRoots::two_level);
  NttRoots roots() const { return full_.size() > 0 ? NttRoots::full : NttRoots::two_level; }

  unsigned log_size() const { return layout_.log_n; }
  size_t size() const { return size_t{1} << layout_.log_n; }
  const ff::Fr& size_inv() const { return size_inv_; }
  const ff::Fr& z_inv() const { return z_inv_; }  // 1/Z(g·ω^i) = 1/(g^n − 1), the same at every i

  // data: device pointer to size() Fr (Montgomery, ff::Fr bytes), transformed in place; queued on
  // `stream`. in/out: the index order of input and output.
  void ntt(ff::Fr* data, Order in, Order out, const Stream& stream) const;         // coeffs -> values at ω^i
  void intt(ff::Fr* data, Order in, Order out, const Stream& stream) const;        // values -> coeffs (÷n)
  void coset_ntt(ff::Fr* data, Order in, Order out, const Stream& stream) const;   // coeffs -> values at g·ω^i
  void coset_intt(ff::Fr* data, Order in, Order out, const Stream& stream) const;  // values at g·ω^i -> coeffs

  // Groth16's H (shared/SPEC.md §5) from the rows a = A·z, b = B·z, c = C·z on the domain, given
  // in `rows` order: h's coefficients in `a`, in the other order (natural rows give h
  // bit-reversed: the MSM reads it there, gpu::MsmOptions::scalar_order; docs/PERF.md 45); `b`
  // and `c` are overwritten. The same h as bellperson's seven transforms, in six
  // (groth16::quotient_in_place says why; PERF.md 43): a and b intt, then coset_ntt; c intt only;
  // the coset_intt of a·b, minus c. No pass of its own besides the transforms': the 1/n's and the
  // division by Z(g·ω^i) ride in a first or last pass (g^i/n, z_inv/n, g^-i·z_inv/n; PERF.md 40),
  // a·b in the coset_intt's first (on load) and − c in its last (on store; PERF.md 45). Natural
  // rows take intt n->r, coset_ntt r->n, coset_intt n->r; bit-reversed rows the reverse.
  void h_from_rows(ff::Fr* a, ff::Fr* b, ff::Fr* c, Order rows, const Stream& stream) const;

 private:
  // The factors fused into the first (g^i, g^i/n) or last (1/n, z_inv/n, g^-i/n, g^-i·z_inv/n)
  // pass.
  enum class Scale { none, size_inv, size_inv_z_inv, coset, coset_inv, coset_size_inv, coset_inv_z_inv };
  // Vectors (device, in the data's order) fused into a transform without a permutation: a product
  // on the first pass's load, a subtraction on the last pass's store (h_from_rows); {} for none
  // (no member initialisers: a default argument of the enclosing class cannot use them).
  struct Fused {
    const ff::Fr* mul_in;
    const ff::Fr* sub_out;
  };
  void transform(ff::Fr* data, bool inverse, Scale scale, Order in, Order out, const Stream& stream,
                 Fused fused = {}) const;

  ntt_detail::TableLayout layout_;
  std::vector<unsigned> passes_;
  ff::Fr size_inv_;
  ff::Fr z_inv_;
  ff::Fr size_inv_z_inv_;
  DeviceBuffer<ff::Fr> tables_;
  DeviceBuffer<ff::Fr> full_;  // ω^e, e <= n, with NttRoots::full where the first pass has a boundary
};

// Groth16's H step on the coset (shared/SPEC.md §5): a[i] = (a[i]·b[i] − c[i])·z_inv, i < n.
void h_pointwise(ff::Fr* a, const ff::Fr* b, const ff::Fr* c, const ff::Fr& z_inv, size_t n, const Stream& stream);

}  // namespace cuzk::gpu
