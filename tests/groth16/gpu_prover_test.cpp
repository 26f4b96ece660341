// The GPU prover (groth16/gpu_prover.hpp) against the CPU prover: for the same r and s the proofs
// are byte-identical, and they verify, from the assignment and from a witness of the compiled
// circuit (a, b, c by the GPU SpMV). Circuits: the cubic, random R1CS of 2^12 and 2^15 rows
// (domain padding, many MSM windows), a boolean-dominated one (0/1 scalars: the MSMs' split
// path); one resident key serves several proofs. Label gpu: every test skips without a GPU.

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "gpu/device.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

#define CUZK_REQUIRE_GPU() \
  if (gpu::list_devices().empty()) GTEST_SKIP() << "no GPU visible"

using test::compile;
using test::public_inputs;
using test::synthesize;

template <class Circuit>
void same_as_cpu(Circuit&& circuit, uint64_t salt) {
  ThreadPool pool(2);
  const auto compiled = compile(circuit);
  const auto params = setup(compiled, ToxicWaste::from_seed(test::seed() + salt), pool).value();
  const Assignment w = synthesize(circuit);
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  const Witness z{wcs.inputs(), wcs.aux()};
  const PreparedVerifyingKey pvk(params.vk);
  GpuProver gpu_prover(params, gpu::Device(0), &compiled);
  EXPECT_GT(gpu_prover.resident_bytes(), 0u);
  for (uint64_t k = 0; k < 2; ++k) {  // the resident key serves proof after proof
    const Blinding blinding = Blinding::from_seed(test::seed() + salt + k);
    ProverTimes times;
    const Proof on_gpu = gpu_prover.prove(w, blinding, &times).value();
    const Proof on_cpu = prove(params, w, blinding, pool).value();
    EXPECT_EQ(on_gpu.to_bytes(), on_cpu.to_bytes()) << "salt " << salt << ", proof " << k;
    EXPECT_TRUE(verify(pvk, on_gpu, public_inputs(w)).value()) << "salt " << salt << ", proof " << k;
    EXPECT_GT(times.total, 0.0);
    ProverTimes from_witness;
    EXPECT_EQ(gpu_prover.prove(z, blinding, &from_witness).value().to_bytes(), on_cpu.to_bytes())
        << "witness, salt " << salt << ", proof " << k;
    EXPECT_GT(from_witness.spmv, 0.0);
  }
}

TEST(GpuProver, CubicSameProofAsCpu) {
  CUZK_REQUIRE_GPU();
  same_as_cpu([](auto& cs) { test::cubic(cs, Fr::from_uint(3)); }, 1);
}

// With a GPU visible, "auto" and "0" choose it; an ordinal past the last GPU is an error.
TEST(GpuProver, SelectedByAutoAndOrdinal) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::cubic(cs, Fr::from_uint(3)); };
  const auto params = setup(compile(circuit), ToxicWaste::from_seed(test::seed()), pool).value();
  EXPECT_EQ(make_prover(params, pool, GpuChoice{}).value()->name().rfind("gpu 0 (", 0), 0u);
  EXPECT_EQ(make_prover(params, pool, GpuChoice::parse("0").value()).value()->name().rfind("gpu 0 (", 0), 0u);
  const auto e = make_prover(params, pool, GpuChoice::parse("99").value());
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("GPU 99 is not visible"), std::string::npos) << e.error().message;
  EXPECT_EQ(make_prover(params, pool, GpuChoice::parse("off").value()).value()->name(), "cpu");
}

TEST(GpuProver, RandomR1csSameProofAsCpu) {
  CUZK_REQUIRE_GPU();
  same_as_cpu([](auto& cs) { test::random_r1cs(cs, 4096, 11); }, 2);  // 4096 rows + inputs: m = 8192
  same_as_cpu([](auto& cs) { test::random_r1cs(cs, 1 << 15, 13); }, 3);
}

TEST(GpuProver, BooleansSameProofAsCpu) {
  CUZK_REQUIRE_GPU();
  same_as_cpu([](auto& cs) { test::booleans(cs, 3000, 12); }, 4);
}

// A bad witness gives a proof that does not verify; an assignment of another circuit is an error
// naming the mismatch, and the prover goes on serving.
TEST(GpuProver, BadAssignmentsFailAndTheProverGoesOn) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 300, 7); };
  const auto params = setup(compile(circuit), ToxicWaste::from_seed(test::seed()), pool).value();
  const Assignment w = synthesize(circuit);
  const PreparedVerifyingKey pvk(params.vk);
  GpuProver prover(params, gpu::Device(0));
  Assignment bad = w;
  bad.aux[bad.aux.size() / 2] += Fr::one();
  bad.c[bad.c.size() / 3] += Fr::one();
  EXPECT_FALSE(verify(pvk, prover.prove(bad, Blinding::random()).value(), public_inputs(bad)).value());
  const Assignment other = synthesize([](auto& cs) { test::random_r1cs(cs, 200, 8); });
  const auto e = prover.prove(other, Blinding::random());
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("Groth16 prove"), std::string::npos) << e.error().message;
  const auto no_circuit = prover.prove(Witness{other.inputs, other.aux}, Blinding::random());
  ASSERT_FALSE(no_circuit.has_value());
  EXPECT_NE(no_circuit.error().message.find("needs the compiled circuit"), std::string::npos);
  const auto other_circuit = compile([](auto& cs) { test::random_r1cs(cs, 200, 8); });
  EXPECT_THROW(GpuProver(params, gpu::Device(0), &other_circuit), Exception);
  EXPECT_TRUE(verify(pvk, prover.prove(w, Blinding::random()).value(), public_inputs(w)).value());
}

}  // namespace
}  // namespace cuzk::groth16
