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
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::engine {
namespace {

using namespace std::chrono_literals;

// Proofs wait here until the test opens it.
class Gate {
 public:
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

struct FakeJob final : ParsedJob {
  std::string payload;
};
struct FakeCircuit final : LoadedCircuit {};

// Payloads: "name" is a job of one partition, "name*N" of N; a partition's proof is the name and
// its number ("name" alone for one partition), the job's their concatenation. "bad" fails to
// parse, "huge-error" with an 8 MiB message; "gpu-unverified" makes proofs that do not verify on a GPU; "input-fault" throws a
// cuzk::Exception of the input's (kInvalidArgument) wherever it is proved, "cuda-throw" a
// std::runtime_error on a GPU; "big" needs 600 bytes of host memory, others 100; every circuit
// holds 50 once loaded. A GPU in `gpu_fails` fails every partition placed on it with that code
// (a device failure).
class FakeHandler final : public ProofHandler {
 public:
  Gate gate;
  std::mutex mutex;
  std::vector<std::string> proved;  // partitions ("name" or "name#k"), in the order they started
  std::map<int, ErrorCode> gpu_fails;
  bool fail_at_gate = false;  // a failing GPU's attempts wait at the gate first (to be in flight together)
  std::map<std::string, int> attempts;  // by placement: "cpu", "gpu 1"
  std::map<std::string, int> loads;
  std::atomic<int> running{0}, most_running{0};

  static std::pair<std::string, uint32_t> split(const std::string& payload) {
    const size_t star = payload.find('*');
    if (star == std::string::npos) return {payload, 1};
    return {payload.substr(0, star), uint32_t(std::stoul(payload.substr(star + 1)))};
  }

  ProofKind kind() const override { return ProofKind::porep_seal_commit; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& r) const override {
    std::string payload(r.vanilla_proof.begin(), r.vanilla_proof.end());
    if (payload == "bad") return invalid_argument("vanilla_proof: registered_proof: expected a string");
    if (payload == "huge-error") return invalid_argument("vanilla_proof: " + std::string(8 << 20, 'x'));
    auto job = std::make_unique<FakeJob>();
    job->payload = payload;
    job->partitions = split(payload).second;
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
  Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit&, uint32_t k, const Placement& where) override {
    const auto [name, n] = split(static_cast<const FakeJob&>(job).payload);
    const std::string part = n == 1 ? name : name + "#" + std::to_string(k);
    const std::string place = to_string(where);
    std::optional<ErrorCode> fails;
    {
      const std::lock_guard lock(mutex);
      ++attempts[place];
      if (where.gpu) {
        if (auto f = gpu_fails.find(*where.gpu); f != gpu_fails.end()) fails = f->second;
      }
      if (fails && !fail_at_gate) return Error{*fails, place + ": CUDA error: out of memory"};
      if (!fails) proved.push_back(part);
    }
    if (fails) {
      gate.wait();
      return Error{*fails, place + ": CUDA error: out of memory"};
    }
    const int now = ++running;
    for (int m = most_running; now > m && !most_running.compare_exchange_weak(m, now);) {
    }
    gate.wait();
    --running;
    if (name == "gpu-unverified" && where.gpu) return Error{ErrorCode::kVerifyFailed, "partition 0 does not verify"};
    if (name == "input-fault") throw Exception(invalid_argument("vanilla_proof: a Merkle path does not reach comm_r"));
    if (name == "cuda-throw" && where.gpu) throw std::runtime_error("CUDA error: an illegal memory access");
    PartitionOutput out;
    out.bytes.assign(part.begin(), part.end());
    out.times.backend = place;
    out.times.prove_ms = 1;
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
  // Every job parsed and admitted (6 x 100 bytes and the circuit's 50) before the worker chooses.
  for (int i = 0; i < 5000 && f.engine->status().memory_reserved < 650; ++i) std::this_thread::sleep_for(1ms);
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

// Curio gives every WindowPoSt partition of a deadline one request id
// (wdpost-<miner>-<part>-<randomness[:8]>, partition_index 0) and re-snaps a sector under
// snap-<miner>-<sector>: the same id asking something else is another job with its own proof,
// and a completed result is never returned for a request it was not made for.
TEST(Engine, OneRequestIdAskingOtherThingsGivesEachItsOwnProof) {
  Fixture f;
  f.handler->gate.open();
  const std::string id = "wdpost-1000-3-0a0b0c0d";
  const auto p0 = f.engine->submit(request("partition-0", Priority::high, id)).value();
  const auto p1 = f.engine->submit(request("partition-1", Priority::high, id)).value();
  EXPECT_FALSE(p1.joined);
  EXPECT_NE(p0.job_id, p1.job_id);
  const JobResult r0 = f.await(p0.job_id), r1 = f.await(p1.job_id);
  EXPECT_EQ(std::string(r0.proof.begin(), r0.proof.end()), "partition-0");
  EXPECT_EQ(std::string(r1.proof.begin(), r1.proof.end()), "partition-1");
  // Each asked again joins its own, completed job.
  EXPECT_EQ(f.engine->submit(request("partition-0", Priority::high, id)).value().job_id, p0.job_id);
  EXPECT_EQ(f.engine->submit(request("partition-1", Priority::high, id)).value().job_id, p1.job_id);
  // Another field of the request (the miner) makes another request too.
  JobRequest other = request("partition-0", Priority::high, id);
  other.miner_id = 1001;
  const std::string third = f.engine->submit(other).value().job_id;
  EXPECT_NE(third, p0.job_id);
  EXPECT_EQ(f.await(third).state, JobState::completed);
  EXPECT_EQ(request_digest(request("x", Priority::low, "a")), request_digest(request("x", Priority::critical, "b")));
  EXPECT_EQ(f.handler->order().size(), 3u);
}

// Every field a request asks by enters its digest: WindowPoSt partitions under one id differ
// only in partition_index and their vanilla proofs, WinningPoSt rounds in randomness, re-snaps
// in the commitments; the payloads' names (how errors cite them) do not.
TEST(RequestDigest, EveryAskedFieldChangesIt) {
  JobRequest base;
  base.kind = ProofKind::window_post_partition;
  base.randomness.assign(32, 7);
  base.vanilla_proofs = {{1, 2, 3}, {4, 5}};
  base.comm_r_old.assign(32, 1);
  base.comm_r_new.assign(32, 2);
  base.comm_d_new.assign(32, 3);
  const RequestDigest d = request_digest(base);
  std::vector<std::function<void(JobRequest&)>> changes = {
      [](JobRequest& r) { r.partition_index = 1; },
      [](JobRequest& r) { r.randomness[31] ^= 1; },
      [](JobRequest& r) { r.randomness.pop_back(); },
      [](JobRequest& r) { r.vanilla_proofs[1][0] ^= 1; },
      [](JobRequest& r) { r.vanilla_proofs.pop_back(); },
      // The same bytes split differently between two payloads.
      [](JobRequest& r) { r.vanilla_proofs = {{1, 2}, {3, 4, 5}}; },
      [](JobRequest& r) { r.comm_r_old[0] ^= 1; },
      [](JobRequest& r) { r.comm_r_new[0] ^= 1; },
      [](JobRequest& r) { r.comm_d_new[0] ^= 1; },
      // comm_r_old's last byte moved to comm_r_new's front: same concatenation.
      [](JobRequest& r) { r.comm_r_old.pop_back(); r.comm_r_new.insert(r.comm_r_new.begin(), 1); },
      [](JobRequest& r) { r.kind = ProofKind::winning_post; },
      [](JobRequest& r) { r.registered_proof = 13; },
      [](JobRequest& r) { r.vanilla_proof = {9}; },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    JobRequest r = base;
    changes[i](r);
    EXPECT_NE(request_digest(r), d) << "change " << i;
  }
  JobRequest named = base;
  named.payload_names = {"a.bin", "b.bin"};
  named.request_id = "another";
  named.priority = Priority::critical;
  EXPECT_EQ(request_digest(named), d);
}

// An express-lane kind (WinningPoSt's): proved at once on its GPU's express worker while every
// standard worker is held by a long partition and a standard job is queued before it; without
// express workers it waits for a standard one.
class ExpressHandler final : public ProofHandler {
 public:
  std::atomic<int> proved{0};
  ProofKind kind() const override { return ProofKind::winning_post; }
  Lane lane() const override { return Lane::express; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest&) const override {
    auto job = std::make_unique<FakeJob>();
    job->circuit_id = "express-1";
    job->host_bytes = 10;
    return std::unique_ptr<ParsedJob>(std::move(job));
  }
  bool serves(std::string_view id) const override { return id.starts_with("express-"); }
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string&) override {
    return std::shared_ptr<LoadedCircuit>(std::make_shared<FakeCircuit>());
  }
  Expected<PartitionOutput> prove(const ParsedJob&, LoadedCircuit&, uint32_t, const Placement& where) override {
    ++proved;
    PartitionOutput out;
    out.bytes = {'w'};
    out.times.backend = to_string(where);
    return out;
  }
};

TEST(Engine, ExpressJobsRunBesideBusyStandardWorkers) {
  for (const unsigned express : {1u, 0u}) {
    EngineOptions o;
    o.gpus = {0};
    o.partitions_per_gpu = 2;
    o.express_workers_per_gpu = express;
    o.retry_on_cpu = false;
    auto slow = std::make_unique<FakeHandler>();
    auto fast = std::make_unique<ExpressHandler>();
    FakeHandler* h = slow.get();
    std::vector<std::unique_ptr<ProofHandler>> handlers;
    handlers.push_back(std::move(slow));
    handlers.push_back(std::move(fast));
    Engine engine(o, std::move(handlers));
    engine.submit(request("porep*4")).value();
    for (int i = 0; i < 2000 && h->order().size() < 2; ++i) std::this_thread::sleep_for(1ms);
    ASSERT_EQ(h->order().size(), 2u);  // both standard workers held at the gate
    engine.submit(request("queued")).value();
    JobRequest w;
    w.kind = ProofKind::winning_post;
    w.priority = Priority::critical;
    const std::string id = engine.submit(w).value().job_id;
    const Expected<JobResult> r = engine.await(id, std::chrono::milliseconds(express ? 5000 : 300));
    if (express) {
      ASSERT_TRUE(r.has_value());
      EXPECT_EQ(r->state, JobState::completed) << "with an express worker";
      EXPECT_EQ(r->backend, "gpu 0");
    } else {
      EXPECT_TRUE(!r.has_value() || r->state != JobState::completed) << "no express worker: it waits";
    }
    h->gate.open();
    EXPECT_EQ(engine.await(id, std::nullopt).value().state, JobState::completed);
  }
}

TEST(Engine, AMalformedPayloadFailsThatJobOnlyNamingTheField) {
  Fixture f;
  f.handler->gate.open();
  const std::string bad = f.submit("bad");
  const std::string good = f.submit("good");
  const JobResult r = f.await(bad);
  EXPECT_EQ(r.state, JobState::failed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->code, ErrorCode::kInvalidArgument);  // the code survives to the caller
  EXPECT_NE(r.error_text().find("vanilla_proof: registered_proof"), std::string::npos) << r.error_text();
  EXPECT_TRUE(r.proof.empty());
  const JobResult g = f.await(good);
  EXPECT_EQ(g.state, JobState::completed);
  EXPECT_EQ(std::string(g.proof.begin(), g.proof.end()), "good");
  EXPECT_EQ(f.engine->status().failed, 1u);
  EXPECT_EQ(f.engine->status().completed, 1u);
}

// A running job ends when its partitions in flight do: the rest are never started.
TEST(Engine, CancelEndsAQueuedJobAtOnceAndARunningOneAtItsBoundary) {
  Fixture f;
  const std::string running = f.submit("running*3");
  f.wait_started(1);
  const std::string queued = f.submit("queued");
  const std::string after = f.submit("after");
  const auto q = f.engine->cancel(queued);
  EXPECT_TRUE(q.found);
  EXPECT_FALSE(q.was_running);
  EXPECT_EQ(f.await(queued).state, JobState::cancelled);
  const auto r = f.engine->cancel(running);
  EXPECT_TRUE(r.was_running);
  EXPECT_EQ(f.engine->await(running, 20ms).value().state, JobState::running);  // its partition 0 is in flight
  f.handler->gate.open();
  const JobResult rr = f.await(running);
  EXPECT_EQ(rr.state, JobState::cancelled);
  ASSERT_TRUE(rr.error);
  EXPECT_EQ(rr.error->code, ErrorCode::kCancelled);
  EXPECT_TRUE(rr.proof.empty());
  EXPECT_EQ(f.await(after).state, JobState::completed);
  // Partitions 1 and 2 never started, nor did the queued job.
  EXPECT_EQ(f.handler->order(), (std::vector<std::string>{"running#0", "after"}));
  EXPECT_FALSE(f.engine->cancel("job-unknown").found);
  EXPECT_FALSE(f.engine->cancel(after).was_running);  // finished: nothing to stop
}

// A job's partitions are proved one by one, each as the best job's next; its proof is their bytes
// in order. A CRITICAL job submitted behind a long one goes next, at the partition boundary.
TEST(Engine, PrioritiesPreemptAtPartitionBoundaries) {
  Fixture f;  // the CPU: one worker
  const std::string low = f.submit("low*3", Priority::low);
  f.wait_started(1);
  const std::string normal = f.submit("normal*2", Priority::normal);
  const std::string critical = f.submit("critical", Priority::critical);
  for (int i = 0; i < 2000 && f.engine->status().memory_reserved < 350; ++i) std::this_thread::sleep_for(1ms);
  f.handler->gate.open();
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(f.await(low).proof.data()), f.await(low).proof.size()),
            "low#0low#1low#2");
  EXPECT_EQ(f.await(critical).state, JobState::completed);
  const JobResult n = f.await(normal);
  EXPECT_EQ(n.partitions, 2u);
  EXPECT_EQ(n.partitions_done, 2u);
  ASSERT_EQ(n.partition_times.size(), 2u);
  EXPECT_EQ(n.partition_times[1].backend, "cpu");
  EXPECT_EQ(f.handler->order(),
            (std::vector<std::string>{"low#0", "critical", "normal#0", "normal#1", "low#1", "low#2"}));
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
  EXPECT_NE(no.error_text().find("does not verify"), std::string::npos) << no.error_text();
}

// Two GPUs: partitions_per_gpu workers on each and its express worker, and the CPU's (for the jobs
// every GPU failed).
// Spread::partitions: both GPUs prove partitions of one job; Spread::proofs: a job stays on the
// GPU that took its first partition.
TEST(Engine, SpreadPlacesAJobsPartitionsOnOneGpuOrOnAll) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 2;
  {
    Fixture f(o);
    const EngineStatus s = f.engine->status();
    ASSERT_EQ(s.workers.size(), 7u);
    EXPECT_EQ(s.workers[0].where.gpu, 0);
    EXPECT_EQ(s.workers[2].where.gpu, 0);
    EXPECT_EQ(s.workers[2].lane, Lane::express);
    EXPECT_EQ(s.workers[3].where.gpu, 1);
    EXPECT_EQ(s.workers[3].lane, Lane::standard);
    EXPECT_EQ(s.workers[5].lane, Lane::express);
    EXPECT_TRUE(s.workers[6].where.on_cpu());
    const std::string a = f.submit("a*4");
    f.wait_started(2);  // GPU 0's two workers on two of its partitions
    const std::string b = f.submit("b*4");
    f.wait_started(4);
    f.handler->gate.open();
    const JobResult ra = f.await(a), rb = f.await(b);
    EXPECT_NE(ra.backend, rb.backend);  // each on a GPU of its own
    EXPECT_EQ(ra.backend.find('+'), std::string::npos) << ra.backend;
    EXPECT_EQ(f.handler->attempts_on("gpu 0"), 4);
    EXPECT_EQ(f.handler->attempts_on("gpu 1"), 4);
  }
  o.spread = Spread::partitions;
  o.partitions_per_gpu = 1;
  Fixture f(o);
  const std::string a = f.submit("a*4");
  f.wait_started(2);  // one partition on each GPU
  f.handler->gate.open();
  const JobResult r = f.await(a);
  EXPECT_EQ(std::string(r.proof.begin(), r.proof.end()), "a#0a#1a#2a#3");  // in order, wherever proved
  EXPECT_EQ(r.backend, "gpu 0 + gpu 1");
  EXPECT_EQ(f.handler->attempts_on("gpu 0") + f.handler->attempts_on("gpu 1"), 4);
  EXPECT_EQ(to_string(Spread::partitions), "partitions");
}

// A GPU whose proofs fail (a CUDA error) fails only those attempts: each job goes to the other
// GPU, and the failing one rests (takes no job) meanwhile; the metrics count its failure.
TEST(Engine, AFailingGpuRestsAndItsJobsGoToTheOther) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 1;
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
    EXPECT_EQ(r.state, JobState::completed) << r.error_text();
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
              return l.find("stage=device_failure partition=0 on=gpu 1 rest_s=3600 next=another gpu") != std::string::npos;
            }),
            1);
}

