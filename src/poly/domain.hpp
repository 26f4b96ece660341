#pragma once
// An evaluation domain: the subgroup {ω^i} of m-th roots of unity (m a power of two) and its coset
// g·{ω^i}, with the transforms Groth16's H computation needs (shared/SPEC.md §5):
//   iNTT (values at ω^i -> coefficients), coset NTT (coefficients -> values at g·ω^i),
//   division by Z(x) = x^m - 1 on the coset, coset iNTT.
// ω and g are bellperson's (poly/root_of_unity.hpp), so our evaluations equal its.

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "poly/ntt.hpp"
#include "poly/root_of_unity.hpp"

namespace cuzk::poly {

template <class F>
class EvaluationDomain {
 public:
  // Largest domain we build: 2^28 Fr is 8 GiB of data (PoRep 32 GiB uses 2^27).
  static constexpr unsigned kMaxLogSize = 28;

  // m = the smallest power of two >= min_size (and >= 1); an error naming the size when
  // m > 2^28 or m exceeds the field's 2-adic subgroup.
  static Expected<EvaluationDomain> for_size(size_t min_size) {
    constexpr unsigned max_log =
        kMaxLogSize < TwoAdicRoot<F>::kTwoAdicity ? kMaxLogSize : TwoAdicRoot<F>::kTwoAdicity;
    if (min_size > (size_t{1} << max_log))
      return invalid_argument("evaluation domain: size " + std::to_string(min_size) + " exceeds the maximum 2^" +
                              std::to_string(max_log));
    unsigned log_m = 0;
    while ((size_t{1} << log_m) < min_size) ++log_m;
    return EvaluationDomain(log_m);
  }

  size_t size() const { return size_t{1} << log_size_; }
  unsigned log_size() const { return log_size_; }
  const F& omega() const { return omega_; }
  const F& omega_inv() const { return omega_inv_; }
  const F& size_inv() const { return size_inv_; }
  static F coset_generator() { return F::from_uint(TwoAdicRoot<F>::kGenerator); }

  // The same transforms with other roots: omega a primitive 2^log_m-th root of unity and the
  // coset {shift·ω^i} (shift not in the subgroup). snarkjs needs this: its ω comes from the
  // non-residue 5 (ffjavascript) and its coset is the odd 2m-th roots (groth16/zkey_prover.hpp).
  static Expected<EvaluationDomain> with_roots(unsigned log_m, const F& omega, const F& coset_shift) {
    if (log_m > kMaxLogSize) return invalid_argument("evaluation domain: 2^" + std::to_string(log_m) + " exceeds 2^28");
    const F half = omega.pow(uint64_t{1} << log_m >> 1);
    if (omega.pow(uint64_t{1} << log_m) != F::one() || (log_m > 0 && half == F::one())) {
      return invalid_argument("evaluation domain: omega is not a primitive 2^" + std::to_string(log_m) + "-th root of unity");
    }
    if (coset_shift.pow(uint64_t{1} << log_m) == F::one()) {
      return invalid_argument("evaluation domain: the coset shift lies in the subgroup");
    }
    return EvaluationDomain(log_m, omega, coset_shift);
  }
  const F& coset_shift() const { return shift_; }

  // Every transform throws cuzk::Exception (invalid_argument) when data.size() != size().
  // Coefficients -> values at ω^i.
  void ntt(std::span<F> data, ThreadPool& pool) const {
    check_size(data);
    ntt_natural_order(data, std::span<const F>(twiddles(pool)), pool);
  }
  // Values at ω^i -> coefficients.
  void intt(std::span<F> data, ThreadPool& pool) const {
    check_size(data);
    ntt_natural_order(data, std::span<const F>(twiddles(pool)), pool);
    reverse_and_scale(data, F::one(), pool);
  }
  // Coefficients -> values at g·ω^i (g = coset_shift()): scale coefficient i by g^i, then NTT.
  void coset_ntt(std::span<F> data, ThreadPool& pool) const {
    check_size(data);
    scale_by_powers(data, shift_, pool);
    ntt_natural_order(data, std::span<const F>(twiddles(pool)), pool);
  }
  // Values at g·ω^i -> coefficients: iNTT, then scale coefficient i by g^-i (fused in one pass).
  void coset_intt(std::span<F> data, ThreadPool& pool) const {
    check_size(data);
    ntt_natural_order(data, std::span<const F>(twiddles(pool)), pool);
    reverse_and_scale(data, generator_inv_, pool);
  }

