#include "service/config.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdint>
#include <span>
#include <utility>

#include "core/gpu_memory_limits.hpp"
#include "core/mapped_file.hpp"
#include "core/memory_size.hpp"

namespace cuzk::service {
namespace {

// ---- Reading one value: its TOML type and what the type can hold. Messages carry no location;
// parse_config prefixes "file:line: section.key: ".

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

Error expected(std::string_view what, const toml::node& node) {
  return invalid_argument(fmt::format("expected {}, got {}", what, type_name(node)));
}

Expected<std::string> read_string(const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  return expected("a string", node);
}

Expected<bool> read_bool(const toml::node& node) {
  if (const auto* b = node.as_boolean()) return b->get();
  return expected("true or false", node);
}

Expected<uint64_t> read_count(const toml::node& node, uint64_t max) {
  const auto* integer = node.as_integer();
  if (integer == nullptr) return expected("a non-negative integer", node);
  const int64_t value = integer->get();
  if (value < 0) return invalid_argument(fmt::format("expected a non-negative integer, got {}", value));
  if (uint64_t(value) > max) return invalid_argument(fmt::format("{} is out of range (at most {})", value, max));
  return uint64_t(value);
}

Expected<unsigned> read_unsigned(const toml::node& node) {
  uint64_t value = 0;
  CUZK_TRY_ASSIGN(value, read_count(node, UINT_MAX));
  return unsigned(value);
}

// A memory size: "16GiB" (core/memory_size.hpp) or an integer of bytes.
Expected<size_t> read_size(const toml::node& node) {
  if (const auto* s = node.as_string()) return parse_memory_size(s->get());
  if (node.is_integer()) return read_count(node, SIZE_MAX);
  return expected("a memory size (\"16GiB\" or an integer of bytes)", node);
}

// gpus.memory_limit: "16GiB,1=4GiB" (core/gpu_memory_limits.hpp) or an integer of bytes (every GPU).
Expected<GpuMemoryLimits> read_gpu_memory_limits(const toml::node& node) {
  if (const auto* s = node.as_string()) return parse_gpu_memory_limits(s->get());
  if (node.is_integer()) {
    GpuMemoryLimits limits;
    CUZK_TRY_ASSIGN(limits.all, read_count(node, SIZE_MAX));
    return limits;
  }
  return expected("a memory size (\"16GiB\", \"16GiB,1=4GiB\" or an integer of bytes)", node);
}

constexpr std::pair<std::string_view, DaemonConfig::Gpus::Spread> kSpreads[] = {
    {"proofs", DaemonConfig::Gpus::Spread::proofs}, {"partitions", DaemonConfig::Gpus::Spread::partitions}};

// gpus.spread: "proofs" | "partitions".
Expected<DaemonConfig::Gpus::Spread> spread_named(std::string_view text) {
  for (const auto& [name, spread] : kSpreads)
    if (text == name) return spread;
  return invalid_argument(fmt::format("expected \"proofs\" or \"partitions\", got '{}'", text));
}

Expected<DaemonConfig::Gpus::Spread> read_spread(const toml::node& node) {
  if (const auto* s = node.as_string()) return spread_named(s->get());
  return expected("\"proofs\" or \"partitions\"", node);
}

Expected<std::vector<std::string>> read_names(const toml::node& node) {
  const auto* array = node.as_array();
  if (array == nullptr) return expected("an array of strings", node);
  std::vector<std::string> names;
  for (size_t i = 0; i < array->size(); ++i) {
    const auto* s = array->get(i)->as_string();
    if (s == nullptr || s->get().empty())
      return invalid_argument(fmt::format("element {}: expected a non-empty string", i));
    names.push_back(s->get());
  }
  return names;
}

// gpus.devices: "auto" | "off" | [0, 1].
Expected<void> read_devices(const toml::node& node, DaemonConfig::Gpus& gpus) {
  constexpr std::string_view kWhat = "\"auto\", \"off\" or an array of GPU ordinals";
  gpus.ordinals.clear();
  if (const auto* s = node.as_string()) {
    if (s->get() == "auto")
      gpus.mode = DaemonConfig::Gpus::Mode::automatic;
    else if (s->get() == "off")
      gpus.mode = DaemonConfig::Gpus::Mode::off;
    else
      return invalid_argument(fmt::format("expected {}, got '{}'", kWhat, s->get()));
    return {};
  }
  const auto* array = node.as_array();
  if (array == nullptr) return expected(kWhat, node);
  gpus.mode = DaemonConfig::Gpus::Mode::list;
  for (size_t i = 0; i < array->size(); ++i) {
    auto ordinal = read_unsigned(*array->get(i));
    if (!ordinal) return invalid_argument(fmt::format("element {}: {}", i, ordinal.error().message));
    gpus.ordinals.push_back(*ordinal);
  }
  return {};
}

template <class T>
Expected<void> assign(T& field, Expected<T> value) {
  if (!value) return value.error();
  field = std::move(*value);
  return {};
}

// ---- Checking one value, once read (from the file, or set by a flag: check_config).

Expected<void> at_least(uint64_t value, uint64_t min) {
  if (value >= min) return {};
  return invalid_argument(fmt::format("must be at least {}, got {}", min, value));
}

enum class Endpoint { grpc, http };

// "host:port" (IPv6 as "[::1]:9820"), port 0-65535; the gRPC endpoint also "unix:///path".
Expected<void> check_address(std::string_view text, Endpoint endpoint) {
  constexpr std::string_view kUnix = "unix://";
  const bool unix_ok = endpoint == Endpoint::grpc;
  if (unix_ok && text.starts_with(kUnix) && text.size() > kUnix.size() + 1 && text[kUnix.size()] == '/') return {};
  const size_t colon = text.rfind(':');
  if (colon != std::string_view::npos && colon > 0 && !text.starts_with(kUnix)) {
    const std::string_view port = text.substr(colon + 1);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (!port.empty() && ec == std::errc() && end == port.data() + port.size() && value <= 65535) return {};
  }
  return invalid_argument(fmt::format("'{}': expected host:port{}", text, unix_ok ? " or unix:///path/to.sock" : ""));
}

constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "off"};

Expected<void> check_level(std::string_view level) {
  if (std::ranges::find(kLevels, level) != std::end(kLevels)) return {};
  return invalid_argument(fmt::format("'{}' is not a level ({})", level, fmt::join(kLevels, ", ")));
}

Expected<void> check_log_format(std::string_view format) {
  if (format == "text" || format == "json") return {};
  return invalid_argument(fmt::format("expected \"text\" or \"json\", got '{}'", format));
}

Expected<void> check_devices(const DaemonConfig::Gpus& gpus) {
  return check_gpu_selection(GpuSelection{gpus.mode, gpus.ordinals});
}

// A limit for a GPU the daemon does not prove on is a typo, unless the GPUs are found at start
// ("auto": a config shared by hosts with different cards).
Expected<void> check_memory_limit(const DaemonConfig::Gpus& gpus) {
  if (gpus.mode != DaemonConfig::Gpus::Mode::list) return {};
  for (const auto& [ordinal, bytes] : gpus.memory_limit.by_gpu)
    if (std::ranges::find(gpus.ordinals, unsigned(ordinal)) == gpus.ordinals.end())
      return invalid_argument(fmt::format("GPU {} has a memory limit but is not among the devices ({})", ordinal,
                                          fmt::join(gpus.ordinals, ", ")));
  return {};
}

// ---- The keys of each section (docs/config.md). `read` takes the TOML value into the config;
// `check` (where there is one) tests the value's rules on the config.

using C = DaemonConfig;
using N = toml::node;
struct Key {
  std::string_view name;
  Expected<void> (*read)(const N&, C&);
  Expected<void> (*check)(const C&) = nullptr;
};
struct Section {
  std::string_view name;
  std::span<const Key> keys;
};

constexpr Key kDaemon[] = {
    {"listen", [](const N& n, C& c) { return assign(c.daemon.listen, read_string(n)); },
     [](const C& c) { return check_address(c.daemon.listen, Endpoint::grpc); }},
    {"metrics_listen", [](const N& n, C& c) { return assign(c.daemon.metrics_listen, read_string(n)); },
     [](const C& c) {
       return c.daemon.metrics_listen.empty() ? Expected<void>()
                                              : check_address(c.daemon.metrics_listen, Endpoint::http);
     }},
    {"max_message_bytes", [](const N& n, C& c) { return assign(c.daemon.max_message_bytes, read_size(n)); },
     [](const C& c) { return at_least(c.daemon.max_message_bytes, 1); }},
    {"drain_timeout_s", [](const N& n, C& c) { return assign(c.daemon.drain_timeout_s, read_unsigned(n)); }},
    {"max_waiting_calls", [](const N& n, C& c) { return assign(c.daemon.max_waiting_calls, read_unsigned(n)); },
     [](const C& c) { return at_least(c.daemon.max_waiting_calls, 1); }},
};
constexpr Key kSrs[] = {
    {"param_dir", [](const N& n, C& c) { return assign(c.srs.param_dir, read_string(n)); }},
    {"preload", [](const N& n, C& c) { return assign(c.srs.preload, read_names(n)); }},
};
constexpr Key kMemory[] = {
    {"budget", [](const N& n, C& c) { return assign(c.memory.budget, read_size(n)); }},
};
constexpr Key kGpus[] = {
    {"devices", [](const N& n, C& c) { return read_devices(n, c.gpus); },
     [](const C& c) {
       auto done = check_devices(c.gpus);
       return done ? check_memory_limit(c.gpus) : done;
     }},
    {"memory_limit", [](const N& n, C& c) { return assign(c.gpus.memory_limit, read_gpu_memory_limits(n)); },
     [](const C& c) { return check_memory_limit(c.gpus); }},
    {"partitions_per_gpu", [](const N& n, C& c) { return assign(c.gpus.partitions_per_gpu, read_unsigned(n)); },
     [](const C& c) { return at_least(c.gpus.partitions_per_gpu, 1); }},
    {"spread", [](const N& n, C& c) { return assign(c.gpus.spread, read_spread(n)); }},
};
constexpr Key kScheduler[] = {
    {"max_pending", [](const N& n, C& c) { return assign(c.scheduler.max_pending, read_unsigned(n)); }},
};
constexpr Key kSynthesis[] = {
    {"threads", [](const N& n, C& c) { return assign(c.synthesis.threads, read_unsigned(n)); }},
};
constexpr Key kPipeline[] = {
    {"retry_on_cpu", [](const N& n, C& c) { return assign(c.pipeline.retry_on_cpu, read_bool(n)); }},
};
constexpr Key kLogging[] = {
    {"level", [](const N& n, C& c) { return assign(c.logging.level, read_string(n)); },
     [](const C& c) { return check_level(c.logging.level); }},
    {"timing", [](const N& n, C& c) { return assign(c.logging.timing, read_bool(n)); }},
    {"format", [](const N& n, C& c) { return assign(c.logging.format, read_string(n)); },
     [](const C& c) { return check_log_format(c.logging.format); }},
};
// shared/SPEC.md §7: the sections of the Rust cuzk's cuzk.toml.
constexpr Section kSections[] = {{"daemon", kDaemon},       {"srs", kSrs},
                                 {"memory", kMemory},       {"gpus", kGpus},
                                 {"scheduler", kScheduler}, {"synthesis", kSynthesis},
                                 {"pipeline", kPipeline},   {"logging", kLogging}};

template <class Range>
std::string names_of(const Range& range) {
  std::string names;
  for (const auto& entry : range) names += (names.empty() ? "" : ", ") + std::string(entry.name);
  return names;
}

template <class Range>
auto* find_named(const Range& range, std::string_view name) {
  const auto it = std::ranges::find(range, name, [](const auto& entry) { return entry.name; });
  return it == std::end(range) ? nullptr : &*it;
}

// "cuzk.toml:7: message" (the line where toml++ knows it).
Error located(std::string_view source, const toml::source_region& region, std::string_view message) {
  if (region.begin.line == 0) return invalid_argument(fmt::format("{}: {}", source, message));
  return invalid_argument(fmt::format("{}:{}: {}", source, region.begin.line, message));
}

Expected<void> parse_section(const Section& section, const toml::table& table, std::string_view source,
                             DaemonConfig& config) {
  for (const auto& [name, node] : table) {
    const Key* key = find_named(section.keys, name.str());
    if (key == nullptr)
      return located(source, name.source(),
                     fmt::format("unknown key '{}.{}' ([{}] keys: {})", section.name, name.str(), section.name,
                                 names_of(section.keys)));
    auto done = key->read(node, config);
    if (done && key->check != nullptr) done = key->check(config);
    if (!done)
      return located(source, node.source(), fmt::format("{}.{}: {}", section.name, key->name, done.error().message));
  }
  return {};
}

}  // namespace