// Two attempts on a GPU that fail by one fault (both begun before its rest) rest it once, not
// twice as long.
TEST(Engine, AttemptsFailingDuringARestDoNotLengthenIt) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 2;
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
  o.partitions_per_gpu = 1;
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
    o.partitions_per_gpu = 1;
    o.fault_rest = 1ms;
    {
      Fixture f(o);
      f.handler->gpu_fails = {{0, code}, {1, code}};
      f.handler->gate.open();
      for (int i = 0; i < 3; ++i) {
        const JobResult r = f.await(f.submit("job-" + std::to_string(i)));
        EXPECT_EQ(r.state, JobState::completed) << r.error_text();
        EXPECT_EQ(r.backend, "cpu");
      }
    }
    o.retry_on_cpu = false;
    Fixture f(o);
    f.handler->gpu_fails = {{0, code}, {1, code}};
    f.handler->gate.open();
    const JobResult r = f.await(f.submit("job"));
    EXPECT_EQ(r.state, JobState::failed);
    EXPECT_NE(r.error_text().find("gpu 0: gpu 0: CUDA error"), std::string::npos) << r.error_text();
    EXPECT_NE(r.error_text().find("gpu 1: gpu 1: CUDA error"), std::string::npos) << r.error_text();
  }
}

// A device's failure of one partition moves that partition only: the ones proved are kept.
TEST(Engine, ADeviceFailureMovesOnlyThatPartition) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 1;
  o.spread = Spread::partitions;
  o.fault_rest = std::chrono::hours(1);
  Fixture f(o);
  f.handler->gpu_fails[1] = ErrorCode::kInternal;
  const std::string id = f.submit("a*5");
  // GPU 0 holds a partition at the gate, so GPU 1 takes the next (and fails it).
  for (int i = 0; i < 2000 && f.handler->attempts_on("gpu 1") == 0; ++i) std::this_thread::sleep_for(1ms);
  f.handler->gate.open();
  const JobResult r = f.await(id);
  EXPECT_EQ(r.state, JobState::completed) << r.error_text();
  EXPECT_EQ(std::string(r.proof.begin(), r.proof.end()), "a#0a#1a#2a#3a#4");
  EXPECT_EQ(f.handler->attempts_on("gpu 1"), 1);  // then resting
  EXPECT_EQ(f.handler->attempts_on("gpu 0"), 5);  // each partition once, the failed one included
  EXPECT_EQ(f.handler->attempts_on("cpu"), 0);
}