  // Z(g·ω^i) = g^m·ω^(im) - 1 = g^m - 1 for every i.
  F vanishing_on_coset() const { return vanishing_; }
  void divide_by_vanishing_on_coset(std::span<F> data, ThreadPool& pool) const {
    check_size(data);
    const F z_inv = vanishing_inv_;
    pool.parallel_for(data.size(), ntt_detail::kGrain, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) data[i] *= z_inv;
    });
  }

 private:
  // twiddle_table(ω, log m), built on first use on the caller's pool; shared by copies of the
  // domain (std::call_once makes concurrent first uses safe).
  struct Twiddles {
    std::once_flag once;
    std::vector<F> powers;
  };

  explicit EvaluationDomain(unsigned log_m) : EvaluationDomain(log_m, root_of_unity<F>(log_m), coset_generator()) {}
  EvaluationDomain(unsigned log_m, const F& omega, const F& shift)
      : log_size_(log_m),
        omega_(omega),
        omega_inv_(omega_.inverse()),
        size_inv_(F::from_uint(uint64_t{1} << log_m).inverse()),
        shift_(shift),
        generator_inv_(shift.inverse()),
        vanishing_(shift.pow(uint64_t{1} << log_m) - F::one()),
        vanishing_inv_(vanishing_.inverse()),
        twiddles_(std::make_shared<Twiddles>()) {}

  void check_size(std::span<F> data) const {
    if (data.size() != size())
      throw Exception(invalid_argument("evaluation domain of size " + std::to_string(size()) + ": got " +
                                       std::to_string(data.size()) + " elements"));
  }

  const std::vector<F>& twiddles(ThreadPool& pool) const {
    std::call_once(twiddles_->once, [&] { twiddles_->powers = twiddle_table(omega_, log_size_, pool); });
    return twiddles_->powers;
  }

  // data[i] *= q^i.
  static void scale_by_powers(std::span<F> data, const F& q, ThreadPool& pool) {
    pool.parallel_for(data.size(), ntt_detail::kGrain, [&](size_t begin, size_t end) {
      F p = q.pow(uint64_t(begin));
      for (size_t i = begin; i < end; ++i) {
        data[i] *= p;
        p *= q;
      }
    });
  }

  // Given z = NTT_ω(values), the coefficients are c_i = z_{-i mod m}/m (an NTT with ω^-1 is the
  // NTT with ω, read backwards); then c_i *= q^i. One pass over pairs (i, m - i), i <= m/2.
  void reverse_and_scale(std::span<F> data, const F& q, ThreadPool& pool) const {
    const size_t m = data.size();
    const bool powers = !q.is_one();
    const F q_inv = powers ? q.inverse() : F::one();
    const F s = size_inv_;
    // i = 0 (maps to itself) and, for m >= 2, i = m/2 (also its own partner).
    data[0] *= s;
    if (m < 2) return;
    data[m / 2] *= powers ? s * q.pow(uint64_t(m / 2)) : s;
    pool.parallel_for(m / 2 - 1, ntt_detail::kGrain, [&](size_t begin, size_t end) {
      // i runs over [begin + 1, end + 1); lo = s·q^i, hi = s·q^(m - i).
      F lo = powers ? s * q.pow(uint64_t(begin + 1)) : s;
      F hi = powers ? s * q.pow(uint64_t(m - begin - 1)) : s;
      for (size_t i = begin + 1; i < end + 1; ++i) {
        const F a = data[i];
        data[i] = data[m - i] * lo;
        data[m - i] = a * hi;
        if (powers) {
          lo *= q;
          hi *= q_inv;
        }
      }
    });
  }

  unsigned log_size_;
  F omega_, omega_inv_, size_inv_, shift_, generator_inv_, vanishing_, vanishing_inv_;
  std::shared_ptr<Twiddles> twiddles_;
};

extern template class EvaluationDomain<ff::Fr>;

}  // namespace cuzk::poly
