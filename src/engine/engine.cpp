#include "engine/engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <exception>
#include <set>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "core/memory_size.hpp"
#include "core/secure_random.hpp"
#include "core/timing.hpp"

namespace cuzk::engine {

std::string_view to_string(Spread spread) { return spread == Spread::partitions ? "partitions" : "proofs"; }

struct Engine::Job {
  std::string id;
  JobRequest request;
  uint64_t seq = 0;  // submission order: the older of two equal priorities goes first
  Clock::time_point submitted = Clock::now();
  std::unique_ptr<ParsedJob> parsed;
  size_t admitted_bytes = 0;  // counted in admitted_bytes_ while in ready_ or running
  bool parsing = false;       // the parse worker reads request.vanilla_proof without the lock
  std::stop_source stop;
  std::optional<size_t> worker;
  std::set<int> failed_on;     // GPUs that failed it (not offered it again)
  std::string device_errors;   // their errors, for the message if every place fails
  JobResult result;  // result.state is the job's state
};

namespace {

std::string new_job_id() {
  std::array<uint8_t, 8> r{};
  secure_random_bytes(r);
  return "job-" + to_hex(r);
}

// "cpu", "gpu 1", "gpus 0,1".
std::string placement_text(const Placement& p) {
  if (p.on_cpu()) return "cpu";
  return fmt::format("{} {}", p.gpus.size() == 1 ? "gpu" : "gpus", fmt::join(p.gpus, ","));
}

// A failure of the device rather than of the job: retried elsewhere (engine.hpp). A payload that
// does not prove fails the same way everywhere; a cancelled job is done.
bool device_failure(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kCorruption:
    case ErrorCode::kNotFound:
    case ErrorCode::kUnsupported:
    case ErrorCode::kCancelled: return false;
    default: return true;
  }
}

// The prover workers' places: one for the CPU; workers_per_gpu a GPU; or, with the partitions
// spread, workers_per_gpu over all the GPUs together.
std::vector<Placement> worker_places(const EngineOptions& o) {
  const unsigned n = std::max(o.workers_per_gpu, 1u);
  std::vector<Placement> out;
  if (o.gpus.empty()) {
    out.push_back(Placement{});
  } else if (o.spread == Spread::partitions && o.gpus.size() > 1) {
    out.assign(n, Placement{o.gpus});
  } else {
    for (int g : o.gpus) out.insert(out.end(), n, Placement{{g}});
  }
  return out;
}


}  // namespace

Engine::Engine(EngineOptions options, std::vector<std::unique_ptr<ProofHandler>> handlers)
    : options_(std::move(options)),
      handlers_(std::move(handlers)),
      cache_([this](const std::string& id) -> Expected<std::shared_ptr<LoadedCircuit>> {
        ProofHandler* h = handler_serving(id);
        if (h == nullptr) return Error{ErrorCode::kNotFound, "no circuit '" + id + "' (e.g. porep-2k, porep-32g)"};
        return h->load(id);
      }),
      metrics_(worker_places(options_).size()) {
  for (const Placement& where : worker_places(options_)) workers_.push_back({where, "", ProofKind::unspecified});
  for (int g : options_.gpus) health_[g];
  threads_.emplace_back([this](std::stop_token stop) { parse_loop(stop); });
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
  const std::lock_guard lock(mutex_);
  if (draining_) return Error{ErrorCode::kResourceExhausted, "the engine is shutting down: no new jobs"};
  if (!request.request_id.empty()) {
    if (auto known = by_request_.find(request.request_id); known != by_request_.end()) {
      const JobPtr& job = jobs_.at(known->second);
      const JobState s = job->result.state;
      if (s != JobState::failed && s != JobState::cancelled) {
        Submitted joined{job->id, 0, true, job->worker ? placement_text(workers_[*job->worker].where) : ""};
        return joined;
      }
    }
  }
  if (pending_.size() + ready_.size() >= options_.max_pending)
    return Error{ErrorCode::kResourceExhausted, fmt::format("{} jobs are queued (the limit, scheduler.max_pending): "
                                                            "try again later", pending_.size() + ready_.size())};
  auto job = std::make_shared<Job>();
  job->id = new_job_id();
  job->seq = next_id_++;
  job->request = std::move(request);
  job->result.job_id = job->id;
  uint32_t ahead = 0;
  for (const auto* q : {&pending_, &ready_}) {
    for (const JobPtr& other : *q) ahead += other->request.priority >= job->request.priority ? 1 : 0;
  }
  jobs_[job->id] = job;
  if (!job->request.request_id.empty()) by_request_[job->request.request_id] = job->id;
  pending_.push_back(job);
  log(*job, "submit", fmt::format("priority={} payload_bytes={} ahead={}", to_string(job->request.priority),
                                  job->request.vanilla_proof.size(), ahead));
  changed_.notify_all();
  return Submitted{job->id, ahead, false, ""};
}

