#include "latency_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "core/timing.hpp"
#include "engine/circuit_id.hpp"
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "engine/post_handler.hpp"
#include "own_key.hpp"
#include "porep/c1.hpp"
#include "porep/sector_shape.hpp"
#include "post/params.hpp"
#include "post/synthetic_vanilla.hpp"
#include "post/vanilla.hpp"

namespace cuzk::bench {
namespace {

struct Probe {
  double total_ms = 0, queue_ms = 0;
  bool ok = false;
  groth16::ProofTimes times;  // its one partition's
};

// Where a probe's time went: its partition's stages, and the backend's inside the proof.
std::string stages(const Probe& p) {
  const groth16::ProverTimes& g = p.times.prover;
  return fmt::format("synthesis {:.1f}, prove {:.1f} (upload {:.1f}, spmv {:.1f}, H {:.1f}, MSMs {:.1f} / {:.1f} / "
                     "{:.1f} / {:.1f} / {:.1f}), verify {:.1f} ms",
                     p.times.synthesis_ms, p.times.prove_ms, g.upload, g.spmv, g.h_ntt, g.msm_h, g.msm_l, g.msm_a,
                     g.msm_b_g1, g.msm_b_g2, p.times.verify_ms);
}

double median_of(const std::vector<Probe>& probes) {
  std::vector<double> v;
  for (const Probe& p : probes) v.push_back(p.total_ms);
  return median(v);
}

int run(const LatencyBenchOptions& o) {
  ThreadPool pool(o.threads);
  std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(o.gpu));
  if (gpu) gpu->share = groth16::gpu_share_for(*gpu);  // PoRep and WinningPoSt on one card, as the daemon has them
  const std::vector<groth16::GpuChoice> gpus = gpu ? std::vector{*gpu} : std::vector<groth16::GpuChoice>{};
  const auto say = [&](const std::string& line) {
    if (!o.json) fmt::print(stderr, "{}\n", line);
  };
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const post::RegisteredPostProof winning = must(post::registered_post_proof(post::PostKind::kWinning, sector.sector_size));
  const post::PostParams winning_params = must(post::post_params(winning));
  const std::string porep_id = *engine::porep_circuit_id(sector.sector_size);
  const std::string winning_id = *engine::circuit_id(post::kind_name(post::PostKind::kWinning), sector.sector_size);

  // Inputs: the C1s (JSON, as the daemon parses them) and one WinningPoSt vanilla proof per probe.
  say(fmt::format("bench latency: {} PoRep x {} and WinningPoSt x {} alone, then behind them", sector.name,
                  o.porep_proofs, o.probes));
  std::vector<std::string> c1s;
  for (const porep::C1& c1 : synthetic_c1s(sector, o.porep_proofs, o.seed, porep::PorepPoseidon(), pool))
    c1s.push_back(porep::to_json(c1));
  std::vector<engine::JobRequest> winnings;
  for (unsigned i = 0; i < 2 * o.probes; ++i) {
    post::SyntheticVanillaOptions so;
    so.proof = winning;
    so.seed = o.seed + 100 + i;
    const post::SyntheticVanilla v = must(post::generate_synthetic_vanilla(so, post::PostPoseidon(), pool));
    engine::JobRequest r;
    r.kind = engine::ProofKind::winning_post;
    r.priority = engine::Priority::critical;
    r.registered_proof = winning.id;
    r.randomness.assign(v.randomness.begin(), v.randomness.end());
    r.vanilla_proofs.push_back(post::encode_vanilla(v.proofs.at(0)));
    winnings.push_back(std::move(r));
  }

