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
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "groth16/select_prover.hpp"
#include "own_key.hpp"
#include "porep/c1.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::bench {
namespace {

// One row of the stage table: a name and its value in every partition of every proof.
struct Stage {
  const char* name;
  double (*of)(const engine::PartitionTimes&);
};
constexpr Stage kStages[] = {
    {"synthesis", [](const engine::PartitionTimes& t) { return t.synthesis_ms; }},
    {"prove", [](const engine::PartitionTimes& t) { return t.prove_ms; }},
    {"upload", [](const engine::PartitionTimes& t) { return t.prover.upload; }},
    {"gpu_wait", [](const engine::PartitionTimes& t) { return t.prover.gpu_wait; }},
    {"spmv", [](const engine::PartitionTimes& t) { return t.prover.spmv; }},
    {"h", [](const engine::PartitionTimes& t) { return t.prover.h_ntt; }},
    {"msm_h", [](const engine::PartitionTimes& t) { return t.prover.msm_h; }},
    {"msm_l", [](const engine::PartitionTimes& t) { return t.prover.msm_l; }},
    {"msm_a", [](const engine::PartitionTimes& t) { return t.prover.msm_a; }},
    {"msm_b_g1", [](const engine::PartitionTimes& t) { return t.prover.msm_b_g1; }},
    {"msm_b_g2", [](const engine::PartitionTimes& t) { return t.prover.msm_b_g2; }},
    {"verify", [](const engine::PartitionTimes& t) { return t.verify_ms; }},
};

// Partitions in flight on the GPU when --synthesis-workers is not given (as `prove porep`).
constexpr unsigned kDefaultInFlight = 2;

int run(const E2eBenchOptions& o) {
  ThreadPool pool(o.threads);
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const groth16::GpuChoice& choice = o.gpu;
  const std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(choice));
  const porep::PorepPoseidon poseidon;
  const bool quiet = o.json;
  const auto say = [&](const std::string& line) {
    if (!quiet) fmt::print(stderr, "{}\n", line);
  };

