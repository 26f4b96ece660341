// The spread prover (groth16/spread_prover.hpp) over CPU provers of one key: calls in flight at
// once go to different backends, the proof is the one a single backend gives, a failing backend
// (an error or a throw, as a CUDA failure would) costs only a retry elsewhere and then rests, a
// call fails only when every backend has failed it, and an input's own fault is not retried.

#include "groth16/spread_prover.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <stdexcept>
#include <thread>

#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;
using namespace std::chrono_literals;

// A real backend, or one that fails every call (by an error or a throw); counts its calls; may
// hold each call at a latch until that many calls have arrived (to make calls overlap).
class TestBackend final : public ProverBackend {
 public:
  enum class Fails { no, error, throws };
  TestBackend(ProverBackend& real, Fails fails, std::string name, std::latch* together = nullptr)
      : real_(real), fails_(fails), name_(std::move(name)), together_(together) {}
  Expected<Proof> prove(const Assignment& w, const Blinding& b, ProverTimes* t) override { return run(w, b, t); }
  Expected<Proof> prove(const Witness& z, const Blinding& b, ProverTimes* t) override { return run(z, b, t); }
  std::string name() const override { return name_; }
  std::optional<CircuitSizes> circuit_sizes() const override { return real_.circuit_sizes(); }
  WitnessPool* witness_pool() override { return real_.witness_pool(); }
  bool reads_host_key() const override { return true; }
  std::atomic<int> calls{0};

 private:
  template <class Input>
  Expected<Proof> run(const Input& input, const Blinding& b, ProverTimes* t) {
    ++calls;
    if (together_ != nullptr) together_->arrive_and_wait();
    if (fails_ == Fails::error) return Error{ErrorCode::kInternal, "CUDA error: out of memory"};
    if (fails_ == Fails::throws) throw std::runtime_error("an illegal memory access was encountered");
    return real_.prove(input, b, t);
  }
  ProverBackend& real_;
  Fails fails_;
  std::string name_;
  std::latch* together_;
};

struct Keyed {
  ThreadPool pool{2};
  r1cs::CompiledR1cs<Fr> compiled = test::compile([](auto& cs) { test::random_r1cs(cs, 600, 41); });
  Parameters params = setup(compiled, ToxicWaste::from_seed(test::seed()), pool).value();
  CpuProver real{params, pool, &compiled};
  r1cs::WitnessCS<Fr> wcs;
  Keyed() { test::random_r1cs(wcs, 600, 41); }
  Witness z() const { return {wcs.inputs(), wcs.aux()}; }
};

TEST(SpreadProver, CallsInFlightGoToDifferentBackendsAndGiveTheSameProof) {
  Keyed k;
  std::latch together(2);  // each backend's call waits for the other's: both must be in flight at once
  TestBackend a(k.real, TestBackend::Fails::no, "gpu 0", &together), b(k.real, TestBackend::Fails::no, "gpu 1", &together);
  SpreadProver spread({&a, &b});
  EXPECT_EQ(spread.name(), "spread over gpu 0 + gpu 1");
  EXPECT_EQ(spread.witness_pool(), k.real.witness_pool());
  const Blinding blinding = Blinding::from_seed(test::seed() + 1);
  const Proof expected = k.real.prove(k.z(), blinding).value();
  Expected<Proof> p1 = Error{}, p2 = Error{};
  {
    std::jthread t1([&] { p1 = spread.prove(k.z(), blinding); });
    std::jthread t2([&] { p2 = spread.prove(k.z(), blinding); });
  }
  ASSERT_TRUE(p1.has_value() && p2.has_value());
  EXPECT_EQ(*p1, expected);
  EXPECT_EQ(*p2, expected);
  EXPECT_EQ(a.calls, 1);  // routed by calls in flight: not both to the first
  EXPECT_EQ(b.calls, 1);
  const auto counts = spread.counts();
  EXPECT_EQ(counts[0].proved, 1u);
  EXPECT_EQ(counts[1].proved, 1u);
}

TEST(SpreadProver, AFailingBackendCostsARetryThenRests) {
  for (const auto fails : {TestBackend::Fails::error, TestBackend::Fails::throws}) {
    Keyed k;
    TestBackend bad(k.real, fails, "gpu 0"), good(k.real, TestBackend::Fails::no, "gpu 1");
    SpreadProver spread({&bad, &good}, 1h);
    const Blinding blinding = Blinding::from_seed(test::seed() + 2);
    for (int i = 0; i < 3; ++i) {
      const Expected<Proof> p = spread.prove(k.z(), blinding);
      ASSERT_TRUE(p.has_value()) << p.error().message;
      EXPECT_TRUE(verify(PreparedVerifyingKey(k.params.vk), *p, std::span<const Fr>(k.wcs.inputs()).subspan(1)).value());
    }
    EXPECT_EQ(bad.calls, 1);  // tried first (fewest in flight, first of equals), then resting
    EXPECT_EQ(good.calls, 3);
    EXPECT_EQ(spread.counts()[0].failed, 1u);
    EXPECT_EQ(spread.counts()[1].proved, 3u);
  }
}

TEST(SpreadProver, FailsOnlyWhenEveryBackendHasFailedNamingEach) {
  Keyed k;
  TestBackend a(k.real, TestBackend::Fails::error, "gpu 0"), b(k.real, TestBackend::Fails::throws, "gpu 1");
  SpreadProver spread({&a, &b}, 1h);
  const Expected<Proof> p = spread.prove(k.z(), Blinding::from_seed(3));
  ASSERT_FALSE(p.has_value());
  EXPECT_NE(p.error().message.find("gpu 0: CUDA error: out of memory"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("gpu 1: an illegal memory access"), std::string::npos) << p.error().message;
  // Both rest now; still tried rather than refused (a resting backend beats none).
  EXPECT_FALSE(spread.prove(k.z(), Blinding::from_seed(3)).has_value());
  EXPECT_EQ(a.calls, 2);
  EXPECT_EQ(b.calls, 2);
}

TEST(SpreadProver, AnInputsOwnFaultIsNotRetried) {
  Keyed k;
  TestBackend a(k.real, TestBackend::Fails::no, "gpu 0"), b(k.real, TestBackend::Fails::no, "gpu 1");
  SpreadProver spread({&a, &b});
  const Witness z = k.z();
  const Expected<Proof> p = spread.prove(Witness{z.inputs, z.aux.first(z.aux.size() - 1)}, Blinding::from_seed(4));
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(a.calls + b.calls, 1);
  EXPECT_EQ(spread.counts()[0].failed + spread.counts()[1].failed, 0u);
}

}  // namespace
}  // namespace cuzk::groth16
