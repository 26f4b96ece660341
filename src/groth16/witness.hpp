#pragma once
// A witness of a compiled circuit, z = [inputs ‖ aux] (ONE first), and the host memory it is
// written into (shared/DESIGN.md decision 4: the backend computes a, b, c from z and the circuit).
//
// WitnessPool lends buffers of the circuit's size and takes them back when the proof is made, so
// every partition after the first is synthesised into memory already faulted in: a 32 GiB PoRep
// partition's z is 4.2 GB, and growing or first-touching that much per partition costs more than
// computing it (page faults serialise on the kernel's page tables when many threads take them;
// docs/PERF.md entry 22). A GPU backend's pool allocates pinned memory, from which z goes up by
// DMA at the full PCIe rate.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::groth16 {

// A witness as the backends read it: spans into memory the caller owns.
struct Witness {
  std::span<const ff::Fr> inputs, aux;
};

// The sizes of a compiled circuit's z = [inputs ‖ aux] (ONE among the inputs).
struct CircuitSizes {
  size_t inputs = 0, aux = 0;
  size_t elements() const { return inputs + aux; }
};

class WitnessPool {
 public:
  // One buffer: z's elements and whatever owns them (freed when the last copy goes).
  struct Memory {
    std::span<ff::Fr> z;
    std::shared_ptr<void> owner;
  };
  using Allocate = std::function<Memory(size_t elements)>;

  // Plain host memory, written once at allocation so that its pages are there before synthesis.
  static Memory host_memory(size_t elements);

  explicit WitnessPool(CircuitSizes sizes, Allocate allocate = host_memory)
      : sizes_(sizes), allocate_(std::move(allocate)) {}
  WitnessPool(const WitnessPool&) = delete;
  WitnessPool& operator=(const WitnessPool&) = delete;

  // A buffer lent until the Lease goes (it must not outlive the pool). Its contents are whatever
  // the last borrower left: synthesis writes every element.
  class Lease {
   public:
    Lease(Lease&& o) noexcept : pool_(std::exchange(o.pool_, nullptr)), memory_(std::move(o.memory_)) {}
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease() {
      if (pool_ != nullptr) pool_->give_back(std::move(memory_));
    }
    std::span<ff::Fr> z() const { return memory_.z; }
    Witness witness() const {
      return {memory_.z.first(pool_->sizes_.inputs), memory_.z.subspan(pool_->sizes_.inputs)};
    }

   private:
    friend class WitnessPool;
    Lease(WitnessPool* pool, Memory memory) : pool_(pool), memory_(std::move(memory)) {}
    WitnessPool* pool_;
    Memory memory_;
  };

  // The buffer given back last (its memory the warmest), or a new one when all are lent
  // (thread-safe).
  Lease lend();
  // At least `buffers` allocated (what many partitions in flight will borrow), allocated now
  // rather than on the first proofs.
  void reserve(size_t buffers);

  const CircuitSizes& sizes() const { return sizes_; }
  size_t buffers() const;  // allocated, lent or free
  size_t buffer_bytes() const { return sizes_.elements() * sizeof(ff::Fr); }

 private:
  void give_back(Memory memory);
  CircuitSizes sizes_;
  Allocate allocate_;
  mutable std::mutex mutex_;
  std::vector<Memory> free_;
  size_t allocated_ = 0;
};

}  // namespace cuzk::groth16
