#include "engine/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>
#include <set>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "core/memory_size.hpp"
#include "core/printable.hpp"
#include "core/secure_random.hpp"
#include "core/timing.hpp"

namespace cuzk::engine {

std::string_view to_string(Spread spread) { return spread == Spread::partitions ? "partitions" : "proofs"; }

struct Engine::Job {
  std::string id;
  JobRequest request;
  RequestKey key;  // its request id and what it asks (request_digest)
  uint64_t seq = 0;  // submission order: the older of two equal priorities goes first
  Lane lane = Lane::standard;  // its handler's
  Clock::time_point submitted = Clock::now();
  // Shared with the workers proving its partitions: a job that fails while some are in flight
  // lets go of its own reference at once.
  std::shared_ptr<const ParsedJob> parsed;
  size_t admitted_bytes = 0;  // counted in admitted_bytes_ while active
  bool parsing = false;       // the parse worker reads request.vanilla_proof without the lock
  bool stop = false;          // cancelled while partitions were in flight: none is handed out now
  bool started = false;       // a partition was handed out
  bool srs_logged = false;

  enum class Part : uint8_t { todo, running, done };
  std::vector<Part> parts;
  std::vector<std::vector<uint8_t>> proofs;  // by partition
  unsigned in_flight = 0;
  std::optional<int> bound_gpu;  // Spread::proofs: the GPU its partitions go to
  bool on_cpu = false;           // every GPU failed it: the CPU worker proves what is left
  std::set<int> failed_on;       // GPUs that failed it (not offered it again)
  std::string device_errors;     // their errors, for the message if every place fails
  std::set<std::string> backends;
  JobResult result;  // result.state is the job's state
};

std::string to_string(const Placement& where) {
  return where.gpu ? fmt::format("gpu {}", *where.gpu) : std::string("cpu");
}

namespace {

size_t payload_bytes(const JobRequest& r) {
  size_t n = r.vanilla_proof.size();
  for (const auto& v : r.vanilla_proofs) n += v.size();
  return n;
}

// Bounds on what a client's input can make the engine keep and log (docs/daemon.md, Limits): a
// job's error text (it may quote the payload; 1,024 finished jobs are kept), and per log line the
// request id (the wire allows 256 bytes: service/wire.hpp) and the stage's detail.
constexpr size_t kKeptErrorBytes = 4096;
constexpr size_t kLoggedIdBytes = 256;
constexpr size_t kLoggedDetailBytes = 4096;

std::string new_job_id() {
  std::array<uint8_t, 8> r{};
  secure_random_bytes(r);
  return "job-" + to_hex(r);
}

// The workers: partitions_per_gpu for each GPU and its express_workers_per_gpu, and one for the
// CPU (every job's when there is no GPU; else the jobs every GPU failed, when retry_on_cpu).
std::vector<WorkerStatus> worker_places(const EngineOptions& o) {
  std::vector<WorkerStatus> out;
  const auto add = [&](unsigned n, Placement where, Lane lane) {
    for (unsigned i = 0; i < n; ++i) {
      WorkerStatus w;
      w.where = where;
      w.lane = lane;
      out.push_back(w);
    }
  };
  for (int g : o.gpus) {
    add(std::max(o.partitions_per_gpu, 1u), Placement{g}, Lane::standard);
    add(o.express_workers_per_gpu, Placement{g}, Lane::express);
  }
  if (o.gpus.empty() || o.retry_on_cpu) add(1, Placement{}, Lane::standard);
  return out;
}

}  // namespace

Engine::Engine(EngineOptions options, std::vector<std::unique_ptr<ProofHandler>> handlers)
    : options_(std::move(options)),
      handlers_(std::move(handlers)),
      cache_([this](const std::string& id) -> Expected<std::shared_ptr<LoadedCircuit>> {
        ProofHandler* h = handler_serving(id);
        if (h == nullptr) return Error{ErrorCode::kNotFound, "no circuit '" + id + "' (e.g. porep-2k, porep-32g)"};
        return capture([&] { return h->load(id); });
      }),
      metrics_(worker_places(options_).size()) {
  workers_ = worker_places(options_);
  for (int g : options_.gpus) health_[g];
  for (const Lane lane : {Lane::standard, Lane::express})
    threads_.emplace_back([this, lane](std::stop_token stop) { parse_loop(stop, lane); });
  for (size_t w = 0; w < workers_.size(); ++w) {
    threads_.emplace_back([this, w](std::stop_token stop) { prove_loop(stop, w); });
  }
}

Engine::~Engine() {
  shutdown();
  for (std::jthread& t : threads_) t.request_stop();
  threads_.clear();  // joins
}

ProofHandler* Engine::handler_for(ProofKind kind) const {
  for (const auto& h : handlers_) {
    if (h->kind() == kind) return h.get();
  }
  return nullptr;
}

ProofHandler* Engine::handler_serving(const std::string& circuit_id) const {
  for (const auto& h : handlers_) {
    if (h->serves(circuit_id)) return h.get();
  }
  return nullptr;
}

Expected<Engine::Submitted> Engine::submit(JobRequest request) {
  if (handler_for(request.kind) == nullptr)
    return Error{ErrorCode::kUnsupported, "proof kind " + std::string(to_string(request.kind)) + " is not served here"};
  if (request.priority == Priority::unspecified) request.priority = Priority::normal;
  // What the request asks, hashed outside the lock (a 32 GiB C1 is ~50 MB).
  const RequestKey key{request.request_id, request_digest(request)};
  const std::lock_guard lock(mutex_);
  if (draining_) return Error{ErrorCode::kResourceExhausted, "the engine is shutting down: no new jobs"};
  if (!request.request_id.empty()) {
    if (auto known = by_request_.find(key); known != by_request_.end()) {
      const JobPtr& job = jobs_.at(known->second);
      const JobState s = job->result.state;
      if (s != JobState::failed && s != JobState::cancelled) {
        return Submitted{job->id, 0, true, job->bound_gpu ? fmt::format("gpu {}", *job->bound_gpu) : ""};
      }
    }
  }
  size_t queued = pending_.size() + in_parse_count_locked();
  for (const JobPtr& j : active_) queued += j->started ? 0 : 1;
  if (queued >= options_.max_pending)
    return Error{ErrorCode::kResourceExhausted, fmt::format("{} jobs are queued (the limit, scheduler.max_pending): "
                                                            "try again later", queued)};
  auto job = std::make_shared<Job>();
  job->id = new_job_id();
  job->seq = next_id_++;
  job->lane = handler_for(request.kind)->lane();
  job->request = std::move(request);
  job->key = key;
  job->result.job_id = job->id;
  uint32_t ahead = 0;
  for (const JobPtr& other : pending_) ahead += other->request.priority >= job->request.priority ? 1 : 0;
  for (const JobPtr& other : in_parse_)
    if (other && !finished(other->result.state)) ahead += other->request.priority >= job->request.priority ? 1 : 0;
  for (const JobPtr& other : active_) ahead += !other->started && other->request.priority >= job->request.priority ? 1 : 0;
  jobs_[job->id] = job;
  if (!job->request.request_id.empty()) by_request_[key] = job->id;
  pending_.push_back(job);
  log(*job, "submit", fmt::format("priority={} payload_bytes={} ahead={}", to_string(job->request.priority),
                                  payload_bytes(job->request), ahead));
  changed_.notify_all();
  return Submitted{job->id, ahead, false, ""};
}

size_t Engine::in_parse_count_locked() const {
  return size_t(std::ranges::count_if(in_parse_, [](const JobPtr& j) { return j != nullptr; }));
}

Engine::JobPtr Engine::pop_best(std::deque<JobPtr>& queue, Lane lane) {
  auto best = queue.end();
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    const Job& x = **it;
    if (x.lane != lane) continue;
    if (best == queue.end() || x.request.priority > (*best)->request.priority ||
        (x.request.priority == (*best)->request.priority && x.seq < (*best)->seq))
      best = it;
  }
  if (best == queue.end()) return nullptr;
  JobPtr job = *best;
  queue.erase(best);
  return job;
}