Engine::JobPtr Engine::pop_best(std::deque<JobPtr>& queue, const std::function<bool(const Job&)>& accept) {
  auto best = queue.end();
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    if (accept && !accept(**it)) continue;
    const Job& x = **it;
    if (best == queue.end() || x.request.priority > (*best)->request.priority ||
        (x.request.priority == (*best)->request.priority && x.seq < (*best)->seq))
      best = it;
  }
  if (best == queue.end()) return nullptr;
  JobPtr job = *best;
  queue.erase(best);
  return job;
}

bool Engine::servable_elsewhere_locked(const Job& job, int except) const {
  for (const auto& [g, h] : health_) {
    if (g != except && !job.failed_on.contains(g) && !h.unservable.contains(job.parsed->circuit_id)) return true;
  }
  return false;
}

bool Engine::can_take_locked(const Job& job, const Placement& where, std::chrono::steady_clock::time_point now) const {
  for (int g : where.gpus) {
    if (job.failed_on.contains(g)) return false;
  }
  if (where.gpus.size() != 1) return true;  // the CPU; a spread prover, which moves partitions itself
  const int g = where.gpus.front();
  const GpuHealth& h = health_.at(g);
  if (h.rest.resting(now)) return false;
  // A GPU that cannot serve the circuit is passed over while another can; when none can, it takes
  // the job and fails it at once, and the job reaches the CPU from there.
  return !h.unservable.contains(job.parsed->circuit_id) || !servable_elsewhere_locked(job, g);
}

std::optional<std::chrono::steady_clock::time_point> Engine::rest_end_locked(const Placement& where) const {
  std::optional<std::chrono::steady_clock::time_point> end;
  const auto now = Clock::now();
  for (int g : where.gpus) {
    const auto until = health_.at(g).rest.until;
    if (until > now && (!end || until < *end)) end = until;
  }
  return end;
}

size_t Engine::in_use_locked() const {
  return std::max(reserved_locked(), options_.resident_bytes ? options_.resident_bytes() : size_t{0});
}

size_t Engine::reserved_locked() const {
  size_t sum = cache_.host_bytes() + admitted_bytes_;
  for (const auto& [id, bytes] : expected_circuits_) sum += cache_.holds(id) ? 0 : bytes;
  return sum;
}

