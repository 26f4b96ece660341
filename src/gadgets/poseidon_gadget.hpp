#pragma once
// neptune's legacy Poseidon R1CS gadget (neptune::circuit::poseidon_hash, the one every Filecoin
// circuit calls), row for row (shared/SPEC-POSEIDON.md §4): compressed round constants, the
// pre-sparse and sparse partial-round matrices, linear mixing kept as unallocated linear
// combinations, and 3 rows per first-round S-box, 4 per other S-box (1 of them allocating the
// mixed lane), 1 for the output: 311/377/505/598 rows for arity 2/4/8/11.

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// The hash output: its variable (allocated by the gadget) and value.
struct PoseidonOutput {
  r1cs::Variable var;
  ff::Fr value;
};

// The variables the gadget allocates for one hash, one a row: 3 per first-round S-box (arity of
// them), 4 per other S-box (t a full round, 1 a partial one), the output: 311/377/505/598 for
// arity 2/4/8/11.
inline size_t poseidon_gadget_variables(const PoseidonConstants& c) {
  return 3 * c.arity + 4 * c.width * (c.full_rounds - 1) + 4 * c.partial_rounds + 1;
}

// Hashes' variables computed ahead of a witness-only synthesis (PoseidonBatch::trace, eight at a
// time), which takes them in order instead of computing each hash (docs/PERF.md 35): entry k is
// the k-th hash the synthesis makes: its constants, preimage and the gadget's variables in
// allocation order (the hash last). take() checks the constants and the preimage, so a trace
// out of order is never used: the gadget computes that hash itself, and missed() counts it.
class PoseidonTraces {
 public:
  PoseidonTraces() = default;
  // One entry a hash, all storage at once; the caller fills preimage(k) and values(k).
  explicit PoseidonTraces(std::span<const PoseidonConstants* const> hashes) {
    size_t at = 0;
    for (const PoseidonConstants* c : hashes) {
      entries_.push_back({c, at});
      at += c->arity + poseidon_gadget_variables(*c);
    }
    storage_.resize(at);
  }

  size_t size() const { return entries_.size(); }
  const PoseidonConstants& constants(size_t k) const { return *entries_[k].constants; }
  std::span<ff::Fr> preimage(size_t k) { return {storage_.data() + entries_[k].at, entries_[k].constants->arity}; }
  std::span<ff::Fr> values(size_t k) {
    const Entry& e = entries_[k];
    return {storage_.data() + e.at + e.constants->arity, poseidon_gadget_variables(*e.constants)};
  }

  // The next entry's variables when it is a hash with these constants of this preimage (and it
  // advances); nullptr otherwise, counted as a miss.
  const ff::Fr* take(const PoseidonConstants& c, std::span<const ff::Fr> preimage) {
    if (next_ < entries_.size() && entries_[next_].constants == &c) {
      const ff::Fr* stored = storage_.data() + entries_[next_].at;
      if (std::equal(preimage.begin(), preimage.end(), stored, stored + c.arity)) {
        ++next_;
        return stored + c.arity;
      }
    }
    ++missed_;
    return nullptr;
  }
  size_t taken() const { return next_; }
  size_t missed() const { return missed_; }

 private:
  struct Entry {
    const PoseidonConstants* constants;
    size_t at;  // into storage_: the preimage, then the variables
  };
  std::vector<Entry> entries_;
  std::vector<ff::Fr> storage_;
  size_t next_ = 0, missed_ = 0;
};

namespace detail {

// One lane of the state: an allocated variable, or an unallocated linear combination (neptune's
// Elt::Allocated / Elt::Num), with its value.
struct PoseidonLane {
  r1cs::LinearCombination<ff::Fr> lc;
  ff::Fr value;
  std::optional<r1cs::Variable> var;

};

template <r1cs::ConstraintSystem CS>
class PoseidonCircuit {
 public:
  using Fr = ff::Fr;
  using LC = r1cs::LinearCombination<Fr>;
  static_assert(std::is_same_v<typename CS::Field, Fr>, "Poseidon constants are over BLS12-381 Fr");

  PoseidonCircuit(CS& cs, const PoseidonConstants& c) : cs_(cs), c_(c) {}

  // A witness-only backend reads no linear combination: lanes then carry values alone
  // (docs/PERF.md: the LC mixing was the Poseidon gadget's whole cost there).
  static constexpr bool kLcs = r1cs::builds_linear_combinations<CS>;

