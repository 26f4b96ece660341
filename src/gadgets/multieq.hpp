#pragma once
// MultiEq (bellpepper-core 0.2.1 gadgets/multieq.rs): packs several small equalities L_j = R_j,
// each known to hold over the integers with both sides below 2^k_j, into one row
//   (Σ_j 2^{s_j}·L_j) · ONE = Σ_j 2^{s_j}·R_j,   s_j = k_0 + … + k_{j−1},
// flushing a row when the next equality would reach Fr::CAPACITY (254) bits, so the packed sums
// cannot wrap modulo r. One MultiEq per SHA-256 compression; flush() must end its use (the Rust
// type flushes on drop; a C++ destructor must not emit rows, so the caller calls it).

#include <cstddef>
#include <string>

#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"

namespace cuzk::gadgets {

template <class F>
class MultiEq {
 public:
  using LC = r1cs::LinearCombination<F>;
  static constexpr size_t kCapacity = F::kBits - 1;  // Scalar::CAPACITY

  // Adds lhs = rhs, both below 2^num_bits; the row of the previous batch comes first when this
  // one would not fit (test `CAPACITY <= bits_used + num_bits`, multieq.rs enforce_equal).
  template <r1cs::ConstraintSystem CS>
  void enforce_equal(CS& cs, size_t num_bits, const LC& lhs, const LC& rhs) {
    if (kCapacity <= bits_used_ + num_bits) flush(cs);
    if (kCapacity <= bits_used_ + num_bits) throw r1cs::SynthesisError("MultiEq: equation wider than the field");
    F coeff = F::one();
    for (size_t i = 0; i < bits_used_; ++i) coeff = coeff.dbl();
    lhs_ += lhs * coeff;
    rhs_ += rhs * coeff;
    bits_used_ += num_bits;
  }

  // Emits "multieq {ops}": lhs · ONE = rhs, if anything is pending (multieq.rs accumulate / Drop).
  template <r1cs::ConstraintSystem CS>
  void flush(CS& cs) {
    if (bits_used_ == 0) return;
    cs.enforce([this] { return "multieq " + std::to_string(ops_); }, [this](LC) { return lhs_; },
               [](LC lc) { return lc + CS::one(); }, [this](LC) { return rhs_; });
    lhs_ = LC();
    rhs_ = LC();
    bits_used_ = 0;
    ++ops_;
  }

  size_t bits_used() const { return bits_used_; }

 private:
  size_t bits_used_ = 0;
  size_t ops_ = 0;
  LC lhs_, rhs_;
};

}  // namespace cuzk::gadgets
