#pragma once
// What the bench drivers share: the peak RSS, a median, and errors as one exception to the
// driver's edge.

#include <sys/resource.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/expected.hpp"

namespace cuzk::bench {

// The process's peak resident set so far, in GiB (getrusage: KiB on Linux).
inline double peak_rss_gib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / (1024.0 * 1024.0);
}

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

}  // namespace cuzk::bench
