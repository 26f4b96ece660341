// The engine's scheduling (engine/engine.hpp) with a handler of this test's own, whose proofs
// wait at a gate the test opens: priorities, idempotent request ids, cancellation, malformed
// payloads, the retry on the CPU, the memory budget, the queue limit, the SRS cache, shutdown.
// The real PoRep path through the engine is tested by tests/apps/daemon.sh (2 KiB on the CPU).

#include "engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

// Proofs wait here until the test opens it (or their job is cancelled).
class Gate {
 public:
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  // False when `stop` came first.
  bool wait(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    return cv_.wait(lock, stop, [&] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable_any cv_;
  bool open_ = false;
};

struct FakeJob final : ParsedJob {
  std::string payload;
};
struct FakeCircuit final : LoadedCircuit {};

// Payloads: "bad" fails to parse; "gpu-unverified" makes a proof that does not verify on a GPU;
// "big" needs 600 bytes of host memory, others 100; every circuit holds 50 once loaded. A GPU in
// `gpu_fails` fails every job placed on it with that code (a device failure).
class FakeHandler final : public ProofHandler {
 public:
  Gate gate;
  std::mutex mutex;
  std::vector<std::string> proved;  // payloads, in the order their proofs started
  std::map<int, ErrorCode> gpu_fails;
  bool fail_at_gate = false;  // a failing GPU's attempts wait at the gate first (to be in flight together)
  std::map<std::string, int> attempts;  // by placement: "cpu", "gpu 1", "gpus 0,1"
  std::map<std::string, int> loads;
  std::atomic<int> running{0}, most_running{0};

  ProofKind kind() const override { return ProofKind::porep_seal_commit; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& r) const override {
    std::string payload(r.vanilla_proof.begin(), r.vanilla_proof.end());
    if (payload == "bad") return invalid_argument("vanilla_proof: registered_proof: expected a string");
    auto job = std::make_unique<FakeJob>();
    job->payload = payload;
    job->circuit_id = "fake-1";
    job->host_bytes = payload == "big" ? 600 : 100;
    job->circuit_bytes = 50;
    return std::unique_ptr<ParsedJob>(std::move(job));
  }
  bool serves(std::string_view id) const override { return id.starts_with("fake-"); }
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& id) override {
    const std::lock_guard lock(mutex);
    ++loads[id];
    auto c = std::make_shared<FakeCircuit>();
    c->host_bytes = 50;
    return std::shared_ptr<LoadedCircuit>(c);
  }
  Expected<ProofOutput> prove(ParsedJob& job, LoadedCircuit&, const Placement& where, std::stop_token stop) override {
    const std::string payload = static_cast<FakeJob&>(job).payload;
    {
      const std::lock_guard lock(mutex);
      std::string place = where.on_cpu() ? "cpu" : where.gpus.size() == 1 ? "gpu" : "gpus";
      for (size_t i = 0; i < where.gpus.size(); ++i) {
        place += i ? ',' : ' ';
        place += std::to_string(where.gpus[i]);
      }
      ++attempts[place];
      for (int g : where.gpus) {
        if (auto f = gpu_fails.find(g); f != gpu_fails.end() && !fail_at_gate)
          return Error{f->second, "GPU " + std::to_string(g) + ": CUDA error: out of memory"};
      }
      proved.push_back(payload);
    }
    if (fail_at_gate) {
      for (int g : where.gpus) {
        if (auto f = gpu_fails.find(g); f != gpu_fails.end()) {
          gate.wait(stop);
          return Error{f->second, "GPU " + std::to_string(g) + ": CUDA error: out of memory"};
        }
      }
    }
    const int now = ++running;
    for (int m = most_running; now > m && !most_running.compare_exchange_weak(m, now);) {
    }
    const bool opened = gate.wait(stop);
    --running;
    if (!opened) return Error{ErrorCode::kCancelled, "cancelled at a partition boundary"};
    if (payload == "gpu-unverified" && !where.on_cpu()) return Error{ErrorCode::kVerifyFailed, "partition 0 does not verify"};
    ProofOutput out;
    out.bytes.assign(payload.begin(), payload.end());
    out.backend = where.on_cpu() ? "cpu" : where.gpus.size() == 1 ? "gpu " + std::to_string(where.gpus.front()) : "spread";
    out.prove_ms = 1;
    return out;
  }
  std::vector<std::string> order() {
    const std::lock_guard lock(mutex);
    return proved;
  }
  int attempts_on(const std::string& place) {
    const std::lock_guard lock(mutex);
    return attempts[place];
  }
};

JobRequest request(std::string payload, Priority priority = Priority::normal, std::string request_id = "") {
  JobRequest r;
  r.kind = ProofKind::porep_seal_commit;
  r.priority = priority;
  r.request_id = std::move(request_id);
  r.vanilla_proof.assign(payload.begin(), payload.end());
  return r;
}

struct Fixture {
  FakeHandler* handler = nullptr;
  std::unique_ptr<Engine> engine;
  explicit Fixture(EngineOptions options = {}) {
    auto h = std::make_unique<FakeHandler>();
    handler = h.get();
    std::vector<std::unique_ptr<ProofHandler>> handlers;
    handlers.push_back(std::move(h));
    engine = std::make_unique<Engine>(std::move(options), std::move(handlers));
  }
  ~Fixture() {
    if (!engine) return;  // reset by the test: the handler went with it
    handler->gate.open();
    engine.reset();
  }
  std::string submit(std::string payload, Priority p = Priority::normal, std::string rid = "") {
    auto s = engine->submit(request(std::move(payload), p, std::move(rid)));
    EXPECT_TRUE(s.has_value()) << s.error().message;
    return s ? s->job_id : "";
  }
  // Until `n` proofs have started.
  void wait_started(size_t n) {
    for (int i = 0; i < 2000 && handler->order().size() < n; ++i) std::this_thread::sleep_for(1ms);
    ASSERT_GE(handler->order().size(), n);
  }
  JobResult await(const std::string& id) { return engine->await(id, std::nullopt).value(); }
};

TEST(Engine, HigherPrioritiesGoFirstThenOlder) {
  Fixture f;
  const std::string first = f.submit("first");
  f.wait_started(1);  // the only worker is busy: the rest queue
  const std::string low = f.submit("low", Priority::low);
  const std::string normal1 = f.submit("normal-1", Priority::normal);
  const std::string critical = f.submit("critical", Priority::critical);
  const std::string normal2 = f.submit("normal-2", Priority::unspecified);  // = normal
  const std::string high = f.submit("high", Priority::high);
  // The queue by priority (cuzk_queue_pending_by_priority): the unspecified one counts as normal.
  const std::array<unsigned, 5> by_priority = f.engine->metrics().pending_by_priority.at(ProofKind::porep_seal_commit);
  EXPECT_EQ(by_priority, (std::array<unsigned, 5>{0, 1, 2, 1, 1}));
  f.handler->gate.open();
  for (const std::string& id : {first, low, normal1, critical, normal2, high}) {
    EXPECT_EQ(f.await(id).state, JobState::completed);
  }
  EXPECT_EQ(f.handler->order(),
            (std::vector<std::string>{"first", "critical", "high", "normal-1", "normal-2", "low"}));
}

TEST(Engine, QueuePositionCountsJobsAhead) {
  Fixture f;
  f.submit("first");
  f.wait_started(1);
  EXPECT_EQ(f.engine->submit(request("a", Priority::normal)).value().queue_position, 0u);
  EXPECT_EQ(f.engine->submit(request("b", Priority::normal)).value().queue_position, 1u);
  EXPECT_EQ(f.engine->submit(request("c", Priority::high)).value().queue_position, 0u);
  EXPECT_EQ(f.engine->submit(request("d", Priority::low)).value().queue_position, 3u);
}

TEST(Engine, AKnownRequestIdJoinsItsJobAndIsProvedOnce) {
  Fixture f;
  const auto a = f.engine->submit(request("sector-7", Priority::normal, "porep-1000-7")).value();
  const auto b = f.engine->submit(request("sector-7", Priority::normal, "porep-1000-7")).value();
  EXPECT_FALSE(a.joined);
  EXPECT_TRUE(b.joined);
  EXPECT_EQ(a.job_id, b.job_id);
  f.handler->gate.open();
  EXPECT_EQ(f.await(a.job_id).state, JobState::completed);
  const auto c = f.engine->submit(request("sector-7", Priority::normal, "porep-1000-7")).value();  // finished: joined too
  EXPECT_EQ(c.job_id, a.job_id);
  EXPECT_EQ(f.handler->order(), std::vector<std::string>{"sector-7"});
  // A request that failed is proved afresh when resubmitted.
  const auto bad = f.engine->submit(request("bad", Priority::normal, "porep-1000-8")).value();
  EXPECT_EQ(f.await(bad.job_id).state, JobState::failed);
  const auto again = f.engine->submit(request("bad", Priority::normal, "porep-1000-8")).value();
  EXPECT_NE(again.job_id, bad.job_id);
  EXPECT_FALSE(again.joined);
}

TEST(Engine, AMalformedPayloadFailsThatJobOnlyNamingTheField) {
  Fixture f;
  f.handler->gate.open();
  const std::string bad = f.submit("bad");
  const std::string good = f.submit("good");
  const JobResult r = f.await(bad);
  EXPECT_EQ(r.state, JobState::failed);
  EXPECT_NE(r.error.find("vanilla_proof: registered_proof"), std::string::npos) << r.error;
  EXPECT_TRUE(r.proof.empty());
  const JobResult g = f.await(good);
  EXPECT_EQ(g.state, JobState::completed);
  EXPECT_EQ(std::string(g.proof.begin(), g.proof.end()), "good");
  EXPECT_EQ(f.engine->status().failed, 1u);
  EXPECT_EQ(f.engine->status().completed, 1u);
}

TEST(Engine, CancelEndsAQueuedJobAtOnceAndARunningOneAtItsBoundary) {
  Fixture f;
  const std::string running = f.submit("running");
  f.wait_started(1);
  const std::string queued = f.submit("queued");
  const std::string after = f.submit("after");
  const auto q = f.engine->cancel(queued);
  EXPECT_TRUE(q.found);
  EXPECT_FALSE(q.was_running);
  EXPECT_EQ(f.await(queued).state, JobState::cancelled);
  const auto r = f.engine->cancel(running);
  EXPECT_TRUE(r.was_running);
  const JobResult rr = f.await(running);
  EXPECT_EQ(rr.state, JobState::cancelled);
  EXPECT_NE(rr.error.find("cancelled"), std::string::npos);
  f.handler->gate.open();
  EXPECT_EQ(f.await(after).state, JobState::completed);
  EXPECT_EQ(f.handler->order(), (std::vector<std::string>{"running", "after"}));  // the queued one never started
  EXPECT_FALSE(f.engine->cancel("job-unknown").found);
  EXPECT_FALSE(f.engine->cancel(after).was_running);  // finished: nothing to stop
}

TEST(Engine, AProofThatDoesNotVerifyOnAGpuIsRetriedOnTheCpu) {
  EngineOptions o;
  o.gpus = {0};
  o.fault_rest = 1ms;  // the GPU rests after the failure; the next job is its again after that
  Fixture f(o);
  f.handler->gate.open();
  const JobResult r = f.await(f.submit("gpu-unverified"));
  EXPECT_EQ(r.state, JobState::completed);
  EXPECT_EQ(r.backend, "cpu");
  const JobResult fine = f.await(f.submit("fine"));
  EXPECT_EQ(fine.backend, "gpu 0");

  o.retry_on_cpu = false;
  Fixture g(o);
  g.handler->gate.open();
  const JobResult no = g.await(g.submit("gpu-unverified"));
  EXPECT_EQ(no.state, JobState::failed);
  EXPECT_NE(no.error.find("does not verify"), std::string::npos) << no.error;
}

// Two GPUs, whole proofs: two workers on each; partitions spread: two workers over both, each
// job placed on both (the handler spreads its partitions).
TEST(Engine, SpreadPlacesWorkersOnOneGpuOrOnAll) {
  EngineOptions o;
  o.gpus = {0, 1};
  {
    Fixture f(o);
    const EngineStatus s = f.engine->status();
    ASSERT_EQ(s.workers.size(), 4u);
    EXPECT_EQ(s.workers[0].where.gpus, std::vector<int>{0});
    EXPECT_EQ(s.workers[3].where.gpus, std::vector<int>{1});
  }
  o.spread = Spread::partitions;
  Fixture f(o);
  const EngineStatus s = f.engine->status();
  ASSERT_EQ(s.workers.size(), 2u);
  for (const WorkerStatus& w : s.workers) EXPECT_EQ(w.where.gpus, (std::vector<int>{0, 1}));
  const std::string a = f.submit("a"), b = f.submit("b");
  f.wait_started(2);  // both at once, each on both GPUs
  EXPECT_EQ(f.engine->status().queues.at(ProofKind::porep_seal_commit).in_progress, 2u);
  f.handler->gate.open();
  EXPECT_EQ(f.await(a).backend, "spread");
  EXPECT_EQ(f.await(b).backend, "spread");
  EXPECT_EQ(f.handler->attempts_on("gpus 0,1"), 2);
  EXPECT_EQ(to_string(Spread::partitions), "partitions");
}

// A GPU whose proofs fail (a CUDA error) fails only those attempts: each job goes to the other
// GPU, and the failing one rests (takes no job) meanwhile; the metrics count its failure.
TEST(Engine, AFailingGpuRestsAndItsJobsGoToTheOther) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.workers_per_gpu = 1;
  o.fault_rest = std::chrono::hours(1);
  std::mutex m;
  std::vector<std::string> lines;
  o.log_stage = [&](const std::string& line) {
    const std::lock_guard lock(m);
    lines.push_back(line);
  };
  Fixture f(o);
  f.handler->gpu_fails[1] = ErrorCode::kInternal;
  std::vector<std::string> jobs;
  for (int i = 0; i < 6; ++i) jobs.push_back(f.submit("job-" + std::to_string(i)));
  // GPU 0 holds the first job at the gate, so GPU 1 takes the next (and fails it).
  for (int i = 0; i < 2000 && f.handler->attempts_on("gpu 1") == 0; ++i) std::this_thread::sleep_for(1ms);
  f.handler->gate.open();
  for (const std::string& id : jobs) {
    const JobResult r = f.await(id);
    EXPECT_EQ(r.state, JobState::completed) << r.error;
    EXPECT_EQ(r.backend, "gpu 0");
  }
  EXPECT_EQ(f.handler->attempts_on("gpu 1"), 1);  // then resting
  EXPECT_EQ(f.handler->attempts_on("gpu 0"), 6);
  const EngineStatus s = f.engine->status();
  EXPECT_EQ(s.gpus.at(1).failures, 1u);
  EXPECT_EQ(s.gpus.at(1).rest.failures_in_a_row, 1u);
  EXPECT_GT(s.gpus.at(1).rest.until, std::chrono::steady_clock::now());
  EXPECT_NE(s.gpus.at(1).last_error.find("out of memory"), std::string::npos);
  EXPECT_EQ(s.gpus.at(0).failures, 0u);
  EXPECT_EQ(s.completed, 6u);
  const MetricsSnapshot metrics = f.engine->metrics();
  ASSERT_EQ(metrics.gpus.size(), 2u);
  EXPECT_EQ(metrics.gpus[1].failures, 1u);
  EXPECT_TRUE(metrics.gpus[1].resting);
  const std::lock_guard lock(m);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
              return l.find("stage=device_failure on=gpu 1 rest_s=3600 next=another gpu") != std::string::npos;
            }),
            1);
}

