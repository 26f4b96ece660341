#include "pipeline_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "bench_support.hpp"
#include "core/gpu_memory_limits.hpp"
#include "core/memory_size.hpp"
#include "core/process_memory.hpp"
#include "core/progress.hpp"
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
#include "service/config.hpp"

namespace cuzk::bench {
namespace {

struct RunResult {
  std::string layout, mode;  // "gpu 0", "gpus 0,1 proofs", "gpus 0,1 partitions"; "one at a time", "at once"
  double wall_ms = 0;
  std::vector<double> total_ms, queue_ms, compute_ms;
  unsigned failed = 0;
  double per_hour() const { return wall_ms > 0 ? 3.6e6 * double(total_ms.size()) / wall_ms : 0; }
};

// Where the engine proves: the CPU (no GPUs), one GPU, or several with whole proofs or their
// partitions spread (engine::Spread).
struct Layout {
  std::vector<groth16::GpuChoice> gpus;
  engine::Spread spread = engine::Spread::proofs;
  std::string name() const {
    if (gpus.empty()) return "cpu";
    std::vector<int> ordinals;
    for (const groth16::GpuChoice& g : gpus) ordinals.push_back(g.ordinal);
    if (gpus.size() == 1) return fmt::format("gpu {}", ordinals[0]);
    return fmt::format("gpus {} {}", fmt::join(ordinals, ","), engine::to_string(spread));
  }
};

// N jobs through an engine on `layout` with `workers_per_gpu` workers: all submitted at once, or
// each after the one before it has finished; `progress` shows the jobs done with an ETA.
RunResult run_engine(const std::vector<std::string>& c1s, const std::string& circuit_id,
                     std::shared_ptr<engine::LoadedCircuit> circuit, ThreadPool& pool, const Layout& layout,
                     unsigned workers_per_gpu, size_t memory_budget, bool at_once, ProgressStyle progress_style) {
  engine::PorepHandlerOptions ho;
  ho.pool = &pool;
  ho.gpus = layout.gpus;
  ho.load = [circuit](uint64_t) -> Expected<std::shared_ptr<engine::LoadedCircuit>> { return circuit; };
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(ho)));
  engine::EngineOptions eo;
  for (const groth16::GpuChoice& g : layout.gpus) eo.gpus.push_back(g.ordinal);
  eo.spread = layout.spread;
  eo.workers_per_gpu = workers_per_gpu;
  eo.max_pending = unsigned(c1s.size()) + 1;
  eo.memory_budget = memory_budget;
  engine::Engine eng(std::move(eo), std::move(handlers));
  const auto id = [&](const std::string& c1) {
    engine::JobRequest r;
    r.kind = engine::ProofKind::porep_seal_commit;
    r.vanilla_proof.assign(c1.begin(), c1.end());
    return must(eng.submit(std::move(r))).job_id;
  };
  RunResult out;
  std::optional<Progress> progress;  // from the clock's start, after the preload
  out.layout = layout.name();
  out.mode = at_once ? "at once" : "one at a time";
  const auto record = [&](const std::string& job) {
    const engine::JobResult r = must(eng.await(job, std::nullopt));
    if (r.state != engine::JobState::completed) {
      fmt::print(stderr, "bench pipeline: {}: {}\n", job, r.error);
      ++out.failed;
    }
    out.total_ms.push_back(r.times.total_ms);
    out.queue_ms.push_back(r.times.queue_wait_ms);
    out.compute_ms.push_back(r.times.gpu_compute_ms);
    progress->advance(1);
  };
  must(eng.preload(circuit_id));  // resident before the clock starts
  progress.emplace("    proofs", c1s.size(), progress_style);
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

// "0,1" (several GPUs, each with its limit of `memory`), else one choice as bench e2e takes it.
std::vector<groth16::GpuChoice> gpu_choices(const PipelineBenchOptions& o) {
  if (o.gpu.find(',') == std::string::npos) {
    const groth16::GpuChoice choice = must(groth16::GpuChoice::from_flags(o.gpu, o.gpu_memory));
    if (auto ok = groth16::check_gpu_choice(choice); !ok) throw Exception(ok.error());
    if (!groth16::chooses_gpu(choice)) return {};
    groth16::GpuChoice device = choice;
    if (device.kind == groth16::GpuChoice::Kind::automatic) device = must(groth16::GpuChoice::from_flags("0", o.gpu_memory));
    device.kind = groth16::GpuChoice::Kind::device;
    return {device};
  }
  service::DaemonConfig::Gpus listed;
  if (auto ok = service::parse_gpu_devices(o.gpu, listed); !ok) throw Exception(ok.error());  // distinct ordinals
  const GpuMemoryLimits limits = must(groth16::GpuChoice::memory_limits_from_flags(o.gpu_memory));
  std::vector<groth16::GpuChoice> out;
  for (unsigned n : listed.ordinals) {
    const groth16::GpuChoice g{groth16::GpuChoice::Kind::device, int(n), limits.of(int(n))};
    if (auto ok = groth16::check_gpu_choice(g); !ok) throw Exception(ok.error());
    out.push_back(g);
  }
  return out;
}

void print_json(const porep::SectorShape& sector, const std::string& backend, unsigned threads, size_t proofs,
                unsigned workers, const std::vector<RunResult>& runs, size_t budget, bool ok) {
  std::string rows;
  for (const RunResult& r : runs) {
    rows += fmt::format("{}{{\"layout\":\"{}\",\"mode\":\"{}\",\"wall_ms\":{:.1f},\"proofs_per_hour\":{:.1f},"
                        "\"median_job_ms\":{:.1f},\"median_queue_wait_ms\":{:.1f},\"failed\":{}}}",
                        rows.empty() ? "" : ",", r.layout, r.mode, r.wall_ms, r.per_hour(), median(r.total_ms),
                        median(r.queue_ms), r.failed);
  }
  fmt::print("{{\"bench\":\"pipeline\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"proofs\":{},"
             "\"workers_per_gpu\":{},\"runs\":[{}],\"peak_rss_gib\":{:.2f},\"memory_budget_gib\":{:.2f},\"ok\":{}}}\n",
             sector.name, backend, threads, proofs, workers, rows, peak_rss_gib(), double(budget) / double(1ull << 30),
             ok ? "true" : "false");
}

int run(const PipelineBenchOptions& o) {
  ThreadPool pool(o.threads);
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const std::vector<groth16::GpuChoice> gpus = gpu_choices(o);
  const size_t budget =
      o.memory_budget.empty() ? physical_memory_bytes() / 10 * 9 : must(parse_memory_size(o.memory_budget));
  const porep::PorepPoseidon poseidon;
  const auto say = [&](const std::string& line) {
    if (!o.json) fmt::print(stderr, "{}\n", line);
  };

  std::vector<std::string> c1s;  // as JSON: the engine parses them, as the daemon does
  for (const porep::C1& c1 : synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool))
    c1s.push_back(porep::to_json(c1));
  say(fmt::format("bench pipeline: {} sector, {} proofs; compiling the partition circuit and making our own key{}",
                  sector.name, c1s.size(), gpus.size() > 1 ? " on each GPU" : ""));
  auto t0 = Clock::now();
  auto circuit = std::make_unique<r1cs::CompiledR1cs<ff::Fr>>(
      porep::compile_partition(porep::circuit_shape(sector), poseidon, &pool));
  // One key: the same toxic waste on each GPU gives the same key (DeviceKey::generate equals
  // setup, point for point), checked by its verifying key.
  const groth16::ToxicWaste tw = groth16::ToxicWaste::from_seed(o.seed);
  engine::PorepCircuitParts parts;
  std::string backend;
  bool host_circuit = false;
  if (gpus.empty()) {
    groth16::OwnKeyProver own = must(groth16::make_prover_with_own_key(*circuit, tw, pool, groth16::GpuChoice{groth16::GpuChoice::Kind::off}));
    backend = own.prover->name();
    parts.params = std::move(own.params);
    parts.vk = own.vk;
    parts.cpu = std::move(own.prover);
    host_circuit = true;
  }
  for (const groth16::GpuChoice& g : gpus) {
    groth16::OwnKeyProver own = must(groth16::make_prover_with_own_key(*circuit, tw, pool, g));
    if (parts.gpus.empty()) {
      parts.vk = own.vk;
      backend = own.prover->name();
    } else if (!(own.vk == parts.vk)) {
      throw Exception(Error{ErrorCode::kInternal, fmt::format("GPU {} made another key than GPU {}", g.ordinal,
                                                              parts.gpus.begin()->first)});
    } else {
      backend += " + " + own.prover->name();
    }
    host_circuit = host_circuit || own.prover->reads_host_key();
    if (own.params) parts.params = std::move(own.params);  // a streamed prover's (each has its own copy: one kept)
    parts.gpus[g.ordinal] = std::move(own.prover);
    say(fmt::format("  {} ready ({:.1f} s since the start)", parts.gpus[g.ordinal]->name(), ms_since(t0) / 1e3));
  }
  if (host_circuit) parts.circuit = std::move(circuit);
  circuit.reset();
  const std::shared_ptr<engine::LoadedCircuit> loaded = engine::make_porep_circuit(std::move(parts));
  const std::string circuit_id = *engine::porep_circuit_id(sector.sector_size);
  say(fmt::format("  ready in {:.1f} s on {}", ms_since(t0) / 1e3, backend));

