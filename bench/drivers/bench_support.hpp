#pragma once
// What the bench drivers share: the peak RSS, a median, errors as one exception to the driver's
// edge, the device timeline of partitions, and the synthetic C1s of a run.

#include <sys/resource.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/job.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"
#include "porep/synthetic_c1.hpp"

namespace cuzk::bench {

// The process's peak resident set so far (getrusage: KiB on Linux).
inline double peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss);
}
inline double peak_rss_mib() { return peak_rss_kib() / 1024.0; }
inline double peak_rss_gib() { return peak_rss_kib() / (1024.0 * 1024.0); }

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T>
T must(Expected<T> e) {
  if (!e) throw Exception(std::move(e.error()));
  return std::move(*e);
}

// When these partitions held their GPU (ProverTimes::device_begin/end), as one busy summary: the
// span from the first turn to the last, the held union and the idle gaps between turns (all zero
// for the CPU backend, which leaves the times unset). Partitions of one GPU only.
inline BusySummary device_busy(std::span<const engine::PartitionTimes> parts) {
  std::vector<std::pair<Clock::time_point, Clock::time_point>> turns;
  for (const engine::PartitionTimes& p : parts) turns.emplace_back(p.prover.device_begin, p.prover.device_end);
  return busy_summary(std::move(turns));
}

// `count` synthetic C1s of the sector's V1_1 proof (gen-c1's generator), seeds seed, seed + 1, ...
inline std::vector<porep::C1> synthetic_c1s(const porep::SectorShape& sector, unsigned count, uint64_t seed,
                                            const porep::PorepPoseidon& poseidon, ThreadPool& pool) {
  std::vector<porep::C1> out;
  for (unsigned i = 0; i < count; ++i) {
    porep::SyntheticC1Options gen;
    gen.registered_proof = fmt::format("StackedDrg{}V1_1", sector.name);
    gen.seed = seed + i;
    out.push_back(must(porep::generate_synthetic_c1(gen, poseidon, pool)));
  }
  return out;
}

}  // namespace cuzk::bench