// Two attempts on a GPU that fail by one fault (both begun before its rest) rest it once, not
// twice as long.
TEST(Engine, AttemptsFailingDuringARestDoNotLengthenIt) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.workers_per_gpu = 2;
  o.fault_rest = std::chrono::hours(1);
  Fixture f(o);
  f.handler->gpu_fails[1] = ErrorCode::kInternal;
  f.handler->fail_at_gate = true;  // GPU 1's attempts fail only when the gate opens: both are in flight
  std::vector<std::string> jobs;
  for (int i = 0; i < 4; ++i) jobs.push_back(f.submit("job-" + std::to_string(i)));
  for (int i = 0; i < 2000 && f.handler->attempts_on("gpu 1") < 2; ++i) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(f.handler->attempts_on("gpu 1"), 2);
  const auto before = std::chrono::steady_clock::now();
  f.handler->gate.open();
  for (const std::string& id : jobs) EXPECT_EQ(f.await(id).backend, "gpu 0");
  const EngineStatus s = f.engine->status();
  EXPECT_EQ(s.gpus.at(1).failures, 2u);
  EXPECT_EQ(s.gpus.at(1).rest.failures_in_a_row, 1u);
  EXPECT_LT(s.gpus.at(1).rest.until, before + std::chrono::minutes(61));  // one hour, not two
}

