// A bounded soak of the engine (engine/engine.hpp, issue 26): client threads submit, resubmit,
// await (with and without timeouts) and cancel at random for about two seconds against a fast
// fake handler on two fake GPUs and the CPU. Afterwards every job any submission was given is
// accounted for: each ended (completed, failed or cancelled), none was created twice for one
// submission, a joined submission got the job of its request id and payload, every completed
// job's proof is the one of its own payload (no result given to another request), the engine's
// counters equal what the clients saw, and nothing is left queued or running.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.hpp"

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

struct SoakJob final : ParsedJob {
  std::string payload;
};
struct SoakCircuit final : LoadedCircuit {};

// Payload "p<n>": n % 3 + 1 partitions, partition k's proof "<payload>#k;". "bad<n>": refused at
// parse. Proving yields the thread (a partition takes microseconds).
class SoakHandler final : public ProofHandler {
 public:
  static uint32_t partitions_of(const std::string& payload) { return uint32_t(std::stoul(payload.substr(1)) % 3 + 1); }
  static std::string proof_of(const std::string& payload) {
    std::string out;
    for (uint32_t k = 0; k < partitions_of(payload); ++k) out += payload + "#" + std::to_string(k) + ";";
    return out;
  }

  ProofKind kind() const override { return ProofKind::porep_seal_commit; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& r) const override {
    std::string payload(r.vanilla_proof.begin(), r.vanilla_proof.end());
    if (payload.starts_with("bad")) return invalid_argument("vanilla_proof: not a C1");
    auto job = std::make_unique<SoakJob>();
    job->payload = payload;
    job->partitions = partitions_of(payload);
    job->circuit_id = "soak-1";
    job->host_bytes = 100;
    job->circuit_bytes = 10;
    return std::unique_ptr<ParsedJob>(std::move(job));
  }
  bool serves(std::string_view id) const override { return id.starts_with("soak-"); }
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string&) override {
    auto c = std::make_shared<SoakCircuit>();
    c->host_bytes = 10;
    return std::shared_ptr<LoadedCircuit>(c);
  }
  Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit&, uint32_t k, const Placement& where) override {
    std::this_thread::yield();
    const std::string part = static_cast<const SoakJob&>(job).payload + "#" + std::to_string(k) + ";";
    PartitionOutput out;
    out.bytes.assign(part.begin(), part.end());
    out.times.backend = to_string(where);
    return out;
  }
};

JobRequest request(const std::string& request_id, const std::string& payload) {
  JobRequest r;
  r.kind = ProofKind::porep_seal_commit;
  r.request_id = request_id;
  r.vanilla_proof.assign(payload.begin(), payload.end());
  return r;
}

