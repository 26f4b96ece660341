#include "service/prometheus.hpp"

#include <fmt/format.h>

#include "core/process_memory.hpp"

namespace cuzk::service {
namespace {

void metric(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

ProcessReadings read_process() {
  ProcessReadings r;
  r.resident_bytes = resident_bytes();
  r.gpus = groth16::visible_gpus();
  return r;
}

std::string prometheus_text(const engine::MetricsSnapshot& m, const ProcessReadings& process) {
  using engine::JobState;
  std::string out;
  metric(out, "cuzk_proofs_total", "counter", "Jobs finished, by proof kind and final state.");
  for (const auto& [kind, k] : m.kinds) {
    const std::pair<JobState, uint64_t> states[] = {
        {JobState::completed, k.completed}, {JobState::failed, k.failed}, {JobState::cancelled, k.cancelled}};
    for (const auto& [state, n] : states)
      out += fmt::format("cuzk_proofs_total{{kind=\"{}\",state=\"{}\"}} {}\n", to_string(kind), to_string(state), n);
  }
  metric(out, "cuzk_queue_pending", "gauge", "Jobs submitted and not yet proving (parsing included).");
  for (const auto& [kind, n] : m.pending) out += fmt::format("cuzk_queue_pending{{kind=\"{}\"}} {}\n", to_string(kind), n);
  metric(out, "cuzk_queue_pending_by_priority", "gauge", "cuzk_queue_pending split by the jobs' priority.");
  for (const auto& [kind, counts] : m.pending_by_priority) {
    for (const engine::Priority p : {engine::Priority::low, engine::Priority::normal, engine::Priority::high,
                                     engine::Priority::critical})
      out += fmt::format("cuzk_queue_pending_by_priority{{kind=\"{}\",priority=\"{}\"}} {}\n", to_string(kind),
                         to_string(p), counts[static_cast<size_t>(p)]);
  }
  metric(out, "cuzk_queue_in_progress", "gauge", "Jobs being proved.");
  for (const auto& [kind, n] : m.in_progress)
    out += fmt::format("cuzk_queue_in_progress{{kind=\"{}\"}} {}\n", to_string(kind), n);

  metric(out, "cuzk_stage_seconds", "histogram", "Per-job stage latency of completed jobs.");
  for (const auto& [kind, k] : m.kinds) {
    for (size_t s = 0; s < engine::kStages.size(); ++s) {
      const engine::Histogram& h = k.stages[s];
      const std::string labels = fmt::format("kind=\"{}\",stage=\"{}\"", to_string(kind), to_string(engine::kStages[s]));
      uint64_t cumulative = 0;
      for (size_t b = 0; b < engine::Histogram::kBounds.size(); ++b) {
        cumulative += h.counts[b];
        out += fmt::format("cuzk_stage_seconds_bucket{{{},le=\"{}\"}} {}\n", labels, engine::Histogram::kBounds[b], cumulative);
      }
      out += fmt::format("cuzk_stage_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels, h.count);
      out += fmt::format("cuzk_stage_seconds_sum{{{}}} {}\ncuzk_stage_seconds_count{{{}}} {}\n", labels, h.sum, labels, h.count);
    }
  }

  metric(out, "cuzk_worker_busy_seconds_total", "counter",
         "Seconds each prover worker spent proving; its rate is the worker's utilisation.");
  for (size_t w = 0; w < m.workers.size(); ++w)
    out += fmt::format("cuzk_worker_busy_seconds_total{{worker=\"{}\",device=\"{}\"}} {}\n", w, m.workers[w].where,
                       m.workers[w].busy_s);
  metric(out, "cuzk_gpu_failures_total", "counter",
         "Jobs each GPU failed (a CUDA error, no room for a circuit, a proof that did not verify); each was "
         "retried on another GPU or the CPU.");
  for (const engine::MetricsSnapshot::Gpu& g : m.gpus)
    out += fmt::format("cuzk_gpu_failures_total{{gpu=\"{}\"}} {}\n", g.ordinal, g.failures);
  metric(out, "cuzk_gpu_resting", "gauge", "1 while a GPU that failed a job takes none (its rest: engine.fault_rest).");
  for (const engine::MetricsSnapshot::Gpu& g : m.gpus)
    out += fmt::format("cuzk_gpu_resting{{gpu=\"{}\"}} {}\n", g.ordinal, g.resting ? 1 : 0);
  metric(out, "cuzk_gpu_memory_bytes", "gauge", "Device memory of each visible GPU (total and free, from CUDA).");
  for (const groth16::GpuInfo& g : process.gpus) {
    out += fmt::format("cuzk_gpu_memory_bytes{{gpu=\"{}\",kind=\"total\"}} {}\n", g.ordinal, g.total_bytes);
    out += fmt::format("cuzk_gpu_memory_bytes{{gpu=\"{}\",kind=\"free\"}} {}\n", g.ordinal, g.free_bytes);
  }
  metric(out, "cuzk_memory_budget_bytes", "gauge", "Host memory the engine admits jobs against (0: no limit).");
  out += fmt::format("cuzk_memory_budget_bytes {}\n", m.memory_budget);
  metric(out, "cuzk_memory_reserved_bytes", "gauge", "Host memory reserved by loaded circuits and admitted jobs.");
  out += fmt::format("cuzk_memory_reserved_bytes {}\n", m.memory_reserved);
  metric(out, "cuzk_srs_loaded_bytes", "gauge", "Host bytes of the loaded circuits' parameters.");
  out += fmt::format("cuzk_srs_loaded_bytes {}\n", m.circuits_bytes);
  metric(out, "cuzk_process_resident_bytes", "gauge", "The daemon's resident set size.");
  out += fmt::format("cuzk_process_resident_bytes {}\n", process.resident_bytes);
  metric(out, "cuzk_uptime_seconds", "gauge", "Seconds since the engine started.");
  out += fmt::format("cuzk_uptime_seconds {:.0f}\n", m.uptime_s);
  return out;
}

}  // namespace cuzk::service