// A GPU that cannot serve a circuit (kUnavailable: no room for its key) is not offered that
// circuit's jobs again, and does not rest (it may serve other circuits).
TEST(Engine, AGpuThatCannotServeACircuitIsPassedOver) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.workers_per_gpu = 1;
  Fixture f(o);
  f.handler->gpu_fails[1] = ErrorCode::kUnavailable;
  std::vector<std::string> jobs;
  for (int i = 0; i < 5; ++i) jobs.push_back(f.submit("job-" + std::to_string(i)));
  for (int i = 0; i < 2000 && f.handler->attempts_on("gpu 1") == 0; ++i) std::this_thread::sleep_for(1ms);
  f.handler->gate.open();
  for (const std::string& id : jobs) EXPECT_EQ(f.await(id).backend, "gpu 0");
  EXPECT_EQ(f.handler->attempts_on("gpu 1"), 1);
  const EngineStatus s = f.engine->status();
  EXPECT_TRUE(s.gpus.at(1).unservable.contains("fake-1"));
  EXPECT_LT(s.gpus.at(1).rest.until, std::chrono::steady_clock::now());
}

// A job every GPU failed goes to the CPU (when allowed), else fails naming each GPU's error; a
// circuit no GPU can serve does not strand its later jobs.
TEST(Engine, AJobEveryGpuFailedGoesToTheCpuOrFailsNamingEach) {
  for (const ErrorCode code : {ErrorCode::kInternal, ErrorCode::kUnavailable}) {
    EngineOptions o;
    o.gpus = {0, 1};
    o.workers_per_gpu = 1;
    o.fault_rest = 1ms;
    {
      Fixture f(o);
      f.handler->gpu_fails = {{0, code}, {1, code}};
      f.handler->gate.open();
      for (int i = 0; i < 3; ++i) {
        const JobResult r = f.await(f.submit("job-" + std::to_string(i)));
        EXPECT_EQ(r.state, JobState::completed) << r.error;
        EXPECT_EQ(r.backend, "cpu");
      }
    }
    o.retry_on_cpu = false;
    Fixture f(o);
    f.handler->gpu_fails = {{0, code}, {1, code}};
    f.handler->gate.open();
    const JobResult r = f.await(f.submit("job"));
    EXPECT_EQ(r.state, JobState::failed);
    EXPECT_NE(r.error.find("gpu 0: GPU 0: CUDA error"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("gpu 1: GPU 1: CUDA error"), std::string::npos) << r.error;
  }
}

TEST(Engine, TheMemoryBudgetAdmitsWhatFitsAndRefusesWhatNeverCan) {
  EngineOptions o;
  o.gpus = {0, 1};  // four workers: only memory holds jobs back
  o.memory_budget = 400;
  o.resident_bytes = {};  // the estimates alone (this process's own RSS is far above 400 bytes)
  Fixture f(o);
  std::vector<std::string> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(f.submit("job"));
  f.wait_started(3);  // 50 (circuit) + 3 x 100 fit; a fourth would not
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(f.handler->order().size(), 3u);
  EXPECT_LE(f.engine->status().memory_reserved, 400u);
  f.handler->gate.open();
  for (const std::string& id : ids) EXPECT_EQ(f.await(id).state, JobState::completed);
  EXPECT_EQ(f.handler->most_running.load(), 3);
  const JobResult big = f.await(f.submit("big"));  // 600 > 400
  EXPECT_EQ(big.state, JobState::failed);
  EXPECT_NE(big.error.find("budget"), std::string::npos) << big.error;
}

TEST(Engine, TheResidentSetHoldsWorkBackWhenTheEstimatesMissMemory) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.memory_budget = 400;
  o.resident_bytes = [] { return size_t{350}; };  // memory the estimates do not know of
  Fixture f(o);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(f.submit("job"));
  f.wait_started(1);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(f.handler->order().size(), 1u);  // 350 + 100 > 400: one at a time, when idle
  f.handler->gate.open();
  for (const std::string& id : ids) EXPECT_EQ(f.await(id).state, JobState::completed);
  EXPECT_EQ(f.handler->most_running.load(), 1);
}