bool Engine::servable_elsewhere_locked(const Job& job, std::optional<int> except) const {
  for (const auto& [g, h] : health_) {
    if (g != except && !job.failed_on.contains(g) && !h.unservable.contains(job.parsed->circuit_id)) return true;
  }
  return false;
}

bool Engine::can_take_locked(const Job& job, const Placement& where, std::chrono::steady_clock::time_point now) const {
  if (job.stop) return false;
  if (where.on_cpu()) return options_.gpus.empty() || job.on_cpu;
  const int g = *where.gpu;
  if (job.on_cpu || job.failed_on.contains(g)) return false;
  if (options_.spread == Spread::proofs && job.bound_gpu && *job.bound_gpu != g) return false;
  const GpuHealth& h = health_.at(g);
  if (h.rest.resting(now)) return false;
  // A GPU that cannot serve the circuit is passed over while another can; when none can, it takes
  // the partition and fails it at once, and the job reaches the CPU from there.
  return !h.unservable.contains(job.parsed->circuit_id) || !servable_elsewhere_locked(job, g);
}

std::optional<std::pair<Engine::JobPtr, uint32_t>> Engine::next_partition_locked(
    const Placement& where, Lane lane, std::chrono::steady_clock::time_point now) {
  const JobPtr* best = nullptr;
  for (const JobPtr& job : active_) {
    if (lane == Lane::express && job->lane != Lane::express) continue;
    if (std::ranges::find(job->parts, Job::Part::todo) == job->parts.end() || !can_take_locked(*job, where, now)) continue;
    if (best == nullptr || job->request.priority > (*best)->request.priority ||
        (job->request.priority == (*best)->request.priority && job->seq < (*best)->seq))
      best = &job;
  }
  if (best == nullptr) return std::nullopt;
  const auto todo = std::ranges::find((*best)->parts, Job::Part::todo);
  return std::pair{*best, uint32_t(todo - (*best)->parts.begin())};
}

