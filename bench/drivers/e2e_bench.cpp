#include "e2e_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bench_support.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/circuit.hpp"
#include "porep/prover.hpp"
#include "porep/sector_shape.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::bench {
namespace {

// One row of the stage table: a name and its value in every partition of every proof.
struct Stage {
  const char* name;
  double (*of)(const porep::PartitionTimes&);
};
constexpr Stage kStages[] = {
    {"synthesis", [](const porep::PartitionTimes& t) { return t.synthesis_ms; }},
    {"wait", [](const porep::PartitionTimes& t) { return t.wait_ms; }},
    {"prove", [](const porep::PartitionTimes& t) { return t.prove_ms; }},
    {"upload", [](const porep::PartitionTimes& t) { return t.prover.upload; }},
    {"gpu_wait", [](const porep::PartitionTimes& t) { return t.prover.gpu_wait; }},
    {"spmv", [](const porep::PartitionTimes& t) { return t.prover.spmv; }},
    {"h", [](const porep::PartitionTimes& t) { return t.prover.h_ntt; }},
    {"msm_h", [](const porep::PartitionTimes& t) { return t.prover.msm_h; }},
    {"msm_l", [](const porep::PartitionTimes& t) { return t.prover.msm_l; }},
    {"msm_a", [](const porep::PartitionTimes& t) { return t.prover.msm_a; }},
    {"msm_b_g1", [](const porep::PartitionTimes& t) { return t.prover.msm_b_g1; }},
    {"msm_b_g2", [](const porep::PartitionTimes& t) { return t.prover.msm_b_g2; }},
    {"verify", [](const porep::PartitionTimes& t) { return t.verify_ms; }},
};

int run(const E2eBenchOptions& o) {
  ThreadPool pool(o.threads);
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const groth16::GpuChoice choice =
      must(groth16::GpuChoice::from_flags(o.gpu, o.gpu_memory));
  if (auto ok = groth16::check_gpu_choice(choice); !ok) throw Exception(ok.error());
  const porep::PorepPoseidon poseidon;
  const bool quiet = o.json;
  const auto say = [&](const std::string& line) {
    if (!quiet) fmt::print(stderr, "{}\n", line);
  };

  // 1. The inputs: one synthetic C1 per proof (not timed).
  const std::vector<porep::C1> c1s = synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool);

  // 2-3. The circuit and our own key.
  say(fmt::format("bench e2e: {} sector, {} partitions; compiling the partition circuit", sector.name, sector.partitions));
  auto t0 = Clock::now();
  std::optional<r1cs::CompiledR1cs<ff::Fr>> circuit = porep::compile_partition(porep::circuit_shape(sector), poseidon, &pool);
  const double compile_ms = ms_since(t0);
  const size_t constraints = circuit->num_constraints(), aux = circuit->num_aux;
  say(fmt::format("  {} constraints, {} aux in {:.1f} s; generating the key", constraints, aux, compile_ms / 1e3));
  groth16::OwnKeyProver own =
      must(groth16::make_prover_with_own_key(*circuit, groth16::ToxicWaste::from_seed(o.seed), pool, choice));
  const bool on_gpu = groth16::chooses_gpu(choice);
  if (!own.prover->reads_host_key()) circuit.reset();  // the GPU holds its own copy
  const groth16::PreparedVerifyingKey pvk(own.vk);
  say(fmt::format("  key on {}: exponents {:.1f} s, points {:.1f} s, circuit up {:.1f} s", own.prover->name(),
                  own.scalars_ms / 1e3, own.points_ms / 1e3, own.circuit_ms / 1e3));

  // 4. The proofs, after the witness buffers (one per partition in flight) are allocated.
  porep::ProveOptions options = on_gpu ? porep::ProveOptions::witness_pipeline(pool) : porep::ProveOptions{};
  if (on_gpu && o.synthesis_workers) options.synthesis_workers = o.synthesis_workers;
  if (on_gpu && o.serial_challenges) options.synthesis_pool = nullptr;
  double buffers_ms = 0;
  if (groth16::WitnessPool* witnesses = own.prover->witness_pool(); on_gpu && witnesses != nullptr) {
    t0 = Clock::now();
    witnesses->reserve(options.synthesis_workers);
    buffers_ms = ms_since(t0);
    say(fmt::format("  witness buffers: {} x {:.2f} GB in {:.1f} s", options.synthesis_workers,
                    double(witnesses->buffer_bytes()) / 1e9, buffers_ms / 1e3));
  }
  own.prover->reset_device_peak();  // the proofs' peak, not the key generation's
  std::vector<double> proof_ms;
  std::vector<porep::PartitionTimes> parts;
  bool failed = false;
  {
    Progress progress("proving", uint64_t(c1s.size()) * sector.partitions,
                      quiet ? ProgressStyle::off : Progress::stderr_style());
    options.on_partition_done = [&](uint32_t) { progress.advance(1); };
    for (const porep::C1& c1 : c1s) {
      t0 = Clock::now();
      Expected<porep::PorepProof> proof = porep::prove_c1(c1, *own.prover, pvk, poseidon, options);
      proof_ms.push_back(ms_since(t0));
      if (!proof) {
        fmt::print(stderr, "bench e2e: proof {} failed: {}\n", proof_ms.size() - 1, proof.error().message);
        failed = true;
        break;
      }
      parts.insert(parts.end(), proof->times.begin(), proof->times.end());
    }
  }
  const double med = median(proof_ms);
  const double per_hour = med > 0 ? 3.6e6 / med : 0;
  const std::optional<size_t> gpu_peak = own.prover->device_peak_bytes();
  const double gpu_peak_gib = gpu_peak ? double(*gpu_peak) / double(1ull << 30) : 0;
  const bool streamed = own.prover->reads_host_key() && on_gpu;
  // The proofs' device memory must stay within the limit (the key's generation, before them, uses
  // the whole card: a benchmark's convenience).
  const bool over_limit = gpu_peak && choice.memory_limit != 0 && *gpu_peak > choice.memory_limit;
  if (over_limit) {
    fmt::print(stderr, "bench e2e: peak GPU memory {:.2f} GiB is over the limit of {:.2f} GiB\n", gpu_peak_gib,
               double(choice.memory_limit) / double(1ull << 30));
  }
  const bool ok = !failed && !over_limit;

