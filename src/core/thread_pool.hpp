#pragma once
// The worker threads that parallel CPU stages (NTT, MSM, SpMV, synthesis) run on: a oneTBB
// task_arena of a fixed size, created by the program and passed by reference (no global pool,
// shared/STYLE.md habit 6). Work submitted from inside the pool's own tasks nests in the same
// arena, so a stage that splits further never oversubscribes the machine.

#include <cstddef>
#include <memory>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace cuzk {

class ThreadPool {
 public:
  // threads = 0: one per hardware thread; more than the hardware has are not created (the Rust
  // cuzk lost time to oversubscribed pools). threads = 1 runs everything on the caller's thread.
  explicit ThreadPool(unsigned threads = 0);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return threads_; }

  // body(begin, end) over disjoint ranges covering [0, n), in parallel on the pool; ranges are
  // split in halves while longer than `grain`, so each is at least grain/2 long (tbb's rule).
  // Returns when all are done; an exception thrown by a body is rethrown here.
  template <class Body>
  void parallel_for(size_t n, size_t grain, Body&& body) {
    if (n == 0) return;
    if (threads_ == 1 || n <= grain) {
      body(size_t{0}, n);
      return;
    }
    arena_->execute([&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain == 0 ? 1 : grain),
                        [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
    });
  }

  // task(i) for i in [0, count), each its own task (for a few large, unequal pieces).
  template <class Task>
  void for_each_index(size_t count, Task&& task) {
    parallel_for(count, 1, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) task(i);
    });
  }

 private:
  unsigned threads_;
  std::unique_ptr<tbb::task_arena> arena_;
};

}  // namespace cuzk
