#pragma once
// The circuits whose parameters are loaded (the SRS cache): loaded on first use or by preload,
// kept until evicted. Concurrent users of one circuit share one load. Evicting drops the cache's
// reference; the memory goes when the last job still proving with it ends.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "engine/handler.hpp"

namespace cuzk::engine {

class SrsCache {
 public:
  using Loader = std::function<Expected<std::shared_ptr<LoadedCircuit>>(const std::string& circuit_id)>;
  explicit SrsCache(Loader loader) : loader_(std::move(loader)) {}

  struct Acquired {
    std::shared_ptr<LoadedCircuit> circuit;
    double load_ms = 0;  // what this call waited for a load (its own or another's); 0 when resident
  };
  // The circuit, loaded now unless resident. A failed load is not kept (the next call tries again).
  Expected<Acquired> acquire(const std::string& circuit_id);

  struct Preloaded {
    bool already_loaded = false;
    double load_ms = 0;
  };
  Expected<Preloaded> preload(const std::string& circuit_id);

  struct Evicted {
    bool was_loaded = false;
    size_t freed_bytes = 0;  // freed now, or when the jobs still using it end
  };
  Evicted evict(const std::string& circuit_id);

  struct Entry {
    std::string circuit_id;
    size_t host_bytes = 0;
    unsigned users = 0;  // jobs holding it now
  };
  std::vector<Entry> entries() const;
  bool holds(const std::string& circuit_id) const;  // loaded (not loading)
  size_t host_bytes() const;  // of every loaded circuit

 private:
  Loader loader_;
  mutable std::mutex mutex_;
  std::condition_variable loaded_;
  std::map<std::string, std::shared_ptr<LoadedCircuit>> slots_;  // null while loading
};

}  // namespace cuzk::engine