TEST(Engine, AFullQueueRefusesNewJobs) {
  EngineOptions o;
  o.max_pending = 2;
  Fixture f(o);
  f.submit("running");
  f.wait_started(1);
  f.submit("q1");
  f.submit("q2");
  const auto refused = f.engine->submit(request("q3"));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::kResourceExhausted);
  const EngineStatus s = f.engine->status();
  EXPECT_EQ(s.queues.at(ProofKind::porep_seal_commit).pending, 2u);
  EXPECT_EQ(s.queues.at(ProofKind::porep_seal_commit).in_progress, 1u);
  EXPECT_EQ(s.workers.at(0).current_kind, ProofKind::porep_seal_commit);
  EXPECT_FALSE(s.workers.at(0).current_job_id.empty());
}

TEST(Engine, UnservedKindsAndUnknownJobsAreRefused) {
  Fixture f;
  JobRequest r = request("x");
  r.kind = ProofKind::winning_post;
  EXPECT_EQ(f.engine->submit(r).error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(f.engine->await("job-none", 1ms).error().code, ErrorCode::kNotFound);
}

TEST(Engine, AwaitWithATimeoutGivesTheStateSoFar) {
  Fixture f;
  const std::string id = f.submit("slow");
  f.wait_started(1);
  const JobResult r = f.engine->await(id, 20ms).value();
  EXPECT_EQ(r.state, JobState::running);
  f.handler->gate.open();
  const JobResult done = f.await(id);
  EXPECT_EQ(done.state, JobState::completed);
  EXPECT_GE(done.times.total_ms, done.times.gpu_compute_ms);
  EXPECT_GT(done.times.total_ms, 0);
}

TEST(Engine, TheSrsCacheLoadsOncePreloadsAndEvicts) {
  Fixture f;
  const auto first = f.engine->preload("fake-2").value();
  EXPECT_FALSE(first.already_loaded);
  EXPECT_TRUE(f.engine->preload("fake-2").value().already_loaded);
  EXPECT_FALSE(f.engine->preload("nothing-9").has_value());
  f.handler->gate.open();
  f.await(f.submit("a"));
  f.await(f.submit("b"));
  EXPECT_EQ(f.handler->loads["fake-1"], 1);
  const EngineStatus s = f.engine->status();
  ASSERT_EQ(s.circuits.size(), 2u);
  EXPECT_EQ(s.circuits[0].circuit_id, "fake-1");
  EXPECT_EQ(s.circuits[0].users, 0u);
  const auto gone = f.engine->evict("fake-1");
  EXPECT_TRUE(gone.was_loaded);
  EXPECT_EQ(gone.freed_bytes, 50u);
  EXPECT_FALSE(f.engine->evict("fake-1").was_loaded);
  f.await(f.submit("c"));
  EXPECT_EQ(f.handler->loads["fake-1"], 2);  // loaded again after the eviction
}

TEST(Engine, ShutdownFinishesRunningJobsCancelsQueuedOnesAndRefusesNew) {
  Fixture f;
  const std::string running = f.submit("running");
  f.wait_started(1);
  const std::string queued = f.submit("queued");
  std::thread opener([&] {
    std::this_thread::sleep_for(30ms);
    f.handler->gate.open();
  });
  f.engine->shutdown();
  opener.join();
  EXPECT_EQ(f.await(running).state, JobState::completed);
  EXPECT_EQ(f.await(queued).state, JobState::cancelled);
  EXPECT_EQ(f.engine->submit(request("late")).error().code, ErrorCode::kResourceExhausted);
  EXPECT_TRUE(f.engine->status().draining);
}

TEST(Engine, StageLinesNameTheJobAndItsTimes) {
  std::mutex m;
  std::vector<std::string> lines;
  EngineOptions o;
  o.log_stage = [&](const std::string& line) {
    const std::lock_guard lock(m);
    lines.push_back(line);
  };
  Fixture f(o);
  f.handler->gate.open();
  const std::string id = f.engine->submit(request("x", Priority::high, "porep-1-2")).value().job_id;
  f.await(id);
  f.engine.reset();  // joins: every line is in
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  for (const char* stage : {"stage=submit", "stage=parse", "stage=start", "stage=srs", "stage=done"}) {
    EXPECT_NE(all.find(stage), std::string::npos) << stage << "\n" << all;
  }
  EXPECT_NE(all.find("job=" + id + " request_id=\"porep-1-2\""), std::string::npos) << all;
  EXPECT_NE(all.find("state=completed total_ms="), std::string::npos) << all;
}

}  // namespace
}  // namespace cuzk::engine
