#include "daemon_commands.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <memory>

#include "command_support.hpp"
#include "settings.hpp"
#include "core/gpu_memory_limits.hpp"
#include "core/memory_size.hpp"
#include "core/process_memory.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/circuit_id.hpp"
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "engine/post_handler.hpp"
#include "engine/snap_handler.hpp"
#include "groth16/select_prover.hpp"
#include "params/check.hpp"
#include "porep/params.hpp"
#include "service/config.hpp"
#include "service/log_format.hpp"
#include "service/server.hpp"

namespace cuzk::app {
namespace {

using service::DaemonConfig;

// The config file, then the flags over it (docs/config.md: flags override).
DaemonConfig settings(const DaemonOptions& o) {
  DaemonConfig c;
  std::string path = o.config;
  if (path.empty()) {
    if (const char* env = std::getenv("CUZK_CONFIG"); env != nullptr) path = env;
  }
  if (!path.empty()) c = must(service::read_config(path));
  if (!o.listen.empty()) c.daemon.listen = o.listen;
  if (!o.metrics_listen.empty()) c.daemon.metrics_listen = o.metrics_listen == "off" ? "" : o.metrics_listen;
  if (!o.params_dir.empty()) c.srs.param_dir = o.params_dir;
  if (!o.gpu.empty()) must(service::parse_gpu_devices(o.gpu, c.gpus));
  if (!o.gpu_memory.empty()) must(service::parse_gpu_memory_limit(o.gpu_memory, c.gpus));
  if (!o.spread.empty()) must(service::parse_gpu_spread(o.spread, c.gpus));
  if (!o.memory_budget.empty()) c.memory.budget = must(parse_memory_size(o.memory_budget));
  if (o.threads != 0) c.synthesis.threads = o.threads;
  if (!o.log_level.empty()) c.logging.level = o.log_level;
  if (!o.log_format.empty()) c.logging.format = o.log_format;
  c.srs.preload.insert(c.srs.preload.end(), o.preload.begin(), o.preload.end());
  if (const char* log = std::getenv("CUZK_LOG"); log != nullptr && std::string_view(log) == "timing") c.logging.timing = true;
  must(service::check_config(c));
  return c;
}

// The GPUs the config names, each checked to be visible, each with its memory limit and a
// share for its circuits' provers (groth16/gpu_share.hpp).
std::vector<groth16::GpuChoice> gpus_of(const DaemonConfig::Gpus& g) {
  std::vector<int> ordinals;
  if (g.mode == DaemonConfig::Gpus::Mode::automatic) {
    for (const groth16::GpuInfo& info : groth16::visible_gpus()) ordinals.push_back(info.ordinal);
  } else if (g.mode == DaemonConfig::Gpus::Mode::list) {
    ordinals.assign(g.ordinals.begin(), g.ordinals.end());
  }
  std::vector<groth16::GpuChoice> out;
  for (int n : ordinals) {
    groth16::GpuChoice choice{groth16::GpuChoice::Kind::device, n, g.memory_limit.of(n)};
    must(groth16::check_gpu_choice(choice));
    choice.share = groth16::gpu_share_for(choice);
    out.push_back(choice);
  }
  return out;
}

// RLIMIT_NOFILE's soft limit raised to its hard limit (capped at what the kernel allows one
// process: fs.nr_open); the soft limit in force after.
rlim_t raise_descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) {
      raised.rlim_cur = std::min<rlim_t>(limit.rlim_max, rlim_t{1} << 20);  // a hard limit of "unlimited"
      if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) return limit.rlim_cur;
    }
    return raised.rlim_cur;
  }
  return limit.rlim_cur;
}

engine::Spread spread_of(DaemonConfig::Gpus::Spread spread) {
  switch (spread) {
    case DaemonConfig::Gpus::Spread::proofs: return engine::Spread::proofs;
    case DaemonConfig::Gpus::Spread::partitions: return engine::Spread::partitions;
  }
  return engine::Spread::proofs;
}

}  // namespace

