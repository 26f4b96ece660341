#include "service/server.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/printable.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "service/client.hpp"  // grpc_target
#include "service/prometheus.hpp"
#include "service/wire.hpp"

namespace cuzk::service {
namespace {

namespace v1 = ::cuzk::v1;

// Bytes that are not the call's request message: gRPC answers them before any handler runs, with
// protobuf's INTERNAL and an empty message; the protocol's answer for a caller's bad input is
// INVALID_ARGUMENT (docs/daemon.md, Faults). This interceptor is the one place that says so: a
// call whose request did not deserialize (no message after POST_RECV_MESSAGE) and whose status
// is that INTERNAL gets INVALID_ARGUMENT naming the call. Our own INTERNAL errors (the request
// parsed) always carry a message and pass unchanged.
class UnparsableRequest final : public grpc::experimental::Interceptor {
 public:
  explicit UnparsableRequest(grpc::experimental::ServerRpcInfo* info) : method_(info->method() ? info->method() : "") {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    using Hook = grpc::experimental::InterceptionHookPoints;
    if (m->QueryInterceptionHookPoint(Hook::POST_RECV_MESSAGE)) parsed_ = m->GetRecvMessage() != nullptr;
    if (m->QueryInterceptionHookPoint(Hook::PRE_SEND_STATUS)) {
      const grpc::Status status = m->GetSendStatus();
      if (!parsed_ && status.error_code() == grpc::StatusCode::INTERNAL && status.error_message().empty())
        m->ModifySendStatus(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                         fmt::format("{}: the request's bytes are not its cuzk.v1 message", method_)));
    }
    m->Proceed();
  }

 private:
  std::string method_;
  bool parsed_ = false;
};

class UnparsableRequestFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new UnparsableRequest(info);
  }
};

// Whether something accepts a connection on the unix socket at `path`: a live daemon (a stale
// file left by one that died refuses with ECONNREFUSED).
bool unix_socket_answers(const std::string& path) {
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) return false;
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.data(), path.size());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return live;
}

// An error text sent back (the engine keeps at most 4 KiB of a job's: engine.cpp); a status
// message is bounded the same way.
constexpr size_t kMaxErrorMessageBytes = 4096;

grpc::Status to_status(const Error& error) {
  const Error e{error.code, bounded(error.message, kMaxErrorMessageBytes)};
  switch (e.code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kCorruption: return {grpc::StatusCode::INVALID_ARGUMENT, e.message};
    case ErrorCode::kNotFound: return {grpc::StatusCode::NOT_FOUND, e.message};
    case ErrorCode::kUnsupported: return {grpc::StatusCode::UNIMPLEMENTED, e.message};
    case ErrorCode::kResourceExhausted: return {grpc::StatusCode::RESOURCE_EXHAUSTED, e.message};
    case ErrorCode::kCancelled: return {grpc::StatusCode::CANCELLED, e.message};
    case ErrorCode::kUnavailable: return {grpc::StatusCode::UNAVAILABLE, e.message};
    default: return {grpc::StatusCode::INTERNAL, e.message};
  }
}

void fill(const engine::JobResult& r, bool timed_out, v1::AwaitProofResponse* out) {
  out->set_job_id(r.job_id);
  using S = v1::AwaitProofResponse;
  switch (r.state) {
    case engine::JobState::completed: out->set_status(S::COMPLETED); break;
    case engine::JobState::failed: out->set_status(S::FAILED); break;
    case engine::JobState::cancelled: out->set_status(S::CANCELLED); break;
    default: out->set_status(timed_out ? S::TIMEOUT : S::UNKNOWN); break;
  }
  out->set_proof(std::string(r.proof.begin(), r.proof.end()));
  out->set_error_message(bounded(r.error_text(), kMaxErrorMessageBytes));
  const auto ms = [](double v) { return uint64_t(v + 0.5); };
  out->set_queue_wait_ms(ms(r.times.queue_wait_ms));
  out->set_srs_load_ms(ms(r.times.srs_load_ms));
  out->set_synthesis_ms(ms(r.times.synthesis_ms + r.times.parse_ms));
  out->set_gpu_compute_ms(ms(r.times.gpu_compute_ms + r.times.verify_ms));
  out->set_total_ms(ms(r.times.total_ms));
}

}  // namespace

class Server::Service final : public v1::ProvingEngine::Service {
 public:
  Service(engine::Engine& engine, unsigned max_waiting) : engine_(engine), max_waiting_(max_waiting) {}

