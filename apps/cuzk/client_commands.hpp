#pragma once
// `cuzk submit|await|prove-remote|status|metrics|preload|evict|cancel`: clients of a running
// daemon's gRPC service cuzk.v1.ProvingEngine (shared/SPEC.md §7), through service::Client.
// Every command takes --address: "host:port", "unix:///path" or "/path" (default: $CUZK_ADDRESS,
// else 127.0.0.1:9820, the daemon's default). Exit codes: 0 done, 1 the proof did not complete
// (FAILED, CANCELLED, TIMEOUT, UNKNOWN), 2 bad input or an RPC error.

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace cuzk::app {

struct SubmitOptions {
  std::string address;
  std::string c1;          // the C1 JSON, or Curio's wrapper; sent as is in vanilla_proof
  std::string request_id;  // empty: "porep-<miner>-<sector>" when both are known, else "c1-<sha256 prefix>"
  std::string priority = "normal";  // low | normal | high | critical
  std::string kind = "porep";       // porep (POREP_SEAL_COMMIT)
  std::optional<uint64_t> miner_id;
  std::optional<uint64_t> sector_number;  // default: the wrapper's SectorNum
};

struct AwaitOptions {
  std::string address;
  std::string job_id;
  uint64_t timeout_ms = 0;  // 0: wait until the job ends
  std::string out;          // where the proof goes; empty: printed as hex
};

struct ProveRemoteOptions {
  SubmitOptions submit;
  std::string out;
};

struct StatusOptions {
  std::string address;
  bool json = false;
};

struct MetricsOptions {
  std::string address;
};

// preload and evict
struct SrsOptions {
  std::string address;
  std::string circuit_id;  // "porep-32g", ...
};

struct CancelOptions {
  std::string address;
  std::string job_id;
};

int run_submit(const SubmitOptions& o);
int run_await(const AwaitOptions& o);
int run_prove_remote(const ProveRemoteOptions& o);
int run_status(const StatusOptions& o);
int run_metrics(const MetricsOptions& o);
int run_preload(const SrsOptions& o);
int run_evict(const SrsOptions& o);
int run_cancel(const CancelOptions& o);

// The options the subcommands parse into, and the subcommands themselves (null until added).
struct ClientCommands {
  SubmitOptions submit;
  AwaitOptions await;
  ProveRemoteOptions prove_remote;
  StatusOptions status;
  MetricsOptions metrics;
  SrsOptions preload, evict;
  CancelOptions cancel;

  CLI::App *submit_cmd = nullptr, *await_cmd = nullptr, *prove_remote_cmd = nullptr, *status_cmd = nullptr,
           *metrics_cmd = nullptr, *preload_cmd = nullptr, *evict_cmd = nullptr, *cancel_cmd = nullptr;
};

// Adds the eight subcommands to app, parsing into storage (which must outlive the parse).
void add_client_commands(CLI::App& app, ClientCommands& storage);

// After app.parse: the exit code of the client command that was given, if one was.
std::optional<int> run_client_command(const ClientCommands& storage);

}  // namespace cuzk::app