void Engine::parse_loop(std::stop_token stop) {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, stop, [&] { return !pending_.empty(); });
    if (stop.stop_requested()) return;
    JobPtr job = pop_best(pending_);
    job->parsing = true;
    lock.unlock();
    const auto t0 = Clock::now();
    Expected<std::unique_ptr<ParsedJob>> parsed = Error{ErrorCode::kInternal, "not parsed"};
    try {
      parsed = handler_for(job->request.kind)->parse(job->request);
    } catch (const std::exception& e) {
      parsed = Error{ErrorCode::kInternal, std::string("parse: ") + e.what()};
    }
    const double parse_ms = ms_since(t0);
    lock.lock();
    job->parsing = false;
    job->request.vanilla_proof = {};  // parsed (or refused): the payload's memory goes
    job->result.times.parse_ms = parse_ms;
    if (finished(job->result.state)) continue;  // cancelled meanwhile
    if (!parsed) {
      finish_locked(job, JobState::failed, parsed.error().message);
      continue;
    }
    job->parsed = std::move(*parsed);
    log(*job, "parse", fmt::format("ms={:.1f} circuit={} host_bytes={}", parse_ms, job->parsed->circuit_id,
                                   job->parsed->host_bytes));
    // Admission: the job's bytes, and its circuit's unless loaded or already counted, beside
    // what is reserved.
    const std::string circuit = job->parsed->circuit_id;
    const auto need = [&] {
      const bool counted = expected_circuits_.contains(circuit) || cache_.holds(circuit);
      return job->parsed->host_bytes + (counted ? 0 : job->parsed->circuit_bytes);
    };
    if (options_.memory_budget != 0 && need() > options_.memory_budget) {
      finish_locked(job, JobState::failed,
                    fmt::format("the job needs {} of host memory ({} of it for its circuit's parameters), more than "
                                "the budget of {} (memory.budget)",
                                gib_text(need()), gib_text(need() - job->parsed->host_bytes),
                                gib_text(options_.memory_budget)));
      continue;
    }
    changed_.wait(lock, stop, [&] {
      return finished(job->result.state) || options_.memory_budget == 0 ||
             in_use_locked() + need() <= options_.memory_budget || (running_ == 0 && ready_.empty());
    });
    if (stop.stop_requested()) return;
    if (finished(job->result.state)) continue;
    if (need() > job->parsed->host_bytes) expected_circuits_[circuit] = need() - job->parsed->host_bytes;
    job->admitted_bytes = job->parsed->host_bytes;
    admitted_bytes_ += job->admitted_bytes;
    ready_.push_back(job);
    changed_.notify_all();
  }
}

void Engine::prove_loop(std::stop_token stop, size_t worker) {
  const Placement where = workers_[worker].where;
  const auto accept = [&](const Job& j) { return can_take_locked(j, where, Clock::now()); };
  const auto any = [&] { return std::ranges::any_of(ready_, [&](const JobPtr& j) { return accept(*j); }); };
  std::unique_lock lock(mutex_);
  for (;;) {
    if (const auto rest = rest_end_locked(where)) {
      changed_.wait_until(lock, stop, *rest, any);  // a resting GPU looks again when its rest ends
    } else {
      changed_.wait(lock, stop, any);
    }
    if (stop.stop_requested()) return;
    JobPtr job = pop_best(ready_, accept);
    if (!job) continue;
    job->result.state = JobState::running;
    job->worker = worker;
    job->result.times.queue_wait_ms = ms_since(job->submitted) - job->result.times.parse_ms;
    workers_[worker].current_job_id = job->id;
    workers_[worker].current_kind = job->request.kind;
    ++running_;
    lock.unlock();
    const auto t0 = Clock::now();
    run_job(job, worker);
    metrics_.worker_busy(worker, ms_since(t0) / 1e3);
    lock.lock();
  }
}