  // One GPU (or the CPU): one job at a time, then all at once. Several: the first GPU alone at
  // once (the peer), all of them with whole proofs at once, then with the partitions spread, one
  // job at a time (a sector's latency) and at once.
  struct Step {
    Layout layout;
    bool at_once;
  };
  std::vector<Step> steps;
  const Layout first{gpus.empty() ? std::vector<groth16::GpuChoice>{} : std::vector<groth16::GpuChoice>{gpus[0]}};
  if (gpus.size() <= 1) {
    steps = {{first, false}, {first, true}};
  } else {
    steps = {{first, true}, {Layout{gpus, engine::Spread::proofs}, true},
             {Layout{gpus, engine::Spread::partitions}, false}, {Layout{gpus, engine::Spread::partitions}, true}};
  }
  std::vector<RunResult> runs;
  for (const Step& step : steps) {
    const unsigned workers = step.at_once ? o.workers_per_gpu : 1;  // the engine's CPU has one worker
    const bool per_gpu = !step.layout.gpus.empty() && step.layout.spread == engine::Spread::proofs;
    say(fmt::format("  {}, {} ({} worker(s){}) ...", step.layout.name(), step.at_once ? "all at once" : "one at a time",
                    step.layout.gpus.empty() ? 1 : workers, per_gpu ? " a GPU" : ""));
    runs.push_back(run_engine(c1s, circuit_id, loaded, pool, step.layout, workers, budget, step.at_once,
                              o.json ? ProgressStyle::off : Progress::stderr_style()));
  }
  const double peak = peak_rss_gib();
  const bool proved = std::ranges::all_of(runs, [](const RunResult& r) { return r.failed == 0; });
  const bool within = peak * double(1ull << 30) <= double(budget);
  const bool ok = proved && within;
  if (o.json) {
    print_json(sector, backend, pool.threads(), c1s.size(), o.workers_per_gpu, runs, budget, ok);
    return ok ? 0 : 1;
  }
  fmt::print("bench pipeline: {} PoRep, {} proofs, {}, {} threads\n", sector.name, c1s.size(), backend, pool.threads());
  fmt::print("  {:<24} {:<14} {:>9} {:>12} {:>12} {:>10}\n", "layout", "jobs", "wall s", "proofs/hour", "median job s",
             "vs first");
  for (const RunResult& r : runs) {
    fmt::print("  {:<24} {:<14} {:>9.1f} {:>12.1f} {:>12.2f} {:>9.2f}x\n", r.layout, r.mode, r.wall_ms / 1e3,
               r.per_hour(), median(r.total_ms) / 1e3, runs[0].per_hour() > 0 ? r.per_hour() / runs[0].per_hour() : 0);
  }
  fmt::print("  peak RSS {:.1f} GiB of a {:.1f} GiB budget{}{}\n", peak, double(budget) / double(1ull << 30),
             within ? "" : ": OVER the budget", proved ? "" : "; FAILED proofs");
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