std::optional<std::chrono::steady_clock::time_point> Engine::rest_end_locked(const Placement& where) const {
  if (where.on_cpu()) return std::nullopt;
  const auto until = health_.at(*where.gpu).rest.until;
  return until > Clock::now() ? std::optional(until) : std::nullopt;
}

size_t Engine::in_use_locked() const {
  return std::max(reserved_locked(), options_.resident_bytes ? options_.resident_bytes() : size_t{0});
}

size_t Engine::reserved_locked() const {
  size_t sum = cache_.host_bytes() + admitted_bytes_;
  for (const auto& [id, bytes] : expected_circuits_) sum += cache_.holds(id) ? 0 : bytes;
  return sum;
}

void Engine::parse_loop(std::stop_token stop, Lane lane) {
  JobPtr& in_parse = in_parse_[size_t(lane)];
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, stop, [&] {
      return std::ranges::any_of(pending_, [&](const JobPtr& j) { return j->lane == lane; });
    });
    if (stop.stop_requested()) return;
    JobPtr job = pop_best(pending_, lane);
    in_parse = job;
    job->parsing = true;
    lock.unlock();
    const auto t0 = Clock::now();
    Expected<std::unique_ptr<ParsedJob>> parsed =
        capture([&] { return handler_for(job->request.kind)->parse(job->request); });
    if (parsed && (*parsed)->partitions == 0) parsed = Error{ErrorCode::kInternal, "the handler parsed no partition"};
    const double parse_ms = ms_since(t0);
    lock.lock();
    job->parsing = false;
    job->request.vanilla_proof = {};  // parsed (or refused): the payload's memory goes
    job->request.vanilla_proofs = {};
    job->result.times.parse_ms = parse_ms;
    if (finished(job->result.state)) continue;  // cancelled meanwhile
    if (!parsed) {
      finish_locked(job, JobState::failed, parsed.error());
      continue;
    }
    job->parsed = std::move(*parsed);
    const uint32_t n = job->parsed->partitions;
    job->parts.assign(n, Job::Part::todo);
    job->proofs.resize(n);
    job->result.partitions = n;
    job->result.partition_times.resize(n);
    log(*job, "parse", fmt::format("ms={:.1f} circuit={} partitions={} host_bytes={}", parse_ms,
                                   job->parsed->circuit_id, n, job->parsed->host_bytes));
    // Admission: the job's bytes, and its circuit's unless loaded or already counted, beside
    // what is reserved.
    const std::string circuit = job->parsed->circuit_id;
    const auto need = [&] {
      const bool counted = expected_circuits_.contains(circuit) || cache_.holds(circuit);
      return job->parsed->host_bytes + (counted ? 0 : job->parsed->circuit_bytes);
    };
    if (options_.memory_budget != 0 && need() > options_.memory_budget) {
      finish_locked(job, JobState::failed,
                    Error{ErrorCode::kResourceExhausted,
                          fmt::format("the job needs {} of host memory ({} of it for its circuit's parameters), more "
                                      "than the budget of {} (memory.budget)",
                                      gib_text(need()), gib_text(need() - job->parsed->host_bytes),
                                      gib_text(options_.memory_budget))});
      continue;
    }
    changed_.wait(lock, stop, [&] {
      return finished(job->result.state) || options_.memory_budget == 0 ||
             in_use_locked() + need() <= options_.memory_budget || (in_flight_ == 0 && active_.empty());
    });
    if (stop.stop_requested()) return;
    if (finished(job->result.state)) continue;
    if (need() > job->parsed->host_bytes) expected_circuits_[circuit] = need() - job->parsed->host_bytes;
    job->admitted_bytes = job->parsed->host_bytes;
    admitted_bytes_ += job->admitted_bytes;
    active_.push_back(job);
    in_parse.reset();
    changed_.notify_all();
  }
}

