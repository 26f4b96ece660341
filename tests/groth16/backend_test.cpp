// The prover backends (groth16/backend.hpp) on the CPU: a witness of the compiled circuit gives
// the same proof as the ProvingCS assignment; choosing the backend (groth16/select_prover.hpp):
// CUZK_GPU's grammar, and "off" / "auto" on a machine without a GPU (CI) giving the CPU backend.

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "groth16/select_prover.hpp"
#include "r1cs/witness_cs.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// WitnessCS + the compiled circuit through CpuProver::prove(Witness) equals ProvingCS's assignment
// through prove(Assignment), for a random R1CS and a boolean-dominated circuit; wrong sizes and a
// backend without the circuit are errors that say so.
TEST(CpuProver, WitnessOfTheCompiledCircuitGivesTheSameProof) {
  ThreadPool pool(2);
  for (int which = 0; which < 2; ++which) {
    const auto circuit = [which](auto& cs) {
      if (which == 0) test::random_r1cs(cs, 3000, 21);
      else test::booleans(cs, 2000, 22);
    };
    const auto compiled = test::compile(circuit);
    const auto params = setup(compiled, ToxicWaste::from_seed(test::seed() + which), pool).value();
    const Assignment w = test::synthesize(circuit);
    r1cs::WitnessCS<Fr> wcs;
    circuit(wcs);
    const Witness z{wcs.inputs(), wcs.aux()};
    CpuProver with(params, pool, &compiled);
    const Blinding blinding = Blinding::from_seed(test::seed() + 7);
    ProverTimes times;
    const Proof p = with.prove(z, blinding, &times).value();
    EXPECT_EQ(p, with.prove(w, blinding).value()) << which;
    EXPECT_GT(times.spmv, 0.0);
    EXPECT_GE(times.total, times.spmv);
    EXPECT_TRUE(verify(PreparedVerifyingKey(params.vk), p, test::public_inputs(w)).value());

    const Witness short_z{z.inputs, z.aux.first(z.aux.size() - 1)};
    const auto e = with.prove(short_z, blinding);
    ASSERT_FALSE(e.has_value());
    EXPECT_NE(e.error().message.find("aux values, the circuit"), std::string::npos) << e.error().message;
    CpuProver without(params, pool);
    const auto none = without.prove(z, blinding);
    ASSERT_FALSE(none.has_value());
    EXPECT_NE(none.error().message.find("needs the compiled circuit"), std::string::npos);
  }
}

// A compiled circuit of another shape than the key's is refused when the backend is made.
TEST(CpuProver, CircuitOfAnotherShapeIsRefused) {
  ThreadPool pool(2);
  const auto params = setup(test::compile([](auto& cs) { test::random_r1cs(cs, 300, 31); }),
                            ToxicWaste::from_seed(test::seed()), pool)
                          .value();
  const auto other = test::compile([](auto& cs) { test::random_r1cs(cs, 200, 32); });
  try {
    CpuProver bad(params, pool, &other);
    FAIL() << "accepted a circuit of another shape";
  } catch (const Exception& e) {
    EXPECT_NE(e.error().message.find("the compiled circuit has"), std::string::npos) << e.error().message;
  }
  const auto e = make_prover(params, pool, GpuChoice{GpuChoice::Kind::off}, &other);  // an error, not a throw
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("the compiled circuit has"), std::string::npos) << e.error().message;
}

// The one GPU of a selection (core/gpu_selection.hpp), with its limit.
TEST(SelectProver, OneGpuOfASelection) {
  const GpuMemoryLimits limits{16 * (size_t{1} << 30), {{3, size_t{1} << 30}}};
  EXPECT_EQ(GpuChoice::of(parse_gpu_selection("off").value(), limits).value().kind, GpuChoice::Kind::off);
  const GpuChoice a = GpuChoice::of(parse_gpu_selection("auto").value(), limits).value();
  EXPECT_EQ(a.kind, GpuChoice::Kind::automatic);
  EXPECT_EQ(a.memory_limit, 16 * (size_t{1} << 30));  // GPU 0's
  const GpuChoice three = GpuChoice::of(parse_gpu_selection("3").value(), limits).value();
  EXPECT_EQ(three.kind, GpuChoice::Kind::device);
  EXPECT_EQ(three.ordinal, 3);
  EXPECT_EQ(three.memory_limit, size_t{1} << 30);
  const auto two = GpuChoice::of(parse_gpu_selection("0,1").value(), limits);
  ASSERT_FALSE(two.has_value());
  EXPECT_NE(two.error().message.find("proves on one GPU"), std::string::npos) << two.error().message;
}

TEST(SelectProver, OffIsTheCpuAndItsProofsVerify) {
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 200, 5); };
  const auto params = setup(test::compile(circuit), ToxicWaste::from_seed(test::seed()), pool).value();
  const Assignment w = test::synthesize(circuit);
  auto prover = make_prover(params, pool, GpuChoice{GpuChoice::Kind::off}).value();
  EXPECT_EQ(prover->name(), "cpu");
  const Blinding blinding = Blinding::from_seed(test::seed());
  const Proof p = prover->prove(w, blinding).value();
  EXPECT_EQ(p, prove(params, w, blinding, pool).value());
  EXPECT_TRUE(verify(PreparedVerifyingKey(params.vk), p, test::public_inputs(w)).value());
  if (!gpu_backend_built()) {  // without CUDA, auto is the CPU and a named GPU an error
    EXPECT_EQ(make_prover(params, pool, GpuChoice{}).value()->name(), "cpu");
    const auto e = make_prover(params, pool, GpuChoice{GpuChoice::Kind::device, 0});
    ASSERT_FALSE(e.has_value());
    EXPECT_NE(e.error().message.find("no CUDA"), std::string::npos);
  }
}

}  // namespace
}  // namespace cuzk::groth16