  // 1. The inputs: one synthetic C1 per proof, as JSON (the engine parses them, as the daemon
  //    does; the parse is reported apart from the proof).
  std::vector<std::string> c1s;
  for (const porep::C1& c1 : synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool))
    c1s.push_back(porep::to_json(c1));

  // 2-3. The circuit and our own key.
  say(fmt::format("bench e2e: {} sector", sector.name));
  const OwnKeyCircuit own = make_own_key_circuit(sector, o.seed, pool, gpu ? std::vector{*gpu} : std::vector<groth16::GpuChoice>{}, say);
  const engine::Placement where{gpu ? std::optional<int>(gpu->ordinal) : std::nullopt};
  groth16::ProverBackend* prover = must(own.circuit->prover(where, "porep"));
  say(fmt::format("  key on {}: exponents {:.1f} s, points {:.1f} s, circuit up {:.1f} s", own.backend,
                  own.scalars_ms / 1e3, own.points_ms / 1e3, own.circuit_ms / 1e3));

  // 4. The proofs through an engine with this key, one job after another, after the witness
  //    buffers (one per partition in flight) are allocated.
  const unsigned in_flight = o.synthesis_workers ? o.synthesis_workers : kDefaultInFlight;
  double buffers_ms = 0;
  if (groth16::WitnessPool* witnesses = prover->witness_pool(); gpu && witnesses != nullptr) {
    const auto t0 = Clock::now();
    witnesses->reserve(in_flight);
    buffers_ms = ms_since(t0);
    say(fmt::format("  witness buffers: {} x {:.2f} GB in {:.1f} s", in_flight, double(witnesses->buffer_bytes()) / 1e9,
                    buffers_ms / 1e3));
  }
  engine::PorepHandlerOptions ho;
  ho.pool = &pool;
  if (gpu) ho.gpus = {*gpu};
  ho.partitions_per_gpu = in_flight;
  ho.challenges = o.serial_challenges ? engine::PorepHandlerOptions::Challenges::serial
                                      : engine::PorepHandlerOptions::Challenges::parallel;
  const std::shared_ptr<engine::LoadedCircuit> loaded = own.circuit;
  ho.load = [loaded](const std::string&) -> Expected<std::shared_ptr<engine::LoadedCircuit>> { return loaded; };
  engine::EngineOptions eo;
  if (gpu) eo.gpus = {gpu->ordinal};
  eo.partitions_per_gpu = in_flight;
  eo.retry_on_cpu = false;
  eo.resident_bytes = {};
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(ho)));
  engine::Engine eng(std::move(eo), std::move(handlers));
  must(eng.preload(*engine::porep_circuit_id(sector.sector_size)));
  prover->reset_device_peak();  // the proofs' peak, not the key generation's

  std::vector<double> proof_ms, parse_ms;
  std::vector<engine::PartitionTimes> parts;
  bool failed = false;
  {
    Progress progress("proving", uint64_t(c1s.size()) * sector.partitions,
                      quiet ? ProgressStyle::off : Progress::stderr_style());
    for (const std::string& c1 : c1s) {
      engine::JobRequest r;
      r.kind = engine::ProofKind::porep_seal_commit;
      r.vanilla_proof.assign(c1.begin(), c1.end());
      uint32_t seen = 0;
      const engine::JobResult job = must(engine::prove_to_end(eng, std::move(r), [&](uint32_t done, uint32_t) {
        progress.advance(done - seen);
        seen = done;
      }));
      // The proof's time: the job's, less the C1's parse (the daemon parses the next job's
      // while one is proved).
      proof_ms.push_back(job.times.total_ms - job.times.parse_ms);
      parse_ms.push_back(job.times.parse_ms);
      if (job.state != engine::JobState::completed) {
        fmt::print(stderr, "bench e2e: proof {} failed: {}\n", proof_ms.size() - 1, job.error_text());
        failed = true;
        break;
      }
      parts.insert(parts.end(), job.partition_times.begin(), job.partition_times.end());
    }
  }
  const double med = median(proof_ms);
  const double per_hour = med > 0 ? 3.6e6 / med : 0;
  const std::optional<size_t> gpu_peak = prover->device_peak_bytes();
  const double gpu_peak_gib = gpu_peak ? double(*gpu_peak) / double(1ull << 30) : 0;
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
        "{{\"bench\":\"e2e\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"partitions_in_flight\":{},"
        "\"parallel_synthesis\":{},\"partitions\":{},\"constraints\":{},\"aux\":{},\"compile_ms\":{:.1f},"
        "\"key_scalars_ms\":{:.1f},\"key_points_ms\":{:.1f},\"circuit_upload_ms\":{:.1f},\"witness_buffers_ms\":{:.1f},"
        "\"proofs_ms\":[{}],\"median_parse_ms\":{:.1f},"
        "\"median_proof_ms\":{:.1f},\"proofs_per_hour\":{:.1f},\"partition_median_ms\":{{{}}},"
        "\"peak_rss_gib\":{:.2f},\"peak_gpu_gib\":{:.2f},\"placement\":\"{}\",\"gpu_memory_limit_gib\":{:.2f},"
        "\"ok\":{}}}\n",
        sector.name, own.backend, pool.threads(), in_flight, !o.serial_challenges, sector.partitions, own.constraints,
        own.aux, own.compile_ms, own.scalars_ms, own.points_ms, own.circuit_ms, buffers_ms, proofs, median(parse_ms), med,
        per_hour, stages, peak_rss_gib(), gpu_peak_gib, !gpu ? "cpu" : own.streamed ? "streamed" : "resident",
        double(choice.memory_limit) / double(1ull << 30), ok ? "true" : "false");
    return ok ? 0 : 1;
  }
  fmt::print("bench e2e: {} PoRep, {} partitions of {} constraints, backend {}, {} threads\n", sector.name,
             sector.partitions, own.constraints, own.backend, pool.threads());
  fmt::print("  compile {:.1f} s; key: exponents {:.1f} s, points {:.1f} s; circuit up {:.1f} s\n", own.compile_ms / 1e3,
             own.scalars_ms / 1e3, own.points_ms / 1e3, own.circuit_ms / 1e3);
  fmt::print("  per partition (median of {}), ms:", parts.size());
  for (const Stage& s : kStages) {
    std::vector<double> v;
    for (const auto& p : parts) v.push_back(s.of(p));
    fmt::print(" {} {:.1f}", s.name, median(v));
  }
  fmt::print("\n");
  for (size_t i = 0; i < proof_ms.size(); ++i)
    fmt::print("  proof {}: {:.2f} s (C1 parsed in {:.2f} s before), {}\n", i, proof_ms[i] / 1e3, parse_ms[i] / 1e3,
               failed && i + 1 == proof_ms.size() ? "FAILED" : "verified");
  fmt::print("  median proof {:.2f} s: {:.1f} proofs/hour one after another; peak RSS {:.1f} GiB", med / 1e3, per_hour,
             peak_rss_gib());
  if (gpu_peak) fmt::print(", peak GPU memory during the proofs {:.1f} GiB", gpu_peak_gib);
  if (choice.memory_limit != 0) fmt::print(" (limit {:.1f} GiB)", double(choice.memory_limit) / double(1ull << 30));
  fmt::print("\n");
  return ok ? 0 : 1;
}

}  // namespace

int run_e2e_bench(const E2eBenchOptions& options) {
  return run(options);  // what it throws, the app's guard reports (apps/cuzk/command_support.hpp)
}

}  // namespace cuzk::bench