void Engine::prove_loop(std::stop_token stop, size_t worker) {
  const Placement where = workers_[worker].where;
  const Lane lane = workers_[worker].lane;
  std::optional<std::pair<JobPtr, uint32_t>> next;
  const auto found = [&] { return (next = next_partition_locked(where, lane, Clock::now())).has_value(); };
  std::unique_lock lock(mutex_);
  for (;;) {
    if (const auto rest = rest_end_locked(where)) {
      changed_.wait_until(lock, stop, *rest, found);  // a resting GPU looks again when its rest ends
    } else {
      changed_.wait(lock, stop, found);
    }
    if (stop.stop_requested()) return;
    if (!next) continue;
    const auto [job, k] = *next;
    next.reset();
    job->parts[k] = Job::Part::running;
    ++job->in_flight;
    ++in_flight_;
    if (!job->started) {
      job->started = true;
      job->result.state = JobState::running;
      job->result.times.queue_wait_ms = ms_since(job->submitted) - job->result.times.parse_ms;
      log(*job, "start", "on=" + to_string(where));
    }
    if (options_.spread == Spread::proofs && where.gpu && !job->bound_gpu) job->bound_gpu = where.gpu;
    workers_[worker].current_job_id = job->id;
    workers_[worker].current_kind = job->request.kind;
    workers_[worker].current_partition = k;
    // The worker's own reference: a job failed by another partition meanwhile lets go of its own.
    std::shared_ptr<const ParsedJob> parsed = job->parsed;
    lock.unlock();
    const auto t0 = Clock::now();
    run_partition(job, std::move(parsed), k, worker);
    metrics_.worker_busy(worker, ms_since(t0) / 1e3);
    lock.lock();
  }
}

