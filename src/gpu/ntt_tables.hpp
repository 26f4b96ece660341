#pragma once
// The host side of gpu::NttDomain (gpu/ntt.hpp): how log n splits into passes, and the small
// twiddle and coset tables the kernels read. Plain C++ (no CUDA), so CI tests it on the CPU.
//
// Two-level powers: for e < 2^L and B = ceil(L/2), q^e = hi[e >> B]·lo[e mod 2^B] with
// lo[t] = q^t (t < 2^B) and hi[t] = q^(t·2^B) (t < 2^(L-B)): 2^B + 2^(L-B) entries instead of 2^L.
// The twiddles of the second pass's boundary are multiples of 2^k0 (k0: the first pass's bits),
// so one flat table of ω^(t·2^k0), t < 2^(L-k0) (8 MiB at 2^27, in L2), serves them with one load
// instead of two loads and a product.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"
#include "gpu/ntt_tile.hpp"

namespace cuzk::gpu::ntt_detail {

inline constexpr unsigned kMaxLogSize = 28;   // poly::EvaluationDomain's limit

// The pass sizes k_0, k_1, ... in decimation-in-frequency order: they sum to log_n, each is
// <= kMaxPassBits, the fewest passes, sizes as even as possible, larger first (27 -> 9,9,9;
// 28 -> 10,9,9; 20 -> 10,10; 22 -> 8,7,7). Empty for log_n = 0.
inline std::vector<unsigned> pass_bits(unsigned log_n) {
  std::vector<unsigned> bits;
  if (log_n == 0) return bits;
  const unsigned passes = (log_n + kMaxPassBits - 1) / kMaxPassBits;
  for (unsigned p = 0; p < passes; ++p) bits.push_back(log_n / passes + (p < log_n % passes ? 1 : 0));
  return bits;
}

// Offsets (in Fr) of the tables inside one allocation.
struct TableLayout {
  unsigned log_n = 0;
  unsigned split = 0;      // B: lo tables have 2^B entries, hi tables 2^(log_n - B)
  unsigned local_log = 0;  // K = the largest pass: local roots ω_(2^K)^j, j < 2^(K-1)
  size_t local_fwd = 0, local_inv = 0;              // ω_(2^K)^j and ω_(2^K)^-j
  size_t w_lo = 0, w_hi = 0, wi_lo = 0, wi_hi = 0;  // ω^e and ω^-e, two-level
  size_t g_lo = 0, g_hi = 0, gi_lo = 0, gi_hi = 0;  // g^i and g^-i/n (1/n folded into gi_hi)
  // Groth16's H with its factors folded (NttDomain::h_from_rows): with g_lo, g^i/n (the intt's
  // 1/n); with gi_lo, g^-i·z_inv/n (z_inv = 1/Z(g·ω^i) = 1/(g^n − 1), the same at every i).
  size_t gn_hi = 0, gzi_hi = 0;
  unsigned flat_log = 0;                           // L - k0 with 3 passes or more, else 0 (no table)
  size_t flat_fwd = 0, flat_inv = 0;               // ω^(t·2^k0) and ω^-(t·2^k0), t < 2^flat_log
  size_t total = 0;
};

// first, first q, ..., first q^(count - 1) appended to `out`; returns where they start.
inline size_t append_powers(std::vector<ff::Fr>& out, const ff::Fr& q, size_t count,
                            const ff::Fr& first = ff::Fr::one()) {
  const size_t at = out.size();
  ff::Fr p = first;
  for (size_t t = 0; t < count; ++t, p *= q) out.push_back(p);
  return at;
}

// lo/hi of q^e, e < 2^log_n, appended to `out` (q^e = hi[e >> split]·lo[e mod 2^split]).
inline void append_two_level(std::vector<ff::Fr>& out, const ff::Fr& q, unsigned log_n, unsigned split,
                             const ff::Fr& hi_factor, size_t& lo_at, size_t& hi_at) {
  lo_at = append_powers(out, q, size_t{1} << split);
  hi_at = append_powers(out, q.pow(uint64_t{1} << split), size_t{1} << (log_n - split), hi_factor);
}

// The tables of a domain of 2^log_n (omega a primitive 2^log_n-th root, shift the coset shift).
inline std::vector<ff::Fr> build_tables(unsigned log_n, const ff::Fr& omega, const ff::Fr& shift, TableLayout& layout) {
  layout = TableLayout{};
  layout.log_n = log_n;
  layout.split = (log_n + 1) / 2;
  for (unsigned k : pass_bits(log_n)) layout.local_log = k > layout.local_log ? k : layout.local_log;
  std::vector<ff::Fr> t;
  const ff::Fr omega_inv = omega.inverse();
  // ω_(2^K) = ω^(2^(L-K)); the local tables hold its first 2^(K-1) powers (none when K = 0).
  const ff::Fr local = omega.pow(uint64_t{1} << (log_n - layout.local_log));
  const ff::Fr local_inv = omega_inv.pow(uint64_t{1} << (log_n - layout.local_log));
  const size_t half = layout.local_log ? size_t{1} << (layout.local_log - 1) : 0;
  layout.local_fwd = append_powers(t, local, half);
  layout.local_inv = append_powers(t, local_inv, half);
  const ff::Fr one = ff::Fr::one();
  const ff::Fr n_inv = ff::Fr::from_uint(uint64_t{1} << log_n).inverse();
  append_two_level(t, omega, log_n, layout.split, one, layout.w_lo, layout.w_hi);
  append_two_level(t, omega_inv, log_n, layout.split, one, layout.wi_lo, layout.wi_hi);
  append_two_level(t, shift, log_n, layout.split, one, layout.g_lo, layout.g_hi);
  append_two_level(t, shift.inverse(), log_n, layout.split, n_inv, layout.gi_lo, layout.gi_hi);
  const ff::Fr z_inv = (shift.pow(uint64_t{1} << log_n) - one).inverse();
  const size_t hi_count = size_t{1} << (log_n - layout.split);
  layout.gn_hi = append_powers(t, shift.pow(uint64_t{1} << layout.split), hi_count, n_inv);
  layout.gzi_hi = append_powers(t, shift.inverse().pow(uint64_t{1} << layout.split), hi_count, n_inv * z_inv);
  const std::vector<unsigned> passes = pass_bits(log_n);
  if (passes.size() >= 3) {  // with two passes the second one has no boundary twiddle
    layout.flat_log = log_n - passes[0];
    const size_t count = size_t{1} << layout.flat_log;
    layout.flat_fwd = append_powers(t, omega.pow(uint64_t{1} << passes[0]), count);
    layout.flat_inv = append_powers(t, omega_inv.pow(uint64_t{1} << passes[0]), count);
  }
  layout.total = t.size();
  return t;
}

}  // namespace cuzk::gpu::ntt_detail