int run_daemon(const DaemonOptions& o) {
  return guarded("daemon", [&] {
    const DaemonConfig c = settings(o);
    // SIGTERM and SIGINT are taken by this thread alone (sigwait below): block them before any
    // other thread starts, so every thread inherits the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    // A logger of our own, not spdlog's global registry (no singletons: shared/STYLE.md).
    auto log = std::make_shared<spdlog::logger>("cuzk", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    log->set_formatter(service::log_formatter(c.logging.format));
    log->set_level(spdlog::level::from_str(c.logging.level));
    // Every connection is a descriptor: take all the system allows (systemd's soft default is
    // 1,024; gRPC 1.51 stops accepting for good once accept() has failed with EMFILE).
    const rlim_t descriptors = raise_descriptor_limit();
    log->debug("file descriptors: {}", descriptors);
    ThreadPool pool(c.synthesis.threads);
    const std::vector<groth16::GpuChoice> gpus = gpus_of(c.gpus);
    const size_t budget = c.memory.budget != 0 ? c.memory.budget : physical_memory_bytes() / 10 * 9;
    const std::filesystem::path param_dir = param_dir_setting(c.srs.param_dir);
    std::vector<int> ordinals;
    for (const groth16::GpuChoice& g : gpus) ordinals.push_back(g.ordinal);
    if (o.print_config) {
      fmt::print("listen {}\nmetrics_listen {}\nparam_dir {}\ngpus {}\npartitions_per_gpu {}\ngpu spread {}\n"
                 "gpu memory_limit {}\nmemory budget {}\nmax_pending {}\nthreads {}\npreload {}\n"
                 "log_format {}\n",
                 c.daemon.listen, c.daemon.metrics_listen.empty() ? "off" : c.daemon.metrics_listen, param_dir.string(),
                 ordinals.empty() ? std::string("none (the CPU)") : fmt::format("{}", fmt::join(ordinals, ",")),
                 c.gpus.partitions_per_gpu, service::to_string(c.gpus.spread), cuzk::to_string(c.gpus.memory_limit),
                 gib_text(budget), c.scheduler.max_pending, pool.threads(), fmt::join(c.srs.preload, ","), c.logging.format);
      return 0;
    }

    // The official files of the preloaded sizes, as `cuzk params check --sector-size` shows
    // them (a digest not cached yet is checked when a job first needs the file:
    // params::find_files); without preloads one line, the table at debug level.
    {
      std::vector<uint64_t> sizes;
      for (const std::string& id : c.srs.preload)
        if (const auto size = engine::circuit_sector_size(id); size && std::ranges::find(sizes, *size) == sizes.end())
          sizes.push_back(*size);
      for (const uint64_t size : sizes) {
        const std::vector<params::CircuitCheck> checks = params::check_dir(param_dir, size, params::Digests::cached_only);
        std::string text = params::report(param_dir, checks);
        if (!text.empty() && text.back() == '\n') text.pop_back();
        (params::verdict(checks, size) == params::Verdict::complete ? log->info(text) : log->warn(text));
      }
      if (sizes.empty()) {
        const std::vector<params::CircuitCheck> checks =
            params::check_dir(param_dir, std::nullopt, params::Digests::cached_only);
        const auto present = std::ranges::count_if(checks, [](const params::CircuitCheck& k) {
          return k.params.status != params::FileCheck::Status::missing && k.vk.status != params::FileCheck::Status::missing;
        });
        log->info("parameters in {}: {} of the {} official circuits present (`cuzk params check` lists them; cuzk's "
                  "own files are used where none is)", param_dir.string(), present, checks.size());
        log->debug("{}", params::report(param_dir, checks));
      }
    }

    // The four proofs Curio sends, on the same GPUs, key cache and memory budget.
    engine::Groth16HandlerOptions common;
    common.param_dir = param_dir;
    common.pool = &pool;
    common.gpus = gpus;
    common.keep_cpu_prover = c.pipeline.retry_on_cpu;
    common.partitions_per_gpu = c.gpus.partitions_per_gpu;
    std::vector<std::unique_ptr<engine::ProofHandler>> handlers;
    engine::PorepHandlerOptions porep;
    static_cast<engine::Groth16HandlerOptions&>(porep) = common;
    handlers.push_back(std::make_unique<engine::PorepHandler>(std::move(porep)));
    handlers.push_back(std::make_unique<engine::PostHandler>(post::PostKind::kWindow, common));
    handlers.push_back(std::make_unique<engine::PostHandler>(post::PostKind::kWinning, common));
    handlers.push_back(std::make_unique<engine::SnapHandler>(common));

    engine::EngineOptions eo;
    eo.gpus = ordinals;
    eo.partitions_per_gpu = c.gpus.partitions_per_gpu;
    eo.spread = spread_of(c.gpus.spread);
    eo.max_pending = c.scheduler.max_pending;
    eo.memory_budget = budget;
    eo.retry_on_cpu = c.pipeline.retry_on_cpu;
    const auto level = c.logging.timing ? spdlog::level::info : spdlog::level::debug;
    eo.log_stage = [log, level](const std::string& line) { log->log(level, line); };
    engine::Engine engine(std::move(eo), std::move(handlers));

    for (const std::string& id : c.srs.preload) {
      log->info("preloading {}", id);
      const auto p = must(engine.preload(id));
      log->info("preloaded {} in {:.1f} s", id, p.load_ms / 1e3);
    }
    service::ServerOptions so;
    so.listen = c.daemon.listen;
    so.metrics_listen = c.daemon.metrics_listen;
    so.max_message_bytes = c.daemon.max_message_bytes;
    so.max_waiting_calls = c.daemon.max_waiting_calls;
    so.log = [log](const std::string& line) { log->warn(line); };
    const std::unique_ptr<service::Server> server = must(service::Server::start(engine, so));
    log->info("cuzk daemon: listening on {}{}; proving on {}; {} threads; memory budget {}", server->address(),
              server->metrics_address().empty() ? "" : ", metrics on http://" + server->metrics_address() + "/metrics",
              gpus.empty()       ? std::string("the CPU")
              : gpus.size() == 1 ? std::string("1 GPU")
                                 : fmt::format("{} GPUs (spread: {})", gpus.size(), service::to_string(c.gpus.spread)),
              pool.threads(), gib_text(budget));

    int sig = 0;
    sigwait(&signals, &sig);
    const engine::EngineStatus s = engine.status();
    unsigned running = 0;
    for (const auto& [kind, q] : s.queues) running += q.in_progress;
    log->info("{}: draining ({} job(s) running; queued ones are cancelled, new ones refused)", strsignal(sig), running);
    engine.shutdown(c.daemon.drain_timeout_s == 0 ? std::nullopt
                                                  : std::optional(std::chrono::milliseconds(1000 * c.daemon.drain_timeout_s)));
    server->stop();
    log->info("stopped");
    return 0;
  });
}

}  // namespace cuzk::app
