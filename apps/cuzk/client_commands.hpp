#pragma once
// `cuzk submit|await|prove-remote|status|metrics|preload|evict|cancel`: clients of a running
// daemon's gRPC service cuzk.v1.ProvingEngine (shared/SPEC.md §7), through service::Client.
// Every command takes --address: "host:port", "unix:///path" or "/path" (default: $CUZK_ADDRESS,
// else 127.0.0.1:9820, the daemon's default). Exit codes: 0 done, 1 the proof did not complete
// (FAILED, CANCELLED, TIMEOUT, UNKNOWN), 2 bad input or an RPC error.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cuzk::app {

// One request as Curio's client fills it (shared/SPEC.md §6, SPEC-POST.md §8, SPEC-SNAP.md §8).
struct SubmitOptions {
  std::string address;
  std::string kind = "porep";  // porep | window-post | winning-post | snap
  std::string c1;              // porep: the C1 JSON, or Curio's wrapper; sent as is in vanilla_proof
  std::vector<std::string> vanilla;  // PoSt: FallbackPoStSectorProof files or directories; snap:
                                     // PartitionProof files in partition order, or snap-vproof.json
  std::string registered_proof;      // PoSt: Go id 0-14 or name; snap: RegisteredUpdateProof 0-4
  std::string sector_size;           // snap, instead of registered_proof
  std::string randomness;            // PoSt: 32 bytes, hex
  uint32_t partition = 0;            // WindowPoSt: partition_index
  std::string comm_r_old, comm_r_new, comm_d_new;  // snap: 32 bytes each, hex
  std::string request_id;  // empty: Curio's id for the kind (submit's help), else a digest of the payload
  std::string priority;    // low | normal | high | critical; empty: Curio's for the kind
  std::optional<uint64_t> miner_id;
  std::optional<uint64_t> sector_number;  // default: the wrapper's SectorNum (porep)
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