  grpc::Status SubmitProof(grpc::ServerContext*, const v1::SubmitProofRequest* req, v1::SubmitProofResponse* res) override {
    Expected<engine::JobRequest> job = to_job_request(*req);
    if (!job) return to_status(job.error());
    auto s = engine_.submit(std::move(*job));
    if (!s) return to_status(s.error());
    res->set_job_id(s->job_id);
    res->set_queue_position(s->queue_position);
    res->set_assigned_gpu(s->assigned_gpu);
    return grpc::Status::OK;
  }

  grpc::Status AwaitProof(grpc::ServerContext* ctx, const v1::AwaitProofRequest* req, v1::AwaitProofResponse* res) override {
    if (Expected<void> id = check_id("job_id", req->job_id()); !id) return to_status(id.error());
    const std::optional<WaitSlot> slot = take_slot();
    if (!slot) return too_many_waiting();
    return await(ctx, req->job_id(), req->timeout_ms(), res);
  }

  grpc::Status Prove(grpc::ServerContext* ctx, const v1::ProveRequest* req, v1::ProveResponse* res) override {
    Expected<engine::JobRequest> job = to_job_request(req->submit());
    if (!job) return to_status(job.error());
    const std::optional<WaitSlot> slot = take_slot();  // before submitting: a refused call leaves no job
    if (!slot) return too_many_waiting();
    auto s = engine_.submit(std::move(*job));
    if (!s) return to_status(s.error());
    return await(ctx, s->job_id, 0, res->mutable_result());
  }

  grpc::Status CancelProof(grpc::ServerContext*, const v1::CancelProofRequest* req, v1::CancelProofResponse* res) override {
    if (Expected<void> id = check_id("job_id", req->job_id()); !id) return to_status(id.error());
    const auto c = engine_.cancel(req->job_id());
    if (!c.found) return {grpc::StatusCode::NOT_FOUND, "job '" + printable(req->job_id(), kMaxIdBytes) + "' is not known here"};
    res->set_was_running(c.was_running);
    return grpc::Status::OK;
  }

  grpc::Status GetStatus(grpc::ServerContext*, const v1::GetStatusRequest*, v1::GetStatusResponse* res) override {
    const engine::EngineStatus s = engine_.status();
    const std::vector<groth16::GpuInfo> gpus = groth16::visible_gpus();
    for (const groth16::GpuInfo& g : gpus) {
      v1::GPUStatus* out = res->add_gpus();
      out->set_ordinal(uint32_t(g.ordinal));
      out->set_name(g.name);
      out->set_vram_total_bytes(g.total_bytes);
      out->set_vram_free_bytes(g.free_bytes);
      for (const engine::WorkerStatus& w : s.workers) {  // the first busy worker on it
        if (w.where.gpu == g.ordinal && !w.current_job_id.empty() && out->current_job_id().empty()) {
          out->set_current_job_id(w.current_job_id);
          out->set_current_proof_kind(std::string(to_string(w.current_kind)));
        }
      }
    }
    for (const engine::SrsCache::Entry& c : s.circuits) {
      v1::SRSStatus* out = res->add_loaded_srs();
      out->set_circuit_id(c.circuit_id);
      out->set_tier(v1::SRSStatus::HOT);
      out->set_size_bytes(c.host_bytes);
      out->set_ref_count(c.users);
    }
    for (const auto& [kind, q] : s.queues) {
      v1::QueueStatus* out = res->add_queues();
      out->set_proof_kind(std::string(to_string(kind)));
      out->set_pending(q.pending);
      out->set_in_progress(q.in_progress);
    }
    res->set_total_proofs_completed(s.completed);
    res->set_total_proofs_failed(s.failed);
    res->set_uptime_seconds(uint64_t(s.uptime_s));
    return grpc::Status::OK;
  }

  grpc::Status GetMetrics(grpc::ServerContext*, const v1::GetMetricsRequest*, v1::GetMetricsResponse* res) override {
    res->set_prometheus_text(prometheus_text(engine_.metrics(), read_process()));
    return grpc::Status::OK;
  }

  grpc::Status PreloadSRS(grpc::ServerContext*, const v1::PreloadSrsRequest* req, v1::PreloadSrsResponse* res) override {
    if (Expected<void> id = check_id("circuit_id", req->circuit_id()); !id) return to_status(id.error());
    auto p = engine_.preload(req->circuit_id());
    if (!p) return to_status(p.error());
    res->set_already_loaded(p->already_loaded);
    res->set_load_time_ms(uint64_t(p->load_ms + 0.5));
    return grpc::Status::OK;
  }

