#pragma once
// What the bench drivers share: the peak RSS, a median, errors as one exception to the driver's
// edge, and the synthetic C1s of a run.

#include <sys/resource.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/expected.hpp"
#include "core/thread_pool.hpp"
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
