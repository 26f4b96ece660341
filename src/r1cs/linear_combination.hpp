#pragma once
// A linear combination sum(coeff_i * var_i): a plain vector of terms sorted by variable, equal
// variables merged by adding their coefficients (shared/DESIGN.md decision 3: no small-buffer
// tricks). A merged zero stays in the vector, as bellpepper's LinearCombination keeps it: the
// canonical row serialisation counts it, while density ignores it (nonzero coefficients only).

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

template <class F>
struct Term {
  F coeff;
  Variable var;
  friend bool operator==(const Term&, const Term&) = default;
};

template <class F>
Term<F> operator*(const F& coeff, Variable var) {
  return {coeff, var};
}

template <class F>
class LinearCombination {
 public:
  LinearCombination() = default;
  LinearCombination(Variable var) : terms_{{F::one(), var}} {}  // NOLINT: coefficient 1

  std::span<const Term<F>> terms() const { return terms_; }
  size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }

  // Adds coeff * var. Appending in increasing variable order (the usual case) is O(1); otherwise
  // the term is inserted at its sorted place.
  LinearCombination& add(const F& coeff, Variable var) {
    if (terms_.empty() || terms_.back().var < var) {
      terms_.push_back({coeff, var});
      return *this;
    }
    auto it = std::lower_bound(terms_.begin(), terms_.end(), var,
                               [](const Term<F>& t, Variable v) { return t.var < v; });
    if (it != terms_.end() && it->var == var) {
      it->coeff += coeff;
    } else {
      terms_.insert(it, Term<F>{coeff, var});
    }
    return *this;
  }

  LinearCombination& operator+=(Variable v) { return add(F::one(), v); }
  LinearCombination& operator-=(Variable v) { return add(-F::one(), v); }
  LinearCombination& operator+=(const Term<F>& t) { return add(t.coeff, t.var); }
  LinearCombination& operator-=(const Term<F>& t) { return add(-t.coeff, t.var); }
  LinearCombination& operator+=(const LinearCombination& o) {
    return merge(o, [](const F& c) { return c; });
  }
  LinearCombination& operator-=(const LinearCombination& o) {
    return merge(o, [](const F& c) { return -c; });
  }
  LinearCombination& operator*=(const F& scale) {
    for (Term<F>& t : terms_) t.coeff *= scale;  // zeros stay, as bellpepper's scaling keeps them
    return *this;
  }

  // By value on the left, so a chain `lc + x + y` built inside an enforce callable moves.
  friend LinearCombination operator+(LinearCombination lc, Variable v) { return std::move(lc += v); }
  friend LinearCombination operator-(LinearCombination lc, Variable v) { return std::move(lc -= v); }
  friend LinearCombination operator+(LinearCombination lc, const Term<F>& t) { return std::move(lc += t); }
  friend LinearCombination operator-(LinearCombination lc, const Term<F>& t) { return std::move(lc -= t); }
  friend LinearCombination operator+(LinearCombination lc, const LinearCombination& o) { return std::move(lc += o); }
  friend LinearCombination operator-(LinearCombination lc, const LinearCombination& o) { return std::move(lc -= o); }
  friend LinearCombination operator*(LinearCombination lc, const F& s) { return std::move(lc *= s); }

  // sum(coeff * value); ONE is inputs[0].
  F evaluate(std::span<const F> inputs, std::span<const F> aux) const {
    F acc = F::zero();
    for (const Term<F>& t : terms_) {
      const F& v = t.var.is_input() ? inputs[t.var.index] : aux[t.var.index];
      acc += t.coeff * v;
    }
    return acc;
  }

  friend bool operator==(const LinearCombination&, const LinearCombination&) = default;

 private:
  // this += sign(other), sign being identity or negation: a merge of two sorted vectors, or an
  // append when other starts after this ends.
  template <class Sign>
  LinearCombination& merge(const LinearCombination& other, Sign sign) {
    if (other.terms_.empty()) return *this;
    if (terms_.empty() || terms_.back().var < other.terms_.front().var) {
      terms_.reserve(terms_.size() + other.terms_.size());
      for (const Term<F>& t : other.terms_) terms_.push_back({sign(t.coeff), t.var});
      return *this;
    }
    std::vector<Term<F>> merged;
    merged.reserve(terms_.size() + other.terms_.size());
    size_t i = 0, j = 0;
    while (i < terms_.size() && j < other.terms_.size()) {
      const Term<F>& x = terms_[i];
      const Term<F>& y = other.terms_[j];
      if (x.var < y.var) {
        merged.push_back(x);
        ++i;
      } else if (y.var < x.var) {
        merged.push_back({sign(y.coeff), y.var});
        ++j;
      } else {
        merged.push_back({x.coeff + sign(y.coeff), x.var});
        ++i;
        ++j;
      }
    }
    for (; i < terms_.size(); ++i) merged.push_back(terms_[i]);
    for (; j < other.terms_.size(); ++j) merged.push_back({sign(other.terms_[j].coeff), other.terms_[j].var});
    terms_ = std::move(merged);
    return *this;
  }

  std::vector<Term<F>> terms_;
};

extern template class LinearCombination<ff::Fr>;  // r1cs.cpp

}  // namespace cuzk::r1cs
