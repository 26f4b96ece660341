#include "pipeline_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "core/memory_size.hpp"
#include "core/process_memory.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "own_key.hpp"
#include "groth16/select_prover.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::bench {
namespace {

struct RunResult {
  std::string layout, mode;  // "gpu 0", "gpus 0,1 proofs", "gpus 0,1 partitions"; "one at a time", "at once"
  double wall_ms = 0;
  std::vector<double> total_ms, queue_ms, compute_ms;
  unsigned failed = 0;
  std::vector<engine::PartitionTimes> parts;  // every job's, for the device timelines
  double per_hour() const { return wall_ms > 0 ? 3.6e6 * double(total_ms.size()) / wall_ms : 0; }
  // Each GPU's timeline over the run: its partitions' turns (bench_support.hpp: device_busy), by
  // the backend that proved them; none for the CPU.
  std::vector<std::pair<std::string, BusySummary>> timelines() const {
    std::vector<std::string> names;
    for (const engine::PartitionTimes& p : parts)
      if (std::ranges::find(names, p.backend) == names.end()) names.push_back(p.backend);
    std::vector<std::pair<std::string, BusySummary>> out;
    for (const std::string& name : names) {
      std::vector<engine::PartitionTimes> mine;
      std::ranges::copy_if(parts, std::back_inserter(mine), [&](const engine::PartitionTimes& p) { return p.backend == name; });
      if (const BusySummary b = device_busy(mine); b.span_ms > 0) out.emplace_back(name, b);
    }
    return out;
  }
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

// N jobs through an engine on `layout` with `in_flight` partitions a GPU: all submitted at once,
// or each after the one before it has finished; `progress` shows the jobs done with an ETA.
RunResult run_engine(const std::vector<std::string>& c1s, const std::string& circuit_id,
                     std::shared_ptr<engine::LoadedCircuit> circuit, ThreadPool& pool, const Layout& layout,
                     unsigned in_flight, size_t memory_budget, bool at_once, ProgressStyle progress_style) {
  engine::PorepHandlerOptions ho;
  ho.pool = &pool;
  ho.gpus = layout.gpus;
  ho.partitions_per_gpu = in_flight;
  ho.load = [circuit](const std::string&) -> Expected<std::shared_ptr<engine::LoadedCircuit>> { return circuit; };
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(ho)));
  engine::EngineOptions eo;
  for (const groth16::GpuChoice& g : layout.gpus) eo.gpus.push_back(g.ordinal);
  eo.spread = layout.spread;
  eo.partitions_per_gpu = in_flight;
  eo.retry_on_cpu = false;
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
      fmt::print(stderr, "bench pipeline: {}: {}\n", job, r.error_text());
      ++out.failed;
    }
    out.total_ms.push_back(r.times.total_ms);
    out.parts.insert(out.parts.end(), r.partition_times.begin(), r.partition_times.end());
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

void print_json(const porep::SectorShape& sector, const std::string& backend, unsigned threads, size_t proofs,
                unsigned in_flight, const std::vector<groth16::GpuChoice>& gpus, const std::vector<RunResult>& runs,
                size_t budget, bool ok) {
  std::string rows;
  for (const RunResult& r : runs) {
    // Per GPU: the share of the run's wall time its partitions held it, and the idle gaps
    // between their turns.
    std::string devices;
    for (const auto& [name, b] : r.timelines()) {
      devices += fmt::format("{}{{\"backend\":\"{}\",\"held_pct_of_wall\":{:.2f},\"span_ms\":{:.1f},\"idle_ms\":{:.1f},"
                             "\"gaps\":{},\"max_gap_ms\":{:.2f}}}",
                             devices.empty() ? "" : ",", name, r.wall_ms > 0 ? 100 * b.busy_ms / r.wall_ms : 0,
                             b.span_ms, b.idle_ms(), b.gaps, b.max_gap_ms);
    }
    rows += fmt::format("{}{{\"layout\":\"{}\",\"mode\":\"{}\",\"wall_ms\":{:.1f},\"proofs_per_hour\":{:.1f},"
                        "\"median_job_ms\":{:.1f},\"median_queue_wait_ms\":{:.1f},\"failed\":{},\"device_timelines\":[{}]}}",
                        rows.empty() ? "" : ",", r.layout, r.mode, r.wall_ms, r.per_hour(), median(r.total_ms),
                        median(r.queue_ms), r.failed, devices);
  }
  const std::string streams =
      gpus.empty() ? "null" : fmt::format("\"{}\"", groth16::msm_streams_name(gpus[0].msm_streams));
  fmt::print("{{\"bench\":\"pipeline\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"proofs\":{},"
             "\"partitions_per_gpu\":{},\"msm_streams\":{},\"runs\":[{}],\"peak_rss_gib\":{:.2f},"
             "\"memory_budget_gib\":{:.2f},\"ok\":{}}}\n",
             sector.name, backend, threads, proofs, in_flight, streams, rows, peak_rss_gib(),
             double(budget) / double(1ull << 30), ok ? "true" : "false");
}