  PoseidonOutput hash(std::span<const r1cs::Variable> preimage, std::span<const Fr> values) {
    if (preimage.size() != c_.arity || (!values.empty() && values.size() != c_.arity)) {
      throw Exception(invalid_argument("poseidon gadget: preimage length differs from arity"));
    }
    const size_t t = c_.width, half = c_.full_rounds / 2;
    const std::vector<Fr>& key = c_.compressed_round_constants;
    std::vector<PoseidonLane> lanes;
    lanes.reserve(t);
    lanes.push_back(constant(c_.domain_tag));
    for (size_t i = 0; i < c_.arity; ++i) lanes.push_back(allocated(preimage[i], values.empty() ? Fr::zero() : values[i]));
    size_t at = 2 * t;
    {  // Round 0: pre-key C[0..t), post-key C[t..2t); the tag lane is a constant, folded.
      r1cs::Namespace round(cs_, "round 0");
      const Fr tag = quintic(c_.domain_tag + key[0]) + key[t];
      lanes[0] = constant(tag);
      for (size_t i = 1; i < t; ++i) {
        r1cs::Namespace lane(cs_, [&] { return "lane " + std::to_string(i); });
        lanes[i] = sbox_pre_add(lanes[i], key[i], key[t + i]);
      }
      mix(lanes);
    }
    for (size_t r = 1; r < half; ++r) full_round(lanes, &key[at], at);
    for (uint32_t p = 0; p < c_.partial_rounds; ++p) {
      r1cs::Namespace round(cs_, [&] { return "round " + std::to_string(round_); });
      {
        r1cs::Namespace lane(cs_, "lane 0");
        lanes[0] = sbox(lanes[0], key[at++]);
      }
      mix(lanes);
    }
    for (size_t r = 1; r < half; ++r) full_round(lanes, &key[at], at);
    full_round(lanes, nullptr, at);  // the last round has no post-key
    r1cs::Namespace output(cs_, "output");
    const r1cs::Variable out = ensure_allocated(lanes[1]);
    return {out, lanes[1].value};
  }

 private:
  static Fr quintic(const Fr& x) { return x.square().square() * x; }
  static PoseidonLane allocated(r1cs::Variable v, const Fr& value) { return {kLcs ? LC(v) : LC(), value, v}; }
  static PoseidonLane constant(const Fr& value) {
    return {kLcs ? LC().add(value, CS::one()) : LC(), value, std::nullopt};
  }

  // keys == nullptr: no post-key. Advances `at` by t when keyed.
  void full_round(std::vector<PoseidonLane>& lanes, const Fr* keys, size_t& at) {
    r1cs::Namespace round(cs_, [&] { return "round " + std::to_string(round_); });
    for (size_t i = 0; i < lanes.size(); ++i) {
      r1cs::Namespace lane(cs_, [&] { return "lane " + std::to_string(i); });
      lanes[i] = keys ? sbox(lanes[i], keys[i]) : sbox(lanes[i], std::nullopt);
    }
    if (keys) at += lanes.size();
    mix(lanes);
  }

  // neptune's ensure_allocated: a linear combination L becomes l with the row L · ONE = l.
  r1cs::Variable ensure_allocated(const PoseidonLane& e) {
    if (e.var) return *e.var;
    const Fr value = e.value;
    const r1cs::Variable l = cs_.alloc("l", [&] { return value; });
    cs_.enforce("l = L", [&](LC lc) { return lc + e.lc; }, [](LC lc) { return lc + CS::one(); },
                [&](LC lc) { return lc + l; });
    return l;
  }

  r1cs::Variable square(r1cs::Variable x, const Fr& x_value, const char* name, const char* row, Fr& out_value) {
    out_value = x_value.square();
    const Fr v = out_value;
    const r1cs::Variable y = cs_.alloc(name, [&] { return v; });
    cs_.enforce(row, [&](LC lc) { return lc + x; }, [&](LC lc) { return lc + x; }, [&](LC lc) { return lc + y; });
    return y;
  }

  // quintic_s_box: y = l^5 + post (post folded into y's value, subtracted from C).
  PoseidonLane sbox(const PoseidonLane& e, std::optional<Fr> post) {
    const r1cs::Variable l = ensure_allocated(e);
    Fr l2_value, l4_value;
    const r1cs::Variable l2 = square(l, e.value, "l^2", "l^2 = l * l", l2_value);
    const r1cs::Variable l4 = square(l2, l2_value, "l^4", "l^4 = l^2 * l^2", l4_value);
    const Fr y_value = l4_value * e.value + post.value_or(Fr::zero());
    const r1cs::Variable y = cs_.alloc("y", [&] { return y_value; });
    cs_.enforce(
        "y = l * l^4 + k", [&](LC lc) { return lc + l; }, [&](LC lc) { return lc + l4; },
        [&](LC lc) { return post ? lc + y - *post * CS::one() : lc + y; });
    return allocated(y, y_value);
  }

