#pragma once
// Several provers on one GPU: a daemon loads a prover per circuit (PoRep, WindowPoSt, SnapDeals,
// WinningPoSt) on each card, and its workers prove partitions of different circuits at once. Each
// prover plans its memory when it is made (groth16/gpu_memory_plan.hpp); alone, those plans would
// not see each other: two proofs' buffers at once could exceed the card, and a failed allocation
// fails a partition's attempt. One GpuShare a card, held by each of its provers, keeps their sum
// within the card:
//  - turns: the provers of normal priority take turns for a proof's compute (stages 0b-3). A turn
//    starts when the members' resident and held bytes, the turns running and its own fit the
//    card's capacity (what cuzk may use there: the free memory when the daemon starts, or its
//    memory limit), or when no other turn runs; with no capacity given, one turn at a time. So a
//    large card proves a resident PoRep partition and a streamed WindowPoSt one at once, as it
//    did before, and a 24 GB card proves them one after the other instead of failing one. Turns
//    start in the order they are asked for (a PoRep job's next partition does not pass a
//    WindowPoSt partition waiting for room). Express provers (GpuPriority::high: WinningPoSt, a
//    few hundred MB a proof) do not wait for a turn: their high-priority streams run beside the
//    others', and their buffers count as held;
//  - what stays: each member declares the bytes it may hold outside a turn (the witnesses it
//    uploads while it waits; an express prover's whole proof) and its turn's bytes (its proof's
//    buffers); its key and circuit are allocated when it is made, so the free memory shows them;
//  - plans: a prover made beside members plans within the free memory less what the members may
//    still hold outside their turns, and leaves room for the largest of their turns
//    (place_on_gpu's `others_turn`), so that any member's proof still fits beside everything;
//  - while another member takes turns too, a member frees its MSM workspaces after each proof (as
//    the compact placement does), so that the next turn finds that memory in the pool; alone on
//    its card, a resident prover keeps them, as before.
// Pure C++ (no CUDA), so that it is tested without a GPU.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>

namespace cuzk::groth16 {

class GpuShare {
 public:
  // `capacity`: the bytes cuzk may use on the card (0: unknown, one turn at a time).
  explicit GpuShare(size_t capacity = 0) : capacity_(capacity) {}

  // What a member holds: `held` bytes at any time besides what is already allocated when it joins
  // (witnesses it may upload while waiting); `turn` bytes during its turns (0: it takes none).
  struct Needs {
    size_t resident = 0;  // allocated when it is made (its key and circuit): counted by a memory limit
    size_t held = 0, turn = 0;
  };

  // Membership, for as long as the prover lives.
  class Member {
   public:
    Member() = default;
    Member(Member&& o) noexcept : share_(o.share_), needs_(o.needs_) { o.share_ = nullptr; }
    Member& operator=(Member&& o) noexcept;
    Member(const Member&) = delete;
    ~Member();
    bool takes_turns() const { return share_ != nullptr && needs_.turn > 0; }
    // Whether another member takes turns too (then a turn's buffers are freed at its end).
    bool shares_turns() const;
    // A turn (BasicLockable): blocks until its buffers fit beside the running turns (above) and
    // every turn asked for before it has started; a member that takes no turns never waits.
    void lock();
    void unlock();

   private:
    friend class GpuShare;
    Member(GpuShare* share, Needs needs) : share_(share), needs_(needs) {}
    GpuShare* share_ = nullptr;
    Needs needs_;
  };

  // What the members ask of a newcomer: their resident bytes (a memory limit counts them), the
  // bytes they may still hold outside their turns (not allocated now: subtract them from the free
  // memory) and their largest turn.
  struct Others {
    size_t resident = 0, held = 0, largest_turn = 0;
    // The newcomer's budget from the card's free memory (with what cuzk's pool keeps) and the
    // memory limit (0: none), which counts every member's data.
    size_t budget(size_t free, size_t limit) const;
  };
  Others others() const;

  // Joins with `needs` (turn 0: an express prover, which holds its proof's buffers as `held`).
  Member join(Needs needs);
  // Held by a newcomer from others() until it has joined (its key and circuit allocated), so that
  // two provers made at once do not both plan without the other.
  std::unique_lock<std::mutex> planning() { return std::unique_lock(planning_); }

 private:
  void leave(const Needs& needs);
  const size_t capacity_;
  mutable std::mutex mutex_;  // the bookkeeping below
  std::condition_variable turn_ended_;
  std::mutex planning_;
  size_t resident_ = 0, held_ = 0;  // the members', summed
  std::multiset<size_t> turns_;     // the members' turn bytes (> 0)
  size_t running_ = 0, running_bytes_ = 0;  // turns running, and their bytes
  uint64_t next_ticket_ = 0;
  std::set<uint64_t> waiting_;  // the tickets of the turns waiting, oldest first
};

}  // namespace cuzk::groth16