int run(const PipelineBenchOptions& o) {
  ThreadPool pool(o.threads);
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const std::vector<groth16::GpuChoice>& gpus = o.gpus;
  const size_t budget =
      o.memory_budget.empty() ? physical_memory_bytes() / 10 * 9 : must(parse_memory_size(o.memory_budget));
  const porep::PorepPoseidon poseidon;
  const auto say = [&](const std::string& line) {
    if (!o.json) fmt::print(stderr, "{}\n", line);
  };

  std::vector<std::string> c1s;  // as JSON: the engine parses them, as the daemon does
  for (const porep::C1& c1 : synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool))
    c1s.push_back(porep::to_json(c1));
  say(fmt::format("bench pipeline: {} sector, {} proofs; our own key{}", sector.name, c1s.size(),
                  gpus.size() > 1 ? " on each GPU" : ""));
  const auto t0 = Clock::now();
  const OwnKeyCircuit own = make_own_key_circuit(sector, o.seed, pool, gpus, say);
  const std::string& backend = own.backend;
  const std::shared_ptr<engine::LoadedCircuit> loaded = own.circuit;
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
    say(fmt::format("  {}, {} ({} partitions in flight a GPU) ...", step.layout.name(),
                    step.at_once ? "all at once" : "one at a time", o.partitions_per_gpu));
    runs.push_back(run_engine(c1s, circuit_id, loaded, pool, step.layout, o.partitions_per_gpu, budget, step.at_once,
                              o.json ? ProgressStyle::off : Progress::stderr_style()));
  }
  const double peak = peak_rss_gib();
  const bool proved = std::ranges::all_of(runs, [](const RunResult& r) { return r.failed == 0; });
  const bool within = peak * double(1ull << 30) <= double(budget);
  const bool ok = proved && within;
  if (o.json) {
    print_json(sector, backend, pool.threads(), c1s.size(), o.partitions_per_gpu, gpus, runs, budget, ok);
    return ok ? 0 : 1;
  }
  fmt::print("bench pipeline: {} PoRep, {} proofs, {}, {} threads\n", sector.name, c1s.size(), backend, pool.threads());
  fmt::print("  {:<24} {:<14} {:>9} {:>12} {:>12} {:>10}\n", "layout", "jobs", "wall s", "proofs/hour", "median job s",
             "vs first");
  for (const RunResult& r : runs) {
    fmt::print("  {:<24} {:<14} {:>9.1f} {:>12.1f} {:>12.2f} {:>9.2f}x\n", r.layout, r.mode, r.wall_ms / 1e3,
               r.per_hour(), median(r.total_ms) / 1e3, runs[0].per_hour() > 0 ? r.per_hour() / runs[0].per_hour() : 0);
    for (const auto& [name, b] : r.timelines())
      fmt::print("    {}: held {:.2f} % of the wall time; {:.1f} ms idle in {} gaps between turns (longest {:.2f} ms)\n",
                 name, r.wall_ms > 0 ? 100 * b.busy_ms / r.wall_ms : 0, b.idle_ms(), b.gaps, b.max_gap_ms);
  }
  fmt::print("  peak RSS {:.1f} GiB of a {:.1f} GiB budget{}{}\n", peak, double(budget) / double(1ull << 30),
             within ? "" : ": OVER the budget", proved ? "" : "; FAILED proofs");
  return ok ? 0 : 1;
}

}  // namespace

int run_pipeline_bench(const PipelineBenchOptions& options) {
  return run(options);  // what it throws, the app's guard reports (apps/cuzk/command_support.hpp)
}

}  // namespace cuzk::bench
