// boolean.hpp, num.hpp, multipack.hpp: the exact rows bellpepper-core 0.2.1 / bellpepper emit
// (expected rows written from the Rust source, file:line cited at HEAD 7275595 of
// argumentcomputer/bellpepper, whose gadget code is unchanged since the 0.2.1 release), the values,
// and the digest of a composite circuit computed independently with shared/tools.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/uint64.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/random.hpp"

namespace cuzk::gadgets {
namespace {

using F = ff::Fr;
using LC = r1cs::LinearCombination<F>;
using r1cs::Variable;
using TestCS = r1cs::TestCS<F>;

F num(int64_t v) { return v >= 0 ? F::from_uint(uint64_t(v)) : -F::from_uint(uint64_t(-v)); }
Variable aux(uint32_t i) { return Variable::aux(i); }
Variable input(uint32_t i) { return Variable::input(i); }
const Variable kOne = Variable::one();

struct T {
  Variable var;
  F coeff;
};

// The LC holds exactly these terms, in this (sorted) order, merged zeros included.
void expect_lc(const LC& lc, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(lc.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(lc.terms()[i].var, want[i].var) << what << " term " << i;
    EXPECT_EQ(lc.terms()[i].coeff, want[i].coeff) << what << " term " << i;
  }
}
void expect_row(const TestCS& cs, size_t row, const std::string& path, const std::vector<T>& a,
                const std::vector<T>& b, const std::vector<T>& c) {
  ASSERT_LT(row, cs.num_constraints());
  const auto& r = cs.constraints()[row];
  EXPECT_EQ(r.path, path);
  expect_lc(r.a, a, path + " A");
  expect_lc(r.b, b, path + " B");
  expect_lc(r.c, c, path + " C");
}

template <class CS, class Fn>
auto in(CS& cs, const char* name, Fn fn) {
  r1cs::Namespace ns(cs, name);
  return fn();
}

// ---------------------------------------------------------------------------------------------
// AllocatedBit
// ---------------------------------------------------------------------------------------------

TEST(AllocatedBit, AllocRow) {
  // boolean.rs:67-95: alloc "boolean"; enforce "boolean constraint" (ONE - a) * a = 0.
  for (bool v : {false, true}) {
    TestCS cs;
    const AllocatedBit a = in(cs, "a", [&] { return AllocatedBit::alloc(cs, v); });
    EXPECT_EQ(cs.num_aux(), 1u);
    EXPECT_EQ(cs.num_constraints(), 1u);
    EXPECT_EQ(a.variable(), aux(0));
    EXPECT_EQ(cs.get("a/boolean"), v ? F::one() : F::zero());
    expect_row(cs, 0, "a/boolean constraint", {{kOne, num(1)}, {aux(0), num(-1)}}, {{aux(0), num(1)}}, {});
    EXPECT_TRUE(cs.is_satisfied());
    cs.set("a/boolean", num(2));
    EXPECT_EQ(cs.first_unsatisfied(), "a/boolean constraint");
  }
}

TEST(AllocatedBit, AllocConditionallyRow) {
  // boolean.rs:27-62: (ONE - must_be_false - a) * a = 0.
  for (int m = 0; m < 2; ++m) {
    for (int v = 0; v < 2; ++v) {
      TestCS cs;
      const AllocatedBit f = in(cs, "f", [&] { return AllocatedBit::alloc(cs, m); });
      in(cs, "a", [&] { return AllocatedBit::alloc_conditionally(cs, v, f); });
      expect_row(cs, 1, "a/boolean constraint", {{kOne, num(1)}, {aux(0), num(-1)}, {aux(1), num(-1)}},
                 {{aux(1), num(1)}}, {});
      // a = 1 while must_be_false = 1 is the one unsatisfiable case.
      EXPECT_EQ(cs.is_satisfied(), !(m && v)) << m << v;
    }
  }
}

// Each two-input op on all four inputs: its one row, its value, satisfied; a flipped result is
// caught by its row.
TEST(AllocatedBit, BinaryOpsRowsAndTruthTables) {
  struct Op {
    const char* name;
    const char* result;
    const char* constraint;
    AllocatedBit (*fn)(TestCS&, const AllocatedBit&, const AllocatedBit&);
    bool (*truth)(bool, bool);
    std::vector<T> a, b, c;  // over a = aux 0, b = aux 1, result = aux 2
  };
  const std::vector<Op> ops = {
      // boolean.rs:98-150: (a + a) * b = a + b - c
      {"xor", "xor result", "xor constraint",
       [](TestCS& cs, const AllocatedBit& a, const AllocatedBit& b) { return AllocatedBit::xor_(cs, a, b); },
       [](bool x, bool y) { return x != y; }, {{aux(0), num(2)}}, {{aux(1), num(1)}},
       {{aux(0), num(1)}, {aux(1), num(1)}, {aux(2), num(-1)}}},
      // boolean.rs:153-189: a * b = c
      {"and", "and result", "and constraint",
       [](TestCS& cs, const AllocatedBit& a, const AllocatedBit& b) { return AllocatedBit::and_(cs, a, b); },
       [](bool x, bool y) { return x && y; }, {{aux(0), num(1)}}, {{aux(1), num(1)}}, {{aux(2), num(1)}}},
      // boolean.rs:192-228: a * (ONE - b) = c
      {"and_not", "and not result", "and not constraint",
       [](TestCS& cs, const AllocatedBit& a, const AllocatedBit& b) { return AllocatedBit::and_not(cs, a, b); },
       [](bool x, bool y) { return x && !y; }, {{aux(0), num(1)}}, {{kOne, num(1)}, {aux(1), num(-1)}},
       {{aux(2), num(1)}}},
      // boolean.rs:231-267: (ONE - a) * (ONE - b) = c
      {"nor", "nor result", "nor constraint",
       [](TestCS& cs, const AllocatedBit& a, const AllocatedBit& b) { return AllocatedBit::nor(cs, a, b); },
       [](bool x, bool y) { return !x && !y; }, {{kOne, num(1)}, {aux(0), num(-1)}},
       {{kOne, num(1)}, {aux(1), num(-1)}}, {{aux(2), num(1)}}},
  };
  for (const Op& op : ops) {
    for (int x = 0; x < 2; ++x) {
      for (int y = 0; y < 2; ++y) {
        TestCS cs;
        const AllocatedBit a = in(cs, "a", [&] { return AllocatedBit::alloc(cs, x); });
        const AllocatedBit b = in(cs, "b", [&] { return AllocatedBit::alloc(cs, y); });
        const AllocatedBit r = in(cs, "op", [&] { return op.fn(cs, a, b); });
        EXPECT_EQ(cs.num_aux(), 3u) << op.name;
        ASSERT_EQ(cs.num_constraints(), 3u) << op.name;
        EXPECT_EQ(r.variable(), aux(2));
        EXPECT_EQ(r.value(), op.truth(x, y)) << op.name << x << y;
        EXPECT_EQ(cs.get(std::string("op/") + op.result), op.truth(x, y) ? F::one() : F::zero());
        expect_row(cs, 2, std::string("op/") + op.constraint, op.a, op.b, op.c);
        EXPECT_TRUE(cs.is_satisfied()) << op.name;
        cs.set(std::string("op/") + op.result, op.truth(x, y) ? F::zero() : F::one());
        EXPECT_EQ(cs.first_unsatisfied(), std::string("op/") + op.constraint) << op.name << x << y;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Boolean
// ---------------------------------------------------------------------------------------------

struct Bits {
  TestCS cs;
  AllocatedBit a, b;
  Bits(bool x, bool y)
      : a(in(cs, "a", [&] { return AllocatedBit::alloc(cs, x); })),
        b(in(cs, "b", [&] { return AllocatedBit::alloc(cs, y); })) {}
};

TEST(Boolean, LcOfEachKind) {
  // boolean.rs:447-467: Constant(true) -> coeff*ONE, false -> 0, Is -> coeff*v, Not -> coeff*ONE - coeff*v.
  Bits s(true, false);
  const F k = num(7);
  expect_lc(Boolean::constant(true).lc(kOne, k), {{kOne, k}}, "true");
  expect_lc(Boolean::constant(false).lc(kOne, k), {}, "false");
  expect_lc(Boolean(s.a).lc(kOne, k), {{aux(0), k}}, "is");
  expect_lc(Boolean(s.a).not_().lc(kOne, k), {{kOne, k}, {aux(0), -k}}, "not");
  EXPECT_TRUE(Boolean(s.a).not_().not_().kind() == Boolean::Kind::kIs);
  EXPECT_FALSE(Boolean(s.a).not_().value());
  EXPECT_TRUE(Boolean(s.b).not_().value());
}

TEST(Boolean, ConstantsFoldWithoutRows) {
  Bits s(true, false);
  const Boolean a(s.a), t = Boolean::constant(true), f = Boolean::constant(false);
  // boolean.rs:480-481 and 498-502: xor/and with a constant allocate nothing.
  EXPECT_EQ(Boolean::xor_(s.cs, f, a).bit().variable(), aux(0));
  EXPECT_EQ(Boolean::xor_(s.cs, a, t).kind(), Boolean::Kind::kNot);
  EXPECT_TRUE(Boolean::and_(s.cs, a, f).is_constant(false));
  EXPECT_EQ(Boolean::and_(s.cs, t, a).kind(), Boolean::Kind::kIs);
  EXPECT_TRUE(Boolean::xor_(s.cs, t, t).is_constant(false));
  EXPECT_TRUE(Boolean::and_(s.cs, t, t).is_constant(true));
  EXPECT_EQ(s.cs.num_constraints(), 2u);
  EXPECT_EQ(s.cs.num_aux(), 2u);
  Boolean::enforce_equal(s.cs, t, t);
  EXPECT_EQ(s.cs.num_constraints(), 2u);
  EXPECT_THROW(Boolean::enforce_equal(s.cs, t, f), r1cs::SynthesisError);
}

// Which AllocatedBit op each Is/Not pairing becomes (boolean.rs:476-517), with its operand order.
TEST(Boolean, XorAndDispatch) {
  for (int x = 0; x < 2; ++x) {
    for (int y = 0; y < 2; ++y) {
      Bits s(x, y);
      const Boolean a(s.a), b(s.b), na = a.not_(), nb = b.not_();
      // (Not a, Is b): xor(b, a) negated -> row (b + b) * a = b + a - c.
      const Boolean r1 = in(s.cs, "x1", [&] { return Boolean::xor_(s.cs, na, b); });
      EXPECT_EQ(r1.kind(), Boolean::Kind::kNot);
      EXPECT_EQ(r1.value(), (!x) != y);
      expect_row(s.cs, 2, "x1/xor constraint", {{aux(1), num(2)}}, {{aux(0), num(1)}},
                 {{aux(0), num(1)}, {aux(1), num(1)}, {aux(2), num(-1)}});
      // (Not, Not): plain xor of the underlying bits, Is.
      const Boolean r2 = in(s.cs, "x2", [&] { return Boolean::xor_(s.cs, na, nb); });
      EXPECT_EQ(r2.kind(), Boolean::Kind::kIs);
      EXPECT_EQ(r2.value(), x != y);
      expect_row(s.cs, 3, "x2/xor constraint", {{aux(0), num(2)}}, {{aux(1), num(1)}},
                 {{aux(0), num(1)}, {aux(1), num(1)}, {aux(3), num(-1)}});
      // (Not a, Is b): and_not(b, a) -> b * (ONE - a) = c.
      const Boolean r3 = in(s.cs, "a1", [&] { return Boolean::and_(s.cs, na, b); });
      EXPECT_EQ(r3.value(), !x && y);
      expect_row(s.cs, 4, "a1/and not constraint", {{aux(1), num(1)}}, {{kOne, num(1)}, {aux(0), num(-1)}},
                 {{aux(4), num(1)}});
      // (Not, Not): nor.
      const Boolean r4 = in(s.cs, "a2", [&] { return Boolean::and_(s.cs, na, nb); });
      EXPECT_EQ(r4.value(), !x && !y);
      EXPECT_EQ(s.cs.constraints()[5].path, "a2/nor constraint");
      // or: the AND in its own namespace (boolean.rs:519-533).
      const Boolean r5 = in(s.cs, "o", [&] { return Boolean::or_(s.cs, a, b); });
      EXPECT_EQ(r5.value(), x || y);
      EXPECT_EQ(s.cs.constraints()[6].path, "o/not and (not a) (not b)/nor constraint");
      EXPECT_EQ(s.cs.num_aux(), 7u);
      EXPECT_TRUE(s.cs.is_satisfied());
    }
  }
}

TEST(Boolean, EnforceEqualRows) {
  // boolean.rs:383-425: 0 * 0 = C.
  Bits s(true, true);
  const Boolean a(s.a), b(s.b), t = Boolean::constant(true), f = Boolean::constant(false);
  in(s.cs, "e1", [&] { Boolean::enforce_equal(s.cs, a, t); });         // C = ONE - a
  in(s.cs, "e2", [&] { Boolean::enforce_equal(s.cs, t, a.not_()); });  // C = ONE - (ONE - a): zero kept
  in(s.cs, "e3", [&] { Boolean::enforce_equal(s.cs, b.not_(), f); });  // C = ONE - b
  in(s.cs, "e4", [&] { Boolean::enforce_equal(s.cs, a, b.not_()); });  // C = a - (ONE - b)
  expect_row(s.cs, 2, "e1/enforce equal to one", {}, {}, {{kOne, num(1)}, {aux(0), num(-1)}});
  expect_row(s.cs, 3, "e2/enforce equal to one", {}, {}, {{kOne, num(0)}, {aux(0), num(1)}});
  expect_row(s.cs, 4, "e3/enforce equal to zero", {}, {}, {{kOne, num(1)}, {aux(1), num(-1)}});
  expect_row(s.cs, 5, "e4/enforce equal", {}, {}, {{kOne, num(-1)}, {aux(0), num(1)}, {aux(1), num(1)}});
  // a = 1, b = 1: e1 holds, e2 (¬a = 1) fails first.
  EXPECT_EQ(s.cs.first_unsatisfied(), "e2/enforce equal to one");
}

TEST(Boolean, U64IntoBits) {
  TestCS cs;
  const uint64_t v = 0x8000'0000'dead'beefull;
  const std::vector<Boolean> bits = u64_into_boolean_vec_le(cs, v);
  ASSERT_EQ(bits.size(), 64u);
  EXPECT_EQ(cs.num_constraints(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(bits[i].value(), ((v >> i) & 1) != 0) << i;
  EXPECT_EQ(cs.constraints()[63].path, "bit 63/boolean constraint");
  EXPECT_TRUE(cs.is_satisfied());
}

// ---------------------------------------------------------------------------------------------
// AllocatedNum
// ---------------------------------------------------------------------------------------------

TEST(AllocatedNum, ArithmeticRows) {
  auto g = test::rng(11);
  const F x = test::random_element<F>(g), y = test::random_element<F>(g);
  TestCS cs;
  const auto a = in(cs, "a", [&] { return AllocatedNum<F>::alloc(cs, x); });         // num.rs:22-40
  const auto b = in(cs, "b", [&] { return AllocatedNum<F>::alloc_input(cs, y); });   // num.rs:52-70
  EXPECT_EQ(cs.get("a/num"), x);
  EXPECT_EQ(cs.get("b/input num"), y);
  EXPECT_EQ(b.variable(), input(1));
  const auto p = in(cs, "mul", [&] { return a.mul(cs, b); });        // num.rs:314-344
  const auto q = in(cs, "sq", [&] { return a.square(cs); });         // num.rs:346-375
  const auto s = in(cs, "add", [&] { return a.add(cs, b); });        // num.rs:282-312
  in(cs, "nz", [&] { a.assert_nonzero(cs); });                      // num.rs:377-405
  const Variable i = in(cs, "io", [&] { return a.inputize(cs); });  // num.rs:89-107
  EXPECT_EQ(p.value(), x * y);
  EXPECT_EQ(q.value(), x * x);
  EXPECT_EQ(s.value(), x + y);
  EXPECT_EQ(cs.get("nz/ephemeral inverse"), x.inverse());
  EXPECT_EQ(i, input(2));
  EXPECT_EQ(cs.num_aux(), 5u);
  EXPECT_EQ(cs.num_inputs(), 3u);
  ASSERT_EQ(cs.num_constraints(), 5u);
  expect_row(cs, 0, "mul/multiplication constraint", {{aux(0), num(1)}}, {{input(1), num(1)}}, {{aux(1), num(1)}});
  expect_row(cs, 1, "sq/squaring constraint", {{aux(0), num(1)}}, {{aux(0), num(1)}}, {{aux(2), num(1)}});
  expect_row(cs, 2, "add/addition constraint", {{input(1), num(1)}, {aux(0), num(1)}}, {{kOne, num(1)}},
             {{aux(3), num(1)}});
  expect_row(cs, 3, "nz/nonzero assertion constraint", {{aux(0), num(1)}}, {{aux(4), num(1)}}, {{kOne, num(1)}});
  expect_row(cs, 4, "io/enforce input is correct", {{input(2), num(1)}}, {{kOne, num(1)}}, {{aux(0), num(1)}});
  EXPECT_TRUE(cs.is_satisfied());
  for (const char* path : {"mul/product num", "sq/squared num", "add/sum num", "nz/ephemeral inverse", "io/input variable"}) {
    const F saved = cs.get(path);
    cs.set(path, saved + F::one());
    EXPECT_TRUE(cs.first_unsatisfied().has_value()) << path;
    cs.set(path, saved);
  }
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(AllocatedNum, AssertNonzeroOfZeroThrows) {
  TestCS cs;
  const auto z = AllocatedNum<F>::alloc(cs, F::zero());
  EXPECT_THROW(z.assert_nonzero(cs), r1cs::SynthesisError);
  r1cs::KeygenCS<F> keygen;  // keygen never asks the value: no throw
  AllocatedNum<F>::alloc(keygen, F::zero()).assert_nonzero(keygen);
  EXPECT_EQ(keygen.num_constraints(), 1u);
}

// equals: r = [a = b] for equal and unequal inputs; the soundness of each row: a prover who lies
// about r (either way) or about t is caught.
TEST(AllocatedNum, EqualsBitAndItsSoundness) {
  auto g = test::rng(13);
  const F x = test::random_element<F>(g), y = x + F::one();
  for (bool same : {true, false}) {
    SCOPED_TRACE(same);
    TestCS cs;
    const auto a = in(cs, "a", [&] { return AllocatedNum<F>::alloc(cs, x); });
    const auto b = in(cs, "b", [&] { return AllocatedNum<F>::alloc(cs, same ? x : y); });
    const AllocatedBit r = in(cs, "eq", [&] { return AllocatedNum<F>::equals(cs, a, b); });
    EXPECT_EQ(r.value(), same);
    EXPECT_EQ(cs.num_constraints(), 5u);  // r's boolean row + 4
    EXPECT_EQ(cs.num_aux(), 5u);          // a, b, r, delta_inv, t
    expect_row(cs, 1, "eq/t = (a - b) * delta_inv", {{aux(0), num(1)}, {aux(1), num(-1)}}, {{aux(3), num(1)}},
               {{aux(4), num(1)}});
    expect_row(cs, 4, "eq/(t - 1) * (r - 1) == 0", {{kOne, num(-1)}, {aux(4), num(1)}},
               {{kOne, num(-1)}, {aux(2), num(1)}}, {});
    EXPECT_EQ(cs.get("eq/t"), same ? F::zero() : F::one());
    ASSERT_TRUE(cs.is_satisfied());
    // Claiming the other answer breaks a row whatever t and delta_inv are chosen.
    cs.set("eq/r/boolean", same ? F::zero() : F::one());
    EXPECT_TRUE(cs.first_unsatisfied().has_value());
    if (!same) {  // t = 0 would let r = 1 pass the last row; the second row forbids it for a ≠ b
      cs.set("eq/t", F::zero());
      cs.set("eq/delta_inv", F::zero());
      EXPECT_EQ(cs.first_unsatisfied(), "eq/(a - b) * (t - 1) == 0");
    }
  }
}

TEST(AllocatedNum, ConditionallyReverseAndPick) {
  auto g = test::rng(12);
  const F x = test::random_element<F>(g), y = test::random_element<F>(g);
  for (int cond = 0; cond < 2; ++cond) {
    for (bool negated : {false, true}) {
      TestCS cs;
      const auto a = in(cs, "a", [&] { return AllocatedNum<F>::alloc(cs, x); });
      const auto b = in(cs, "b", [&] { return AllocatedNum<F>::alloc(cs, y); });
      const AllocatedBit bit = in(cs, "c", [&] { return AllocatedBit::alloc(cs, negated ? !cond : cond); });
      const Boolean c = negated ? Boolean(bit).not_() : Boolean(bit);
      ASSERT_EQ(c.value(), bool(cond));
      const auto [u, v] = in(cs, "rev", [&] { return AllocatedNum<F>::conditionally_reverse(cs, a, b, c); });
      EXPECT_EQ(u.value(), cond ? y : x);
      EXPECT_EQ(v.value(), cond ? x : y);
      const auto w = in(cs, "pick", [&] { return AllocatedNum<F>::pick(cs, c, a, b); });
      EXPECT_EQ(w.value(), cond ? x : y);
      const std::vector<T> cond_lc =
          negated ? std::vector<T>{{kOne, num(1)}, {aux(2), num(-1)}} : std::vector<T>{{aux(2), num(1)}};
      // num.rs:411-456
      expect_row(cs, 1, "rev/first conditional reversal", {{aux(0), num(1)}, {aux(1), num(-1)}}, cond_lc,
                 {{aux(0), num(1)}, {aux(3), num(-1)}});
      expect_row(cs, 2, "rev/second conditional reversal", {{aux(0), num(-1)}, {aux(1), num(1)}}, cond_lc,
                 {{aux(1), num(1)}, {aux(4), num(-1)}});
      // storage-proofs-core gadgets/insertion.rs pick: (b - a) * cond = b - c
      expect_row(cs, 3, "pick/pick", {{aux(0), num(-1)}, {aux(1), num(1)}}, cond_lc,
                 {{aux(1), num(1)}, {aux(5), num(-1)}});
      EXPECT_EQ(cs.get("rev/conditional reversal result 1/num"), u.value());
      EXPECT_EQ(cs.get("pick/pick result/num"), w.value());
      EXPECT_TRUE(cs.is_satisfied());
      cs.set("rev/conditional reversal result 2/num", x + y);
      EXPECT_EQ(cs.first_unsatisfied(), "rev/second conditional reversal");
    }
  }
}

// The integer value of LE bits must equal x (independent of the field arithmetic).
void expect_bits_of(const std::vector<Boolean>& bits, const F& x) {
  ASSERT_EQ(bits.size(), 255u);
  const F::Int v = x.to_int();
  for (size_t i = 0; i < 255; ++i) ASSERT_EQ(bits[i].value(), v.bit(i)) << i;
  EXPECT_FALSE(v.bit(255));
}

TEST(AllocatedNum, ToBitsLe) {
  auto g = test::rng(13);
  std::vector<F> values = {F::zero(), F::one(), -F::one()};
  for (int i = 0; i < 6; ++i) values.push_back(test::random_element<F>(g));
  for (const F& x : values) {
    TestCS cs;
    const auto a = in(cs, "x", [&] { return AllocatedNum<F>::alloc(cs, x); });
    const std::vector<Boolean> bits = in(cs, "bits", [&] { return a.to_bits_le(cs); });
    expect_bits_of(bits, x);
    // num.rs:257-280 + boolean.rs:327-366: 255 bits, then one unpacking row: 256 rows.
    EXPECT_EQ(cs.num_constraints(), 256u);
    EXPECT_EQ(cs.num_aux(), 256u);
    EXPECT_EQ(cs.constraints()[0].path, "bits/bit 0/boolean constraint");
    EXPECT_EQ(cs.get("bits/bit 254/boolean"), x.to_int().bit(254) ? F::one() : F::zero());
    std::vector<T> c{{aux(0), num(-1)}};
    F coeff = F::one();
    for (uint32_t i = 0; i < 255; ++i, coeff = coeff + coeff) c.push_back({aux(1 + i), coeff});
    expect_row(cs, 255, "bits/unpacking constraint", {}, {}, c);
    EXPECT_TRUE(cs.is_satisfied());
    cs.set("bits/bit 7/boolean", F::one() - cs.get("bits/bit 7/boolean"));
    EXPECT_EQ(cs.first_unsatisfied(), "bits/unpacking constraint");
  }
}

// Forwards to a backend and records the path of every variable (to corrupt each in turn).
template <class CS>
class Recorder {
 public:
  using Field = typename CS::Field;
  explicit Recorder(CS& cs) : cs_(cs) {}
  static constexpr Variable one() { return CS::one(); }
  template <class N, class V>
  Variable alloc(N&& name, V&& value) {
    std::string text = r1cs::name_text(std::forward<N>(name));
    paths.push_back(prefix() + text);
    aux_paths.push_back(paths.back());
    return cs_.alloc(text, std::forward<V>(value));
  }
  template <class N, class V>
  Variable alloc_input(N&& name, V&& value) {
    std::string text = r1cs::name_text(std::forward<N>(name));
    paths.push_back(prefix() + text);
    return cs_.alloc_input(text, std::forward<V>(value));
  }
  template <class N, class A, class B, class C>
  void enforce(N&& name, A&& a, B&& b, C&& c) {
    cs_.enforce(std::forward<N>(name), std::forward<A>(a), std::forward<B>(b), std::forward<C>(c));
  }
  template <class N>
  void push_namespace(N&& name) {
    std::string text = r1cs::name_text(std::forward<N>(name));
    stack_.push_back(text);
    cs_.push_namespace(text);
  }
  void pop_namespace() {
    stack_.pop_back();
    cs_.pop_namespace();
  }
  std::vector<std::string> paths;      // every variable, in allocation order
  std::vector<std::string> aux_paths;  // aux index -> path

 private:
  std::string prefix() const {
    std::string p;
    for (const std::string& s : stack_) p += s + "/";
    return p;
  }
  CS& cs_;
  std::vector<std::string> stack_;
};

// Set the bits of a to_bits_le(_strict) output to an integer encoding (LE), then recompute every
// "and result" of the strictness ANDs from its operands, as a cheating prover would.
void set_bits_and_recompute(TestCS& cs, const Recorder<TestCS>& rec, const std::vector<Boolean>& bits,
                            const F::Int& value) {
  for (size_t i = 0; i < bits.size(); ++i) {
    cs.set(rec.aux_paths[bits[i].bit().variable().index], value.bit(i) ? F::one() : F::zero());
  }
  const std::string suffix = "and constraint";
  for (const auto& row : cs.constraints()) {
    if (!row.path.ends_with(suffix)) continue;
    const F product = row.a.evaluate(cs.inputs(), cs.aux()) * row.b.evaluate(cs.inputs(), cs.aux());
    cs.set(rec.aux_paths[row.c.terms()[0].var.index], product);
  }
}

TEST(AllocatedNum, ToBitsLeStrict) {
  auto g = test::rng(14);
  std::vector<F> values = {F::zero(), F::one(), -F::one(), F::from_uint(7)};
  for (int i = 0; i < 4; ++i) values.push_back(test::random_element<F>(g));
  for (const F& x : values) {
    TestCS cs;
    const auto a = in(cs, "x", [&] { return AllocatedNum<F>::alloc(cs, x); });
    const std::vector<Boolean> bits = in(cs, "bits", [&] { return a.to_bits_le_strict(cs); });
    expect_bits_of(bits, x);
    // num.rs:109-255; 388 rows and 387 aux from the independent Python walk (see the digest test).
    EXPECT_EQ(cs.num_constraints(), 388u);
    EXPECT_EQ(cs.num_aux(), 1u + 387u);
    EXPECT_EQ(cs.constraints()[0].path, "bits/bit 0/boolean constraint");
    EXPECT_EQ(cs.constraints().back().path, "bits/unpacking constraint");
    EXPECT_TRUE(cs.is_satisfied());
  }
  // x + r < 2^255 for small x: the non-strict gadget accepts that encoding, the strict one not.
  const F x = F::from_uint(5);
  F::Int alias = F::kModulus;
  alias.limbs[0] += 5;
  {
    TestCS cs;
    Recorder<TestCS> rec(cs);
    const auto a = AllocatedNum<F>::alloc(rec, x);
    const std::vector<Boolean> bits = a.to_bits_le(rec);
    set_bits_and_recompute(cs, rec, bits, alias);
    EXPECT_TRUE(cs.is_satisfied());
  }
  {
    TestCS cs;
    Recorder<TestCS> rec(cs);
    const auto a = AllocatedNum<F>::alloc(rec, x);
    const std::vector<Boolean> bits = in(rec, "s", [&] { return a.to_bits_le_strict(rec); });
    set_bits_and_recompute(cs, rec, bits, alias);
    const auto bad = cs.first_unsatisfied();
    ASSERT_TRUE(bad.has_value());
    EXPECT_NE(*bad, "s/unpacking constraint");  // a conditional bit's row catches it
    EXPECT_TRUE(bad->ends_with("/boolean constraint")) << *bad;
  }
}

TEST(Num, AddBoolWithCoeffKeepsMergedZeros) {
  Bits s(true, false);
  const F k = num(3);
  // num.rs:478-497: lc + bit.lc(one, coeff). Is a, then Not a: 3a + 3·ONE − 3a, the zero kept.
  const Num<F> n = Num<F>().add_bool_with_coeff(kOne, Boolean(s.a), k).add_bool_with_coeff(kOne, Boolean(s.a).not_(), k);
  expect_lc(n.linear_combination(), {{kOne, k}, {aux(0), num(0)}}, "num");
  EXPECT_EQ(n.value(), k);
  expect_lc(n.lc(num(2)), {{kOne, num(6)}, {aux(0), num(0)}}, "lc(2)");
  const Num<F> m = Num<F>(AllocatedNum<F>(aux(1), F::zero())).add(n).scale(num(-1));
  expect_lc(m.linear_combination(), {{kOne, -k}, {aux(0), num(0)}, {aux(1), num(-1)}}, "add+scale");
}

// ---------------------------------------------------------------------------------------------
// multipack
// ---------------------------------------------------------------------------------------------

TEST(Multipack, BytesToBits) {
  const std::vector<uint8_t> bytes = {0x80, 0x01, 0xa5};
  const std::vector<bool> be = bytes_to_bits(bytes), le = bytes_to_bits_le(bytes);
  const std::vector<bool> want_be = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1};
  const std::vector<bool> want_le = {0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1};
  EXPECT_EQ(be, want_be);
  EXPECT_EQ(le, want_le);
}

// Native twin: chunk j of 254 bits as a BigInt built limb by limb, reduced by from_int.
F pack_native(const std::vector<bool>& bits, size_t start, size_t end) {
  F::Int v;
  for (size_t i = start; i < end; ++i) {
    if (bits[i]) v.limbs[(i - start) / 64] |= 1ull << ((i - start) % 64);
  }
  return F::from_int(v);
}

// UInt64 (storage-proofs-core uint64.rs): 64 boolean rows, bit order both ways, and the packed
// input equals the integer (a 64-bit value read with the wrong bit order or width would not).
TEST(UInt64, AllocBitsAndPackedInput) {
  auto g = test::rng(16);
  for (uint64_t v : {uint64_t(0), uint64_t(1), ~uint64_t(0), uint64_t(0x8000000000000001ull), uint64_t(g())}) {
    TestCS cs;
    const UInt64 w = in(cs, "c", [&] { return UInt64::alloc(cs, v); });
    EXPECT_EQ(w.value(), v);
    EXPECT_EQ(cs.num_constraints(), 64u);
    EXPECT_EQ(cs.get("c/allocated bit 63/boolean"), (v >> 63) ? F::one() : F::zero());
    const std::vector<Boolean> be = w.to_bits_be();
    EXPECT_EQ(be.front().value(), (v >> 63) != 0);
    EXPECT_EQ(UInt64::from_bits_be(be).value(), v);
    EXPECT_EQ(UInt64::from_bits(w.to_bits_le()).value(), v);
    const Variable input = in(cs, "pack", [&] { return w.pack_into_input(cs); });
    EXPECT_EQ(cs.inputs()[input.index], F::from_uint(v));
    EXPECT_EQ(cs.num_constraints(), 65u);
    EXPECT_TRUE(cs.is_satisfied());
  }
  EXPECT_EQ(UInt64::constant(0xdeadbeefcafef00dull).to_bits_le()[0].value(), true);
  EXPECT_THROW(UInt64::from_bits(std::vector<Boolean>(63, Boolean::constant(false))), r1cs::SynthesisError);
}

TEST(Multipack, PackIntoInputsMatchesNative) {
  auto g = test::rng(15);
  for (size_t n : {size_t(1), size_t(254), size_t(255), size_t(600)}) {
    std::vector<bool> raw(n);
    for (size_t i = 0; i < n; ++i) raw[i] = g() & 1;
    raw[n - 1] = true;  // the top bit of the last chunk counts
    const std::vector<F> packed = compute_multipacking<F>(raw);
    const size_t chunks = (n + 253) / 254;
    ASSERT_EQ(packed.size(), chunks);
    for (size_t j = 0; j < chunks; ++j) EXPECT_EQ(packed[j], pack_native(raw, 254 * j, std::min(n, 254 * (j + 1))));

    TestCS cs;
    std::vector<Boolean> bits;
    for (size_t i = 0; i < n; ++i) {
      r1cs::Namespace ns(cs, [i] { return "b" + std::to_string(i); });
      // Alternate Is and Not so that Not's ONE terms are exercised.
      if (i % 3 == 0) {
        bits.push_back(Boolean(AllocatedBit::alloc(cs, !raw[i])).not_());
      } else if (i % 3 == 1) {
        bits.push_back(AllocatedBit::alloc(cs, raw[i]));
      } else {
        bits.push_back(Boolean::constant(raw[i]));
      }
    }
    const size_t rows_before = cs.num_constraints();
    const std::vector<Variable> inputs = in(cs, "pack", [&] { return pack_into_inputs(cs, std::span<const Boolean>(bits)); });
    ASSERT_EQ(inputs.size(), chunks);
    EXPECT_EQ(cs.num_constraints() - rows_before, chunks);
    EXPECT_EQ(cs.num_inputs(), 1 + chunks);
    for (size_t j = 0; j < chunks; ++j) {
      EXPECT_EQ(cs.inputs()[1 + j], packed[j]);
      EXPECT_EQ(cs.get("pack/input " + std::to_string(j)), packed[j]);
      const auto& row = cs.constraints()[rows_before + j];
      EXPECT_EQ(row.path, "pack/packing constraint " + std::to_string(j));
      expect_lc(row.b, {{kOne, num(1)}}, "B");
      expect_lc(row.c, {{input(uint32_t(1 + j)), num(1)}}, "C");
    }
    EXPECT_TRUE(cs.is_satisfied());
    cs.set("pack/input 0", packed[0] + F::one());
    EXPECT_EQ(cs.first_unsatisfied(), "pack/packing constraint 0");
  }
}

TEST(Multipack, PackBitsTakesFirstCapacityBits) {
  TestCS cs;
  std::vector<Boolean> bits;
  std::vector<bool> raw;
  auto g = test::rng(16);
  for (int i = 0; i < 300; ++i) {
    raw.push_back(g() & 1);
    bits.push_back(Boolean::constant(raw.back()));
  }
  bits[0] = in(cs, "b", [&] { return AllocatedBit::alloc(cs, raw[0]); });
  const auto packed = in(cs, "pb", [&] { return pack_bits(cs, std::span<const Boolean>(bits)); });
  EXPECT_EQ(packed.value(), pack_native(raw, 0, 254));
  EXPECT_EQ(cs.get("pb/input/num"), packed.value());
  ASSERT_EQ(cs.num_constraints(), 2u);
  const auto& row = cs.constraints()[1];
  EXPECT_EQ(row.path, "pb/packing constraint");
  // A: constant bits fold into ONE, bit 0 is aux 0 (coeff 1).
  ASSERT_EQ(row.a.size(), 2u);
  EXPECT_EQ(row.a.terms()[1].var, aux(0));
  EXPECT_EQ(row.a.terms()[0].coeff, pack_native(raw, 1, 254) + pack_native(raw, 1, 254));
  expect_lc(row.c, {{aux(1), num(1)}}, "C");
  EXPECT_TRUE(cs.is_satisfied());
}

// ---------------------------------------------------------------------------------------------
// A composite circuit over every backend
// ---------------------------------------------------------------------------------------------

// Mirrors composite() of the Python snippet below, gadget for gadget.
template <r1cs::ConstraintSystem CS>
void composite(CS& cs, const F& x_value, const F& y_value) {
  const auto x = in(cs, "x", [&] { return AllocatedNum<F>::alloc(cs, x_value); });
  const std::vector<Boolean> bits = in(cs, "bits", [&] { return x.to_bits_le(cs); });
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2], &b3 = bits[3], t = Boolean::constant(true);
  const Boolean t1 = in(cs, "t1", [&] { return Boolean::xor_(cs, b0, b1); });
  const Boolean t2 = in(cs, "t2", [&] { return Boolean::xor_(cs, b2.not_(), b3); });
  in(cs, "t3", [&] { return Boolean::and_(cs, t1, t2); });
  const Boolean t4 = in(cs, "t4", [&] { return Boolean::and_(cs, b0.not_(), b1.not_()); });
  in(cs, "t5", [&] { return Boolean::and_(cs, b2, b3); });
  const Boolean t6 = in(cs, "t6", [&] { return Boolean::and_(cs, t, b1); });
  const Boolean t7 = in(cs, "t7", [&] { return Boolean::xor_(cs, t, t4); });
  in(cs, "e1", [&] { Boolean::enforce_equal(cs, t7, t4.not_()); });
  in(cs, "e2", [&] { Boolean::enforce_equal(cs, b1, t6); });
  const Boolean t8 = in(cs, "t8", [&] { return Boolean::and_(cs, b0, t4); });
  in(cs, "e3", [&] { Boolean::enforce_equal(cs, Boolean::constant(false), t8); });
  const Boolean o = in(cs, "or", [&] { return Boolean::or_(cs, b0, b0.not_()); });
  in(cs, "e4", [&] { Boolean::enforce_equal(cs, t, o); });
  const auto y = in(cs, "y", [&] { return AllocatedNum<F>::alloc(cs, y_value); });
  in(cs, "mul", [&] { return x.mul(cs, y); });
  in(cs, "square", [&] { return y.square(cs); });
  in(cs, "add", [&] { return x.add(cs, y); });
  in(cs, "nonzero", [&] { y.assert_nonzero(cs); });
  in(cs, "inputize", [&] { return x.inputize(cs); });
  in(cs, "reverse", [&] { return AllocatedNum<F>::conditionally_reverse(cs, x, y, t1); });
  in(cs, "pick", [&] { return AllocatedNum<F>::pick(cs, t2, x, y); });
  std::vector<Boolean> packed(bits);
  packed.insert(packed.end(), bits.begin(), bits.begin() + 40);
  packed.push_back(t);
  packed.push_back(b0.not_());
  packed.push_back(Boolean::constant(false));
  in(cs, "pack", [&] { return pack_into_inputs(cs, std::span<const Boolean>(packed)); });
  std::vector<Boolean> few(bits.begin(), bits.begin() + 10);
  few.push_back(b3.not_());
  in(cs, "pack_bits", [&] { return pack_bits(cs, std::span<const Boolean>(few)); });
  in(cs, "strict", [&] { return y.to_bits_le_strict(cs); });
}

const F kX = F::from_hex("1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef");

// The expected shape and digest come from shared/tools, run once (python3, from /work/shared/tools):
//   import porep_circuit_model as m, sha256_circuit_model as sha; P, ONE = m.P, m.ONE
//   def strict(cs, var):   # num.rs to_bits_le_strict, written from its description
//       x = cs.val(var); r1 = P - 1; res = []; run = []; last = None
//       def kand(v):
//           cur = v[0]
//           for w in v[1:]: cur = sha.bit_and(cs, cur, w)
//           return cur
//       for k in range(254, -1, -1):
//           a = (x >> k) & 1
//           if (r1 >> k) & 1: b = sha.bit_alloc(cs, a); run.append(b); res.append(b)
//           else:
//               if run:
//                   if last is not None: run.append(last)
//                   last = kand(run); run = []
//               b = cs.alloc(a); cs.enforce({ONE: 1, last: P - 1, b: P - 1}, {b: 1}, {}); res.append(b)
//       lc = {}; c = 1
//       for b in reversed(res): lc[b] = c; c = 2 * c % P
//       lc[var] = (lc.get(var, 0) - 1) % P; cs.enforce({}, {}, lc)
//   def composite(X, Y):
//       cs = m.CS(); x = cs.alloc(X); bits = m.to_bits_le(cs, x); b0, b1, b2, b3 = bits[:4]
//       t1 = sha.bool_xor(cs, b0, b1); t2 = sha.bool_xor(cs, sha.b_not(b2), b3)
//       t3 = sha.bool_and(cs, t1, t2); t4 = sha.bool_and(cs, sha.b_not(b0), sha.b_not(b1))
//       t5 = sha.bool_and(cs, b2, b3); t6 = sha.bool_and(cs, m.TRUE, b1); t7 = sha.bool_xor(cs, m.TRUE, t4)
//       cs.enforce({}, {}, m.lc_add(dict(sha.b_lc(t7)), sha.b_lc(sha.b_not(t4)), -1))
//       cs.enforce({}, {}, m.lc_add(dict(sha.b_lc(b1)), sha.b_lc(t6), -1))
//       t8 = sha.bool_and(cs, b0, t4); cs.enforce({}, {}, sha.b_lc(t8))
//       o = sha.b_not(sha.bool_and(cs, sha.b_not(b0), b0)); cs.enforce({}, {}, m.lc_add({ONE: 1}, sha.b_lc(o), -1))
//       y = cs.alloc(Y)
//       cs.enforce({x: 1}, {y: 1}, {cs.alloc(X * Y): 1}); cs.enforce({y: 1}, {y: 1}, {cs.alloc(Y * Y): 1})
//       cs.enforce({x: 1, y: 1}, {ONE: 1}, {cs.alloc(X + Y): 1})
//       cs.enforce({y: 1}, {cs.alloc(pow(Y, P - 2, P)): 1}, {ONE: 1}); m.inputize(cs, x)
//       sw = sha.b_val(cs, t1)
//       c = cs.alloc(Y if sw else X); cs.enforce({x: 1, y: P - 1}, sha.b_lc(t1), {x: 1, c: P - 1})
//       d = cs.alloc(X if sw else Y); cs.enforce({y: 1, x: P - 1}, sha.b_lc(t1), {y: 1, d: P - 1})
//       m.pick(cs, t2, x, y)
//       m.pack_into_inputs(cs, bits + bits[:40] + [m.TRUE, sha.b_not(b0), m.FALSE])
//       m.pack_bits(cs, bits[:10] + [sha.b_not(b3)]); strict(cs, y)
//       assert cs.nbad == 0; return cs
//   cs = composite(0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef % P, P - 12345)
//   print(cs.nrows, len(cs.aux), len(cs.inputs), cs.h.hexdigest())
// -> 666 659 4 62796405418d93ca0c59e9bcbe11dd806d40d6254149c0e1d52fd5086692b23b
// (the rows do not depend on the values; the Python strict() alone gives 388 rows, 387 aux.)
TEST(Composite, PinnedDigestAndEveryValueChecked) {
  TestCS cs;
  Recorder<TestCS> rec(cs);
  composite(rec, kX, -F::from_uint(12345));
  EXPECT_EQ(cs.num_constraints(), 666u);
  EXPECT_EQ(cs.num_aux(), 659u);
  EXPECT_EQ(cs.num_inputs(), 4u);
  EXPECT_EQ(cs.digest(), "62796405418d93ca0c59e9bcbe11dd806d40d6254149c0e1d52fd5086692b23b");
  EXPECT_TRUE(cs.is_satisfied());
  // Every witness value (aux and inputs) is pinned by some row.
  ASSERT_EQ(rec.paths.size(), 659u + 3u);
  for (const std::string& path : rec.paths) {
    const F saved = cs.get(path);
    cs.set(path, saved + F::one());
    EXPECT_TRUE(cs.first_unsatisfied().has_value()) << path;
    cs.set(path, saved);
  }
  // The digest is independent of values.
  auto g = test::rng(17);
  TestCS other;
  composite(other, test::random_element<F>(g), test::random_element<F>(g) + F::one());
  EXPECT_EQ(other.digest(), cs.digest());
  EXPECT_TRUE(other.is_satisfied());
}

TEST(Composite, BackendsAgree) {
  auto g = test::rng(18);
  const F x = test::random_element<F>(g), y = test::random_element<F>(g);
  ASSERT_FALSE(y.is_zero());
  TestCS test_cs;
  composite(test_cs, x, y);
  ASSERT_TRUE(test_cs.is_satisfied());
  r1cs::WitnessCS<F> witness;
  composite(witness, x, y);
  EXPECT_EQ(witness.inputs(), test_cs.inputs());
  EXPECT_EQ(witness.aux(), test_cs.aux());
  r1cs::ProvingCS<F> proving;
  composite(proving, x, y);
  EXPECT_EQ(proving.inputs(), test_cs.inputs());
  EXPECT_EQ(proving.aux(), test_cs.aux());
  ASSERT_EQ(proving.num_constraints(), test_cs.num_constraints());
  for (size_t i = 0; i < test_cs.num_constraints(); ++i) {
    const auto& row = test_cs.constraints()[i];
    ASSERT_EQ(proving.a()[i], row.a.evaluate(test_cs.inputs(), test_cs.aux())) << i;
    ASSERT_EQ(proving.b()[i], row.b.evaluate(test_cs.inputs(), test_cs.aux())) << i;
    ASSERT_EQ(proving.c()[i], row.c.evaluate(test_cs.inputs(), test_cs.aux())) << i;
  }
  r1cs::KeygenCS<F> keygen;
  composite(keygen, F::zero(), F::zero());  // values unread: even y = 0 synthesises
  EXPECT_EQ(keygen.num_constraints(), test_cs.num_constraints());
  EXPECT_EQ(keygen.num_aux(), test_cs.num_aux());
  EXPECT_EQ(keygen.num_inputs(), test_cs.num_inputs());
}

}  // namespace
}  // namespace cuzk::gadgets
