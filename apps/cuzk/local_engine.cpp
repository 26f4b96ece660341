#include "local_engine.hpp"

#include <fmt/format.h>

#include "command_support.hpp"
#include "settings.hpp"
#include "core/progress.hpp"

namespace cuzk::app {

engine::Groth16HandlerOptions local_handler_options(ThreadPool& pool, const std::string& params_flag,
                                                    const std::optional<groth16::GpuChoice>& gpu,
                                                    std::optional<uint64_t> blinding_seed) {
  engine::Groth16HandlerOptions o;
  o.param_dir = param_dir_setting(params_flag);
  o.pool = &pool;
  if (gpu) o.gpus = {*gpu};
  o.keep_cpu_prover = !gpu;  // a GPU's failure is reported, not retried on the CPU
  o.partitions_per_gpu = kPartitionsInFlight;
  o.blinding_seed = blinding_seed;
  return o;
}

engine::JobResult prove_in_process(std::unique_ptr<engine::ProofHandler> handler,
                                   const std::optional<groth16::GpuChoice>& gpu, engine::JobRequest request,
                                   const std::string& what, bool quiet) {
  engine::EngineOptions eo;
  if (gpu) eo.gpus = {gpu->ordinal};
  eo.partitions_per_gpu = kPartitionsInFlight;
  eo.retry_on_cpu = false;
  eo.resident_bytes = {};
  std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
  handlers.push_back(std::move(handler));
  engine::Engine eng(std::move(eo), std::move(handlers));
  std::optional<Progress> progress;
  engine::JobResult r = must(engine::prove_to_end(eng, std::move(request), [&](uint32_t done, uint32_t total) {
    if (!progress) progress.emplace(what + ": partitions", total, quiet ? ProgressStyle::off : Progress::stderr_style());
    progress->advance(done - progress->done());
  }));
  progress.reset();
  if (r.state != engine::JobState::completed) throw Exception(r.error.value_or(Error{ErrorCode::kInternal, "no proof"}));
  return r;
}

std::string partition_lines(const engine::JobResult& r) {
  std::string out;
  for (size_t k = 0; k < r.partition_times.size(); ++k) {
    const engine::PartitionTimes& p = r.partition_times[k];
    out += fmt::format("  partition {}: synthesis {:.1f} ms, prove {:.1f} ms (SpMV {:.0f}, H {:.0f}, MSMs h {:.0f} l {:.0f} "
                       "a {:.0f} b_g1 {:.0f} b_g2 {:.0f}), verify {:.1f} ms\n",
                       k, p.synthesis_ms, p.prove_ms, p.prover.spmv, p.prover.h_ntt, p.prover.msm_h, p.prover.msm_l,
                       p.prover.msm_a, p.prover.msm_b_g1, p.prover.msm_b_g2, p.verify_ms);
  }
  return out;
}

std::string partition_json(const engine::JobResult& r) {
  std::string parts;
  for (const engine::PartitionTimes& p : r.partition_times) {
    parts += fmt::format("{}{{\"synthesis_ms\":{:.1f},\"prove_ms\":{:.1f},\"verify_ms\":{:.1f}}}", parts.empty() ? "" : ",",
                         p.synthesis_ms, p.prove_ms, p.verify_ms);
  }
  return "[" + parts + "]";
}

}  // namespace cuzk::app
