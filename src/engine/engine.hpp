#pragma once
// The proving engine, the only orchestrator of proofs (shared/DESIGN.md decision 7): the daemon,
// `cuzk prove` and the benches all prove through it. A job is a list of partitions; the engine
// hands them out one at a time to the workers of each place (every GPU, and the CPU), each of
// which has the handler synthesise, prove and verify it there; the job's proof is its
// partitions' proofs in order.
//
//   submit ──> pending (by priority, then age) ──parse worker──> active (admitted; by priority,
//          then age) ──partitions──> GPU workers (partitions_per_gpu a GPU) | the CPU worker
//          ──all partitions proved──> finished (kept for await)
//   (express-lane jobs, WinningPoSt: their own parse worker, and express_workers_per_gpu more
//   workers on each GPU that take only them: engine/handler.hpp Lane)
//
// - Priorities preempt at partition boundaries: a worker that is done with a partition takes the
//   next partition of the best job, so a CRITICAL job waits at most for the partitions in flight.
// - Spread::proofs keeps a job's partitions on the GPU that took its first (each GPU proves
//   sectors of its own); Spread::partitions lets every GPU take any (one sector in 1/N the time).
// - Idempotent: a request already known (its request_id and what it asks: request_digest) joins
//   that job (queued, running or completed); one that failed or was cancelled is proved afresh;
//   the same id asking something else is another job (Curio reuses ids: one for every WindowPoSt
//   partition of a deadline, one for every re-snap of a sector).
// - Memory: a parsed job becomes active only when its host bytes fit the budget beside the
//   larger of what is reserved (the loaded circuits' and the admitted jobs' estimates) and the
//   process's resident set now; one that could never fit fails, naming the sizes. When nothing
//   runs, the next job goes ahead (so that the engine never stalls on memory it cannot free).
// - Cancellation: a queued job ends at once; a running one when its partitions in flight end.
// - Failover, one policy: a failure is the input's or a device's (cuzk::fault_of). The input's
//   fails the job. A device's fails only that partition's attempt: it goes back to the job for a
//   GPU that has not failed the job, and when none is left, to the CPU (retry_on_cpu) or the job
//   fails naming each GPU's error; partitions already proved are kept. The failing GPU rests
//   (takes nothing) for fault_rest, doubled after each failure in a row up to 16x (attempts that
//   fail during a rest, begun before it, are the same fault: core/fault_rest.hpp); a GPU that
//   cannot serve a circuit (kUnavailable) is not offered it again while another can. A proof is
//   never returned unverified.
// - Shutdown drains: new submissions are refused, queued jobs are cancelled, running jobs finish.

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/expected.hpp"
#include "core/fault_rest.hpp"
#include "core/process_memory.hpp"
#include "engine/handler.hpp"
#include "engine/job.hpp"
#include "engine/metrics.hpp"
#include "engine/srs_cache.hpp"

