// The GPU prover (groth16/gpu_prover.hpp) against the CPU prover: for the same r and s the proofs
// are byte-identical, and they verify, from the assignment and from a witness of the compiled
// circuit (a, b, c by the GPU SpMV). Circuits: the cubic, random R1CS of 2^12 and 2^15 rows
// (domain padding, many MSM windows), a boolean-dominated one (0/1 scalars: the MSMs' split
// path); one resident key serves several proofs. Label gpu: every test skips without a GPU.

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "groth16/device_key.hpp"
#include "groth16/gpu_prover.hpp"
#include "groth16/prover.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/stream.hpp"
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
  // Streamed (the small-card path): the key and circuit stay on the host, a, b, c by the CPU's
  // SpMV, the bases streamed through the MSMs: the same proofs.
  GpuProverOptions streamed_options;
  streamed_options.placement = GpuPlacement::streamed;
  streamed_options.pool = &pool;
  GpuProver streamed(params, gpu::Device(0), &compiled, streamed_options);
  EXPECT_EQ(streamed.placement(), GpuPlacement::streamed);
  EXPECT_TRUE(streamed.reads_host_key());
  EXPECT_FALSE(gpu_prover.reads_host_key());
  const Blinding blinding = Blinding::from_seed(test::seed() + salt + 7);
  const auto want = prove(params, w, blinding, pool).value().to_bytes();
  EXPECT_EQ(streamed.prove(w, blinding).value().to_bytes(), want) << "streamed, salt " << salt;
  EXPECT_EQ(streamed.prove(z, blinding).value().to_bytes(), want) << "streamed witness, salt " << salt;
  // One stream (b_g2 after the G1 MSMs; the resident default above runs it beside them): the same
  // proofs.
  GpuProverOptions one_stream;
  one_stream.msm_streams = MsmStreams::one;
  GpuProver sequential(params, gpu::Device(0), &compiled, one_stream);
  EXPECT_EQ(sequential.placement(), GpuPlacement::resident);
  EXPECT_EQ(sequential.prove(w, blinding).value().to_bytes(), want) << "one stream, salt " << salt;
  EXPECT_EQ(sequential.prove(z, blinding).value().to_bytes(), want) << "one stream witness, salt " << salt;
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
  EXPECT_EQ(make_prover(params, pool, GpuChoice{GpuChoice::Kind::device, 0}).value()->name().rfind("gpu 0 (", 0), 0u);
  const auto e = make_prover(params, pool, GpuChoice{GpuChoice::Kind::device, 99});
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("GPU 99 is not visible"), std::string::npos) << e.error().message;
  EXPECT_EQ(make_prover(params, pool, GpuChoice{GpuChoice::Kind::off}).value()->name(), "cpu");
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

// The memory limit picks the placement: room for everything -> resident (its device bytes as
// estimated), with the NTT's full table where there is room for that too; less -> streamed, within the limit; less than a streamed proof needs -> an error
// naming both sizes.
TEST(GpuProver, MemoryLimitChoosesThePlacement) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 1 << 15, 29); };
  const auto compiled = compile(circuit);
  const auto params = setup(compiled, ToxicWaste::from_seed(test::seed() + 30), pool).value();
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  const Witness z{wcs.inputs(), wcs.aux()};
  const auto needs = GpuMemoryNeeds::estimate(ParameterSizes::of(params),
                                              CircuitSizes{compiled.num_inputs, compiled.num_aux},
                                              circuit_device_bytes(compiled));
  ASSERT_LT(needs.streamed_proof, needs.resident_compact());
  ASSERT_LT(needs.resident_compact(), needs.resident());
  const Blinding blinding = Blinding::from_seed(test::seed() + 31);
  const auto want = prove(params, synthesize(circuit), blinding, pool).value().to_bytes();
  const gpu::Device device(0);
  {
    GpuProver resident(params, device, &compiled, GpuProverOptions{needs.resident(), std::nullopt, &pool});
    EXPECT_EQ(resident.placement(), GpuPlacement::resident);
    const double estimated = double(needs.key + needs.circuit), held = double(resident.resident_bytes());
    EXPECT_NEAR(held / estimated, 1.0, 0.02) << "held " << held << ", estimated " << estimated;
    EXPECT_EQ(resident.ntt_roots(), gpu::NttRoots::two_level);  // no room for the full table
    EXPECT_EQ(resident.prove(z, blinding).value().to_bytes(), want);
  }
  {  // room for the NTT's full ω^e table too (docs/PERF.md 49): resident with it, the same proof
    ASSERT_GT(needs.full_roots, 0u);
    GpuProver full(params, device, &compiled, GpuProverOptions{needs.resident() + needs.full_roots, std::nullopt, &pool});
    EXPECT_EQ(full.placement(), GpuPlacement::resident);
    EXPECT_EQ(full.ntt_roots(), gpu::NttRoots::full);
    EXPECT_EQ(full.prove(z, blinding).value().to_bytes(), want);
  }
  device.reset_pool_peak();
  {  // the stages' buffers in turn: the same proofs, again and again (the workspaces made anew)
    const size_t limit = needs.resident_compact();
    GpuProver compact(params, device, &compiled, GpuProverOptions{limit, std::nullopt, &pool});
    EXPECT_EQ(compact.placement(), GpuPlacement::resident_compact);
    EXPECT_NE(compact.name().find("compact"), std::string::npos) << compact.name();
    for (int i = 0; i < 2; ++i) EXPECT_EQ(compact.prove(z, blinding).value().to_bytes(), want) << i;
    EXPECT_LE(*compact.device_peak_bytes(), limit);
  }
  device.reset_pool_peak();
  {
    const size_t limit = needs.resident_compact() - 1;
    GpuProver streamed(params, device, &compiled, GpuProverOptions{limit, std::nullopt, &pool});
    EXPECT_EQ(streamed.placement(), GpuPlacement::streamed);
    EXPECT_NE(streamed.name().find("streamed"), std::string::npos) << streamed.name();
    EXPECT_EQ(streamed.prove(z, blinding).value().to_bytes(), want);
    EXPECT_LE(*streamed.device_peak_bytes(), limit);
  }
  try {
    GpuProver too_small(params, device, &compiled, GpuProverOptions{needs.streamed_proof - 1, std::nullopt, &pool});
    ADD_FAILURE() << "a limit below a streamed proof's needs was accepted";
  } catch (const Exception& e) {
    EXPECT_NE(e.error().message.find("too little"), std::string::npos) << e.error().message;
  }
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