  // quintic_s_box_pre_add on an allocated input x: y = (x + pre)^5 + post.
  PoseidonLane sbox_pre_add(const PoseidonLane& e, const Fr& pre, const Fr& post) {
    const r1cs::Variable x = ensure_allocated(e);
    const Fr sum = e.value + pre;
    auto x_plus_pre = [&](LC lc) { return lc + x + pre * CS::one(); };
    const Fr q_value = sum.square();
    const r1cs::Variable q = cs_.alloc("(x+k)^2", [&] { return q_value; });
    cs_.enforce("(x+k)^2 = (x+k) * (x+k)", x_plus_pre, x_plus_pre, [&](LC lc) { return lc + q; });
    Fr q2_value;
    const r1cs::Variable q2 = square(q, q_value, "(x+k)^4", "(x+k)^4 = (x+k)^2 * (x+k)^2", q2_value);
    const Fr y_value = q2_value * sum + post;
    const r1cs::Variable y = cs_.alloc("y", [&] { return y_value; });
    cs_.enforce("y = (x+k) * (x+k)^4 + k'", x_plus_pre, [&](LC lc) { return lc + q2; },
                [&](LC lc) { return lc + y - post * CS::one(); });
    return allocated(y, y_value);
  }

  // product_mds: the same matrix selection as the native hash; no rows, no variables.
  void mix(std::vector<PoseidonLane>& lanes) {
    const size_t t = lanes.size(), half = c_.full_rounds / 2;
    std::vector<PoseidonLane> out(t);
    if (round_ >= half && round_ < half + c_.partial_rounds) {
      const PoseidonSparseMatrix& m = c_.sparse[round_ - half];
      out[0] = scalar_product(lanes, [&](size_t i) { return m.w_hat[i]; });
      for (size_t j = 1; j < t; ++j) {
        const Fr& k = m.v_rest[j - 1];
        out[j] = {kLcs ? lanes[j].lc + lanes[0].lc * k : LC(), lanes[j].value + k * lanes[0].value, std::nullopt};
      }
    } else {
      const PoseidonMatrix& m = round_ + 1 == half ? c_.pre_sparse : c_.mds;
      for (size_t j = 0; j < t; ++j) out[j] = scalar_product(lanes, [&](size_t i) { return m[i][j]; });
    }
    lanes = std::move(out);
    ++round_;
  }

  // Σ_i column(i)·lane_i, accumulated from zero in lane order (neptune's scalar_product).
  template <class Column>
  static PoseidonLane scalar_product(const std::vector<PoseidonLane>& lanes, Column column) {
    PoseidonLane acc{LC(), Fr::zero(), std::nullopt};
    for (size_t i = 0; i < lanes.size(); ++i) {
      const Fr k = column(i);
      if constexpr (kLcs) acc.lc += lanes[i].lc * k;
      acc.value += k * lanes[i].value;
    }
    return acc;
  }

  CS& cs_;
  const PoseidonConstants& c_;
  size_t round_ = 0;
};

}  // namespace detail

// Hashes `preimage` (c.arity allocated variables, values alongside; `values` may be empty when
// the backend needs none, e.g. KeygenCS) into one new allocated variable, whose value equals
// poseidon_hash(c, values). Rows and variables go into the caller's current namespace.
// `traces` (witness-only backends, r1cs::records_constraints false; ignored by the others): the
// variables are taken from its next entry when that is this hash (PoseidonTraces::take).
template <r1cs::ConstraintSystem CS>
PoseidonOutput poseidon_hash_gadget(CS& cs, const PoseidonConstants& c, std::span<const r1cs::Variable> preimage,
                                    std::span<const ff::Fr> values, PoseidonTraces* traces = nullptr) {
  if constexpr (!r1cs::records_constraints<CS>) {
    if (traces != nullptr && preimage.size() == c.arity && values.size() == c.arity) {
      if (const ff::Fr* v = traces->take(c, values)) {
        const size_t n = poseidon_gadget_variables(c);
        r1cs::Variable out = CS::one();
        for (size_t i = 0; i < n; ++i) out = cs.alloc("", [&] { return v[i]; });
        return {out, v[n - 1]};
      }
    }
  }
  return detail::PoseidonCircuit<CS>(cs, c).hash(preimage, values);
}

// The same over allocated numbers (how the Merkle and PoRep gadgets hold their values).
template <r1cs::ConstraintSystem CS>
AllocatedNum<ff::Fr> poseidon_hash_gadget(CS& cs, const PoseidonConstants& c,
                                          std::span<const AllocatedNum<ff::Fr>> preimage,
                                          PoseidonTraces* traces = nullptr) {
  std::vector<r1cs::Variable> vars;
  std::vector<ff::Fr> values;
  for (const AllocatedNum<ff::Fr>& n : preimage) {
    vars.push_back(n.variable());
    values.push_back(n.value());
  }
  const PoseidonOutput out = poseidon_hash_gadget(cs, c, vars, values, traces);
  return {out.var, out.value};
}

}  // namespace cuzk::gadgets
