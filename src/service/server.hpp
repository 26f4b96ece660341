#pragma once
// The daemon's network face: the gRPC service cuzk.v1.ProvingEngine (proto/cuzk/v1/proving.proto,
// wire-compatible with Curio's client) over an engine::Engine, on TCP or a unix socket, and an
// HTTP endpoint serving /metrics in Prometheus text.
//
// Against hostile or broken clients (docs/daemon.md, "Faults and limits"):
// - Waiting calls (AwaitProof, Prove) hold a thread each, at most max_waiting_calls at once; one
//   more is answered RESOURCE_EXHAUSTED. The engine wakes waiters by a condition variable, not a
//   callback, so an asynchronous AwaitProof would still need a thread to wait on it: a bounded
//   pool is the honest design. The gRPC threads are capped (a resource quota) beyond that.
// - gRPC connections: a client that has not finished the HTTP/2 handshake after 10 s is closed;
//   keepalive pings every 60 s close a dead peer's connection (20 s to answer); a connection
//   with no call for 10 minutes is closed. gRPC 1.51 has no cap on connections: the daemon
//   raises its descriptor soft limit to the hard one at start.
// - /metrics: one thread polls every connection (no thread per client); a connection that has
//   not sent its request within 2 s, or not taken the answer within 5 s, is closed; at most 64
//   are open (the oldest is closed for a new one). Idle clients cannot delay a scrape.
// - A unix socket path a live daemon answers on is refused; only a stale socket file is removed.
// - gRPC 1.51 stops accepting for good once accept() has failed with EMFILE: a watchdog calls the
//   endpoint on a fresh connection every 2 s and rebuilds the gRPC server when two calls in a row
//   get no answer.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/expected.hpp"
#include "engine/engine.hpp"
#include "service/address.hpp"

namespace grpc {
class Server;
}

namespace cuzk::service {

struct ServerOptions {
  std::string listen{kDefaultListen};                 // "host:port" or "unix:///path"
  std::string metrics_listen{kDefaultMetricsListen};  // "host:port"; "" = no HTTP endpoint
  size_t max_message_bytes = size_t{256} << 20;
  unsigned max_waiting_calls = 256;  // AwaitProof and Prove waiting at once; beyond: RESOURCE_EXHAUSTED
  std::function<void(const std::string& line)> log;  // warnings (a restart of the gRPC endpoint); may be empty
};

class Server {
 public:
  // Listening when it returns; an address that cannot be bound fails, naming it.
  static Expected<std::unique_ptr<Server>> start(engine::Engine& engine, const ServerOptions& options);
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Stops both endpoints: calls in flight are cancelled after `grace_ms`.
  void stop(int grace_ms = 1000);
  const std::string& address() const { return address_; }          // as bound ("127.0.0.1:40123" for port 0)
  const std::string& metrics_address() const { return metrics_address_; }
  uint64_t grpc_restarts() const { return restarts_; }  // by the watchdog (server.cpp: watch_grpc)

 private:
  class Service;
  Server() = default;
  void serve_metrics();
  Expected<void> build_grpc();  // grpc_ and service_ on options_.listen
  bool grpc_answers() const;
  void watch_grpc();

  engine::Engine* engine_ = nullptr;
  ServerOptions options_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<grpc::Server> grpc_;
  std::string address_, metrics_address_;
  int metrics_fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread metrics_thread_;
  std::mutex watch_mutex_;
  std::condition_variable watch_cv_;
  std::atomic<uint64_t> restarts_{0};
  std::thread watch_thread_;
};

}  // namespace cuzk::service