namespace cuzk::engine {

// How a job uses several GPUs: whole proofs each on one GPU (throughput: every GPU proves a
// sector of its own), or one proof's partitions spread over all of them (latency: a sector in
// 1/N of the time). One GPU: the same either way.
enum class Spread { proofs, partitions };
std::string_view to_string(Spread spread);  // "proofs", "partitions"

struct EngineOptions {
  std::vector<int> gpus;            // ordinals proved on; empty: the CPU
  // Partitions in flight on each GPU (its workers): one proved while the next ones are
  // synthesised and go up. Each holds a witness buffer (4.2 GB pinned at 32 GiB).
  unsigned partitions_per_gpu = 4;
  // Workers on each GPU beside those that take only express-lane jobs (WinningPoSt), so that one
  // starts at once instead of after a partition in flight; 0: none (they queue like the rest).
  unsigned express_workers_per_gpu = 1;
  Spread spread = Spread::proofs;
  unsigned max_pending = 64;        // queued jobs (not yet proving) beyond which submit is refused
  size_t memory_budget = 0;         // host bytes for loaded circuits and jobs; 0: no limit
  // The process's resident bytes now: admission counts the larger of it and the estimates, so
  // memory the estimates miss holds work back too. Empty: the estimates alone.
  std::function<size_t()> resident_bytes = cuzk::resident_bytes;
  bool retry_on_cpu = true;         // a job's partitions every GPU failed are proved on the CPU
  // How long a GPU that failed a job takes none (doubled for each failure in a row, up to 16x).
  std::chrono::milliseconds fault_rest{30'000};
  size_t finished_kept = 1024;      // finished jobs remembered for await (oldest forgotten first)
  // One line per job stage (submit, parse, start, srs, device_failure, retry, done), e.g. to a
  // logger; may be empty.
  std::function<void(const std::string& line)> log_stage;
};

// A job's place, for GetStatus and the CLI.
struct QueueCounts {
  unsigned pending = 0;      // submitted, not yet proving (parsing included)
  unsigned in_progress = 0;  // proving
  std::array<unsigned, 5> pending_by_priority{};  // `pending` split by Priority (its wire number)
};
struct WorkerStatus {
  Placement where;
  Lane lane = Lane::standard;  // express: takes only express-lane jobs
  std::string current_job_id;  // "" when idle
  ProofKind current_kind = ProofKind::unspecified;
  uint32_t current_partition = 0;
};
// A GPU's failures (the engine's view: jobs it failed), for metrics and logs.
struct GpuHealth {
  FaultRest rest;  // core/fault_rest.hpp: options.fault_rest after a failure, doubling
  uint64_t failures = 0;
  std::string last_error;
  std::map<std::string, std::string> unservable;  // circuit id -> why (kUnavailable)
};
struct EngineStatus {
  std::vector<WorkerStatus> workers;
  std::map<int, GpuHealth> gpus;  // by ordinal, every GPU the engine proves on
  std::vector<SrsCache::Entry> circuits;
  std::map<ProofKind, QueueCounts> queues;
  uint64_t completed = 0, failed = 0, cancelled = 0;
  double uptime_s = 0;
  size_t memory_budget = 0, memory_reserved = 0;  // reserved: loaded circuits + admitted jobs
  bool draining = false;
};

class Engine {
 public:
  Engine(EngineOptions options, std::vector<std::unique_ptr<ProofHandler>> handlers);
  ~Engine();  // shutdown(), then joins every worker
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  struct Submitted {
    std::string job_id;
    uint32_t queue_position = 0;  // jobs ahead of it (0: next)
    bool joined = false;          // the request_id was known: this is that job
    std::string assigned_gpu;     // "" until a worker takes a partition of it
  };
  // Refused (not queued): a kind without a handler (kUnsupported), a full queue
  // (kResourceExhausted), a draining engine (kResourceExhausted, saying so).
  Expected<Submitted> submit(JobRequest request);

  // The job's result once finished, or its state so far (partitions_done) when `timeout` passes
  // first (nullopt: wait as long as it takes). Unknown job id: kNotFound.
  Expected<JobResult> await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout);

  struct Cancelled {
    bool found = false;
    bool was_running = false;
  };
  Cancelled cancel(const std::string& job_id);

  Expected<SrsCache::Preloaded> preload(const std::string& circuit_id);
  SrsCache::Evicted evict(const std::string& circuit_id);

  EngineStatus status() const;
  MetricsSnapshot metrics() const;

  // Refuse new jobs and cancel queued ones; running jobs go on. Then wait until none runs, or
  // until `timeout` (then the running ones are asked to stop at their next boundary and waited for).
  void shutdown(std::optional<std::chrono::milliseconds> timeout = std::nullopt);

 private:
  struct Job;
  using JobPtr = std::shared_ptr<Job>;