void Engine::run_partition(const JobPtr& job, std::shared_ptr<const ParsedJob> parsed, uint32_t k, size_t worker) {
  const Placement where = workers_[worker].where;
  Expected<SrsCache::Acquired> circuit = capture([&] { return cache_.acquire(parsed->circuit_id); });
  Expected<PartitionOutput> out = Error{ErrorCode::kInternal, "not proved"};
  const bool loaded = circuit.has_value();
  if (loaded) {
    {
      const std::lock_guard lock(mutex_);
      expected_circuits_.erase(parsed->circuit_id);  // loaded: the cache counts it
      job->result.times.srs_load_ms = std::max(job->result.times.srs_load_ms, circuit->load_ms);
      if (!std::exchange(job->srs_logged, true))
        log(*job, "srs", fmt::format("circuit={} load_ms={:.1f}", parsed->circuit_id, circuit->load_ms));
    }
    out = capture([&] { return handler_for(job->request.kind)->prove(*parsed, *circuit->circuit, k, where); });
    circuit = Error{ErrorCode::kInternal, "released"};  // the cache's count of users drops before the job ends
  }

  const std::lock_guard lock(mutex_);
  --job->in_flight;
  --in_flight_;
  workers_[worker].current_job_id.clear();
  const auto end_if_stopped = [&] {
    if (job->stop && job->in_flight == 0) finish_locked(job, JobState::cancelled, Error{ErrorCode::kCancelled,
                                                        "cancelled at a partition boundary"});
  };
  changed_.notify_all();
  if (finished(job->result.state)) return;  // failed by another partition meanwhile
  if (!loaded) {
    expected_circuits_.erase(parsed->circuit_id);
    finish_locked(job, JobState::failed, Error{circuit.error().code, "parameters of " + parsed->circuit_id + ": " +
                                                                         circuit.error().message});
    return;
  }
  if (out) {
    job->parts[k] = Job::Part::done;
    job->proofs[k] = std::move(out->bytes);
    job->backends.insert(out->times.backend);
    JobTimes& t = job->result.times;
    t.synthesis_ms += out->times.synthesis_ms;
    t.gpu_compute_ms += out->times.prove_ms;
    t.verify_ms += out->times.verify_ms;
    job->result.partition_times[k] = std::move(out->times);
    ++job->result.partitions_done;
    if (where.gpu) health_.at(*where.gpu).rest.succeeded();
    if (job->result.partitions_done == job->parts.size()) {
      std::vector<uint8_t> proof;
      for (const std::vector<uint8_t>& p : job->proofs) proof.insert(proof.end(), p.begin(), p.end());
      std::string backends;
      for (const std::string& b : job->backends) backends += (backends.empty() ? "" : " + ") + b;
      job->result.backend = backends;
      finish_locked(job, JobState::completed, std::nullopt, std::move(proof));
      return;
    }
    end_if_stopped();
    return;
  }
  Error e = out.error();
  const Fault fault = fault_of(e.code);
  if (fault == Fault::device && where.gpu && after_device_failure_locked(job, k, *where.gpu, e)) {
    job->parts[k] = Job::Part::todo;
    end_if_stopped();
    return;
  }
  if (fault == Fault::cancelled) {
    finish_locked(job, JobState::cancelled, std::move(e));
    return;
  }
  if (job->parts.size() > 1) e.message = fmt::format("partition {} of {}: {}", k, job->parts.size(), e.message);
  if (!job->device_errors.empty()) {
    e.message = where.on_cpu() ? e.message + " (on the CPU, after the GPUs': " + job->device_errors + ")"
                               : job->device_errors;
  }
  finish_locked(job, JobState::failed, std::move(e));
}

bool Engine::after_device_failure_locked(const JobPtr& job, uint32_t k, int g, const Error& error) {
  job->device_errors += fmt::format("{}gpu {}: {}", job->device_errors.empty() ? "" : "; ", g, error.message);
  job->failed_on.insert(g);
  if (job->bound_gpu == g) job->bound_gpu.reset();
  GpuHealth& h = health_.at(g);
  ++h.failures;
  h.last_error = error.message;
  const auto now = Clock::now();
  std::string rest;
  if (error.code == ErrorCode::kUnavailable) {
    h.unservable[job->parsed->circuit_id] = error.message;  // the GPU itself may serve other circuits
  } else if (const auto pause = h.rest.failed(options_.fault_rest, now)) {
    rest = fmt::format(" rest_s={:.0f}", pause->count() / 1e3);
  } else {  // another attempt, begun before the rest, failed by the same fault: the rest stands
    rest = fmt::format(" resting_s={:.0f}", std::chrono::duration<double>(h.rest.until - now).count());
  }
  const bool elsewhere = !job->stop && servable_elsewhere_locked(*job, g);
  const bool cpu = !elsewhere && !job->stop && options_.retry_on_cpu;
  log(*job, "device_failure", fmt::format("partition={} on=gpu {}{} next={} error=\"{}\"", k, g, rest,
                                          elsewhere ? "another gpu" : cpu ? "cpu" : "none", error.message));
  if (cpu && !job->on_cpu) {
    job->on_cpu = true;
    log(*job, "retry", "on=cpu reason=\"" + job->device_errors + "\"");
  }
  return elsewhere || cpu || job->stop;
}