// Whose fault a failure is decides the retry (cuzk::fault_of), also for what a handler throws:
// an input's (a cuzk::Exception keeps its code) fails the job at once and rests no GPU; anything
// else thrown on a GPU is the device's, and the job moves on.
TEST(Engine, AnInputsFaultIsNotRetriedAndRestsNoGpu) {
  EngineOptions o;
  o.gpus = {0, 1};
  o.partitions_per_gpu = 1;
  o.fault_rest = std::chrono::hours(1);
  Fixture f(o);
  f.handler->gate.open();
  const JobResult bad = f.await(f.submit("input-fault"));
  EXPECT_EQ(bad.state, JobState::failed);
  ASSERT_TRUE(bad.error);
  EXPECT_EQ(bad.error->code, ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.error_text().find("a Merkle path does not reach comm_r"), std::string::npos) << bad.error_text();
  EXPECT_EQ(f.handler->attempts_on("gpu 0") + f.handler->attempts_on("gpu 1") + f.handler->attempts_on("cpu"), 1);
  EXPECT_EQ(f.engine->status().gpus.at(0).failures + f.engine->status().gpus.at(1).failures, 0u);

  const JobResult thrown = f.await(f.submit("cuda-throw"));
  EXPECT_EQ(thrown.state, JobState::completed) << thrown.error_text();
  EXPECT_EQ(thrown.backend, "cpu");  // both GPUs threw: the CPU proved it
  const EngineStatus s = f.engine->status();
  EXPECT_EQ(s.gpus.at(0).failures + s.gpus.at(1).failures, 2u);
  EXPECT_NE(s.gpus.at(0).last_error.find("illegal memory access"), std::string::npos) << s.gpus.at(0).last_error;
}