// Concurrent callers: four threads prove from the witness on one prover at once (uploads overlap
// proofs, at most two witnesses on the device); each proof equals the CPU's for its blinding.
TEST(GpuProver, ConcurrentCallersGetTheirOwnProofs) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 1 << 13, 23); };
  const auto compiled = compile(circuit);
  const auto params = setup(compiled, ToxicWaste::from_seed(test::seed() + 10), pool).value();
  const Assignment w = synthesize(circuit);
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  GpuProver prover(params, gpu::Device(0), &compiled);
  constexpr int kCallers = 4;
  std::vector<std::vector<uint8_t>> got(kCallers);
  std::vector<std::thread> callers;
  for (int i = 0; i < kCallers; ++i) {
    callers.emplace_back([&, i] {
      const auto p = prover.prove(Witness{wcs.inputs(), wcs.aux()}, Blinding::from_seed(test::seed() + 100 + i));
      if (p) {
        const auto bytes = p->to_bytes();
        got[i].assign(bytes.begin(), bytes.end());
      }
    });
  }
  for (auto& t : callers) t.join();
  for (int i = 0; i < kCallers; ++i) {
    const auto want = prove(params, w, Blinding::from_seed(test::seed() + 100 + i), pool).value().to_bytes();
    EXPECT_EQ(got[i], std::vector<uint8_t>(want.begin(), want.end())) << "caller " << i;
  }
}