void Engine::finish_locked(const JobPtr& job, JobState state, std::optional<Error> error, std::vector<uint8_t> proof) {
  if (finished(job->result.state)) return;
  for (JobPtr& j : in_parse_)
    if (j == job) j.reset();
  std::erase(pending_, job);
  std::erase(active_, job);
  admitted_bytes_ -= job->admitted_bytes;
  job->admitted_bytes = 0;
  job->parsed.reset();
  if (!job->parsing) {  // else the parse worker frees it when done
    job->request.vanilla_proof = {};
    job->request.vanilla_proofs = {};
  }
  job->result.state = state;
  if (error) error->message = bounded(std::move(error->message), kKeptErrorBytes);
  job->result.error = std::move(error);
  job->result.proof = std::move(proof);
  if (state != JobState::completed) job->result.partition_times.clear();
  job->result.times.total_ms = ms_since(job->submitted);
  const JobTimes& t = job->result.times;
  log(*job, "done",
      fmt::format("state={} total_ms={:.1f} queue_wait_ms={:.1f} parse_ms={:.1f} srs_load_ms={:.1f} synthesis_ms={:.1f} "
                  "gpu_compute_ms={:.1f} verify_ms={:.1f}{}{}",
                  to_string(state), t.total_ms, t.queue_wait_ms, t.parse_ms, t.srs_load_ms, t.synthesis_ms,
                  t.gpu_compute_ms, t.verify_ms, job->result.backend.empty() ? "" : " backend=\"" + job->result.backend + "\"",
                  job->result.error ? " error=\"" + job->result.error->message + "\"" : ""));
  metrics_.job_finished(job->request.kind, state, t);
  finished_order_.push_back(job->id);
  while (finished_order_.size() > options_.finished_kept) {
    const std::string old = finished_order_.front();
    finished_order_.pop_front();
    if (auto it = jobs_.find(old); it != jobs_.end()) {
      if (auto r = by_request_.find(it->second->key); r != by_request_.end() && r->second == old)
        by_request_.erase(r);
      jobs_.erase(it);
    }
  }
  changed_.notify_all();
}

Expected<JobResult> Engine::await(const std::string& job_id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end())
    return Error{ErrorCode::kNotFound, fmt::format("job '{}' is not known here (finished jobs are kept for the last {})",
                                                   job_id, options_.finished_kept)};
  const JobPtr job = it->second;  // kept alive even if forgotten meanwhile
  const auto done = [&] { return finished(job->result.state); };
  if (timeout) {
    changed_.wait_for(lock, *timeout, done);
  } else {
    changed_.wait(lock, done);
  }
  return job->result;
}

Engine::Cancelled Engine::cancel(const std::string& job_id) {
  const std::lock_guard lock(mutex_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end()) return {};
  const JobPtr job = it->second;
  if (finished(job->result.state)) return {true, false};
  job->stop = true;
  if (job->in_flight > 0) {
    log(*job, "cancel", fmt::format("running: ends when its {} partition(s) in flight do", job->in_flight));
    return {true, true};
  }
  const bool started = job->started;
  cancel_queued_locked(job, started ? "cancelled at a partition boundary" : "cancelled before it started");
  return {true, started};
}

void Engine::cancel_queued_locked(const JobPtr& job, std::string reason) {
  job->stop = true;  // one being parsed is dropped when its parse returns (it is finished)
  finish_locked(job, JobState::cancelled, Error{ErrorCode::kCancelled, std::move(reason)});
}

Expected<SrsCache::Preloaded> Engine::preload(const std::string& circuit_id) { return cache_.preload(circuit_id); }

SrsCache::Evicted Engine::evict(const std::string& circuit_id) {
  const SrsCache::Evicted out = cache_.evict(circuit_id);
  changed_.notify_all();  // admission may go on
  return out;
}