Expected<DaemonConfig> parse_config(std::string_view toml_text, std::string_view source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    return invalid_argument(
        fmt::format("{}:{}:{}: {}", source_name, e.source().begin.line, e.source().begin.column, e.description()));
  }
  DaemonConfig config;
  for (const auto& [name, node] : root) {
    const Section* section = find_named(kSections, name.str());
    const auto* table = node.as_table();
    if (section == nullptr)
      return located(source_name, name.source(),
                     fmt::format("unknown {} '{}'{} (sections: {})", table ? "section" : "key", name.str(),
                                 table ? "" : " outside a section", names_of(kSections)));
    if (table == nullptr)
      return located(source_name, node.source(),
                     fmt::format("{}: expected a table ([{}]), got {}", name.str(), name.str(), type_name(node)));
    if (auto done = parse_section(*section, *table, source_name, config); !done) return done.error();
  }
  return config;
}

Expected<DaemonConfig> read_config(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Error{ErrorCode::kIo, fmt::format("config {}: is a directory", path.string())};
  auto file = MappedFile::open(path);
  if (!file) return Error{ErrorCode::kIo, "config " + file.error().message};
  const auto bytes = file->bytes();
  return parse_config(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path.string());
}

Expected<void> parse_gpu_devices(std::string_view text, DaemonConfig::Gpus& gpus) {
  auto selection = parse_gpu_selection(text);
  if (!selection) return invalid_argument(fmt::format("gpus.devices: {}", selection.error().message));
  gpus.mode = selection->mode;
  gpus.ordinals = std::move(selection->ordinals);
  return {};
}

Expected<void> parse_gpu_memory_limit(std::string_view text, DaemonConfig::Gpus& gpus) {
  auto limits = parse_gpu_memory_limits(text);
  if (!limits) return invalid_argument(fmt::format("gpus.memory_limit: {}", limits.error().message));
  gpus.memory_limit = std::move(*limits);
  return {};
}

Expected<void> parse_gpu_spread(std::string_view text, DaemonConfig::Gpus& gpus) {
  auto spread = spread_named(text);
  if (!spread) return invalid_argument(fmt::format("gpus.spread: {}", spread.error().message));
  gpus.spread = *spread;
  return {};
}

std::string_view to_string(DaemonConfig::Gpus::Spread spread) {
  for (const auto& [name, value] : kSpreads)
    if (value == spread) return name;
  return "?";
}

Expected<void> check_config(const DaemonConfig& config) {
  for (const Section& section : kSections)
    for (const Key& key : section.keys)
      if (key.check != nullptr)
        if (auto done = key.check(config); !done)
          return invalid_argument(fmt::format("{}.{}: {}", section.name, key.name, done.error().message));
  return {};
}

}  // namespace cuzk::service
