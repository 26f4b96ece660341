// WitnessPool: buffers of the circuit's size, lent and given back, reused rather than allocated
// again, reserved ahead, safe from many threads; an allocation that throws leaves no phantom
// buffer behind.

#include "groth16/witness.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cuzk::groth16 {
namespace {

using ff::Fr;

TEST(WitnessPool, LendsBuffersOfTheCircuitsSizeAndReusesThem) {
  size_t allocations = 0;
  WitnessPool pool(CircuitSizes{3, 5}, [&](size_t n) {
    ++allocations;
    return WitnessPool::host_memory(n);
  });
  EXPECT_EQ(pool.buffer_bytes(), 8 * sizeof(Fr));
  const Fr* first = nullptr;
  {
    WitnessPool::Lease a = pool.lend();
    ASSERT_EQ(a.z().size(), 8u);
    EXPECT_EQ(a.witness().inputs.size(), 3u);
    EXPECT_EQ(a.witness().aux.size(), 5u);
    EXPECT_EQ(a.witness().aux.data(), a.z().data() + 3);  // z = [inputs ‖ aux], contiguous
    a.z()[7] = Fr::from_uint(42);
    first = a.z().data();
    WitnessPool::Lease b = pool.lend();  // the first is lent: a second buffer
    EXPECT_NE(b.z().data(), first);
    EXPECT_EQ(pool.buffers(), 2u);
  }
  WitnessPool::Lease again = pool.lend();  // the last given back (a): reused, contents as left
  EXPECT_EQ(allocations, 2u);
  EXPECT_EQ(again.z().data(), first);
  EXPECT_EQ(again.z()[7], Fr::from_uint(42));
  EXPECT_EQ(pool.buffers(), 2u);
}

TEST(WitnessPool, ReserveAllocatesAheadOnce) {
  size_t allocations = 0;
  WitnessPool pool(CircuitSizes{1, 1}, [&](size_t n) {
    ++allocations;
    return WitnessPool::host_memory(n);
  });
  pool.reserve(3);
  EXPECT_EQ(allocations, 3u);
  pool.reserve(2);
  EXPECT_EQ(allocations, 3u);
  std::vector<WitnessPool::Lease> held;
  for (int i = 0; i < 3; ++i) held.push_back(pool.lend());
  EXPECT_EQ(allocations, 3u);  // all three came from the reserve
  std::set<const Fr*> distinct;
  for (const auto& l : held) distinct.insert(l.z().data());
  EXPECT_EQ(distinct.size(), 3u);
}

TEST(WitnessPool, FailedAllocationIsNotCounted) {
  bool fail = true;
  WitnessPool pool(CircuitSizes{1, 1}, [&](size_t n) {
    if (fail) throw std::runtime_error("out of pinned memory");
    return WitnessPool::host_memory(n);
  });
  EXPECT_THROW(pool.lend(), std::runtime_error);
  EXPECT_EQ(pool.buffers(), 0u);
  fail = false;
  EXPECT_EQ(pool.lend().z().size(), 2u);
  EXPECT_EQ(pool.buffers(), 1u);
}

// Eight threads lending and giving back: no buffer is lent twice at once, and no more are made
// than were ever lent at once (at most the eight).
TEST(WitnessPool, ManyThreads) {
  std::atomic<size_t> allocations = 0;
  WitnessPool pool(CircuitSizes{1, 3}, [&](size_t n) {
    ++allocations;
    return WitnessPool::host_memory(n);
  });
  std::atomic<int> clashes = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        WitnessPool::Lease l = pool.lend();
        const Fr mark = Fr::from_uint(uint64_t(t) * 10000 + uint64_t(i));
        for (Fr& x : l.z()) x = mark;
        std::this_thread::yield();
        for (const Fr& x : l.z()) clashes += x != mark;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(clashes.load(), 0);
  EXPECT_LE(allocations.load(), 8u);
  EXPECT_EQ(pool.buffers(), allocations.load());
}

}  // namespace
}  // namespace cuzk::groth16
