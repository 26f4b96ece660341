#include "engine/srs_cache.hpp"

#include "core/timing.hpp"

namespace cuzk::engine {

Expected<SrsCache::Acquired> SrsCache::acquire(const std::string& circuit_id) {
  const auto t0 = Clock::now();
  std::unique_lock lock(mutex_);
  bool waited = false;
  for (;;) {
    auto it = slots_.find(circuit_id);
    if (it == slots_.end()) break;  // not loaded, or another caller's load failed: load it here
    if (it->second) return Acquired{it->second, waited ? ms_since(t0) : 0.0};
    loaded_.wait(lock);  // another caller is loading it
    waited = true;
  }
  slots_[circuit_id] = nullptr;  // loading
  lock.unlock();
  Expected<std::shared_ptr<LoadedCircuit>> loaded = loader_(circuit_id);
  lock.lock();
  if (!loaded) {
    slots_.erase(circuit_id);
    loaded_.notify_all();
    return loaded.error();
  }
  slots_[circuit_id] = *loaded;
  loaded_.notify_all();
  return Acquired{*loaded, ms_since(t0)};
}

Expected<SrsCache::Preloaded> SrsCache::preload(const std::string& circuit_id) {
  {
    const std::lock_guard lock(mutex_);
    if (auto it = slots_.find(circuit_id); it != slots_.end() && it->second) return Preloaded{true, 0};
  }
  Acquired a;
  CUZK_TRY_ASSIGN(a, acquire(circuit_id));
  return Preloaded{false, a.load_ms};
}

SrsCache::Evicted SrsCache::evict(const std::string& circuit_id) {
  const std::lock_guard lock(mutex_);
  auto it = slots_.find(circuit_id);
  if (it == slots_.end() || !it->second) return {};
  const Evicted out{true, it->second->host_bytes};
  slots_.erase(it);
  return out;
}

std::vector<SrsCache::Entry> SrsCache::entries() const {
  const std::lock_guard lock(mutex_);
  std::vector<Entry> out;
  for (const auto& [id, circuit] : slots_) {
    if (!circuit) continue;
    // The cache's own reference is not a user.
    out.push_back({id, circuit->host_bytes, unsigned(circuit.use_count() - 1)});
  }
  return out;
}

bool SrsCache::holds(const std::string& circuit_id) const {
  const std::lock_guard lock(mutex_);
  auto it = slots_.find(circuit_id);
  return it != slots_.end() && it->second != nullptr;
}

size_t SrsCache::host_bytes() const {
  size_t sum = 0;
  for (const Entry& e : entries()) sum += e.host_bytes;
  return sum;
}

}  // namespace cuzk::engine
