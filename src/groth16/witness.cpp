#include "groth16/witness.hpp"

#include <algorithm>

namespace cuzk::groth16 {

WitnessPool::Memory WitnessPool::host_memory(size_t elements) {
  auto v = std::make_shared<std::vector<ff::Fr>>(elements);  // zero-filled: every page touched now
  return Memory{std::span<ff::Fr>(*v), v};
}

WitnessPool::Lease WitnessPool::lend() {
  {
    const std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      Memory m = std::move(free_.back());
      free_.pop_back();
      return Lease(this, std::move(m));
    }
    ++allocated_;
  }
  // Allocated outside the lock: a 4 GB pinned allocation takes a while, and others may give back.
  try {
    return Lease(this, allocate_(sizes_.elements()));
  } catch (...) {
    const std::lock_guard lock(mutex_);
    --allocated_;
    throw;
  }
}

void WitnessPool::reserve(size_t buffers) {
  std::vector<Lease> leases;
  while (this->buffers() < buffers) leases.push_back(lend());
}

size_t WitnessPool::buffers() const {
  const std::lock_guard lock(mutex_);
  return allocated_;
}

void WitnessPool::give_back(Memory memory) {
  const std::lock_guard lock(mutex_);
  free_.push_back(std::move(memory));
}

}  // namespace cuzk::groth16