  if (o.json) {
    std::string stages, proofs;
    for (const Stage& s : kStages) {
      std::vector<double> v;
      for (const auto& p : parts) v.push_back(s.of(p));
      stages += fmt::format("{}\"{}\":{:.1f}", stages.empty() ? "" : ",", s.name, median(v));
    }
    for (double ms : proof_ms) proofs += fmt::format("{}{:.1f}", proofs.empty() ? "" : ",", ms);
    fmt::print(
        "{{\"bench\":\"e2e\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"synthesis_workers\":{},"
        "\"parallel_synthesis\":{},\"partitions\":{},\"constraints\":{},\"aux\":{},\"compile_ms\":{:.1f},"
        "\"key_scalars_ms\":{:.1f},\"key_points_ms\":{:.1f},\"circuit_upload_ms\":{:.1f},\"witness_buffers_ms\":{:.1f},"
        "\"proofs_ms\":[{}],"
        "\"median_proof_ms\":{:.1f},\"proofs_per_hour\":{:.1f},\"partition_median_ms\":{{{}}},"
        "\"peak_rss_gib\":{:.2f},\"peak_gpu_gib\":{:.2f},\"placement\":\"{}\",\"gpu_memory_limit_gib\":{:.2f},"
        "\"ok\":{}}}\n",
        sector.name, own.prover->name(), pool.threads(), options.synthesis_workers, options.synthesis_pool != nullptr,
        sector.partitions, constraints, aux, compile_ms, own.scalars_ms, own.points_ms, own.circuit_ms, buffers_ms,
        proofs, med,
        per_hour, stages, peak_rss_gib(), gpu_peak_gib, !on_gpu ? "cpu" : streamed ? "streamed" : "resident",
        double(choice.memory_limit) / double(1ull << 30), ok ? "true" : "false");
    return ok ? 0 : 1;
  }
  fmt::print("bench e2e: {} PoRep, {} partitions of {} constraints, backend {}, {} threads\n", sector.name,
             sector.partitions, constraints, own.prover->name(), pool.threads());
  fmt::print("  compile {:.1f} s; key: exponents {:.1f} s, points {:.1f} s; circuit up {:.1f} s\n", compile_ms / 1e3,
             own.scalars_ms / 1e3, own.points_ms / 1e3, own.circuit_ms / 1e3);
  fmt::print("  per partition (median of {}), ms:", parts.size());
  for (const Stage& s : kStages) {
    std::vector<double> v;
    for (const auto& p : parts) v.push_back(s.of(p));
    fmt::print(" {} {:.1f}", s.name, median(v));
  }
  fmt::print("\n");
  for (size_t i = 0; i < proof_ms.size(); ++i)
    fmt::print("  proof {}: {:.2f} s, {}\n", i, proof_ms[i] / 1e3, failed && i + 1 == proof_ms.size() ? "FAILED" : "verified");
  fmt::print("  median proof {:.2f} s: {:.1f} proofs/hour one after another; peak RSS {:.1f} GiB", med / 1e3, per_hour,
             peak_rss_gib());
  if (gpu_peak) fmt::print(", peak GPU memory during the proofs {:.1f} GiB", gpu_peak_gib);
  if (choice.memory_limit != 0) fmt::print(" (limit {:.1f} GiB)", double(choice.memory_limit) / double(1ull << 30));
  fmt::print("\n");
  return ok ? 0 : 1;
}

}  // namespace

int run_e2e_bench(const E2eBenchOptions& options) {
  try {
    return run(options);
  } catch (const Exception& e) {
    fmt::print(stderr, "bench e2e: {}\n", e.error().message);
    return 2;
  }
}

}  // namespace cuzk::bench
