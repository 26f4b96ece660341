#include "engine/metrics.hpp"

#include <algorithm>

namespace cuzk::engine {

void Histogram::observe(double seconds) {
  const auto at = std::lower_bound(kBounds.begin(), kBounds.end(), seconds);  // first bound >= seconds
  ++counts[size_t(at - kBounds.begin())];
  sum += seconds;
  ++count;
}

std::string_view to_string(Stage stage) {
  switch (stage) {
    case Stage::queue_wait: return "queue_wait";
    case Stage::parse: return "parse";
    case Stage::srs_load: return "srs_load";
    case Stage::synthesis: return "synthesis";
    case Stage::gpu_compute: return "gpu_compute";
    case Stage::verify: return "verify";
    case Stage::total: return "total";
  }
  return "unknown";
}

void Metrics::job_finished(ProofKind kind, JobState state, const JobTimes& t) {
  const std::lock_guard lock(mutex_);
  KindMetrics& k = kinds_[kind];
  if (state == JobState::completed) {
    ++k.completed;
    const double ms[] = {t.queue_wait_ms, t.parse_ms, t.srs_load_ms, t.synthesis_ms, t.gpu_compute_ms, t.verify_ms, t.total_ms};
    for (size_t i = 0; i < kStages.size(); ++i) k.stages[i].observe(ms[i] / 1e3);
  } else if (state == JobState::failed) {
    ++k.failed;
  } else if (state == JobState::cancelled) {
    ++k.cancelled;
  }
}

void Metrics::worker_busy(size_t worker, double seconds) {
  const std::lock_guard lock(mutex_);
  busy_s_.at(worker) += seconds;
}

MetricsSnapshot Metrics::snapshot() const {
  const std::lock_guard lock(mutex_);
  MetricsSnapshot s;
  s.kinds = kinds_;
  return s;
}

std::vector<double> Metrics::busy_seconds() const {
  const std::lock_guard lock(mutex_);
  return busy_s_;
}

}  // namespace cuzk::engine
