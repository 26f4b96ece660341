#pragma once
// The daemon's configuration: a TOML file with the sections of the Rust cuzk's cuzk.toml
// (shared/SPEC.md §7: [daemon] [srs] [memory] [gpus] [scheduler] [synthesis] [pipeline]
// [logging]). Every key, its default and the flag that overrides it: docs/config.md.
// A missing key keeps its default; an unknown section or key, a wrong type or an out-of-range
// value is an error naming the file, the line and the key, so that a typo is never ignored.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/gpu_memory_limits.hpp"
#include "core/gpu_selection.hpp"
#include "service/address.hpp"

namespace cuzk::service {

struct DaemonConfig {
  struct Daemon {
    // gRPC endpoint (cuzk.v1.ProvingEngine): "host:port" or "unix:///path/to.sock". Loopback by
    // default: the daemon never listens on all interfaces unless configured to.
    std::string listen{kDefaultListen};
    // HTTP endpoint serving GET /metrics (Prometheus text), "host:port"; "" = off.
    std::string metrics_listen{kDefaultMetricsListen};
    // gRPC send/receive limit; Curio's client uses 256 MiB (shared/SPEC.md §7).
    size_t max_message_bytes = size_t{256} << 20;
    // On SIGTERM: how long to wait for in-flight jobs before exiting; 0 = until they finish.
    unsigned drain_timeout_s = 0;
    // AwaitProof and Prove calls waiting at once (each holds a thread); beyond: RESOURCE_EXHAUSTED.
    unsigned max_waiting_calls = 256;
    friend bool operator==(const Daemon&, const Daemon&) = default;
  } daemon;

  struct Srs {
    // Where the .params/.vk files live; "" = $FIL_PROOFS_PARAMETER_CACHE, else
    // /var/tmp/filecoin-proof-parameters.
    std::string param_dir;
    // Circuit ids whose parameters are loaded at start ("porep-32g", "wpost-32g", ...).
    std::vector<std::string> preload;
    friend bool operator==(const Srs&, const Srs&) = default;
  } srs;

  struct Memory {
    // Host bytes the engine admits jobs against; 0 = 90 % of physical RAM (the engine resolves it).
    size_t budget = 0;
    friend bool operator==(const Memory&, const Memory&) = default;
  } memory;

  struct Gpus {
    using Mode = GpuSelection::Mode;  // core/gpu_selection.hpp: the one grammar of GPU lists
    // How a job uses several GPUs (engine::Spread, which the daemon maps it to; this library sits
    // below the engine): each proof on one GPU (throughput), or one proof's partitions over all
    // of them (the latency of a single sector).
    enum class Spread { proofs, partitions };
    // TOML `devices`: "auto" (every visible GPU; the CPU when there is none), "off" (the CPU),
    // or a list of ordinals [0, 1] (Mode::list, in `ordinals`).
    Mode mode = Mode::automatic;
    std::vector<unsigned> ordinals;
    // The most device memory used on each GPU, per GPU where named ("16GiB,1=4GiB"); empty =
    // what is free. Below what a proof needs with the key on the device, the key and circuit
    // stream from the host (docs/gpu.md).
    GpuMemoryLimits memory_limit;
    // Partitions in flight on each GPU (engine::EngineOptions::partitions_per_gpu): one proved
    // while the next are synthesised and go up; each holds a witness buffer (4.2 GB at 32 GiB).
    unsigned partitions_per_gpu = 4;
    Spread spread = Spread::proofs;
    friend bool operator==(const Gpus&, const Gpus&) = default;
  } gpus;

  struct Scheduler {
    // Queued jobs beyond which SubmitProof is refused (RESOURCE_EXHAUSTED).
    unsigned max_pending = 64;
    friend bool operator==(const Scheduler&, const Scheduler&) = default;
  } scheduler;

  struct Synthesis {
    // CPU worker threads; 0 = all.
    unsigned threads = 0;
    friend bool operator==(const Synthesis&, const Synthesis&) = default;
  } synthesis;

  struct Pipeline {
    // A partition every GPU failed (a proof that does not verify, a CUDA error) is proved on the
    // CPU (a wrong proof is never returned: shared/DESIGN.md, decision 7).
    bool retry_on_cpu = true;
    friend bool operator==(const Pipeline&, const Pipeline&) = default;
  } pipeline;

  struct Logging {
    // trace | debug | info | warn | error | off
    std::string level = "info";
    // One line per job stage (as CUZK_LOG=timing does: shared/DESIGN.md, decision 8).
    bool timing = false;
    // text: "<time> <level> <message>" lines; json: one object per line, {"ts", "level", "msg"},
    // for log shippers (service/log_format.hpp).
    std::string format = "text";
    friend bool operator==(const Logging&, const Logging&) = default;
  } logging;

  friend bool operator==(const DaemonConfig&, const DaemonConfig&) = default;
};

// The configuration in `toml_text`; `source_name` (the path) prefixes every message, e.g.
// "cuzk.toml:7: gpus.memory_limit: gpu memory '16XB': unknown unit 'xb'". Errors are
// ErrorCode::kInvalidArgument.
Expected<DaemonConfig> parse_config(std::string_view toml_text, std::string_view source_name);

// The configuration in the file at `path`; a file that cannot be read is ErrorCode::kIo naming it.
Expected<DaemonConfig> read_config(const std::filesystem::path& path);

// For flags that override the file (apps/cuzk parses them, then checks the result):
// gpus.devices as a flag writes it (core/gpu_selection.hpp: "auto", "off" or ordinals "0" /
// "0,1"); `gpus` keeps its other fields, and is left as it was on an error.
Expected<void> parse_gpu_devices(std::string_view text, DaemonConfig::Gpus& gpus);
// gpus.memory_limit as --gpu-memory writes it ("16GiB", "16GiB,1=4GiB": core/gpu_memory_limits.hpp)
// and gpus.spread as --spread writes it ("proofs", "partitions"); messages and errors as
// parse_gpu_devices'.
Expected<void> parse_gpu_memory_limit(std::string_view text, DaemonConfig::Gpus& gpus);
Expected<void> parse_gpu_spread(std::string_view text, DaemonConfig::Gpus& gpus);
// "proofs", "partitions": the TOML and flag spelling.
std::string_view to_string(DaemonConfig::Gpus::Spread spread);
// The value rules parse_config applies (addresses, minima, log level, distinct GPUs), on a config
// whose fields were set in code; the message names the key ("gpus.partitions_per_gpu: ...").
Expected<void> check_config(const DaemonConfig& config);

}  // namespace cuzk::service
