#include "core/thread_pool.hpp"

#include <algorithm>
#include <thread>

namespace cuzk {
namespace {
unsigned pool_size(unsigned requested) {
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  return requested == 0 ? hardware : std::min(requested, hardware);
}
}  // namespace

ThreadPool::ThreadPool(unsigned threads)
    : threads_(pool_size(threads)),
      arena_(std::make_unique<tbb::task_arena>(static_cast<int>(threads_))) {}

}  // namespace cuzk
