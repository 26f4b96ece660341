#include "groth16/gpu_share.hpp"

#include <algorithm>

namespace cuzk::groth16 {

size_t GpuShare::Others::budget(size_t free, size_t limit) const {
  size_t b = free;
  if (limit != 0) b = std::min(b, limit > resident ? limit - resident : 0);
  return b > held ? b - held : 0;
}

GpuShare::Others GpuShare::others() const {
  const std::lock_guard lock(mutex_);
  return {resident_, held_, turns_.empty() ? 0 : *turns_.rbegin()};
}

GpuShare::Member GpuShare::join(Needs needs) {
  const std::lock_guard lock(mutex_);
  resident_ += needs.resident;
  held_ += needs.held;
  if (needs.turn > 0) turns_.insert(needs.turn);
  return Member(this, needs);
}

void GpuShare::leave(const Needs& needs) {
  const std::lock_guard lock(mutex_);
  resident_ -= needs.resident;
  held_ -= needs.held;
  if (needs.turn > 0) turns_.erase(turns_.find(needs.turn));
}

GpuShare::Member::~Member() {
  if (share_ != nullptr) share_->leave(needs_);
}

GpuShare::Member& GpuShare::Member::operator=(Member&& o) noexcept {
  if (this != &o) {
    if (share_ != nullptr) share_->leave(needs_);
    share_ = o.share_;
    needs_ = o.needs_;
    o.share_ = nullptr;
  }
  return *this;
}

bool GpuShare::Member::shares_turns() const {
  if (!takes_turns()) return false;
  const std::lock_guard lock(share_->mutex_);
  return share_->turns_.size() > 1;
}

void GpuShare::Member::lock() {
  if (!takes_turns()) return;
  GpuShare& s = *share_;
  std::unique_lock lock(s.mutex_);
  const uint64_t ticket = s.next_ticket_++;
  s.waiting_.insert(ticket);
  // First come, first served: the oldest waiter starts when it fits; those behind it wait, so
  // that a prover whose next partition asks again at once cannot pass one waiting to fit.
  s.turn_ended_.wait(lock, [&] {
    return *s.waiting_.begin() == ticket &&
           (s.running_ == 0 ||
            (s.capacity_ != 0 && s.resident_ + s.held_ + s.running_bytes_ + needs_.turn <= s.capacity_));
  });
  s.waiting_.erase(ticket);
  ++s.running_;
  s.running_bytes_ += needs_.turn;
  lock.unlock();
  s.turn_ended_.notify_all();  // the next waiter may fit beside this turn
}

void GpuShare::Member::unlock() {
  if (!takes_turns()) return;
  GpuShare& s = *share_;
  {
    const std::lock_guard lock(s.mutex_);
    --s.running_;
    s.running_bytes_ -= needs_.turn;
  }
  s.turn_ended_.notify_all();
}

}  // namespace cuzk::groth16
