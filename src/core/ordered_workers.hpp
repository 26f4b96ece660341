#pragma once
// Work items 0..n-1 run by a few threads ahead of one consumer who takes the results in order
// (PoRep partitions: synthesis and proof on workers, verification in order by the caller). Workers
// claim items in index order and do not start item k until k < taken + limit, where taken is how
// many results the consumer has taken: at most `limit` items are in flight or waiting (each may
// hold gigabytes). An exception thrown by an item is rethrown by take() of that item.

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace cuzk {

template <class T>
class OrderedWorkers {
 public:
  // Starts min(limit, n) threads running run(k) for k = 0..n-1 (limit >= 1).
  OrderedWorkers(unsigned limit, size_t n, std::function<T(size_t)> run)
      : slots_(n), limit_(std::max(limit, 1u)), run_(std::move(run)) {
    for (size_t i = 0; i < std::min<size_t>(limit_, n); ++i) threads_.emplace_back([this] { work(); });
  }
  // Items not yet started are skipped; running ones finish first.
  ~OrderedWorkers() {
    {
      const std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  OrderedWorkers(const OrderedWorkers&) = delete;
  OrderedWorkers& operator=(const OrderedWorkers&) = delete;

  // Item k's result, waiting for it; k must be the next item not yet taken.
  T take(size_t k) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return slots_[k].ready; });
    Slot& s = slots_[k];
    taken_ = k + 1;
    cv_.notify_all();
    if (s.error) std::rethrow_exception(s.error);
    return std::move(*s.value);
  }

 private:
  struct Slot {
    std::optional<T> value;
    std::exception_ptr error;
    bool ready = false;
  };
  void work() {
    for (;;) {
      size_t k = 0;
      {
        std::unique_lock lock(mutex_);
        if (next_ >= slots_.size()) return;
        k = next_++;
        cv_.wait(lock, [&] { return stop_ || k < taken_ + limit_; });
        if (stop_) return;
      }
      Slot s;
      try {
        s.value = run_(k);
      } catch (...) {
        s.error = std::current_exception();
      }
      s.ready = true;
      const std::lock_guard lock(mutex_);
      slots_[k] = std::move(s);
      cv_.notify_all();
    }
  }

  std::vector<Slot> slots_;
  const unsigned limit_;
  std::function<T(size_t)> run_;
  std::mutex mutex_;
  std::condition_variable cv_;
  size_t next_ = 0, taken_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;  // last: they start once everything above exists
};

}  // namespace cuzk