  grpc::Status EvictSRS(grpc::ServerContext*, const v1::EvictSrsRequest* req, v1::EvictSrsResponse* res) override {
    if (Expected<void> id = check_id("circuit_id", req->circuit_id()); !id) return to_status(id.error());
    const auto e = engine_.evict(req->circuit_id());
    res->set_was_loaded(e.was_loaded);
    res->set_freed_bytes(e.freed_bytes);
    return grpc::Status::OK;
  }

 private:
  // A waiting call's place among max_waiting_ (released when it ends).
  class WaitSlot {
   public:
    explicit WaitSlot(std::atomic<unsigned>& waiting) : waiting_(&waiting) {}
    WaitSlot(WaitSlot&& o) noexcept : waiting_(std::exchange(o.waiting_, nullptr)) {}
    WaitSlot(const WaitSlot&) = delete;
    WaitSlot& operator=(const WaitSlot&) = delete;
    WaitSlot& operator=(WaitSlot&&) = delete;
    ~WaitSlot() {
      if (waiting_ != nullptr) waiting_->fetch_sub(1);
    }

   private:
    std::atomic<unsigned>* waiting_;
  };
  std::optional<WaitSlot> take_slot() {
    if (waiting_.fetch_add(1) >= max_waiting_) {
      waiting_.fetch_sub(1);
      return std::nullopt;
    }
    return WaitSlot(waiting_);
  }
  grpc::Status too_many_waiting() const {
    return {grpc::StatusCode::RESOURCE_EXHAUSTED,
            fmt::format("{} calls are waiting for jobs already (daemon.max_waiting_calls): try again later", max_waiting_)};
  }

  // Waits for the job in slices, so that a caller who goes away (deadline, disconnect) frees
  // this thread within a slice; the job itself goes on (CancelProof stops it).
  // timeout_ms 0: until the job ends; any timeout saturates (deadline_after).
  grpc::Status await(grpc::ServerContext* ctx, const std::string& job_id, uint64_t timeout_ms, v1::AwaitProofResponse* res) {
    using std::chrono::milliseconds;
    using Clock = std::chrono::steady_clock;
    constexpr milliseconds kSlice{500};
    const Clock::time_point until = deadline_after(Clock::now(), timeout_ms);
    const bool forever = until == Clock::time_point::max();
    for (;;) {
      const milliseconds slice =
          forever ? kSlice : std::clamp(std::chrono::duration_cast<milliseconds>(until - Clock::now()), milliseconds(0), kSlice);
      auto r = engine_.await(job_id, slice);
      if (!r) return to_status(r.error());
      const bool done = engine::finished(r->state);
      const bool expired = !forever && Clock::now() >= until;
      if (done || expired) {
        fill(*r, !done, res);
        return grpc::Status::OK;
      }
      if (ctx->IsCancelled()) return {grpc::StatusCode::CANCELLED, "the caller went away; the job goes on"};
    }
  }

  engine::Engine& engine_;
  const unsigned max_waiting_;
  std::atomic<unsigned> waiting_{0};
};

Expected<void> Server::build_grpc() {
  const ServerOptions& options = options_;
  service_ = std::make_unique<Service>(*engine_, std::max(options.max_waiting_calls, 1u));
  std::string target = grpc_target(options.listen);
  if (target.starts_with("unix:")) {
    // A socket left by an earlier run would refuse the bind: it is removed when nothing answers
    // on it; one a live daemon answers on is refused (unlinking it would leave that daemon
    // running, unreachable). Anything else at that path is kept (the bind then fails).
    std::string path = target.substr(5);
    while (path.starts_with("//")) path.erase(0, 1);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
      if (unix_socket_answers(path))
        return Error{ErrorCode::kIo, "daemon.listen: '" + options.listen +
                                         "': a daemon is answering on this socket already (stop it, or choose another path)"};
      ::unlink(path.c_str());
    }
  } else if (!address_.empty()) {
    target = address_;  // a restart: the port bound first (port 0 chose one)
  }
  grpc::ServerBuilder builder;
  // gRPC shares ports by default (SO_REUSEPORT): a second daemon on the same address must fail,
  // not split the traffic.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Connections that cost a descriptor and do nothing are closed (server.hpp): one that has not
  // sent the HTTP/2 preface and settings after 10 s; one without a call for 10 minutes; one whose
  // peer does not answer a keepalive ping within 20 s (pinged after 60 s without traffic, also
  // while a long AwaitProof waits: no limit on pings without data).
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, 10'000);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, 600'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 60'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // Clients' own keepalive pings are welcome every 10 s (grpc-go's minimum).
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10'000);
  // The server's threads: the waiting calls, and room for every other call beside them.
  grpc::ResourceQuota quota("cuzk-daemon");
  quota.SetMaxThreads(int(std::min<unsigned>(std::max(options.max_waiting_calls, 1u), 1u << 20) + 64));
  builder.SetResourceQuota(quota);
  int port = 0;
  builder.AddListeningPort(target, grpc::InsecureServerCredentials(), &port);
  builder.SetMaxReceiveMessageSize(int(std::min<size_t>(options.max_message_bytes, INT32_MAX)));
  builder.SetMaxSendMessageSize(int(std::min<size_t>(options.max_message_bytes, INT32_MAX)));
  builder.RegisterService(service_.get());
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(std::make_unique<UnparsableRequestFactory>());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  grpc_ = builder.BuildAndStart();
  if (!grpc_ || (!target.starts_with("unix:") && port == 0))
    return Error{ErrorCode::kIo, "daemon.listen: cannot listen on '" + options.listen + "' (in use, or not an address)"};
  if (address_.empty()) {
    address_ = options.listen;
    if (!target.starts_with("unix:")) {
      const size_t colon = options.listen.rfind(':');
      address_ = options.listen.substr(0, colon) + ":" + std::to_string(port);
    }
  }
  return {};
}

