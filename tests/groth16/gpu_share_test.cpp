// Provers beside each other on one card (groth16/gpu_share.hpp), without a GPU: the members'
// bookkeeping, the turns (at once where the capacity holds them, else one after another, in the
// order asked for), and the plans of the 32 GiB circuits (plan_shapes.hpp) loaded one after
// another on an H200, which must leave every member's proof room beside everything the others
// keep.

#include "groth16/gpu_share.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "groth16/gpu_memory_plan.hpp"
#include "plan_shapes.hpp"

namespace cuzk::groth16 {
namespace {

constexpr size_t kGiBytes = size_t{1} << 30;

TEST(GpuShare, MembersAreCountedUntilTheyLeave) {
  GpuShare share;
  EXPECT_EQ(share.others().held, 0u);
  EXPECT_EQ(share.others().largest_turn, 0u);
  {
    GpuShare::Member a = share.join({.resident = 50, .held = 8, .turn = 40});
    GpuShare::Member b = share.join({.resident = 0, .held = 0, .turn = 16});
    GpuShare::Member express = share.join({.resident = 1, .held = 2, .turn = 0});
    EXPECT_TRUE(a.takes_turns());
    EXPECT_FALSE(express.takes_turns());
    const GpuShare::Others o = share.others();
    EXPECT_EQ(o.resident, 51u);
    EXPECT_EQ(o.held, 10u);
    EXPECT_EQ(o.largest_turn, 40u);
    {
      GpuShare::Member moved = std::move(a);  // the membership moves with it
      EXPECT_EQ(share.others().largest_turn, 40u);
    }
    EXPECT_EQ(share.others().largest_turn, 16u);  // a's left with `moved`
    EXPECT_EQ(share.others().held, 2u);
    b = share.join({.resident = 0, .held = 1, .turn = 4});  // b's first membership ends
    EXPECT_EQ(share.others().largest_turn, 4u);
    EXPECT_EQ(share.others().held, 3u);
  }
  EXPECT_EQ(share.others().resident, 0u);
  EXPECT_EQ(share.others().held, 0u);
  EXPECT_EQ(share.others().largest_turn, 0u);
}

TEST(GpuShare, BudgetSubtractsWhatOthersMayStillHold) {
  const GpuShare::Others o{.resident = 50 * kGiBytes, .held = 8 * kGiBytes, .largest_turn = 40 * kGiBytes};
  EXPECT_EQ(o.budget(85 * kGiBytes, 0), 77 * kGiBytes);
  // A limit counts every member's data: 100 GiB for cuzk, 50 of them the others' key and circuit.
  EXPECT_EQ(o.budget(85 * kGiBytes, 100 * kGiBytes), 42 * kGiBytes);
  EXPECT_EQ(o.budget(4 * kGiBytes, 0), 0u);
  EXPECT_EQ(o.budget(85 * kGiBytes, 40 * kGiBytes), 0u);
}

// Whether `waiter` starts a turn within 100 ms while `holder` holds one (`meanwhile` runs in that
// time); once the holder's turn ends, the waiter's must start.
bool starts_beside(GpuShare::Member& holder, GpuShare::Member& waiter, const std::function<void()>& meanwhile = {}) {
  std::atomic<bool> in{false};
  holder.lock();
  std::thread t([&] {
    const std::lock_guard turn(waiter);
    in = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const bool beside = in.load();
  if (meanwhile) meanwhile();
  holder.unlock();
  t.join();
  EXPECT_TRUE(in.load());
  return beside;
}

// With a capacity, turns run at once while everything fits: resident and held bytes 30, turns of
// 40 and 50 need 120; on a card of 119 the second waits for the first, on one of 120 it does not.
TEST(GpuShare, TurnsRunAtOnceWhereTheCapacityHoldsThem) {
  for (const size_t capacity : {size_t{119}, size_t{120}}) {
    GpuShare share(capacity);
    GpuShare::Member a = share.join({.resident = 20, .held = 10, .turn = 40});
    GpuShare::Member b = share.join({.resident = 0, .held = 0, .turn = 50});
    EXPECT_EQ(starts_beside(a, b), capacity == 120) << capacity;
  }
}

// Turns start in the order asked for: a member whose turn ends and who asks again at once does
// not pass one waiting to fit (else a PoRep job's partitions could keep a WindowPoSt one waiting).
TEST(GpuShare, TurnsStartInTheOrderAskedFor) {
  GpuShare share(100);
  GpuShare::Member a = share.join({.resident = 0, .held = 0, .turn = 60});
  GpuShare::Member b = share.join({.resident = 0, .held = 0, .turn = 60});  // a and b do not fit at once
  std::atomic<int> order{0};
  std::atomic<int> b_at{-1};
  a.lock();
  std::thread t([&] {
    const std::lock_guard turn(b);
    b_at = order++;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // b waits
  a.unlock();
  a.lock();  // asks again at once: b asked first
  const int a_at = order++;
  a.unlock();
  t.join();
  EXPECT_EQ(b_at.load(), 0);
  EXPECT_EQ(a_at, 1);
}

// Without a capacity (0: unknown), one turn at a time; express members never wait.
TEST(GpuShare, OneTurnAtATimeExpressProversDoNotWait) {
  GpuShare share;
  GpuShare::Member a = share.join({.resident = 0, .held = 0, .turn = 10});
  EXPECT_FALSE(a.shares_turns());  // alone: a resident prover keeps its workspaces
  GpuShare::Member b = share.join({.resident = 0, .held = 0, .turn = 20});
  GpuShare::Member express = share.join({.resident = 0, .held = 5, .turn = 0});
  EXPECT_TRUE(a.shares_turns());
  EXPECT_TRUE(b.shares_turns());
  EXPECT_FALSE(express.shares_turns());
  // b waits for a's turn to end; the express member, meanwhile, does not wait.
  EXPECT_FALSE(starts_beside(a, b, [&] { const std::lock_guard turn(express); }));
}

// The 32 GiB shapes (PoRep partition, WindowPoSt partition), and a small
// WinningPoSt-like express prover, loaded on a 139 GiB card one after another, each planning as
// GpuProver does: within the free memory less what the others may still hold, leaving room for
// their largest turn. After each load, everything the members keep plus the largest turn fits.
TEST(GpuShare, PlansOnOneCardLeaveRoomForEveryProof) {
  const size_t card = 139 * kGiBytes;
  const auto porep_needs = shapes::porep_32gib().needs();
  const auto window_needs = shapes::window_post_32gib().needs();
  ParameterSizes winning;
  winning.ic = 133;
  winning.h = (size_t{1} << 22) - 1;
  winning.l = winning.a = winning.b_g1 = winning.b_g2 = 3'500'000;
  const auto winning_needs = GpuMemoryNeeds::estimate(winning, CircuitSizes{winning.ic, winning.l}, kGiBytes / 4);

  GpuShare share;
  std::vector<GpuShare::Member> members;
  size_t allocated = 0;  // the members' keys and circuits: what the free memory no longer shows
  const auto load = [&](const GpuMemoryNeeds& needs, GpuPriority priority) {
    const GpuShare::Others others = share.others();
    const Expected<GpuPlacement> p = place_on_gpu(needs, others.budget(card - allocated, 0), others.largest_turn);
    if (!p) {
      ADD_FAILURE() << p.error().message;
      return GpuPlacement::streamed;
    }
    const GpuShare::Needs n = needs.share_needs(*p, priority);
    members.push_back(share.join(n));
    allocated += n.resident;
    const GpuShare::Others now = share.others();
    EXPECT_LE(now.resident + now.held + now.largest_turn, card);
    return *p;
  };
  // Alone, WindowPoSt takes the resident placement (compact on a card a few GiB smaller); beside a
  // resident PoRep it is streamed: its key and circuit, its witnesses and the larger of the two
  // proofs would exceed the card.
  EXPECT_EQ(place_on_gpu(window_needs, card).value(), GpuPlacement::resident);
  EXPECT_EQ(place_on_gpu(window_needs, card - 9 * kGiBytes).value(), GpuPlacement::resident_compact);
  EXPECT_EQ(load(porep_needs, GpuPriority::normal), GpuPlacement::resident);
  EXPECT_GT(window_needs.total(GpuPlacement::resident_compact, porep_needs.turn(GpuPlacement::resident)),
            card - allocated - porep_needs.witnesses);
  EXPECT_EQ(load(window_needs, GpuPriority::normal), GpuPlacement::streamed);
  // And on a share of that capacity both turns run at once: everything kept and both proofs fit.
  {
    const GpuShare::Others o = share.others();
    EXPECT_LE(o.resident + o.held + porep_needs.turn(GpuPlacement::resident) +
                  window_needs.turn(GpuPlacement::streamed),
              card);
  }
  EXPECT_EQ(load(winning_needs, GpuPriority::high), GpuPlacement::resident);
  // The express prover holds its whole proof; the turns are still PoRep's and WindowPoSt's.
  EXPECT_EQ(share.others().largest_turn, porep_needs.turn(GpuPlacement::resident));
  // Loaded the other way round, WindowPoSt keeps its resident placement and PoRep adapts.
  GpuShare other;
  std::vector<GpuShare::Member> other_members;  // after `other`: they leave it before it goes
  {
    const GpuShare::Others none = other.others();
    EXPECT_EQ(place_on_gpu(window_needs, none.budget(card, 0), none.largest_turn).value(), GpuPlacement::resident);
    other_members.push_back(other.join(window_needs.share_needs(GpuPlacement::resident, GpuPriority::normal)));
    const GpuShare::Others o = other.others();
    const size_t left = card - window_needs.key - window_needs.circuit;
    const GpuPlacement p = place_on_gpu(porep_needs, o.budget(left, 0), o.largest_turn).value();
    EXPECT_NE(p, GpuPlacement::resident);
    const GpuShare::Needs n = porep_needs.share_needs(p, GpuPriority::normal);
    other_members.push_back(other.join(n));
    const GpuShare::Others now = other.others();
    EXPECT_LE(now.resident + now.held + now.largest_turn, card);
  }
}

TEST(GpuShare, TotalsAloneAreThePlacementsOwnNeeds) {
  ParameterSizes key;
  key.ic = 5;
  key.h = (size_t{1} << 20) - 1;
  key.l = key.a = key.b_g1 = key.b_g2 = 900'000;
  const auto needs = GpuMemoryNeeds::estimate(key, CircuitSizes{5, 900'000}, 64 << 20);
  EXPECT_EQ(needs.total(GpuPlacement::resident), needs.resident());
  EXPECT_EQ(needs.total(GpuPlacement::resident_compact), needs.resident_compact());
  EXPECT_EQ(needs.total(GpuPlacement::streamed), needs.streamed_proof);
  // Beside a larger turn, every placement needs that turn instead of its own.
  const size_t big = needs.resident_proofs * 2;
  EXPECT_EQ(needs.total(GpuPlacement::streamed, big), big);
  EXPECT_EQ(needs.total(GpuPlacement::resident, big), needs.key + needs.circuit + needs.witnesses + big);
  const auto e = place_on_gpu(needs, big - 1, big);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("beside another prover's proof"), std::string::npos) << e.error().message;
  // An express prover takes no turns: it holds its proof's buffers.
  const GpuShare::Needs express = needs.share_needs(GpuPlacement::resident, GpuPriority::high);
  EXPECT_EQ(express.turn, 0u);
  EXPECT_EQ(express.held, needs.resident_proofs);
  EXPECT_EQ(express.resident, needs.key + needs.circuit);
}

}  // namespace
}  // namespace cuzk::groth16
