// Variables, linear combinations and the four ConstraintSystem backends on the test circuits of
// tests/support/circuits.hpp. The oracles: a naive map for LCs, TestCS's rows evaluated directly
// for ProvingCS, a direct scan of the rows for the densities, and an independent Python
// serialisation for the digest.

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "core/density_bitmap.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/random.hpp"

namespace cuzk::r1cs {
namespace {

using ff::Fr;
using LC = LinearCombination<Fr>;

static_assert(ConstraintSystem<WitnessCS<Fr>>);
static_assert(ConstraintSystem<ProvingCS<Fr>>);
static_assert(ConstraintSystem<KeygenCS<Fr>>);
static_assert(ConstraintSystem<TestCS<Fr>>);

TEST(Variable, InputsSortBeforeAux) {
  EXPECT_LT(Variable::input(7), Variable::aux(0));
  EXPECT_LT(Variable::aux(1), Variable::aux(2));
  EXPECT_LT(Variable::one(), Variable::input(1));
  EXPECT_EQ(Variable::one(), Variable::input(0));
  EXPECT_NE(Variable::input(3), Variable::aux(3));
}

TEST(LinearCombination, KeepsAMergedZero) {
  const Variable v = Variable::aux(4);
  const LC lc = LC() + v - v;
  ASSERT_EQ(lc.size(), 1u);
  EXPECT_TRUE(lc.terms()[0].coeff.is_zero());
  EXPECT_EQ(lc.terms()[0].var, v);
}

// Random sequences of every operator against a std::map<Variable, Fr> that adds coefficients
// (and keeps zeros); evaluate against a naive sum.
TEST(LinearCombination, MatchesANaiveMap) {
  auto g = test::rng(1);
  std::vector<Fr> inputs, aux;
  for (int i = 0; i < 6; ++i) inputs.push_back(test::random_element<Fr>(g));
  for (int i = 0; i < 10; ++i) aux.push_back(test::random_element<Fr>(g));
  auto random_var = [&] {
    return g() % 3 == 0 ? Variable::input(uint32_t(g() % inputs.size())) : Variable::aux(uint32_t(g() % aux.size()));
  };
  using Naive = std::map<Variable, Fr>;
  auto random_lc = [&](LC& lc, Naive& naive, int ops) {
    for (int k = 0; k < ops; ++k) {
      const Variable v = random_var();
      const Fr c = g() % 2 ? test::random_element<Fr>(g) : (g() % 2 ? Fr::one() : -Fr::one());
      switch (g() % 4) {
        case 0: lc = lc + v; naive[v] += Fr::one(); break;
        case 1: lc = lc - v; naive[v] -= Fr::one(); break;
        case 2: lc = lc + c * v; naive[v] += c; break;
        default: lc = lc - c * v; naive[v] -= c; break;
      }
    }
  };
  for (int trial = 0; trial < 300; ++trial) {
    LC x, y;
    Naive nx, ny;
    random_lc(x, nx, int(g() % 12));
    random_lc(y, ny, int(g() % 12));
    const Fr s = test::random_element<Fr>(g);
    LC z;
    Naive nz = nx;
    switch (trial % 3) {
      case 0: z = x + y; for (auto& [v, c] : ny) nz[v] += c; break;
      case 1: z = x - y; for (auto& [v, c] : ny) nz[v] -= c; break;
      default: z = x * s; for (auto& [v, c] : nz) c *= s; break;
    }
    ASSERT_EQ(z.size(), nz.size());
    size_t i = 0;
    Fr expected = Fr::zero();
    for (const auto& [v, c] : nz) {
      EXPECT_EQ(z.terms()[i].var, v);
      EXPECT_EQ(z.terms()[i].coeff, c);
      expected += c * (v.is_input() ? inputs[v.index] : aux[v.index]);
      ++i;
    }
    EXPECT_EQ(z.evaluate(inputs, aux), expected);
  }
}

// One synthesis of a test circuit in every backend.
struct Circuit {
  std::string name;
  std::function<void(TestCS<Fr>&)> test;
  std::function<void(ProvingCS<Fr>&)> proving;
  std::function<void(KeygenCS<Fr>&)> keygen;
  std::function<void(WitnessCS<Fr>&)> witness;
};

template <class Body>
Circuit make(std::string name, Body body) {
  return {std::move(name), body, body, body, body};
}

std::vector<Circuit> circuits() {
  const uint64_t seed = test::seed();
  const Fr x = Fr::from_uint(3 + seed % 1000);
  return {
      make("cubic", [x](auto& cs) { test::cubic(cs, x); }),
      make("random_r1cs", [seed](auto& cs) { test::random_r1cs(cs, 400, seed); }),
      make("booleans", [seed](auto& cs) { test::booleans(cs, 300, seed); }),
  };
}

TEST(Backends, AgreeOnCountsAndAssignment) {
  for (const Circuit& circuit : circuits()) {
    SCOPED_TRACE(circuit.name);
    TestCS<Fr> t;
    ProvingCS<Fr> p;
    KeygenCS<Fr> k;
    WitnessCS<Fr> w;
    circuit.test(t);
    circuit.proving(p);
    circuit.keygen(k);
    circuit.witness(w);
    EXPECT_EQ(p.num_constraints(), t.num_constraints());
    EXPECT_EQ(k.num_constraints(), t.num_constraints());
    EXPECT_EQ(p.inputs().size(), t.num_inputs());
    EXPECT_EQ(k.num_inputs(), t.num_inputs());
    EXPECT_EQ(w.inputs().size(), t.num_inputs());
    EXPECT_EQ(p.aux().size(), t.num_aux());
    EXPECT_EQ(k.num_aux(), t.num_aux());
    EXPECT_EQ(w.aux().size(), t.num_aux());
    EXPECT_EQ(w.inputs(), p.inputs());
    EXPECT_EQ(w.aux(), p.aux());
    EXPECT_EQ(t.inputs(), p.inputs());
    EXPECT_EQ(t.aux(), p.aux());
    EXPECT_EQ(w.inputs()[0], Fr::one());
    EXPECT_TRUE(t.is_satisfied()) << *t.first_unsatisfied();
  }
}

TEST(Backends, CubicShape) {
  TestCS<Fr> t;
  const Variable out = test::cubic(t, Fr::from_uint(3));
  EXPECT_EQ(t.num_constraints(), 3u);
  EXPECT_EQ(t.num_inputs(), 2u);
  EXPECT_EQ(t.num_aux(), 3u);
  EXPECT_EQ(out, Variable::input(1));
  EXPECT_EQ(t.inputs()[1], Fr::from_uint(35));  // 27 + 3 + 5
  EXPECT_TRUE(t.is_satisfied());
}

TEST(TestCS, FirstUnsatisfiedNamesTheCorruptedRow) {
  {
    TestCS<Fr> t;
    test::cubic(t, Fr::from_uint(3));
    t.set("x_sq", Fr::from_uint(10));
    EXPECT_EQ(t.first_unsatisfied(), "x_sq = x * x");
    EXPECT_FALSE(t.is_satisfied());
  }
  {
    TestCS<Fr> t;
    test::cubic(t, Fr::from_uint(3));
    t.set("out", Fr::from_uint(36));
    EXPECT_EQ(t.first_unsatisfied(), "out = x_cu + x + 5");
  }
  {
    TestCS<Fr> t;
    test::booleans(t, 20, 7);
    EXPECT_TRUE(t.is_satisfied());
    t.set("bit 13/boolean", Fr::from_uint(2));
    EXPECT_EQ(t.first_unsatisfied(), "bit 13/boolean constraint");
  }
  {
    TestCS<Fr> t;
    test::booleans(t, 20, 7);
    // Flip one bit: still boolean, so only the packing row breaks.
    t.set("bit 5/boolean", Fr::one() - t.get("bit 5/boolean"));
    EXPECT_EQ(t.first_unsatisfied(), "packing");
  }
  {
    TestCS<Fr> t;
    test::random_r1cs(t, 50, 11);
    t.set("w 17", t.get("w 17") + Fr::one());
    EXPECT_EQ(t.first_unsatisfied(), "row 17");
  }
}

TEST(TestCS, RejectsDuplicateNamesAsBellpepperDoes) {
  const auto value = [] { return Fr::one(); };
  const auto id = [](LC lc) { return lc; };
  {
    TestCS<Fr> t;
    t.alloc("a", value);
    EXPECT_THROW(t.alloc("a", value), SynthesisError);
    EXPECT_THROW(t.alloc_input("a", value), SynthesisError);
    EXPECT_THROW(t.enforce("a", id, id, id), SynthesisError);
    EXPECT_THROW(t.alloc("ONE", value), SynthesisError);
  }
  {
    TestCS<Fr> t;
    t.enforce("row", id, id, id);
    EXPECT_THROW(t.enforce("row", id, id, id), SynthesisError);
    { Namespace ns(t, "ns"); t.enforce("row", id, id, id); }  // "ns/row" is new
    EXPECT_THROW(Namespace(t, "ns"), SynthesisError);          // the namespace path exists
    EXPECT_THROW(t.alloc("a/b", value), SynthesisError);       // '/' is the separator
    EXPECT_EQ(t.constraints()[1].path, "ns/row");
    EXPECT_EQ(t.num_constraints(), 2u);
  }
  {
    TestCS<Fr> t;
    Namespace outer(t, [] { return std::string("outer"); });
    Namespace inner(t, "inner");
    t.enforce([] { return std::string("deep"); }, id, id, id);
    EXPECT_EQ(t.constraints()[0].path, "outer/inner/deep");
  }
}

TEST(Backends, WitnessSkipsLinearCombinationsAndKeygenSkipsValues) {
  WitnessCS<Fr> w;
  const auto boom = [](LC) -> LC { throw std::logic_error("called"); };
  w.enforce("row", boom, boom, boom);
  KeygenCS<Fr> k;
  k.alloc("x", []() -> Fr { throw std::logic_error("keygen called value()"); });
  EXPECT_EQ(k.num_aux(), 1u);
}

// Each ProvingCS row is a·b = c and equals TestCS's LCs evaluated on TestCS's assignment; the
// densities equal a direct scan of TestCS's rows for nonzero coefficients.
TEST(ProvingCS, RowsAndDensityMatchTestCS) {
  for (const Circuit& circuit : circuits()) {
    SCOPED_TRACE(circuit.name);
    TestCS<Fr> t;
    ProvingCS<Fr> p;
    circuit.test(t);
    circuit.proving(p);
    DensityBitmap a_aux(t.num_aux()), b_input(t.num_inputs()), b_aux(t.num_aux());
    size_t merged_zeros = 0;
    for (size_t r = 0; r < t.num_constraints(); ++r) {
      const auto& row = t.constraints()[r];
      EXPECT_EQ(p.a()[r], row.a.evaluate(t.inputs(), t.aux()));
      EXPECT_EQ(p.b()[r], row.b.evaluate(t.inputs(), t.aux()));
      EXPECT_EQ(p.c()[r], row.c.evaluate(t.inputs(), t.aux()));
      EXPECT_EQ(p.a()[r] * p.b()[r], p.c()[r]) << "row " << r;
      for (const auto& term : row.a.terms()) {
        if (term.coeff.is_zero()) ++merged_zeros;
        else if (!term.var.is_input()) a_aux.set(term.var.index);
      }
      for (const auto& term : row.b.terms()) {
        if (term.coeff.is_zero()) ++merged_zeros;
        else (term.var.is_input() ? b_input : b_aux).set(term.var.index);
      }
    }
    EXPECT_EQ(p.a_aux_density(), a_aux);
    EXPECT_EQ(p.b_input_density(), b_input);
    EXPECT_EQ(p.b_aux_density(), b_aux);
    EXPECT_EQ(p.a_aux_density().count(), a_aux.count());
    if (circuit.name == "random_r1cs") {
      EXPECT_GT(merged_zeros, 0u) << "the circuit should exercise merged zeros";
      EXPECT_LT(p.b_aux_density().count(), t.num_aux()) << "some aux should be sparse in B";
    }
    if (circuit.name == "booleans") {
      // Every bit is in A and B; ONE is in B, the packed input is not.
      EXPECT_EQ(p.a_aux_density().count(), t.num_aux());
      EXPECT_TRUE(p.b_input_density().test(0));
      EXPECT_FALSE(p.b_input_density().test(1));
    }
  }
}

// The row fingerprint of the cubic circuit, computed independently in Python (Python 3, standard
// library only, the serialisation of shared/tools/porep_circuit_model.py written out again):
//
//   import hashlib, struct
//   def ser(lc):  # lc: [(kind, index, coeff)] in canonical order (inputs, then aux, by index)
//       return struct.pack("<I", len(lc)) + b"".join(
//           struct.pack("<BI", k, i) + c.to_bytes(32, "little") for k, i, c in lc)
//   rows = [([(1, 0, 1)], [(1, 0, 1)], [(1, 1, 1)]),                          # x * x = x_sq
//           ([(1, 1, 1)], [(1, 0, 1)], [(1, 2, 1)]),                          # x_sq * x = x_cu
//           ([(0, 0, 5), (1, 0, 1), (1, 2, 1)], [(0, 0, 1)], [(0, 1, 1)])]    # (x_cu+x+5)*1 = out
//   print(hashlib.sha256(b"".join(ser(a) + ser(b) + ser(c) for a, b, c in rows)).hexdigest())
//
// The model's own ser_lc (keys Aux j -> j, Input i -> -1-i) gives the same hex.
TEST(TestCS, CubicDigestMatchesThePythonModel) {
  TestCS<Fr> t;
  test::cubic(t, Fr::from_uint(3));
  EXPECT_EQ(t.digest(), "df2f24e8669b803e9b7da639afa4fbdaf3039b46093020bc6fd72c074b5b43b9");
  TestCS<Fr> other_witness;
  test::cubic(other_witness, Fr::from_uint(1234567));
  EXPECT_EQ(other_witness.digest(), t.digest()) << "the digest is of the shape, not the values";
}

TEST(TestCS, DigestIsStableAndSeesOneCoefficient) {
  auto circuit = [](TestCS<Fr>& cs, uint64_t constant) {
    test::random_r1cs(cs, 100, 5);
    const Variable x = cs.alloc("x", [] { return Fr::from_uint(2); });
    const Variable y = cs.alloc("y", [&] { return Fr::from_uint(2 + constant); });
    cs.enforce("last", [&](LC lc) { return lc + x + Fr::from_uint(constant) * TestCS<Fr>::one(); },
               [](LC lc) { return lc + TestCS<Fr>::one(); }, [&](LC lc) { return lc + y; });
  };
  TestCS<Fr> a, b, c;
  circuit(a, 5);
  circuit(b, 5);
  circuit(c, 6);
  EXPECT_TRUE(a.is_satisfied());
  EXPECT_TRUE(c.is_satisfied());
  EXPECT_EQ(a.digest(), b.digest());
  EXPECT_EQ(a.digest(), a.digest());
  EXPECT_NE(a.digest(), c.digest());
  EXPECT_EQ(a.digest().size(), 64u);
}

}  // namespace
}  // namespace cuzk::r1cs
