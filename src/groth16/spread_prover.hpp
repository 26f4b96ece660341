#pragma once
// One prover over several (engine::Spread::partitions: a proof's partitions over every GPU). Each
// prove() goes to the backend with the fewest calls in flight (the first of equals), so the
// partitions a caller proves ahead on worker threads (porep::ProveOptions::synthesis_workers, N
// per backend) run on all the backends at once: a 32 GiB PoRep proof on two GPUs in about half
// the time of one.
//
// A backend whose call fails (a CUDA error, out of memory) rests: it is offered no call for
// `rest`, doubled for each failure in a row up to 16x (calls failing during a rest do not lengthen
// it: the same fault), unless every backend rests; the call goes
// to another backend that has not failed it. It fails only when every backend has, naming each
// one's error. An input the backends refuse (kInvalidArgument: a witness of the wrong size) is
// not retried. Every backend gives the same proof for the same input, r and s, so the proof does
// not depend on the route.

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/fault_rest.hpp"
#include "groth16/backend.hpp"

namespace cuzk::groth16 {

class SpreadProver final : public ProverBackend {
 public:
  // `backends` (at least one; not owned: they must outlive it) prove for the same key and circuit.
  // Their witnesses are lent by the first one's pool (witness_pool()), whose buffers every backend
  // must be able to read (a GpuProver's: page-locked for all devices).
  explicit SpreadProver(std::vector<ProverBackend*> backends,
                        std::chrono::milliseconds rest = std::chrono::milliseconds(30'000));

  Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) override;
  Expected<Proof> prove(const Witness& z, const Blinding& blinding, ProverTimes* times = nullptr) override;
  // "spread over gpu 0 (NVIDIA H200) + gpu 1 (NVIDIA H200)".
  std::string name() const override;
  std::optional<size_t> device_peak_bytes() const override;  // the largest of the backends'
  void reset_device_peak() const override;
  std::optional<CircuitSizes> circuit_sizes() const override { return backends_.front().backend->circuit_sizes(); }
  WitnessPool* witness_pool() override { return backends_.front().backend->witness_pool(); }
  bool reads_host_key() const override;

  size_t backends() const { return backends_.size(); }
  // Calls each backend has proved, and failed (by position in the constructor's list).
  struct Counts {
    uint64_t proved = 0, failed = 0;
  };
  std::vector<Counts> counts() const;

 private:
  struct Slot {
    ProverBackend* backend = nullptr;
    unsigned in_flight = 0;
    FaultRest rest;  // core/fault_rest.hpp
    Counts counts;
  };
  // The backend for the next call: not in `tried`, not resting unless all the others are, fewest
  // in flight. Counts the call in flight. None left: nullopt.
  std::optional<size_t> pick(const std::vector<bool>& tried);
  template <class Input>
  Expected<Proof> route(const Input& input, const Blinding& blinding, ProverTimes* times);

  std::chrono::milliseconds rest_;
  mutable std::mutex mutex_;
  std::vector<Slot> backends_;
};

}  // namespace cuzk::groth16