void Engine::run_job(const JobPtr& job, size_t worker) {
  const Placement where = workers_[worker].where;
  log(*job, "start", "on=" + placement_text(where));
  Expected<SrsCache::Acquired> circuit = Error{ErrorCode::kInternal, "not loaded"};
  try {
    circuit = cache_.acquire(job->parsed->circuit_id);
  } catch (const std::exception& e) {
    circuit = Error{ErrorCode::kInternal, e.what()};
  }
  {
    const std::lock_guard lock(mutex_);
    expected_circuits_.erase(job->parsed->circuit_id);  // loaded (the cache counts it), or failed
  }
  if (!circuit) {
    finish(job, JobState::failed, "parameters of " + job->parsed->circuit_id + ": " + circuit.error().message);
    return;
  }
  job->result.times.srs_load_ms = circuit->load_ms;
  log(*job, "srs", fmt::format("circuit={} load_ms={:.1f}", job->parsed->circuit_id, circuit->load_ms));
  std::optional<Expected<ProofOutput>> out = prove_job(job, worker, *circuit->circuit);
  circuit = Error{ErrorCode::kInternal, "released"};  // the cache's count of users drops before the job ends
  if (!out) return;  // back in `ready` for another GPU
  if (!*out) {
    const bool cancelled = out->error().code == ErrorCode::kCancelled;
    finish(job, cancelled ? JobState::cancelled : JobState::failed, out->error().message);
    return;
  }
  JobTimes& t = job->result.times;
  t.synthesis_ms = (*out)->synthesis_ms;
  t.gpu_compute_ms = (*out)->prove_ms;
  t.verify_ms = (*out)->verify_ms;
  job->result.backend = (*out)->backend;
  finish(job, JobState::completed, "", std::move((*out)->bytes));
}

std::optional<Expected<ProofOutput>> Engine::prove_job(const JobPtr& job, size_t worker, LoadedCircuit& circuit) {
  ProofHandler* handler = handler_for(job->request.kind);
  const Placement where = workers_[worker].where;
  const auto prove_on = [&](const Placement& on) -> Expected<ProofOutput> {
    try {
      return handler->prove(*job->parsed, circuit, on, job->stop.get_token());
    } catch (const std::exception& e) {  // a CUDA failure, an allocation: this attempt fails, the engine goes on
      return Error{ErrorCode::kInternal, e.what()};
    }
  };
  Expected<ProofOutput> out = prove_on(where);
  if (!out && !where.on_cpu() && device_failure(out.error().code)) {
    if (requeue_after_device_failure(job, worker, out.error())) return std::nullopt;
    if (options_.retry_on_cpu) {
      log(*job, "retry", "on=cpu reason=\"" + job->device_errors + "\"");
      out = prove_on(Placement{});
    }
    if (!out) {
      Error e = out.error();
      if (options_.retry_on_cpu) e.message += " (on the CPU, after the GPUs': " + job->device_errors + ")";
      else e.message = job->device_errors;
      out = std::move(e);
    }
  } else if (out && where.gpus.size() == 1) {
    const std::lock_guard lock(mutex_);
    health_.at(where.gpus.front()).rest.succeeded();
  }
  return out;
}

bool Engine::requeue_after_device_failure(const JobPtr& job, size_t worker, const Error& error) {
  const std::lock_guard lock(mutex_);
  const Placement& where = workers_[worker].where;
  job->device_errors += (job->device_errors.empty() ? "" : "; ") + placement_text(where) + ": " + error.message;
  for (int g : where.gpus) job->failed_on.insert(g);
  std::string rest;
  if (where.gpus.size() == 1) {  // a spread prover has moved what it could: its GPUs all failed
    GpuHealth& h = health_.at(where.gpus.front());
    ++h.failures;
    h.last_error = error.message;
    const auto now = Clock::now();
    if (error.code == ErrorCode::kUnavailable) {
      h.unservable[job->parsed->circuit_id] = error.message;  // the GPU itself may serve other circuits
    } else if (const auto pause = h.rest.failed(options_.fault_rest, now)) {
      rest = fmt::format(" rest_s={:.0f}", pause->count() / 1e3);
    } else {  // another job's attempt, begun before the rest, failed by the same fault: the rest stands
      rest = fmt::format(" resting_s={:.0f}", std::chrono::duration<double>(h.rest.until - now).count());
    }
  }
  const bool elsewhere = !draining_ && !job->stop.stop_requested() && where.gpus.size() == 1 &&
                         servable_elsewhere_locked(*job, where.gpus.front());
  log(*job, "device_failure", fmt::format("on={}{} next={} error=\"{}\"", placement_text(where), rest,
                                          elsewhere ? "another gpu" : options_.retry_on_cpu ? "cpu" : "none",
                                          error.message));
  if (!elsewhere) return false;
  job->result.state = JobState::queued;
  job->worker.reset();
  workers_[worker].current_job_id.clear();
  --running_;
  ready_.push_back(job);
  changed_.notify_all();
  return true;
}