TEST(Engine, TheMemoryBudgetAdmitsWhatFitsAndRefusesWhatNeverCan) {
  EngineOptions o;
  o.gpus = {0, 1};  // eight workers: only memory holds jobs back
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
  EXPECT_NE(big.error_text().find("budget"), std::string::npos) << big.error_text();
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

TEST(Engine, AClientsTextIsBoundedInErrorsAndEscapedInLogLines) {
  std::mutex m;
  std::vector<std::string> lines;
  EngineOptions o;
  o.log_stage = [&](const std::string& line) {
    const std::lock_guard lock(m);
    lines.push_back(line);
  };
  Fixture f(o);
  // A request id that would forge a second log line, and a payload whose error is 8 MiB long.
  const std::string forged = "porep-1-2\n2026-12-01T22:00:00.000 info job=job-0 stage=done state=completed";
  const std::string id = f.engine->submit(request("huge-error", Priority::normal, forged)).value().job_id;
  const JobResult r = f.await(id);
  ASSERT_EQ(r.state, JobState::failed);
  EXPECT_LE(r.error_text().size(), 4096u + 32);
  EXPECT_TRUE(r.error_text().starts_with("vanilla_proof: xxx")) << r.error_text().substr(0, 64);
  EXPECT_TRUE(r.error_text().ends_with(" ... (8388623 bytes)")) << r.error_text().substr(4000);
  f.engine.reset();
  ASSERT_FALSE(lines.empty());
  for (const std::string& l : lines) {
    EXPECT_EQ(l.find('\n'), std::string::npos) << l.substr(0, 200);
    EXPECT_LT(l.size(), 2 * 4096u) << l.substr(0, 200);
    EXPECT_NE(l.find("request_id=\"porep-1-2\\n2026-12-01T22:00:00.000 info"), std::string::npos) << l.substr(0, 200);
  }
}

}  // namespace
}  // namespace cuzk::engine