EngineStatus Engine::status() const {
  EngineStatus s;
  s.circuits = cache_.entries();
  const MetricsSnapshot m = metrics_.snapshot();
  for (const auto& [kind, k] : m.kinds) {
    s.completed += k.completed;
    s.failed += k.failed;
    s.cancelled += k.cancelled;
  }
  s.uptime_s = std::chrono::duration<double>(Clock::now() - started_).count();
  const std::lock_guard lock(mutex_);
  s.workers = workers_;
  s.gpus = health_;
  for (const auto& h : handlers_) s.queues[h->kind()];
  for (const auto& [id, job] : jobs_) {
    if (job->result.state == JobState::queued) {
      ++s.queues[job->request.kind].pending;
      ++s.queues[job->request.kind].pending_by_priority[static_cast<size_t>(job->request.priority)];
    }
    if (job->result.state == JobState::running) ++s.queues[job->request.kind].in_progress;
  }
  s.memory_budget = options_.memory_budget;
  s.memory_reserved = reserved_locked();
  s.draining = draining_;
  return s;
}

MetricsSnapshot Engine::metrics() const {
  MetricsSnapshot m = metrics_.snapshot();
  const EngineStatus s = status();
  for (const auto& [kind, q] : s.queues) {
    m.pending[kind] = q.pending;
    m.in_progress[kind] = q.in_progress;
    m.pending_by_priority[kind] = q.pending_by_priority;
  }
  m.memory_budget = s.memory_budget;
  m.memory_reserved = s.memory_reserved;
  for (const SrsCache::Entry& e : s.circuits) m.circuits_bytes += e.host_bytes;
  const std::vector<double> busy = metrics_.busy_seconds();
  for (size_t w = 0; w < s.workers.size(); ++w) m.workers.push_back({to_string(s.workers[w].where), busy[w]});
  const auto now = Clock::now();
  for (const auto& [g, h] : s.gpus) m.gpus.push_back({g, h.failures, h.rest.resting(now)});
  m.uptime_s = s.uptime_s;
  return m;
}

void Engine::shutdown(std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  draining_ = true;
  std::vector<JobPtr> queued;
  for (const auto& [id, job] : jobs_) {
    if (job->result.state == JobState::queued) queued.push_back(job);
  }
  for (const JobPtr& job : queued) cancel_queued_locked(job, "the engine is shutting down");
  const auto idle = [&] { return active_.empty() && in_flight_ == 0; };
  if (timeout && !changed_.wait_for(lock, *timeout, idle)) {
    for (const JobPtr& job : std::vector<JobPtr>(active_)) {
      job->stop = true;
      if (job->in_flight == 0) cancel_queued_locked(job, "the engine is shutting down");
    }
  }
  changed_.wait(lock, idle);
}

void Engine::log(const Job& job, const std::string& stage, const std::string& detail) const {
  if (!options_.log_stage) return;
  // One line each, bounded: the id and the detail (an error may quote a payload) escaped and cut.
  options_.log_stage(fmt::format("job={} request_id=\"{}\" kind={} stage={} {}", job.id,
                                 printable(job.request.request_id, kLoggedIdBytes), to_string(job.request.kind), stage,
                                 printable(detail, kLoggedDetailBytes)));
}

Expected<JobResult> prove_to_end(Engine& engine, JobRequest request,
                                 const std::function<void(uint32_t done, uint32_t total)>& on_progress) {
  Engine::Submitted submitted;
  CUZK_TRY_ASSIGN(submitted, engine.submit(std::move(request)));
  std::optional<uint32_t> reported;  // first reported once parsed (0 done), so a display's clock starts then
  for (;;) {
    JobResult r;
    CUZK_TRY_ASSIGN(r, engine.await(submitted.job_id, std::chrono::milliseconds(on_progress ? 200 : 60'000)));
    if (on_progress && r.partitions > 0 && reported != r.partitions_done) {
      reported = r.partitions_done;
      on_progress(r.partitions_done, r.partitions);
    }
    if (finished(r.state)) return r;
  }
}

}  // namespace cuzk::engine