// Provers of one circuit proving at the same time, three proofs each from their own threads
// (blinding seeds seed() + salt + i, i numbering all the proofs): each equals the CPU prover's
// bytes for its seed.
template <class Circuit>
void expect_concurrent_proofs_are_cpus(const std::vector<GpuProver*>& provers, Circuit&& circuit,
                                       const Parameters& params, const Witness& z, uint64_t salt, ThreadPool& pool) {
  constexpr size_t kRounds = 3;
  std::vector<std::vector<uint8_t>> got(provers.size() * kRounds);
  std::vector<std::thread> threads;
  for (size_t p = 0; p < provers.size(); ++p) {
    threads.emplace_back([&, p] {
      for (size_t i = p * kRounds; i < (p + 1) * kRounds; ++i) {
        const auto proof = provers[p]->prove(z, Blinding::from_seed(test::seed() + salt + i));
        if (proof) {
          const auto bytes = proof->to_bytes();
          got[i].assign(bytes.begin(), bytes.end());
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const Assignment w = synthesize(circuit);
  for (size_t i = 0; i < got.size(); ++i) {
    const auto want = prove(params, w, Blinding::from_seed(test::seed() + salt + i), pool).value().to_bytes();
    EXPECT_EQ(got[i], std::vector<uint8_t>(want.begin(), want.end())) << "proof " << i;
  }
}

// The express lane's prover: streams of high priority, proving while a normal-priority prover of
// the same device proves (each its own proofs, the CPU's bytes); a key already on the device goes
// resident or resident_compact, never streamed.
TEST(GpuProver, HighPriorityBesideNormalGivesTheSameProofs) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 1 << 14, 41); };
  const auto compiled = compile(circuit);
  const ToxicWaste tw = ToxicWaste::from_seed(test::seed() + 40);
  const auto params = setup(compiled, tw, pool).value();
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  const Witness z{wcs.inputs(), wcs.aux()};
  GpuProverOptions high;
  high.priority = GpuPriority::high;
  GpuProver normal_prover(params, gpu::Device(0), &compiled);
  GpuProver high_prover(params, gpu::Device(0), &compiled, high);
  GpuProverOptions compact;
  compact.placement = GpuPlacement::resident_compact;
  compact.priority = GpuPriority::high;
  GpuProver from_key(DeviceKey::generate(compiled, tw, pool, gpu::Device(0)).value(), &compiled, compact);
  EXPECT_EQ(from_key.placement(), GpuPlacement::resident_compact);
  GpuProverOptions streamed;
  streamed.placement = GpuPlacement::streamed;
  EXPECT_THROW(GpuProver(DeviceKey::generate(compiled, tw, pool, gpu::Device(0)).value(), &compiled, streamed), Exception);
  expect_concurrent_proofs_are_cpus({&normal_prover, &high_prover, &from_key}, circuit, params, z, 200, pool);
}

// Provers of one card sharing a GpuShare (groth16/gpu_share.hpp): the second plans beside the
// first (under a limit that fits one resident prover and a second's witnesses, it is streamed,
// where alone it would be resident), an express prover joins without turns, and proofs from all
// three at once equal the CPU's bytes.
TEST(GpuProver, ProversSharingACardPlanAndTakeTurns) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 1 << 14, 43); };
  const auto compiled = compile(circuit);
  const ToxicWaste tw = ToxicWaste::from_seed(test::seed() + 60);
  const auto params = setup(compiled, tw, pool).value();
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  const Witness z{wcs.inputs(), wcs.aux()};
  const auto needs = GpuMemoryNeeds::estimate(ParameterSizes::of(params), CircuitSizes{z.inputs.size(), z.aux.size()},
                                              circuit_device_bytes(compiled));
  GpuProverOptions shared;
  // Room for one resident prover with the NTT's full table (docs/PERF.md 49) and one more witness.
  shared.memory_limit = needs.resident() + needs.witnesses + needs.full_roots;
  shared.share = std::make_shared<GpuShare>(shared.memory_limit);  // the two turns do not fit at once
  shared.pool = &pool;
  GpuProver first(params, gpu::Device(0), &compiled, shared);
  EXPECT_EQ(first.placement(), GpuPlacement::resident);
  EXPECT_EQ(first.ntt_roots(), gpu::NttRoots::full);
  EXPECT_EQ(shared.share->others().largest_turn, needs.turn(GpuPlacement::resident));
  GpuProver second(params, gpu::Device(0), &compiled, shared);  // what is left: a streamed prover's
  EXPECT_EQ(second.placement(), GpuPlacement::streamed);
  EXPECT_EQ(second.ntt_roots(), gpu::NttRoots::two_level);
  const size_t turns = std::max(needs.turn(GpuPlacement::resident), needs.turn(GpuPlacement::streamed));
  EXPECT_EQ(shared.share->others().largest_turn, turns);
  GpuProverOptions alone = shared;
  alone.share = nullptr;
  EXPECT_EQ(GpuProver(params, gpu::Device(0), &compiled, alone).placement(), GpuPlacement::resident);
  GpuProverOptions express = shared;
  express.memory_limit = 0;
  express.priority = GpuPriority::high;
  GpuProver third(params, gpu::Device(0), &compiled, express);
  EXPECT_EQ(shared.share->others().largest_turn, turns);  // the express one takes none
  expect_concurrent_proofs_are_cpus({&first, &second, &third}, circuit, params, z, 300, pool);
}

// Freed device memory stays with the process once a prover has asked for it (the pool keeps it
// mapped), and the status reports count it as free for cuzk: visible_gpus's free memory is the
// card's free memory and what the pool keeps.
TEST(GpuProver, FreeMemoryCountsWhatThePoolKeeps) {
  CUZK_REQUIRE_GPU();
  const gpu::Device device(0);
  const gpu::ScopedDevice on(device);
  device.retain_pool_memory();
  constexpr size_t kGiB = size_t{1} << 30;
  {
    gpu::Stream stream;
    gpu::DeviceBuffer<uint8_t> buffer(kGiB, stream);
    buffer.zero(stream);  // touched, so that it is mapped
    stream.synchronize();
  }  // freed into the pool, kept
  EXPECT_GE(device.pool_reserved_bytes(), kGiB);
  const size_t card_free = device.info().free_bytes;
  const std::vector<GpuInfo> gpus = visible_gpus();
  ASSERT_FALSE(gpus.empty());
  EXPECT_GE(gpus[0].free_bytes, card_free + kGiB);
  EXPECT_LE(gpus[0].free_bytes, gpus[0].total_bytes);
}

