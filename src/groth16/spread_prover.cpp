#include "groth16/spread_prover.hpp"

#include <algorithm>
#include <exception>

#include "core/error.hpp"

namespace cuzk::groth16 {

using Clock = std::chrono::steady_clock;

SpreadProver::SpreadProver(std::vector<ProverBackend*> backends, std::chrono::milliseconds rest) : rest_(rest) {
  if (backends.empty()) throw Exception(invalid_argument("SpreadProver: no backends"));
  for (ProverBackend* b : backends) {
    if (b == nullptr) throw Exception(invalid_argument("SpreadProver: a null backend"));
    Slot s;
    s.backend = b;
    backends_.push_back(s);
  }
}

std::optional<size_t> SpreadProver::pick(const std::vector<bool>& tried) {
  const std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  std::optional<size_t> best;
  for (bool resting_allowed : {false, true}) {
    for (size_t i = 0; i < backends_.size(); ++i) {
      const Slot& s = backends_[i];
      if (tried[i] || (!resting_allowed && s.rest.resting(now))) continue;
      if (!best || s.in_flight < backends_[*best].in_flight) best = i;
    }
    if (best) break;
  }
  if (best) ++backends_[*best].in_flight;
  return best;
}

template <class Input>
Expected<Proof> SpreadProver::route(const Input& input, const Blinding& blinding, ProverTimes* times) {
  std::vector<bool> tried(backends_.size(), false);
  std::string errors;
  for (;;) {
    const std::optional<size_t> i = pick(tried);
    if (!i) return Error{ErrorCode::kInternal, "every GPU failed this partition: " + errors};
    tried[*i] = true;
    ProverBackend& b = *backends_[*i].backend;
    Expected<Proof> proof = Error{ErrorCode::kInternal, "not proved"};
    try {
      proof = b.prove(input, blinding, times);
    } catch (const std::exception& e) {  // a CUDA failure: this backend's, not the call's
      proof = Error{ErrorCode::kInternal, e.what()};
    }
    const std::lock_guard lock(mutex_);
    Slot& s = backends_[*i];
    --s.in_flight;
    if (proof || proof.error().code == ErrorCode::kInvalidArgument) {  // proved, or the input's fault
      if (proof) {
        ++s.counts.proved;
        s.rest.succeeded();
      }
      return proof;
    }
    ++s.counts.failed;
    s.rest.failed(rest_, Clock::now());  // none begun when it came during one (the same fault)
    errors += (errors.empty() ? "" : "; ") + b.name() + ": " + proof.error().message;
  }
}

Expected<Proof> SpreadProver::prove(const Assignment& w, const Blinding& blinding, ProverTimes* times) {
  return route(w, blinding, times);
}

Expected<Proof> SpreadProver::prove(const Witness& z, const Blinding& blinding, ProverTimes* times) {
  return route(z, blinding, times);
}

std::string SpreadProver::name() const {
  std::string out = "spread over ";
  for (size_t i = 0; i < backends_.size(); ++i) out += (i ? " + " : "") + backends_[i].backend->name();
  return out;
}

std::optional<size_t> SpreadProver::device_peak_bytes() const {
  std::optional<size_t> most;
  for (const Slot& s : backends_) {
    if (const auto p = s.backend->device_peak_bytes()) most = std::max(most.value_or(0), *p);
  }
  return most;
}

void SpreadProver::reset_device_peak() const {
  for (const Slot& s : backends_) s.backend->reset_device_peak();
}

bool SpreadProver::reads_host_key() const {
  return std::ranges::any_of(backends_, [](const Slot& s) { return s.backend->reads_host_key(); });
}

std::vector<SpreadProver::Counts> SpreadProver::counts() const {
  const std::lock_guard lock(mutex_);
  std::vector<Counts> out;
  for (const Slot& s : backends_) out.push_back(s.counts);
  return out;
}

}  // namespace cuzk::groth16
