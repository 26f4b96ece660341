#include "e2e_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "bench_support.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "engine/circuit_id.hpp"
#include "engine/porep_handler.hpp"
#include "engine/post_handler.hpp"
#include "engine/snap_handler.hpp"
#include "core/memory_size.hpp"
#include "post/synthetic_vanilla.hpp"
#include "post/vanilla.hpp"
#include "snap/synthetic_vanilla.hpp"
#include "snap/vanilla.hpp"
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

// What a kind of proof brings to the bench: its circuit, its requests (synthetic inputs, one per
// proof, as Curio sends them), its handler.
struct Workload {
  std::string name;        // "32GiB PoRep", "32GiB WindowPoSt (2349 sectors)"
  std::string circuit_id;  // engine/circuit_id.hpp
  uint32_t partitions = 1;
  std::function<r1cs::CompiledR1cs<ff::Fr>()> compile;
  std::vector<engine::JobRequest> requests;
  std::function<std::unique_ptr<engine::ProofHandler>(const engine::Groth16HandlerOptions&)> handler;
};

Workload porep_workload(const E2eBenchOptions& o, ThreadPool& pool) {
  const porep::SectorShape sector = must(porep::shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const porep::PorepPoseidon poseidon;
  Workload w;
  w.name = fmt::format("{} PoRep", sector.name);
  w.circuit_id = *engine::porep_circuit_id(sector.sector_size);
  w.partitions = sector.partitions;
  w.compile = [sector, &pool] {
    return porep::compile_partition(porep::circuit_shape(sector), porep::PorepPoseidon(), &pool);
  };
  // The C1s as JSON: the engine parses them, as the daemon does (the parse is reported apart).
  for (const porep::C1& c1 : synthetic_c1s(sector, std::max(1u, o.proofs), o.seed, poseidon, pool)) {
    const std::string json = porep::to_json(c1);
    engine::JobRequest r;
    r.kind = engine::ProofKind::porep_seal_commit;
    r.vanilla_proof.assign(json.begin(), json.end());
    w.requests.push_back(std::move(r));
  }
  const auto challenges = o.serial_challenges ? engine::PorepHandlerOptions::Challenges::serial
                                              : engine::PorepHandlerOptions::Challenges::parallel;
  w.handler = [challenges](const engine::Groth16HandlerOptions& common) {
    engine::PorepHandlerOptions ho;
    static_cast<engine::Groth16HandlerOptions&>(ho) = common;
    ho.challenges = challenges;
    return std::unique_ptr<engine::ProofHandler>(std::make_unique<engine::PorepHandler>(std::move(ho)));
  };
  return w;
}

Workload post_workload(post::PostKind kind, const E2eBenchOptions& o, ThreadPool& pool) {
  const uint64_t size = must(porep::parse_sector_size(o.sector_size));
  const post::RegisteredPostProof proof = must(post::registered_post_proof(kind, size));
  const post::PostParams params = must(post::post_params(proof));
  const post::PostPoseidon poseidon;
  Workload w;
  w.name = fmt::format("{} {} ({} sector{} a partition)", exact_size_text(size),
                       kind == post::PostKind::kWindow ? "WindowPoSt" : "WinningPoSt",
                       kind == post::PostKind::kWindow ? params.sector_count : 1,
                       kind == post::PostKind::kWindow ? "s" : "");
  w.circuit_id = *engine::circuit_id(post::kind_name(kind), size);
  w.compile = [params, &pool] { return post::compile_partition(post::circuit_shape(params), post::PostPoseidon(), &pool); };
  for (unsigned i = 0; i < std::max(1u, o.proofs); ++i) {
    post::SyntheticVanillaOptions so;
    so.proof = proof;
    so.seed = o.seed + i;
    const post::SyntheticVanilla v = must(post::generate_synthetic_vanilla(so, poseidon, pool));
    engine::JobRequest r;
    r.kind = kind == post::PostKind::kWindow ? engine::ProofKind::window_post_partition : engine::ProofKind::winning_post;
    r.registered_proof = proof.id;
    r.randomness.assign(v.randomness.begin(), v.randomness.end());
    for (const post::FallbackPoStSectorProof& p : v.proofs) r.vanilla_proofs.push_back(post::encode_vanilla(p));
    w.requests.push_back(std::move(r));
  }
  w.handler = [kind](const engine::Groth16HandlerOptions& common) {
    return std::unique_ptr<engine::ProofHandler>(std::make_unique<engine::PostHandler>(kind, common));
  };
  return w;
}

Workload snap_workload(const E2eBenchOptions& o, ThreadPool& pool) {
  const snap::UpdateShape shape = must(snap::update_shape_for_sector_size(must(porep::parse_sector_size(o.sector_size))));
  const snap::RegisteredUpdateProof proof = must(snap::registered_update_proof_for_size(shape.sector_size()));
  const snap::UpdatePoseidon poseidon;
  Workload w;
  w.name = fmt::format("{} SnapDeals", shape.name());
  w.circuit_id = *engine::circuit_id("snap", shape.sector_size());
  w.partitions = shape.partitions;
  w.compile = [shape, &pool] { return snap::compile_partition(shape, snap::UpdatePoseidon(), &pool); };
  const auto bytes = [](const ff::Fr& v) {
    std::array<uint8_t, 32> b{};
    v.to_bytes_le(b);
    return std::vector<uint8_t>(b.begin(), b.end());
  };
  for (unsigned i = 0; i < std::max(1u, o.proofs); ++i) {
    const snap::SyntheticUpdate u = must(snap::generate_synthetic_update(shape, poseidon, o.seed + i));
    engine::JobRequest r;
    r.kind = engine::ProofKind::snap_deals_update;
    r.registered_proof = proof.id;
    for (const snap::PartitionProof& p : u.partitions) r.vanilla_proofs.push_back(snap::encode_partition_proof(p));
    r.comm_r_old = bytes(u.pub.comm_r_old);
    r.comm_r_new = bytes(u.pub.comm_r_new);
    r.comm_d_new = bytes(u.pub.comm_d_new);
    w.requests.push_back(std::move(r));
  }
  w.handler = [](const engine::Groth16HandlerOptions& common) {
    return std::unique_ptr<engine::ProofHandler>(std::make_unique<engine::SnapHandler>(common));
  };
  return w;
}

Workload workload(const E2eBenchOptions& o, ThreadPool& pool) {
  if (o.kind == "porep") return porep_workload(o, pool);
  if (o.kind == "window-post") return post_workload(post::PostKind::kWindow, o, pool);
  if (o.kind == "winning-post") return post_workload(post::PostKind::kWinning, o, pool);
  if (o.kind == "snap") return snap_workload(o, pool);
  throw Exception(invalid_argument("--kind " + o.kind + ": porep, window-post, winning-post or snap"));
}

int run(const E2eBenchOptions& o) {
  ThreadPool pool(o.threads);
  const groth16::GpuChoice& choice = o.gpu;
  const std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(choice));
  const bool quiet = o.json;
  const auto say = [&](const std::string& line) {
    if (!quiet) fmt::print(stderr, "{}\n", line);
  };

  // 1. The inputs: synthetic, one request per proof, as Curio sends them (the engine parses and
  //    checks them, as the daemon does; the parse is reported apart from the proof).
  const auto t_inputs = Clock::now();
  Workload w = workload(o, pool);
  say(fmt::format("bench e2e: {}; {} synthetic request{} in {:.1f} s", w.name, w.requests.size(),
                  w.requests.size() == 1 ? "" : "s", ms_since(t_inputs) / 1e3));

  // 2-3. The circuit and our own key.
  const OwnKeyCircuit own =
      make_own_key_circuit(w.name, w.compile, o.seed, pool, gpu ? std::vector{*gpu} : std::vector<groth16::GpuChoice>{}, say);
  const engine::Placement where{gpu ? std::optional<int>(gpu->ordinal) : std::nullopt};
  groth16::ProverBackend* prover = must(own.circuit->prover(where, w.circuit_id));
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
  engine::Groth16HandlerOptions ho;
  ho.pool = &pool;
  if (gpu) ho.gpus = {*gpu};
  ho.partitions_per_gpu = in_flight;
  const std::shared_ptr<engine::LoadedCircuit> loaded = own.circuit;
  ho.load = [loaded](const std::string&) -> Expected<std::shared_ptr<engine::LoadedCircuit>> { return loaded; };
  engine::EngineOptions eo;
  if (gpu) eo.gpus = {gpu->ordinal};
  eo.partitions_per_gpu = in_flight;
  eo.retry_on_cpu = false;
  eo.resident_bytes = {};
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(w.handler(ho));
  engine::Engine eng(std::move(eo), std::move(handlers));
  must(eng.preload(w.circuit_id));
  prover->reset_device_peak();  // the proofs' peak, not the key generation's

  std::vector<double> proof_ms, parse_ms;
  std::vector<engine::PartitionTimes> parts;
  // Each proof's device timeline: its partitions' turns on the GPU (bench_support.hpp).
  std::vector<BusySummary> timelines;
  bool failed = false;
  {
    Progress progress("proving", uint64_t(w.requests.size()) * w.partitions,
                      quiet ? ProgressStyle::off : Progress::stderr_style());
    for (engine::JobRequest& r : w.requests) {
      uint32_t seen = 0;
      const engine::JobResult job = must(engine::prove_to_end(eng, std::move(r), [&](uint32_t done, uint32_t) {
        progress.advance(done - seen);
        seen = done;
      }));
      // The proof's time: the job's, less the payload's parse and checks (the daemon parses the
      // next job's while one is proved).
      proof_ms.push_back(job.times.total_ms - job.times.parse_ms);
      parse_ms.push_back(job.times.parse_ms);
      if (job.state != engine::JobState::completed) {
        fmt::print(stderr, "bench e2e: proof {} failed: {}\n", proof_ms.size() - 1, job.error_text());
        failed = true;
        break;
      }
      parts.insert(parts.end(), job.partition_times.begin(), job.partition_times.end());
      timelines.push_back(device_busy(job.partition_times));
    }
  }
  const double med = median(proof_ms);
  const double per_hour = med > 0 ? 3.6e6 / med : 0;
  const std::optional<size_t> gpu_peak = prover->device_peak_bytes();
  const double gpu_peak_gib = gpu_peak ? double(*gpu_peak) / double(1ull << 30) : 0;
  // Freed memory stays mapped (gpu::Device::retain_pool_memory): what the pool holds now is what
  // the proofs took of the card at most, the allocator's fragmentation included.
  const std::optional<size_t> gpu_reserved = prover->device_reserved_bytes();
  const double gpu_reserved_gib = gpu_reserved ? double(*gpu_reserved) / double(1ull << 30) : 0;
  // The proofs' device memory must stay within the limit (the key's generation, before them, uses
  // the whole card: a benchmark's convenience).
  const bool over_limit = gpu_peak && choice.memory_limit != 0 && *gpu_peak > choice.memory_limit;
  if (over_limit) {
    fmt::print(stderr, "bench e2e: peak GPU memory {:.2f} GiB is over the limit of {:.2f} GiB\n", gpu_peak_gib,
               double(choice.memory_limit) / double(1ull << 30));
  }
  const bool ok = !failed && !over_limit;
  // Medians over the proofs of their device timelines; `outside`: the proof's time before its
  // first turn and after its last (the first partition's synthesis and upload, the last one's
  // proof assembly and check).
  const bool on_device = std::ranges::any_of(timelines, [](const BusySummary& b) { return b.span_ms > 0; });
  const auto timeline_median = [&](auto of) {
    std::vector<double> v;
    for (size_t i = 0; i < timelines.size(); ++i) v.push_back(of(timelines[i], proof_ms[i]));
    return median(v);
  };
  const double tl_span = timeline_median([](const BusySummary& b, double) { return b.span_ms; });
  const double tl_busy_pct =
      timeline_median([](const BusySummary& b, double) { return b.span_ms > 0 ? 100 * b.busy_ms / b.span_ms : 0; });
  const double tl_idle = timeline_median([](const BusySummary& b, double) { return b.idle_ms(); });
  const double tl_gaps = timeline_median([](const BusySummary& b, double) { return double(b.gaps); });
  const double tl_max_gap = timeline_median([](const BusySummary& b, double) { return b.max_gap_ms; });
  const double tl_outside = timeline_median([](const BusySummary& b, double proof) { return proof - b.span_ms; });

  // Each MSM's phases and terms (the GPU backend's; docs/PERF.md 53), medians over the partitions.
  struct PhaseField {
    const char* name;
    double (*of)(const groth16::MsmPhases&);
  };
  static constexpr PhaseField kPhaseFields[] = {
      {"terms", [](const groth16::MsmPhases& p) { return double(p.terms); }},
      {"significant", [](const groth16::MsmPhases& p) { return double(p.significant); }},
      {"ones_terms", [](const groth16::MsmPhases& p) { return double(p.ones_terms); }},
      {"prepare_ms", [](const groth16::MsmPhases& p) { return p.prepare; }},
      {"ones_ms", [](const groth16::MsmPhases& p) { return p.ones; }},
      {"sort_ms", [](const groth16::MsmPhases& p) { return p.sort; }},
      {"accumulate_ms", [](const groth16::MsmPhases& p) { return p.accumulate; }},
      {"reduce_ms", [](const groth16::MsmPhases& p) { return p.reduce; }},
  };
  const auto phase_median = [&](size_t msm, const PhaseField& f) {
    std::vector<double> v;
    for (const auto& p : parts) v.push_back(f.of(p.prover.msm_phases[msm]));
    return median(v);
  };
  const bool has_phases = std::ranges::any_of(parts, [](const engine::PartitionTimes& p) {
    return std::ranges::any_of(p.prover.msm_phases, [](const groth16::MsmPhases& m) { return m.terms > 0; });
  });

  if (o.json) {
    std::string stages, proofs, phases;
    for (size_t i = 0; has_phases && i < std::size(groth16::kMsmOfNames); ++i) {
      std::string fields;
      for (const PhaseField& f : kPhaseFields)
        fields += fmt::format("{}\"{}\":{:.{}f}", fields.empty() ? "" : ",", f.name, phase_median(i, f),
                              std::string_view(f.name).ends_with("_ms") ? 2 : 0);
      phases += fmt::format("{}\"{}\":{{{}}}", phases.empty() ? "" : ",", groth16::kMsmOfNames[i], fields);
    }
    for (const Stage& s : kStages) {
      std::vector<double> v;
      for (const auto& p : parts) v.push_back(s.of(p));
      stages += fmt::format("{}\"{}\":{:.1f}", stages.empty() ? "" : ",", s.name, median(v));
    }
    for (double ms : proof_ms) proofs += fmt::format("{}{:.1f}", proofs.empty() ? "" : ",", ms);
    const std::string timeline =
        on_device ? fmt::format("{{\"span_ms\":{:.1f},\"busy_pct\":{:.2f},\"idle_ms\":{:.1f},\"gaps\":{:.0f},"
                                "\"max_gap_ms\":{:.2f},\"outside_ms\":{:.1f}}}",
                                tl_span, tl_busy_pct, tl_idle, tl_gaps, tl_max_gap, tl_outside)
                  : "null";
    fmt::print(
        "{{\"bench\":\"e2e\",\"kind\":\"{}\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"threads\":{},\"partitions_in_flight\":{},"
        "\"parallel_synthesis\":{},\"partitions\":{},\"constraints\":{},\"aux\":{},\"compile_ms\":{:.1f},"
        "\"key_scalars_ms\":{:.1f},\"key_points_ms\":{:.1f},\"circuit_upload_ms\":{:.1f},\"witness_buffers_ms\":{:.1f},"
        "\"proofs_ms\":[{}],\"median_parse_ms\":{:.1f},"
        "\"median_proof_ms\":{:.1f},\"proofs_per_hour\":{:.1f},\"partition_median_ms\":{{{}}},\"msm_phases\":{},"
        "\"device_timeline\":{},\"peak_rss_gib\":{:.2f},\"peak_gpu_gib\":{:.2f},\"reserved_gpu_gib\":{:.2f},\"placement\":\"{}\",\"msm_streams\":{},\"gpu_memory_limit_gib\":{:.2f},"
        "\"ok\":{}}}\n",
        o.kind, o.sector_size, own.backend, pool.threads(), in_flight, !o.serial_challenges, w.partitions, own.constraints,
        own.aux, own.compile_ms, own.scalars_ms, own.points_ms, own.circuit_ms, buffers_ms, proofs, median(parse_ms), med,
        per_hour, stages, has_phases ? "{" + phases + "}" : std::string("null"), timeline, peak_rss_gib(), gpu_peak_gib,
        gpu_reserved_gib, own.placement,
        on_device ? fmt::format("\"{}\"", groth16::msm_streams_name(o.gpu.msm_streams)) : "null",
        double(choice.memory_limit) / double(1ull << 30), ok ? "true" : "false");
    return ok ? 0 : 1;
  }
  fmt::print("bench e2e: {}, {} partition{} of {} constraints, backend {}, {} threads\n", w.name, w.partitions,
             w.partitions == 1 ? "" : "s", own.constraints, own.backend, pool.threads());
  fmt::print("  compile {:.1f} s; key: exponents {:.1f} s, points {:.1f} s; circuit up {:.1f} s\n", own.compile_ms / 1e3,
             own.scalars_ms / 1e3, own.points_ms / 1e3, own.circuit_ms / 1e3);
  fmt::print("  per partition (median of {}), ms:", parts.size());
  for (const Stage& s : kStages) {
    std::vector<double> v;
    for (const auto& p : parts) v.push_back(s.of(p));
    fmt::print(" {} {:.1f}", s.name, median(v));
  }
  fmt::print("\n");
  if (has_phases) {
    fmt::print("  MSMs per partition (median of {}): terms (in buckets, k = 1); prepare, ones, sort, accumulate, reduce "
               "ms\n", parts.size());
    for (size_t i = 0; i < std::size(groth16::kMsmOfNames); ++i) {
      const auto at = [&](size_t f) { return phase_median(i, kPhaseFields[f]); };
      fmt::print("    {:<5} {:>11.0f} ({:.0f}, {:.0f}); {:.1f}, {:.1f}, {:.1f}, {:.1f}, {:.1f}\n", groth16::kMsmOfNames[i],
                 at(0), at(1), at(2), at(3), at(4), at(5), at(6), at(7));
    }
  }
  if (on_device)
    fmt::print("  device timeline (median of {} proofs): turns span {:.1f} ms, held {:.2f} %, idle {:.1f} ms in {:.0f} "
               "gaps (longest {:.2f} ms); {:.1f} ms of the proof outside the span\n",
               timelines.size(), tl_span, tl_busy_pct, tl_idle, tl_gaps, tl_max_gap, tl_outside);
  for (size_t i = 0; i < proof_ms.size(); ++i)
    fmt::print("  proof {}: {:.3f} s (parsed and checked in {:.3f} s before), {}\n", i, proof_ms[i] / 1e3, parse_ms[i] / 1e3,
               failed && i + 1 == proof_ms.size() ? "FAILED" : "verified");
  fmt::print("  median proof {:.3f} s: {:.1f} proofs/hour one after another; peak RSS {:.1f} GiB", med / 1e3, per_hour,
             peak_rss_gib());
  if (gpu_peak)
    fmt::print(", peak GPU memory during the proofs {:.1f} GiB ({:.1f} GiB mapped after them), {}", gpu_peak_gib,
               gpu_reserved_gib, own.placement);
  if (choice.memory_limit != 0) fmt::print(" (limit {:.1f} GiB)", double(choice.memory_limit) / double(1ull << 30));
  fmt::print("\n");
  return ok ? 0 : 1;
}

}  // namespace

int run_e2e_bench(const E2eBenchOptions& options) {
  return run(options);  // what it throws, the app's guard reports (apps/cuzk/command_support.hpp)
}

}  // namespace cuzk::bench