void Engine::finish(const JobPtr& job, JobState state, std::string error, std::vector<uint8_t> proof) {
  const std::lock_guard lock(mutex_);
  finish_locked(job, state, std::move(error), std::move(proof));
}

void Engine::finish_locked(const JobPtr& job, JobState state, std::string error, std::vector<uint8_t> proof) {
  if (finished(job->result.state)) return;
  if (job->result.state == JobState::running) --running_;
  if (job->worker && job->result.state == JobState::running) workers_[*job->worker].current_job_id.clear();
  admitted_bytes_ -= job->admitted_bytes;
  job->admitted_bytes = 0;
  job->parsed.reset();
  if (!job->parsing) job->request.vanilla_proof = {};  // else the parse worker frees it when done
  job->result.state = state;
  job->result.error = std::move(error);
  job->result.proof = std::move(proof);
  job->result.times.total_ms = ms_since(job->submitted);
  const JobTimes& t = job->result.times;
  log(*job, "done",
      fmt::format("state={} total_ms={:.1f} queue_wait_ms={:.1f} parse_ms={:.1f} srs_load_ms={:.1f} synthesis_ms={:.1f} "
                  "gpu_compute_ms={:.1f} verify_ms={:.1f}{}{}",
                  to_string(state), t.total_ms, t.queue_wait_ms, t.parse_ms, t.srs_load_ms, t.synthesis_ms,
                  t.gpu_compute_ms, t.verify_ms, job->result.backend.empty() ? "" : " backend=\"" + job->result.backend + "\"",
                  job->result.error.empty() ? "" : " error=\"" + job->result.error + "\""));
  metrics_.job_finished(job->request.kind, state, t);
  finished_order_.push_back(job->id);
  while (finished_order_.size() > options_.finished_kept) {
    const std::string old = finished_order_.front();
    finished_order_.pop_front();
    if (auto it = jobs_.find(old); it != jobs_.end()) {
      if (auto r = by_request_.find(it->second->request.request_id); r != by_request_.end() && r->second == old)
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
  job->stop.request_stop();
  if (job->result.state == JobState::running) {
    log(*job, "cancel", "running: stops at the next partition boundary");
    return {true, true};
  }
  cancel_queued_locked(job, "cancelled before it started");
  return {true, false};
}

void Engine::cancel_queued_locked(const JobPtr& job, std::string reason) {
  job->stop.request_stop();  // one being parsed is dropped when its parse returns (it is finished)
  for (auto* q : {&pending_, &ready_}) std::erase(*q, job);
  finish_locked(job, JobState::cancelled, std::move(reason));
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
  for (size_t w = 0; w < s.workers.size(); ++w) m.workers.push_back({placement_text(s.workers[w].where), busy[w]});
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
  const auto idle = [&] { return running_ == 0; };
  if (timeout && !changed_.wait_for(lock, *timeout, idle)) {
    for (const auto& [id, job] : jobs_) {
      if (job->result.state == JobState::running) job->stop.request_stop();
    }
  }
  changed_.wait(lock, idle);
}

void Engine::log(const Job& job, const std::string& stage, const std::string& detail) const {
  if (!options_.log_stage) return;
  options_.log_stage(fmt::format("job={} request_id=\"{}\" kind={} stage={} {}", job.id, job.request.request_id,
                                 to_string(job.request.kind), stage, detail));
}

}  // namespace cuzk::engine
