#pragma once
// What the engine counts for GetMetrics and /metrics (rendered as Prometheus text in
// service/prometheus.hpp): finished jobs per kind and state, and each stage's latency as a
// histogram.

#include <array>
#include <cstdint>
#include <map>
#include <mutex>

#include "engine/job.hpp"

namespace cuzk::engine {

// Latencies in seconds with fixed upper bounds (Prometheus histogram buckets, +Inf last); the
// bounds span a 2 KiB partition on the CPU (~0.1 s) to a 32 GiB proof on a slow card (~minutes).
struct Histogram {
  static constexpr std::array<double, 14> kBounds = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300};
  std::array<uint64_t, kBounds.size() + 1> counts{};  // per bucket, not cumulative; the last is +Inf
  double sum = 0;
  uint64_t count = 0;
  void observe(double seconds);
};

enum class Stage : uint8_t { queue_wait, parse, srs_load, synthesis, gpu_compute, verify, total };
inline constexpr std::array<Stage, 7> kStages = {Stage::queue_wait, Stage::parse,   Stage::srs_load, Stage::synthesis,
                                                 Stage::gpu_compute, Stage::verify, Stage::total};
std::string_view to_string(Stage stage);

struct KindMetrics {
  uint64_t completed = 0, failed = 0, cancelled = 0;
  std::array<Histogram, kStages.size()> stages;  // completed jobs only
};

// Gauges are filled in by Engine::metrics() from its state at the time.
struct MetricsSnapshot {
  std::map<ProofKind, KindMetrics> kinds;
  std::map<ProofKind, unsigned> pending, in_progress;
  std::map<ProofKind, std::array<unsigned, 5>> pending_by_priority;  // indexed by Priority
  size_t memory_budget = 0, memory_reserved = 0, circuits_bytes = 0;
  // Per prover worker: seconds spent proving, and its place ("gpu 0", "cpu").
  struct Worker {
    std::string where;
    double busy_s = 0;
  };
  std::vector<Worker> workers;
  // Per GPU the engine proves on: jobs it failed (engine.hpp: retried elsewhere), and whether it
  // rests now.
  struct Gpu {
    int ordinal = 0;
    uint64_t failures = 0;
    bool resting = false;
  };
  std::vector<Gpu> gpus;
  double uptime_s = 0;
};

class Metrics {
 public:
  explicit Metrics(size_t workers) : busy_s_(workers, 0.0) {}
  void job_finished(ProofKind kind, JobState state, const JobTimes& times);
  void worker_busy(size_t worker, double seconds);
  // The counters and histograms (the gauges are left for the engine).
  MetricsSnapshot snapshot() const;
  std::vector<double> busy_seconds() const;

 private:
  mutable std::mutex mutex_;
  std::map<ProofKind, KindMetrics> kinds_;
  std::vector<double> busy_s_;
};

}  // namespace cuzk::engine
