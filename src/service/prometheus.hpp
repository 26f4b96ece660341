#pragma once
// The engine's metrics as Prometheus text exposition (version 0.0.4), for GetMetrics and the
// HTTP /metrics endpoint. Names are documented in docs/daemon.md.

#include <string>
#include <vector>

#include "engine/metrics.hpp"
#include "groth16/select_prover.hpp"

namespace cuzk::service {

// Process and device readings taken beside the engine's snapshot.
struct ProcessReadings {
  size_t resident_bytes = 0;  // core/process_memory.hpp
  std::vector<groth16::GpuInfo> gpus;
};
ProcessReadings read_process();

std::string prometheus_text(const engine::MetricsSnapshot& m, const ProcessReadings& process);

}  // namespace cuzk::service