  // Keys of our own for both circuits, on the GPU (or the CPU).
  const OwnKeyCircuit porep_key = make_own_key_circuit(sector, o.seed, pool, gpus, say);
  const auto compile_winning = [&] {
    return post::compile_partition(post::circuit_shape(winning_params), post::PostPoseidon(), &pool);
  };
  // WinningPoSt's provers with streams of high priority, as the daemon's express lane loads them.
  const OwnKeyCircuit winning_key = make_own_key_circuit(fmt::format("{} WinningPoSt", sector.name), compile_winning,
                                                         o.seed + 1, pool, gpus, say, groth16::GpuPriority::high);
  // The witness buffers of the partitions in flight, allocated before the jobs come, as the
  // daemon's load does (engine::Groth16LoadOptions::witness_buffers).
  if (gpu) {
    const engine::Placement on{gpu->ordinal};
    for (const OwnKeyCircuit* k : {&porep_key, &winning_key}) {
      const std::string& id = k == &porep_key ? porep_id : winning_id;
      if (groth16::WitnessPool* w = must(k->circuit->prover(on, id))->witness_pool()) w->reserve(o.partitions_per_gpu);
    }
  }
  engine::Groth16HandlerOptions common;
  common.pool = &pool;
  common.gpus = gpus;
  common.partitions_per_gpu = o.partitions_per_gpu;
  const std::shared_ptr<engine::LoadedCircuit> porep_circuit = porep_key.circuit, winning_circuit = winning_key.circuit;
  common.load = [&](const std::string& id) -> Expected<std::shared_ptr<engine::LoadedCircuit>> {
    return id == porep_id ? porep_circuit : winning_circuit;
  };
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  engine::PorepHandlerOptions porep_options;
  static_cast<engine::Groth16HandlerOptions&>(porep_options) = common;
  handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(porep_options)));
  handlers.push_back(std::make_unique<engine::PostHandler>(post::PostKind::kWinning, common));
  engine::EngineOptions eo;
  if (gpu) eo.gpus = {gpu->ordinal};
  eo.partitions_per_gpu = o.partitions_per_gpu;
  eo.retry_on_cpu = false;
  eo.resident_bytes = {};
  eo.max_pending = o.porep_proofs + 2 * o.probes + 1;
  engine::Engine eng(std::move(eo), std::move(handlers));
  must(eng.preload(porep_id));
  must(eng.preload(winning_id));

  bool ok = true;
  const auto prove = [&](engine::JobRequest r) {
    const engine::JobResult res = must(engine::prove_to_end(eng, std::move(r), {}));
    if (res.state != engine::JobState::completed) {
      fmt::print(stderr, "bench latency: WinningPoSt failed: {}\n", res.error_text());
      ok = false;
    }
    Probe p{res.times.total_ms, res.times.queue_wait_ms, res.state == engine::JobState::completed, {}};
    if (!res.partition_times.empty()) p.times = res.partition_times.front();
    return p;
  };
  // 1. Alone.
  std::vector<Probe> alone;
  for (unsigned i = 0; i < o.probes; ++i) alone.push_back(prove(winnings[i]));
  if (!alone.empty()) say(fmt::format("  WinningPoSt alone: median {:.1f} ms (the last: {})", median_of(alone), stages(alone.back())));

  // 2. Behind the PoRep jobs, submitted at once.
  std::vector<std::string> porep_jobs;
  for (const std::string& c1 : c1s) {
    engine::JobRequest r;
    r.kind = engine::ProofKind::porep_seal_commit;
    r.vanilla_proof.assign(c1.begin(), c1.end());
    porep_jobs.push_back(must(eng.submit(std::move(r))).job_id);
  }
  // PoRep's state: 0 all done, 1 queued only, 2 a partition being proved.
  const auto porep_state = [&] {
    const engine::EngineStatus s = eng.status();
    const auto q = s.queues.find(engine::ProofKind::porep_seal_commit);
    if (q == s.queues.end()) return 0;
    return q->second.in_progress > 0 ? 2 : q->second.pending > 0 ? 1 : 0;
  };
  // Each probe a fraction of a partition after PoRep work is seen running (at an unaligned moment).
  const double partition_guess_ms = sector.partitions > 1 ? 1400 : 20;
  std::vector<Probe> behind;
  for (unsigned i = 0; i < o.probes; ++i) {
    int state = 0;
    while ((state = porep_state()) == 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (state == 0) break;  // the PoRep jobs ended first (small sectors): fewer probes
    std::this_thread::sleep_for(std::chrono::microseconds(int64_t(partition_guess_ms * 1000 * (i + 1) / (o.probes + 1))));
    behind.push_back(prove(winnings[o.probes + i]));
    say(fmt::format("  WinningPoSt {} behind PoRep: {:.1f} ms (waited {:.1f} ms for a worker; {})", i,
                    behind.back().total_ms, behind.back().queue_ms, stages(behind.back())));
  }
  std::vector<double> partition_ms;
  for (const std::string& job : porep_jobs) {
    const engine::JobResult r = must(eng.await(job, std::nullopt));
    if (r.state != engine::JobState::completed) {
      fmt::print(stderr, "bench latency: PoRep failed: {}\n", r.error_text());
      ok = false;
    }
    for (const engine::PartitionTimes& p : r.partition_times) partition_ms.push_back(p.synthesis_ms + p.prove_ms + p.verify_ms);
  }
  std::vector<double> behind_ms;
  for (const Probe& p : behind) behind_ms.push_back(p.total_ms);
  const double worst = behind_ms.empty() ? 0 : *std::max_element(behind_ms.begin(), behind_ms.end());
  if (o.json) {
    std::string rows;
    for (const Probe& p : behind)
      rows += fmt::format("{}{{\"total_ms\":{:.1f},\"queue_wait_ms\":{:.1f}}}", rows.empty() ? "" : ",", p.total_ms, p.queue_ms);
    fmt::print("{{\"bench\":\"latency\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"partitions_per_gpu\":{},"
               "\"porep_proofs\":{},\"winning_alone_median_ms\":{:.1f},\"winning_behind_porep\":[{}],"
               "\"winning_behind_porep_median_ms\":{:.1f},\"winning_behind_porep_max_ms\":{:.1f},"
               "\"porep_partition_median_ms\":{:.1f},\"ok\":{}}}\n",
               sector.name, porep_key.backend, o.partitions_per_gpu, o.porep_proofs, median_of(alone), rows,
               median(behind_ms), worst, median(partition_ms), ok ? "true" : "false");
    return ok ? 0 : 1;
  }
  fmt::print("bench latency: {} on {} (WinningPoSt: {}), {} partitions in flight\n", sector.name, porep_key.backend,
             winning_key.backend, o.partitions_per_gpu);
  fmt::print("  WinningPoSt alone: median {:.1f} ms\n", median_of(alone));
  fmt::print("  WinningPoSt behind {} PoRep proofs: median {:.1f} ms, worst {:.1f} ms (a PoRep partition: median "
             "{:.1f} ms)\n",
             o.porep_proofs, median(behind_ms), worst, median(partition_ms));
  return ok ? 0 : 1;
}

}  // namespace

int run_latency_bench(const LatencyBenchOptions& options) { return run(options); }

}  // namespace cuzk::bench