TEST(EngineSoak, ManyClientsSubmitAwaitCancelAndResubmitAndNoJobIsLostOrDuplicated) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 2;
  o.max_pending = 32;
  o.finished_kept = 1 << 20;  // nothing forgotten: every job is checked at the end
  std::vector<std::unique_ptr<ProofHandler>> handlers;
  handlers.push_back(std::make_unique<SoakHandler>());
  Engine engine(std::move(o), std::move(handlers));

  struct Submission {
    std::string request_id, payload, job_id;
    bool joined = false;
  };
  std::mutex m;
  std::vector<Submission> submissions;
  std::atomic<uint64_t> refused{0}, awaits{0}, cancels{0};
  std::vector<std::string> failures;  // what a client saw that it must not
  const auto failed = [&](std::string what) {
    const std::lock_guard lock(m);
    failures.push_back(std::move(what));
  };

  constexpr int kClients = 8;
  const auto until = std::chrono::steady_clock::now() + 2s;
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      std::mt19937_64 rng(1000 + c);
      std::vector<Submission> mine;  // this client's, to resubmit, await and cancel
      for (uint64_t n = 0; std::chrono::steady_clock::now() < until; ++n) {
        const int action = int(rng() % 10);
        if (action < 4 || mine.empty()) {  // a new request (one in eight malformed)
          const std::string payload = (rng() % 8 == 0 ? "bad" : "p") + std::to_string(rng() % 1000);
          Submission s{"soak-" + std::to_string(c) + "-" + std::to_string(n), payload, "", false};
          auto r = engine.submit(request(s.request_id, s.payload));
          if (!r) {
            if (r.error().code != ErrorCode::kResourceExhausted) failed("submit: " + r.error().message);
            ++refused;
            std::this_thread::sleep_for(1ms);  // as a client would back off
            continue;
          }
          s.job_id = r->job_id;
          s.joined = r->joined;
          if (s.joined) failed("a new request id joined " + s.job_id);
          mine.push_back(s);
          const std::lock_guard lock(m);
          submissions.push_back(s);
        } else if (action < 6) {  // the same request again: joins, or a new job if it failed/was cancelled
          Submission s = mine[rng() % mine.size()];
          const Submission earlier = s;
          auto r = engine.submit(request(s.request_id, s.payload));
          if (!r) {
            if (r.error().code != ErrorCode::kResourceExhausted) failed("resubmit: " + r.error().message);
            ++refused;
            std::this_thread::sleep_for(1ms);  // as a client would back off
            continue;
          }
          s.job_id = r->job_id;
          s.joined = r->joined;
          if (s.joined && s.job_id != earlier.job_id) {
            // joined another job of the same id and payload: it must be this client's latest one
            bool known = false;
            for (const Submission& x : mine) known |= x.request_id == s.request_id && x.job_id == s.job_id;
            if (!known) failed("resubmitting " + s.request_id + " joined a job it never had: " + s.job_id);
          }
          mine.push_back(s);
          const std::lock_guard lock(m);
          submissions.push_back(s);
        } else if (action < 9) {  // await, for a moment or to the end
          const Submission& s = mine[rng() % mine.size()];
          const auto timeout = rng() % 3 == 0 ? std::optional<std::chrono::milliseconds>() : std::optional(std::chrono::milliseconds(rng() % 3));
          auto r = engine.await(s.job_id, timeout);
          ++awaits;
          if (!r) {
            failed("await " + s.job_id + ": " + r.error().message);
          } else if (!timeout && !finished(r->state)) {
            failed("await without a timeout returned unfinished: " + s.job_id);
          } else if (r->state == JobState::completed) {
            const std::string proof(r->proof.begin(), r->proof.end());
            if (proof != SoakHandler::proof_of(s.payload)) failed(s.job_id + " completed with another's proof: " + proof);
          }
        } else {  // cancel
          const Submission& s = mine[rng() % mine.size()];
          if (!engine.cancel(s.job_id).found) failed("cancel: " + s.job_id + " not found");
          ++cancels;
        }
      }
    });
  }
  for (std::thread& t : clients) t.join();

  // Every job ends, and is accounted for once.
  std::map<std::string, Submission> jobs;  // job id -> the submission that created it
  std::map<std::string, int> created;
  for (const Submission& s : submissions) {
    if (!s.joined) {
      ++created[s.job_id];
      jobs[s.job_id] = s;
    }
  }
  uint64_t completed = 0, failed_jobs = 0, cancelled = 0;
  for (const auto& [id, n] : created) EXPECT_EQ(n, 1) << id << " was given to " << n << " new submissions";
  for (const Submission& s : submissions) {
    auto owner = jobs.find(s.job_id);
    ASSERT_NE(owner, jobs.end()) << s.request_id << " joined " << s.job_id << ", a job no submission created";
    EXPECT_EQ(owner->second.request_id, s.request_id) << s.job_id;
    EXPECT_EQ(owner->second.payload, s.payload) << s.job_id;
  }
  for (const auto& [id, s] : jobs) {
    const auto r = engine.await(id, 10s);
    ASSERT_TRUE(r.has_value()) << id << ": " << r.error().message;
    ASSERT_TRUE(finished(r->state)) << id << " never ended: " << to_string(r->state);
    if (r->state == JobState::completed) {
      ++completed;
      EXPECT_FALSE(s.payload.starts_with("bad")) << id;
      EXPECT_EQ(std::string(r->proof.begin(), r->proof.end()), SoakHandler::proof_of(s.payload)) << id;
    } else if (r->state == JobState::failed) {
      ++failed_jobs;
      EXPECT_TRUE(s.payload.starts_with("bad")) << id << ": " << r->error_text();
    } else {
      ++cancelled;
    }
  }
  const EngineStatus status = engine.status();
  EXPECT_EQ(status.completed, completed);
  EXPECT_EQ(status.failed, failed_jobs);
  EXPECT_EQ(status.cancelled, cancelled);
  for (const auto& [kind, q] : status.queues) {
    EXPECT_EQ(q.pending, 0u) << to_string(kind);
    EXPECT_EQ(q.in_progress, 0u) << to_string(kind);
  }
  for (const std::string& f : failures) ADD_FAILURE() << f;
  // The soak did something of each kind (a test that cannot fail otherwise).
  EXPECT_GT(completed, 200u);
  EXPECT_GT(failed_jobs, 10u);
  EXPECT_GT(cancelled, 0u);
  EXPECT_GT(awaits.load(), 200u);
  EXPECT_GT(std::count_if(submissions.begin(), submissions.end(), [](const Submission& s) { return s.joined; }), 10);
  std::printf("soak: %zu submissions, %zu jobs (%llu completed, %llu failed, %llu cancelled), %llu refused (queue full), "
              "%llu awaits, %llu cancels\n",
              submissions.size(), jobs.size(), (unsigned long long)completed, (unsigned long long)failed_jobs,
              (unsigned long long)cancelled, (unsigned long long)refused.load(), (unsigned long long)awaits.load(),
              (unsigned long long)cancels.load());
}

}  // namespace
}  // namespace cuzk::engine
