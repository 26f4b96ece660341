#include "pipeline_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bench_support.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::bench {
namespace {

struct RunResult {
  double wall_ms = 0;
  std::vector<double> total_ms, queue_ms, compute_ms;
  unsigned failed = 0;
  double per_hour() const { return wall_ms > 0 ? 3.6e6 * double(total_ms.size()) / wall_ms : 0; }
};

// N jobs through an engine of `workers_per_gpu` workers a GPU: all submitted at once, or each
// after the one before it has finished.
RunResult run_engine(const std::vector<std::string>& c1s, const std::string& circuit_id,
                     std::shared_ptr<engine::LoadedCircuit> circuit,
                     ThreadPool& pool, const std::optional<groth16::GpuChoice>& gpu, unsigned workers_per_gpu,
                     bool at_once) {
  engine::PorepHandlerOptions ho;
  ho.pool = &pool;
  if (gpu) ho.gpus = {*gpu};
  ho.load = [circuit](uint64_t) -> Expected<std::shared_ptr<engine::LoadedCircuit>> { return circuit; };
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(ho)));
  engine::EngineOptions eo;
  if (gpu) eo.gpus = {gpu->ordinal};
  eo.workers_per_gpu = workers_per_gpu;
  eo.max_pending = unsigned(c1s.size()) + 1;
  engine::Engine eng(std::move(eo), std::move(handlers));
  const auto id = [&](const std::string& c1) {
    engine::JobRequest r;
    r.kind = engine::ProofKind::porep_seal_commit;
    r.vanilla_proof.assign(c1.begin(), c1.end());
    return must(eng.submit(std::move(r))).job_id;
  };
  RunResult out;
  const auto record = [&](const std::string& job) {
    const engine::JobResult r = must(eng.await(job, std::nullopt));
    if (r.state != engine::JobState::completed) {
      fmt::print(stderr, "bench pipeline: {}: {}\n", job, r.error);
      ++out.failed;
    }
    out.total_ms.push_back(r.times.total_ms);
    out.queue_ms.push_back(r.times.queue_wait_ms);
    out.compute_ms.push_back(r.times.gpu_compute_ms);
  };
  must(eng.preload(circuit_id));  // resident before the clock starts
  const auto t0 = Clock::now();
  if (at_once) {
    std::vector<std::string> jobs;
    for (const std::string& c1 : c1s) jobs.push_back(id(c1));
    for (const std::string& job : jobs) record(job);
  } else {
    for (const std::string& c1 : c1s) record(id(c1));
  }
  out.wall_ms = ms_since(t0);
  return out;
}

int run(const PipelineBenchOptions& o) {
  ThreadPool pool(o.threads);
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const groth16::GpuChoice choice = must(groth16::GpuChoice::from_flags(o.gpu, o.gpu_memory));
  if (auto ok = groth16::check_gpu_choice(choice); !ok) throw Exception(ok.error());
  const bool on_gpu = groth16::chooses_gpu(choice);
  const porep::PorepPoseidon poseidon;
  const auto say = [&](const std::string& line) {
    if (!o.json) fmt::print(stderr, "{}\n", line);
  };

  std::vector<std::string> c1s;  // as JSON: the engine parses them, as the daemon does
  for (const porep::C1& c1 : synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool))
    c1s.push_back(porep::to_json(c1));
  say(fmt::format("bench pipeline: {} sector, {} proofs; compiling the partition circuit and making our own key",
                  sector.name, c1s.size()));
  auto t0 = Clock::now();
  auto circuit = std::make_unique<r1cs::CompiledR1cs<ff::Fr>>(
      porep::compile_partition(porep::circuit_shape(sector), poseidon, &pool));
  groth16::OwnKeyProver own = must(groth16::make_prover_with_own_key(*circuit, groth16::ToxicWaste::from_seed(o.seed), pool, choice));
  const std::string backend = own.prover->name();
  engine::PorepCircuitParts parts;
  parts.params = std::move(own.params);
  parts.vk = own.vk;
  if (own.prover->reads_host_key()) parts.circuit = std::move(circuit);
  circuit.reset();
  std::optional<groth16::GpuChoice> gpu;
  if (on_gpu) {
    gpu = choice;
    gpu->kind = groth16::GpuChoice::Kind::device;
    parts.gpus[gpu->ordinal] = std::move(own.prover);
  } else {
    parts.cpu = std::move(own.prover);
  }
  const std::shared_ptr<engine::LoadedCircuit> loaded = engine::make_porep_circuit(std::move(parts));
  const std::string circuit_id = *engine::porep_circuit_id(sector.sector_size);
  say(fmt::format("  ready in {:.1f} s on {}", ms_since(t0) / 1e3, backend));

  say("  one job at a time ...");
  const RunResult one = run_engine(c1s, circuit_id, loaded, pool, gpu, 1, false);
  say(fmt::format("  {} jobs at once, {} worker(s) ...", c1s.size(), on_gpu ? o.workers_per_gpu : 1));
  const RunResult many = run_engine(c1s, circuit_id, loaded, pool, gpu, o.workers_per_gpu, true);
  const double ratio = one.per_hour() > 0 ? many.per_hour() / one.per_hour() : 0;
  const bool ok = one.failed == 0 && many.failed == 0;
  if (o.json) {
    fmt::print("{{\"bench\":\"pipeline\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"proofs\":{},"
               "\"workers_per_gpu\":{},\"one_at_a_time\":{{\"wall_ms\":{:.1f},\"proofs_per_hour\":{:.1f},"
               "\"median_job_ms\":{:.1f}}},\"pipelined\":{{\"wall_ms\":{:.1f},\"proofs_per_hour\":{:.1f},"
               "\"median_job_ms\":{:.1f},\"median_queue_wait_ms\":{:.1f}}},\"ratio\":{:.3f},\"peak_rss_gib\":{:.2f},"
               "\"ok\":{}}}\n",
               sector.name, backend, pool.threads(), c1s.size(), on_gpu ? o.workers_per_gpu : 1, one.wall_ms,
               one.per_hour(), median(one.total_ms), many.wall_ms, many.per_hour(), median(many.total_ms),
               median(many.queue_ms), ratio, peak_rss_gib(), ok ? "true" : "false");
    return ok ? 0 : 1;
  }
  fmt::print("bench pipeline: {} PoRep, {} proofs, backend {}, {} threads\n", sector.name, c1s.size(), backend,
             pool.threads());
  fmt::print("  one at a time: {:.1f} s, {:.1f} proofs/hour (median job {:.2f} s)\n", one.wall_ms / 1e3, one.per_hour(),
             median(one.total_ms) / 1e3);
  fmt::print("  pipelined ({} worker(s)): {:.1f} s, {:.1f} proofs/hour (median job {:.2f} s, of it queued {:.2f} s)\n",
             on_gpu ? o.workers_per_gpu : 1, many.wall_ms / 1e3, many.per_hour(), median(many.total_ms) / 1e3,
             median(many.queue_ms) / 1e3);
  fmt::print("  ratio {:.2f}x; peak RSS {:.1f} GiB{}\n", ratio, peak_rss_gib(), ok ? "" : "; FAILED proofs");
  return ok ? 0 : 1;
}

}  // namespace

int run_pipeline_bench(const PipelineBenchOptions& options) {
  try {
    return run(options);
  } catch (const Exception& e) {
    fmt::print(stderr, "bench pipeline: {}\n", e.error().message);
    return 2;
  }
}

}  // namespace cuzk::bench
