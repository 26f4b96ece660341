// OrderedWorkers: results come back in order whatever order items finish in; never more than
// `limit` items started and not yet taken; an item's exception comes back from its take();
// destroying the object with items left neither runs them nor hangs.

#include "core/ordered_workers.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace cuzk {
namespace {

TEST(OrderedWorkers, InOrderAndBoundedAhead) {
  for (unsigned limit : {1u, 2u, 3u}) {
    // asked: the item the consumer is taking (set before take(k)); item k may start once take(k -
    // limit) has begun, so k - asked never exceeds limit.
    std::atomic<int> asked{0}, worst{0};
    OrderedWorkers<size_t> w(limit, 20, [&](size_t k) {
      const int ahead = int(k) - asked.load();
      int seen = worst.load();
      while (ahead > seen && !worst.compare_exchange_weak(seen, ahead)) {
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200 * ((k * 7) % 5)));  // finish out of order
      return k * k;
    });
    for (size_t k = 0; k < 20; ++k) {
      std::this_thread::sleep_for(std::chrono::microseconds(300));  // a slow consumer: workers would run ahead
      asked = int(k);
      EXPECT_EQ(w.take(k), k * k) << "limit " << limit;
    }
    EXPECT_LE(worst.load(), int(limit)) << "limit " << limit;
  }
}

TEST(OrderedWorkers, ExceptionComesBackFromItsTake) {
  OrderedWorkers<int> w(2, 4, [](size_t k) -> int {
    if (k == 2) throw std::runtime_error("item 2");
    return int(k);
  });
  EXPECT_EQ(w.take(0), 0);
  EXPECT_EQ(w.take(1), 1);
  EXPECT_THROW(w.take(2), std::runtime_error);
  EXPECT_EQ(w.take(3), 3);
}

TEST(OrderedWorkers, DestroyedEarlySkipsTheRest) {
  std::atomic<int> ran{0};
  {
    OrderedWorkers<int> w(2, 100, [&](size_t) {
      ++ran;
      return 0;
    });
    w.take(0);
  }
  EXPECT_LT(ran.load(), 100);
}

}  // namespace
}  // namespace cuzk