  ProofHandler* handler_for(ProofKind kind) const;
  ProofHandler* handler_serving(const std::string& circuit_id) const;
  void parse_loop(std::stop_token stop, Lane lane);
  void prove_loop(std::stop_token stop, size_t worker);
  // One partition of `job` on the worker's place: proved, and recorded (the job finished when it
  // was the last, failed when the fault was the input's, the partition handed back after a
  // device's).
  void run_partition(const JobPtr& job, std::shared_ptr<const ParsedJob> parsed, uint32_t partition, size_t worker);
  // A device's failure of `job`'s partition on GPU `g`: the GPU's rest, and where the partition
  // goes now. False when no place is left for it (the job must fail).
  bool after_device_failure_locked(const JobPtr& job, uint32_t partition, int g, const Error& error);
  // The job and partition a worker at `where` of `lane` takes next (highest priority, then
  // oldest), or none.
  std::optional<std::pair<JobPtr, uint32_t>> next_partition_locked(const Placement& where, Lane lane,
                                                                   std::chrono::steady_clock::time_point now);
  bool can_take_locked(const Job& job, const Placement& where, std::chrono::steady_clock::time_point now) const;
  // Whether a GPU other than `except` has neither failed `job` nor been unable to serve its circuit.
  bool servable_elsewhere_locked(const Job& job, std::optional<int> except) const;
  // The soonest end of a rest of `where`'s GPU (none resting: nullopt).
  std::optional<std::chrono::steady_clock::time_point> rest_end_locked(const Placement& where) const;
  void finish_locked(const JobPtr& job, JobState state, std::optional<Error> error, std::vector<uint8_t> proof = {});
  void cancel_queued_locked(const JobPtr& job, std::string reason);  // not running: ends it now
  // Highest priority, then oldest, of `lane` in `queue` (null when none); with mutex_ held.
  JobPtr pop_best(std::deque<JobPtr>& queue, Lane lane);
  size_t in_parse_count_locked() const;
  size_t reserved_locked() const;  // loaded circuits + admitted jobs (estimates)
  size_t in_use_locked() const;    // the larger of that and the resident set
  void log(const Job& job, const std::string& stage, const std::string& detail) const;

  EngineOptions options_;
  std::vector<std::unique_ptr<ProofHandler>> handlers_;
  SrsCache cache_;
  Metrics metrics_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

  mutable std::mutex mutex_;
  std::condition_variable_any changed_;  // queues, jobs' states, admission
  std::map<std::string, JobPtr> jobs_;              // by job id
  // A job is known by its request id and what it asks: Curio gives every WindowPoSt partition of
  // a deadline one id, and re-snaps a sector under one id (request_digest).
  using RequestKey = std::pair<std::string, RequestDigest>;
  std::map<RequestKey, std::string> by_request_;   // -> job id
  std::deque<std::string> finished_order_;          // oldest first, for forgetting
  std::deque<JobPtr> pending_;  // submitted, not parsed yet
  std::array<JobPtr, 2> in_parse_;  // each lane's parse worker's: being parsed, or waiting for admission
  std::vector<JobPtr> active_;   // admitted, not finished: their partitions are handed out
  size_t admitted_bytes_ = 0;    // the active jobs'
  unsigned in_flight_ = 0;       // partitions being proved
  std::map<std::string, size_t> expected_circuits_;  // admitted jobs' circuits not loaded yet
  std::vector<WorkerStatus> workers_;
  std::map<int, GpuHealth> health_;  // by ordinal
  uint64_t next_id_ = 1;
  bool draining_ = false;

  std::vector<std::jthread> threads_;  // last: joined first, while the rest is alive
};

// One job through `engine` to its end, as `cuzk prove` and the benches run it (in process, the
// daemon's path): submitted, then awaited; `on_progress(done, total)` is called once the job is
// parsed (0 done) and as partitions are proved (may be empty). The job's result (completed,
// failed or cancelled), or the submission's error.
Expected<JobResult> prove_to_end(Engine& engine, JobRequest request,
                                 const std::function<void(uint32_t done, uint32_t total)>& on_progress = {});

}  // namespace cuzk::engine