// Whether the gRPC endpoint answers a call on a connection of its own (a fresh one: a connection
// made before the listener died would go on working). Any answer counts (CancelProof of no job:
// NOT_FOUND); no answer within 3 s does not.
bool Server::grpc_answers() const {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  const auto stub = v1::ProvingEngine::NewStub(
      grpc::CreateCustomChannel(grpc_target(address_), grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(3));
  v1::CancelProofRequest request;
  v1::CancelProofResponse response;
  const grpc::Status status = stub->CancelProof(&context, request, &response);
  return status.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED && status.error_code() != grpc::StatusCode::UNAVAILABLE;
}

// gRPC 1.51's listener gives up for good when accept() fails with anything but EAGAIN (EMFILE:
// the descriptors ran out), and the daemon would never accept again. Every 2 s a call on a fresh
// connection checks it; after two without an answer the gRPC server is built again on the same
// address (calls in flight are cancelled: clients retry, jobs go on).
void Server::watch_grpc() {
  int missed = 0;
  std::unique_lock lock(watch_mutex_);
  while (!watch_cv_.wait_for(lock, std::chrono::seconds(2), [&] { return stopping_.load(); })) {
    lock.unlock();
    missed = grpc_answers() ? 0 : missed + 1;
    if (missed >= 2 && !stopping_) {
      if (options_.log) options_.log("the gRPC endpoint " + address_ + " stopped answering (descriptors exhausted?): restarting it");
      grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
      grpc_->Wait();
      grpc_.reset();
      if (const Expected<void> built = build_grpc(); !built) {
        if (options_.log) options_.log("restarting the gRPC endpoint failed (tried again in 2 s): " + built.error().message);
      } else {
        missed = 0;
        ++restarts_;
      }
    }
    lock.lock();
  }
}

Expected<std::unique_ptr<Server>> Server::start(engine::Engine& engine, const ServerOptions& options) {
  std::unique_ptr<Server> s(new Server());
  s->engine_ = &engine;
  s->options_ = options;
  if (Expected<void> built = s->build_grpc(); !built) return built.error();
  s->watch_thread_ = std::thread([srv = s.get()] { srv->watch_grpc(); });

  if (!options.metrics_listen.empty()) {
    const size_t colon = options.metrics_listen.rfind(':');
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    const std::string host = colon == std::string::npos ? "" : options.metrics_listen.substr(0, colon);
    const int mport = colon == std::string::npos ? -1 : std::atoi(options.metrics_listen.c_str() + colon + 1);
    if (mport < 0 || mport > 65535 || ::inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host.c_str(), &addr.sin_addr) != 1)
      return Error{ErrorCode::kInvalidArgument,
                   "daemon.metrics_listen: '" + options.metrics_listen + "' is not an IPv4 host:port"};
    addr.sin_port = htons(uint16_t(mport));
    s->metrics_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const int one = 1;
    ::setsockopt(s->metrics_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    socklen_t len = sizeof addr;
    if (::bind(s->metrics_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(s->metrics_fd_, 64) != 0 ||
        ::getsockname(s->metrics_fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      return Error{ErrorCode::kIo, "daemon.metrics_listen: cannot listen on '" + options.metrics_listen +
                                       "': " + std::strerror(errno)};
    s->metrics_address_ = host + ":" + std::to_string(ntohs(addr.sin_port));
    s->metrics_thread_ = std::thread([srv = s.get()] { srv->serve_metrics(); });
  }
  return s;
}

// A minimal HTTP/1.0 responder: GET /metrics gives the Prometheus text, anything else 404; one
// request a connection. One thread polls the listening socket and every connection, none of them
// blocking (server.hpp: idle clients cannot delay a scrape); polled in 200 ms steps so that
// stop() ends it.
void Server::serve_metrics() {
  using Clock = std::chrono::steady_clock;
  constexpr auto kRequestTime = std::chrono::seconds(2);   // to send the request's head
  constexpr auto kResponseTime = std::chrono::seconds(5);  // to take the answer
  constexpr size_t kMaxConnections = 64;
  constexpr size_t kMaxRequestBytes = 8192;
  struct Connection {
    int fd = -1;
    Clock::time_point deadline;
    std::string request, response;  // response non-empty: answering
    size_t sent = 0;
  };
  std::deque<Connection> connections;  // oldest first
  const auto respond = [&](Connection& c) {
    std::string status = "404 Not Found", type = "text/plain", body = "not found: try /metrics\n";
    if (c.request.starts_with("GET /metrics ") || c.request.starts_with("GET /metrics?") ||
        c.request.starts_with("GET /metrics\r") || c.request.starts_with("GET /metrics\n")) {
      status = "200 OK";
      type = "text/plain; version=0.0.4";
      body = prometheus_text(engine_->metrics(), read_process());
    }
    c.response = fmt::format("HTTP/1.0 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                             status, type, body.size(), body);
    c.deadline = Clock::now() + kResponseTime;
  };
  std::vector<pollfd> polled;
  while (!stopping_) {
    polled.assign(1, pollfd{metrics_fd_, POLLIN, 0});
    for (const Connection& c : connections) polled.push_back({c.fd, short(c.response.empty() ? POLLIN : POLLOUT), 0});
    if (::poll(polled.data(), polled.size(), 200) < 0 && errno != EINTR) break;
    const Clock::time_point now = Clock::now();
    for (size_t i = 0; i < connections.size(); ++i) {
      Connection& c = connections[i];
      const short events = polled[i + 1].revents;
      bool done = now >= c.deadline;
      if (!done && c.response.empty() && (events & (POLLIN | POLLHUP | POLLERR)) != 0) {
        char buf[2048];
        const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n > 0) c.request.append(buf, size_t(n));
        const bool head = c.request.find("\r\n\r\n") != std::string::npos || c.request.find("\n\n") != std::string::npos;
        if (head || c.request.size() >= kMaxRequestBytes || (n == 0 && !c.request.empty())) {
          respond(c);
        } else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
          done = true;
        }
      }
      if (!done && !c.response.empty() && (events & (POLLOUT | POLLHUP | POLLERR)) != 0) {
        const ssize_t k = ::send(c.fd, c.response.data() + c.sent, c.response.size() - c.sent, MSG_NOSIGNAL);
        if (k > 0) c.sent += size_t(k);
        done = c.sent == c.response.size() || (k < 0 && errno != EAGAIN && errno != EINTR);
      }
      if (done) {
        ::close(c.fd);
        c.fd = -1;
      }
    }
    std::erase_if(connections, [](const Connection& c) { return c.fd < 0; });
    if ((polled[0].revents & POLLIN) == 0) continue;
    for (;;) {
      const int fd = ::accept4(metrics_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0) break;
      if (connections.size() >= kMaxConnections) {  // the oldest makes room
        ::close(connections.front().fd);
        connections.pop_front();
      }
      connections.push_back(Connection{fd, now + kRequestTime, {}, {}, 0});
    }
  }
  for (const Connection& c : connections) ::close(c.fd);
}

void Server::stop(int grace_ms) {
  if (stopping_.exchange(true)) return;
  {
    const std::lock_guard lock(watch_mutex_);
    watch_cv_.notify_all();
  }
  if (watch_thread_.joinable()) watch_thread_.join();  // before grpc_ is touched here
  if (grpc_) grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(grace_ms));
  if (metrics_thread_.joinable()) metrics_thread_.join();
  if (metrics_fd_ >= 0) ::close(metrics_fd_);
}

Server::~Server() { stop(); }

}  // namespace cuzk::service