// A key generated on the GPU (DeviceKey::generate: exponents on the CPU, every point by the GPU's
// fixed-base multiplication) is setup()'s key, point for point, for the same toxic waste; a
// prover on it (the key never on the host) gives the CPU's proof bytes. setup_on() with a GPU
// gives the same key too.
template <class Circuit>
void generated_key_same_as_cpu(Circuit&& circuit, uint64_t salt) {
  ThreadPool pool(2);
  const auto compiled = compile(circuit);
  const ToxicWaste tw = ToxicWaste::from_seed(test::seed() + salt);
  const Parameters cpu = setup(compiled, tw, pool).value();
  DeviceKey::GenerateTimes times;
  DeviceKey key = DeviceKey::generate(compiled, tw, pool, gpu::Device(0), &times).value();
  EXPECT_GT(key.bytes(), 0u);
  EXPECT_GT(times.fixed_base_ms, 0.0);
  const Parameters down = key.download();
  EXPECT_EQ(down.vk, cpu.vk) << "salt " << salt;
  EXPECT_EQ(down.h, cpu.h) << "salt " << salt;
  EXPECT_EQ(down.l, cpu.l) << "salt " << salt;
  EXPECT_EQ(down.a, cpu.a) << "salt " << salt;
  EXPECT_EQ(down.b_g1, cpu.b_g1) << "salt " << salt;
  EXPECT_EQ(down.b_g2, cpu.b_g2) << "salt " << salt;
  EXPECT_TRUE(setup_on(GpuChoice{}, compiled, tw, pool).value() == cpu) << "salt " << salt;

  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  GpuProver prover(std::move(key), &compiled);
  const Blinding blinding = Blinding::from_seed(test::seed() + salt);
  const Proof on_gpu = prover.prove(Witness{wcs.inputs(), wcs.aux()}, blinding).value();
  EXPECT_EQ(on_gpu.to_bytes(), prove(cpu, synthesize(circuit), blinding, pool).value().to_bytes()) << "salt " << salt;
}

TEST(GpuDeviceKey, GeneratedKeyIsSetupsKey) {
  CUZK_REQUIRE_GPU();
  generated_key_same_as_cpu([](auto& cs) { test::cubic(cs, Fr::from_uint(3)); }, 5);
  generated_key_same_as_cpu([](auto& cs) { test::random_r1cs(cs, 3000, 17); }, 6);
  generated_key_same_as_cpu([](auto& cs) { test::booleans(cs, 2000, 18); }, 7);
}

// make_prover_with_own_key: a GPU backend whose key stays on the device (no host parameters),
// proving from the witness; "off" gives the CPU backend with its key on the host.
TEST(GpuDeviceKey, OwnKeyProverOnGpuAndCpu) {
  CUZK_REQUIRE_GPU();
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 1000, 19); };
  const auto compiled = compile(circuit);
  const ToxicWaste tw = ToxicWaste::from_seed(test::seed() + 8);
  OwnKeyProver gpu = make_prover_with_own_key(compiled, tw, pool, GpuChoice{}).value();
  OwnKeyProver cpu = make_prover_with_own_key(compiled, tw, pool, GpuChoice{GpuChoice::Kind::off}).value();
  EXPECT_EQ(gpu.params, nullptr);
  ASSERT_NE(cpu.params, nullptr);
  EXPECT_EQ(gpu.prover->name().rfind("gpu 0 (", 0), 0u);
  EXPECT_EQ(cpu.prover->name(), "cpu");
  EXPECT_EQ(gpu.vk, cpu.vk);
  EXPECT_GT(gpu.prover->device_peak_bytes().value_or(0), 0u);
  r1cs::WitnessCS<Fr> wcs;
  circuit(wcs);
  const Witness z{wcs.inputs(), wcs.aux()};
  const Blinding blinding = Blinding::from_seed(test::seed() + 9);
  const Proof p = gpu.prover->prove(z, blinding).value();
  EXPECT_EQ(p.to_bytes(), cpu.prover->prove(z, blinding).value().to_bytes());
  EXPECT_TRUE(verify(PreparedVerifyingKey(gpu.vk), p, public_inputs(synthesize(circuit))).value());
}

}  // namespace
}  // namespace cuzk::groth16
