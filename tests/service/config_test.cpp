// The daemon's TOML config (service/config.hpp; keys in docs/config.md, defaults in
// docs/cuzk.example.toml).

#include "service/config.hpp"

#include <gtest/gtest.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace cuzk::service {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kGiB = size_t{1} << 30;
const std::filesystem::path kDocs = std::filesystem::path(CUZK_TEST_DATA_DIR) / ".." / ".." / "docs";

// The message of a config that must be refused.
std::string error_of(std::string_view text) {
  const auto config = parse_config(text, "cuzk.toml");
  if (config) {
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
  }
  EXPECT_EQ(config.error().code, ErrorCode::kInvalidArgument);
  return config.error().message;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "section.key" of every key in a TOML text.
std::set<std::string> keys_of(std::string_view text) {
  std::set<std::string> keys;
  for (const auto& [section, table] : toml::parse(text))
    for (const auto& [key, value] : *table.as_table())
      keys.insert(std::string(section.str()) + "." + std::string(key.str()));
  return keys;
}

// Every field differs from its default.
constexpr std::string_view kFullConfig = R"(
[daemon]
listen = "unix:///run/cuzk/cuzk.sock"
metrics_listen = ""
max_message_bytes = "1GiB"
drain_timeout_s = 300
max_waiting_calls = 32

[srs]
param_dir = "/data/zk/params"
preload = ["porep-32g", "wpost-32g"]

[memory]
budget = "700GiB"

[gpus]
devices = [1, 0]
memory_limit = "16GiB,1=4GiB"
partitions_per_gpu = 3
spread = "partitions"

[scheduler]
max_pending = 8

[synthesis]
threads = 96

[pipeline]
retry_on_cpu = false

[logging]
level = "debug"
timing = true
format = "json"
)";

DaemonConfig full_config() {
  DaemonConfig c;
  c.daemon = {"unix:///run/cuzk/cuzk.sock", "", kGiB, 300, 32};
  c.srs = {"/data/zk/params", {"porep-32g", "wpost-32g"}};
  c.memory = {700 * kGiB};
  c.gpus = {DaemonConfig::Gpus::Mode::list, {1, 0}, {16 * kGiB, {{1, 4 * kGiB}}}, 3,
            DaemonConfig::Gpus::Spread::partitions};
  c.scheduler.max_pending = 8;
  c.synthesis = {96};
  c.pipeline.retry_on_cpu = false;
  c.logging = {"debug", true, "json"};
  return c;
}

TEST(Config, EmptyFileGivesTheDefaults) {
  EXPECT_EQ(parse_config("", "cuzk.toml").value(), DaemonConfig{});
  EXPECT_EQ(parse_config("# nothing\n\n[gpus]\n[daemon]\n", "cuzk.toml").value(), DaemonConfig{});
  const DaemonConfig d;
  EXPECT_EQ(d.daemon.listen, "127.0.0.1:9820");       // loopback: never all interfaces by default
  EXPECT_EQ(d.daemon.max_message_bytes, 256 * kMiB);  // Curio's client limit
  EXPECT_EQ(d.gpus.mode, DaemonConfig::Gpus::Mode::automatic);
  EXPECT_TRUE(d.gpus.memory_limit.empty());
  EXPECT_EQ(d.gpus.spread, DaemonConfig::Gpus::Spread::proofs);  // throughput: each proof on one GPU
}

TEST(Config, MissingKeysKeepTheirDefaults) {
  DaemonConfig expected;
  expected.gpus.partitions_per_gpu = 5;
  expected.logging.timing = true;
  EXPECT_EQ(parse_config("[gpus]\npartitions_per_gpu = 5\n[logging]\ntiming = true\n", "x").value(), expected);
}

TEST(Config, EveryFieldArrives) {
  const DaemonConfig config = parse_config(kFullConfig, "full.toml").value();
  const DaemonConfig expected = full_config();
  EXPECT_EQ(config.daemon, expected.daemon);
  EXPECT_EQ(config.srs, expected.srs);
  EXPECT_EQ(config.memory, expected.memory);
  EXPECT_EQ(config.gpus, expected.gpus);
  EXPECT_EQ(config.scheduler, expected.scheduler);
  EXPECT_EQ(config.synthesis, expected.synthesis);
  EXPECT_EQ(config.pipeline, expected.pipeline);
  EXPECT_EQ(config.logging, expected.logging);
  EXPECT_EQ(config, expected);
  // The text sets every field to a value other than its default, so a key that is not read fails.
  const DaemonConfig d;
  EXPECT_NE(d.daemon.listen, expected.daemon.listen);
  EXPECT_NE(d.daemon.metrics_listen, expected.daemon.metrics_listen);
  EXPECT_NE(d.daemon.max_message_bytes, expected.daemon.max_message_bytes);
  EXPECT_NE(d.daemon.drain_timeout_s, expected.daemon.drain_timeout_s);
  EXPECT_NE(d.daemon.max_waiting_calls, expected.daemon.max_waiting_calls);
  EXPECT_NE(d.srs.param_dir, expected.srs.param_dir);
  EXPECT_NE(d.srs.preload, expected.srs.preload);
  EXPECT_NE(d.memory.budget, expected.memory.budget);
  EXPECT_NE(d.gpus.mode, expected.gpus.mode);
  EXPECT_NE(d.gpus.ordinals, expected.gpus.ordinals);
  EXPECT_NE(d.gpus.memory_limit, expected.gpus.memory_limit);
  EXPECT_NE(d.gpus.partitions_per_gpu, expected.gpus.partitions_per_gpu);
  EXPECT_NE(d.gpus.spread, expected.gpus.spread);
  EXPECT_NE(d.scheduler.max_pending, expected.scheduler.max_pending);
  EXPECT_NE(d.synthesis.threads, expected.synthesis.threads);
  EXPECT_NE(d.pipeline.retry_on_cpu, expected.pipeline.retry_on_cpu);
  EXPECT_NE(d.logging.level, expected.logging.level);
  EXPECT_NE(d.logging.timing, expected.logging.timing);
  EXPECT_NE(d.logging.format, expected.logging.format);
}

TEST(Config, ExampleFileIsTheDefaults) {
  const auto config = read_config(kDocs / "cuzk.example.toml");
  ASSERT_TRUE(config) << config.error().to_string();
  EXPECT_EQ(*config, DaemonConfig{});
  // ... and it shows every key (the full config above sets them all).
  EXPECT_EQ(keys_of(slurp(kDocs / "cuzk.example.toml")), keys_of(kFullConfig));
}

TEST(Config, EveryExampleKeyIsDocumented) {
  const std::string doc = slurp(kDocs / "config.md");
  const auto keys = keys_of(slurp(kDocs / "cuzk.example.toml"));
  EXPECT_EQ(keys.size(), 18u);
  for (const std::string& key : keys) EXPECT_NE(doc.find("`" + key + "`"), std::string::npos) << key;
}

TEST(Config, ErrorsNameFileLineAndKey) {
  const std::string text = "# cuzk\n\n[daemon]\nlisten = \"127.0.0.1:1\"\n\n[gpus]\nmemory_limit = \"16XB\"\n";
  EXPECT_EQ(error_of(text), "cuzk.toml:7: gpus.memory_limit: gpu memory '16XB': unknown unit 'xb'");
}

// "cuzk.toml:<line>:<column>: " and then something: the column's digits, then ": ".
bool starts_with_line_and_column(const std::string& message, const std::string& line) {
  const std::string head = "cuzk.toml:" + line + ":";
  if (!message.starts_with(head)) return false;
  size_t i = head.size();
  const size_t digits = i;
  while (i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]))) ++i;
  return i > digits && message.compare(i, 2, ": ") == 0 && message.size() > i + 2;
}

TEST(Config, SyntaxErrorsGiveLineAndColumn) {
  const std::string message = error_of("[daemon]\nlisten = \"a\"\nlisten = \"b\"\n");  // a duplicate key
  EXPECT_TRUE(starts_with_line_and_column(message, "3")) << message;
  EXPECT_NE(message.find("listen"), std::string::npos) << message;
  const std::string unclosed = error_of("[daemon]\n\nlisten = \"127.0.0.1\n");
  EXPECT_TRUE(starts_with_line_and_column(unclosed, "3")) << unclosed;
}

TEST(Config, UnknownKeysAndSectionsAreErrors) {
  EXPECT_EQ(error_of("[gpus]\nmemroy_limit = \"16GiB\"\n"),
            "cuzk.toml:2: unknown key 'gpus.memroy_limit' ([gpus] keys: devices, memory_limit, partitions_per_gpu, spread)");
  EXPECT_EQ(error_of("\n[gpu]\ndevices = \"off\"\n"),
            "cuzk.toml:2: unknown section 'gpu' (sections: daemon, srs, memory, gpus, scheduler, synthesis, "
            "pipeline, logging)");
  EXPECT_EQ(error_of("[gpus.extra]\nx = 1\n"),
            "cuzk.toml:1: unknown key 'gpus.extra' ([gpus] keys: devices, memory_limit, partitions_per_gpu, spread)");
  EXPECT_EQ(error_of("listen = \"127.0.0.1:1\"\n"),
            "cuzk.toml:1: unknown key 'listen' outside a section (sections: daemon, srs, memory, gpus, scheduler, "
            "synthesis, pipeline, logging)");
  EXPECT_EQ(error_of("daemon = 1\n"), "cuzk.toml:1: daemon: expected a table ([daemon]), got integer");
}

TEST(Config, WrongTypesNameTheExpectedType) {
  EXPECT_EQ(error_of("[scheduler]\nmax_pending = \"64\"\n"),
            "cuzk.toml:2: scheduler.max_pending: expected a non-negative integer, got string");
  EXPECT_EQ(error_of("[synthesis]\nthreads = 2.0\n"),
            "cuzk.toml:2: synthesis.threads: expected a non-negative integer, got float");
  EXPECT_EQ(error_of("[pipeline]\nretry_on_cpu = 1\n"),
            "cuzk.toml:2: pipeline.retry_on_cpu: expected true or false, got integer");
  EXPECT_EQ(error_of("[daemon]\nlisten = 9820\n"), "cuzk.toml:2: daemon.listen: expected a string, got integer");
  EXPECT_EQ(error_of("[memory]\nbudget = true\n"),
            "cuzk.toml:2: memory.budget: expected a memory size (\"16GiB\" or an integer of bytes), got boolean");
  EXPECT_EQ(error_of("[srs]\npreload = \"porep-32g\"\n"),
            "cuzk.toml:2: srs.preload: expected an array of strings, got string");
  EXPECT_EQ(error_of("[srs]\npreload = [\"porep-32g\", 1]\n"),
            "cuzk.toml:2: srs.preload: element 1: expected a non-empty string");
  EXPECT_EQ(error_of("[logging]\ntiming = \"yes\"\n"),
            "cuzk.toml:2: logging.timing: expected true or false, got string");
  EXPECT_EQ(error_of("[logging]\nformat = \"xml\"\n"),
            "cuzk.toml:2: logging.format: expected \"text\" or \"json\", got 'xml'");
}

TEST(Config, IntegersAreRangeChecked) {
  EXPECT_EQ(error_of("[scheduler]\nmax_pending = -1\n"),
            "cuzk.toml:2: scheduler.max_pending: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of("[synthesis]\nthreads = 4294967296\n"),
            "cuzk.toml:2: synthesis.threads: 4294967296 is out of range (at most 4294967295)");
  EXPECT_EQ(parse_config("[synthesis]\nthreads = 4294967295\n", "x").value().synthesis.threads, 4294967295u);
  EXPECT_EQ(error_of("[memory]\nbudget = -4096\n"),
            "cuzk.toml:2: memory.budget: expected a non-negative integer, got -4096");
  // The keys that must be at least 1; 0 is fine elsewhere.
  EXPECT_EQ(error_of("[gpus]\npartitions_per_gpu = 0\n"), "cuzk.toml:2: gpus.partitions_per_gpu: must be at least 1, got 0");
  // A key of an older layout is refused, naming what the section has.
  EXPECT_EQ(error_of("[synthesis]\npartitions_in_flight = 2\n"),
            "cuzk.toml:2: unknown key 'synthesis.partitions_in_flight' ([synthesis] keys: threads)");
  EXPECT_EQ(error_of("[daemon]\nmax_message_bytes = 0\n"),
            "cuzk.toml:2: daemon.max_message_bytes: must be at least 1, got 0");
  EXPECT_EQ(error_of("[daemon]\nmax_message_bytes = \"\"\n"),
            "cuzk.toml:2: daemon.max_message_bytes: must be at least 1, got 0");
  DaemonConfig zeros;
  zeros.scheduler.max_pending = 0;
  EXPECT_EQ(parse_config("[scheduler]\nmax_pending = 0\n[daemon]\ndrain_timeout_s = 0\n", "x").value(), zeros);
}

TEST(Config, MemorySizesTakeUnitsOrBytes) {
  const auto c =
      parse_config("[memory]\nbudget = \"512MiB\"\n[gpus]\nmemory_limit = \"24GB\"\n", "x");
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->memory.budget, 512 * kMiB);
  EXPECT_EQ(c->gpus.memory_limit, GpuMemoryLimits{.all = 24'000'000'000u});
  EXPECT_EQ(error_of("[memory]\nbudget = \"lots\"\n").rfind("cuzk.toml:2: memory.budget: memory size 'lots'", 0), 0u);
}

TEST(Config, GpuMemoryLimitPerGpu) {
  const auto limit = [](std::string_view value) {
    return parse_config("[gpus]\nmemory_limit = " + std::string(value) + "\n", "x").value().gpus.memory_limit;
  };
  EXPECT_EQ(limit("\"16GiB\""), GpuMemoryLimits{.all = 16 * kGiB});
  EXPECT_EQ(limit("17179869184"), GpuMemoryLimits{.all = 16 * kGiB});  // an integer of bytes: every GPU
  EXPECT_EQ(limit("0"), GpuMemoryLimits{});
  EXPECT_EQ(limit("\"\""), GpuMemoryLimits{});
  const GpuMemoryLimits mixed = limit("\"16GiB, 1=4GiB\"");
  EXPECT_EQ(mixed, (GpuMemoryLimits{16 * kGiB, {{1, 4 * kGiB}}}));
  EXPECT_EQ(mixed.of(0), 16 * kGiB);
  EXPECT_EQ(mixed.of(1), 4 * kGiB);
  EXPECT_EQ(limit("\"1=4GiB\"").of(0), 0u);  // GPU 0: what is free
  // With the devices listed, in either order, a limit only for a GPU among them.
  EXPECT_EQ(parse_config("[gpus]\ndevices = [0, 2]\nmemory_limit = \"2=8GiB\"\n", "x").value().gpus.memory_limit.of(2),
            8 * kGiB);
  EXPECT_EQ(error_of("[gpus]\ndevices = [0, 2]\nmemory_limit = \"1=8GiB\"\n"),
            "cuzk.toml:3: gpus.memory_limit: GPU 1 has a memory limit but is not among the devices (0, 2)");
  EXPECT_EQ(error_of("[gpus]\nmemory_limit = \"16GiB,3=8GiB\"\n\ndevices = [0]\n"),
            "cuzk.toml:2: gpus.memory_limit: GPU 3 has a memory limit but is not among the devices (0)");
  EXPECT_TRUE(parse_config("[gpus]\nmemory_limit = \"3=8GiB\"\n", "x"));  // "auto": the GPUs are found at start

  EXPECT_EQ(error_of("[gpus]\nmemory_limit = \"16GiB,1=4XB\"\n"),
            "cuzk.toml:2: gpus.memory_limit: gpu memory '1=4XB': unknown unit 'xb'");
  EXPECT_EQ(error_of("[gpus]\nmemory_limit = \"x=4GiB\"\n"),
            "cuzk.toml:2: gpus.memory_limit: gpu memory 'x=4GiB': GPU ordinal 'x': expected a non-negative integer");
  EXPECT_EQ(error_of("[gpus]\nmemory_limit = \"1=4GiB,1=2GiB\"\n"),
            "cuzk.toml:2: gpus.memory_limit: gpu memory '1=2GiB': GPU 1 is given twice");
  EXPECT_EQ(error_of("[gpus]\nmemory_limit = -1\n"),
            "cuzk.toml:2: gpus.memory_limit: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of("[gpus]\nmemory_limit = [\"16GiB\"]\n"),
            "cuzk.toml:2: gpus.memory_limit: expected a memory size (\"16GiB\", \"16GiB,1=4GiB\" or an integer of "
            "bytes), got array");
}

TEST(Config, Spread) {
  using Spread = DaemonConfig::Gpus::Spread;
  EXPECT_EQ(parse_config("[gpus]\nspread = \"proofs\"\n", "x").value().gpus.spread, Spread::proofs);
  EXPECT_EQ(parse_config("[gpus]\nspread = \"partitions\"\n", "x").value().gpus.spread, Spread::partitions);
  EXPECT_EQ(to_string(Spread::proofs), "proofs");
  EXPECT_EQ(to_string(Spread::partitions), "partitions");
  EXPECT_EQ(error_of("[gpus]\nspread = \"sectors\"\n"),
            "cuzk.toml:2: gpus.spread: expected \"proofs\" or \"partitions\", got 'sectors'");
  EXPECT_EQ(error_of("[gpus]\nspread = \"Partitions\"\n"),
            "cuzk.toml:2: gpus.spread: expected \"proofs\" or \"partitions\", got 'Partitions'");
  EXPECT_EQ(error_of("[gpus]\nspread = 2\n"), "cuzk.toml:2: gpus.spread: expected \"proofs\" or \"partitions\", got integer");
}

TEST(Config, Devices) {
  using Mode = DaemonConfig::Gpus::Mode;
  const auto gpus = [](std::string_view value) {
    return parse_config("[gpus]\ndevices = " + std::string(value) + "\n", "x").value().gpus;
  };
  EXPECT_EQ(gpus("\"auto\"").mode, Mode::automatic);
  EXPECT_EQ(gpus("\"off\"").mode, Mode::off);
  EXPECT_EQ(gpus("[2]").mode, Mode::list);
  EXPECT_EQ(gpus("[2]").ordinals, std::vector<unsigned>{2});
  EXPECT_EQ(gpus("[0, 3, 1]").ordinals, (std::vector<unsigned>{0, 3, 1}));
  EXPECT_TRUE(gpus("\"off\"").ordinals.empty());
  const std::string what = "expected \"auto\", \"off\" or an array of GPU ordinals";
  EXPECT_EQ(error_of("[gpus]\ndevices = \"all\"\n"), "cuzk.toml:2: gpus.devices: " + what + ", got 'all'");
  EXPECT_EQ(error_of("[gpus]\ndevices = 0\n"), "cuzk.toml:2: gpus.devices: " + what + ", got integer");
  EXPECT_EQ(error_of("[gpus]\ndevices = []\n"), "cuzk.toml:2: gpus.devices: no GPU listed (write \"off\" for none)");
  EXPECT_EQ(error_of("[gpus]\ndevices = [1, 0, 1]\n"), "cuzk.toml:2: gpus.devices: GPU 1 is listed twice");
  EXPECT_EQ(error_of("[gpus]\ndevices = [0, -1]\n"),
            "cuzk.toml:2: gpus.devices: element 1: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of("[gpus]\ndevices = [\"0\"]\n"),
            "cuzk.toml:2: gpus.devices: element 0: expected a non-negative integer, got string");
}

TEST(Config, LogLevelMustBeKnown) {
  for (const char* level : {"trace", "debug", "info", "warn", "error", "off"})
    EXPECT_EQ(parse_config(std::string("[logging]\nlevel = \"") + level + "\"\n", "x").value().logging.level, level);
  EXPECT_EQ(error_of("[logging]\nlevel = \"verbose\"\n"),
            "cuzk.toml:2: logging.level: 'verbose' is not a level (trace, debug, info, warn, error, off)");
  EXPECT_FALSE(parse_config("[logging]\nlevel = \"INFO\"\n", "x"));
}

TEST(Config, AddressesAreChecked) {
  for (const char* ok : {"0.0.0.0:9820", "[::1]:9820", "localhost:0", "unix:///run/cuzk.sock"})
    EXPECT_EQ(parse_config(std::string("[daemon]\nlisten = \"") + ok + "\"\n", "x").value().daemon.listen, ok);
  for (const char* bad :
       {"9820", "localhost", ":9820", "host:99999", "host:98x", "unix://", "unix://relative.sock", ""})
    EXPECT_EQ(error_of(std::string("[daemon]\nlisten = \"") + bad + "\"\n"),
              std::string("cuzk.toml:2: daemon.listen: '") + bad + "': expected host:port or unix:///path/to.sock")
        << bad;
  EXPECT_EQ(parse_config("[daemon]\nmetrics_listen = \"0.0.0.0:9100\"\n", "x").value().daemon.metrics_listen,
            "0.0.0.0:9100");
  EXPECT_EQ(error_of("[daemon]\nmetrics_listen = \"unix:///m.sock\"\n"),
            "cuzk.toml:2: daemon.metrics_listen: 'unix:///m.sock': expected host:port");
}

TEST(Config, ReadConfigNamesThePath) {
  const auto missing = read_config("/nonexistent/cuzk.toml");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_NE(missing.error().message.find("/nonexistent/cuzk.toml"), std::string::npos) << missing.error().message;

  const auto dir = std::filesystem::temp_directory_path() / ("cuzk_config_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto directory = read_config(dir);
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().code, ErrorCode::kIo);
  EXPECT_NE(directory.error().message.find(dir.string()), std::string::npos) << directory.error().message;

  const auto file = dir / "cuzk.toml";
  std::ofstream(file) << "[scheduler]\nmax_pending = 16\n\n[gpus]\npartitions_per_gpu = 0\n";
  const auto bad = read_config(file);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, file.string() + ":5: gpus.partitions_per_gpu: must be at least 1, got 0");
  std::ofstream(file) << "[scheduler]\nmax_pending = 16\n";
  EXPECT_EQ(read_config(file).value().scheduler.max_pending, 16u);
  std::filesystem::remove_all(dir);
}

TEST(Config, FlagsGoThroughTheSameRules) {
  using Mode = DaemonConfig::Gpus::Mode;
  DaemonConfig::Gpus gpus;
  gpus.memory_limit = {16 * kGiB, {}};
  ASSERT_TRUE(parse_gpu_devices("1,0", gpus));
  EXPECT_EQ(gpus.mode, Mode::list);
  EXPECT_EQ(gpus.ordinals, (std::vector<unsigned>{1, 0}));
  EXPECT_EQ(gpus.memory_limit, GpuMemoryLimits{.all = 16 * kGiB});  // the other fields stay
  ASSERT_TRUE(parse_gpu_devices("3", gpus));
  EXPECT_EQ(gpus.ordinals, std::vector<unsigned>{3});
  ASSERT_TRUE(parse_gpu_devices("off", gpus));
  EXPECT_EQ(gpus.mode, Mode::off);
  EXPECT_TRUE(gpus.ordinals.empty());
  ASSERT_TRUE(parse_gpu_devices("auto", gpus));
  EXPECT_EQ(gpus.mode, Mode::automatic);
  ASSERT_TRUE(parse_gpu_devices("2", gpus));
  for (const char* bad : {"", "0,", ",1", "a", "-1", "1;2", "0,0"}) {
    const auto done = parse_gpu_devices(bad, gpus);
    ASSERT_FALSE(done) << bad;
    EXPECT_EQ(done.error().message.rfind("gpus.devices: ", 0), 0u) << done.error().message;
    EXPECT_EQ(gpus.ordinals, std::vector<unsigned>{2});  // unchanged on an error
  }
  EXPECT_EQ(parse_gpu_devices("0,0", gpus).error().message, "gpus.devices: GPU 0 is listed twice");

  EXPECT_TRUE(check_config(DaemonConfig{}));
  EXPECT_TRUE(check_config(full_config()));
  DaemonConfig c;
  c.gpus.partitions_per_gpu = 0;
  EXPECT_EQ(check_config(c).error().message, "gpus.partitions_per_gpu: must be at least 1, got 0");
  c = {};
  c.daemon.listen = "*:9820x";
  EXPECT_EQ(check_config(c).error().message, "daemon.listen: '*:9820x': expected host:port or unix:///path/to.sock");
  c = {};
  c.logging.level = "loud";
  EXPECT_FALSE(check_config(c));
  c = {};
  c.gpus.mode = Mode::list;
  EXPECT_EQ(check_config(c).error().message, "gpus.devices: no GPU listed (write \"off\" for none)");
}

TEST(Config, MemoryAndSpreadFlags) {
  using Spread = DaemonConfig::Gpus::Spread;
  DaemonConfig c;
  ASSERT_TRUE(parse_gpu_memory_limit("8GiB,1=4GiB", c.gpus));
  EXPECT_EQ(c.gpus.memory_limit, (GpuMemoryLimits{8 * kGiB, {{1, 4 * kGiB}}}));
  EXPECT_EQ(c.gpus.mode, DaemonConfig::Gpus::Mode::automatic);  // the other fields stay
  const auto bad = parse_gpu_memory_limit("8GiB,1=", c.gpus);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "gpus.memory_limit: gpu memory '1=': no size for GPU 1 (0: what is free)");
  EXPECT_EQ(c.gpus.memory_limit.of(1), 4 * kGiB);  // unchanged on an error
  ASSERT_TRUE(parse_gpu_memory_limit("12GiB", c.gpus));
  EXPECT_EQ(c.gpus.memory_limit, GpuMemoryLimits{.all = 12 * kGiB});

  ASSERT_TRUE(parse_gpu_spread("partitions", c.gpus));
  EXPECT_EQ(c.gpus.spread, Spread::partitions);
  ASSERT_TRUE(parse_gpu_spread("proofs", c.gpus));
  EXPECT_EQ(c.gpus.spread, Spread::proofs);
  ASSERT_TRUE(parse_gpu_spread("partitions", c.gpus));
  const auto wrong = parse_gpu_spread("", c.gpus);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().message, "gpus.spread: expected \"proofs\" or \"partitions\", got ''");
  EXPECT_EQ(c.gpus.spread, Spread::partitions);  // unchanged on an error

  // A flag's limit for a GPU the flags leave out is refused as the file's is.
  ASSERT_TRUE(parse_gpu_devices("0", c.gpus));
  ASSERT_TRUE(parse_gpu_memory_limit("1=4GiB", c.gpus));
  EXPECT_EQ(check_config(c).error().message,
            "gpus.devices: GPU 1 has a memory limit but is not among the devices (0)");
  ASSERT_TRUE(parse_gpu_devices("0,1", c.gpus));
  EXPECT_TRUE(check_config(c));
}

}  // namespace
}  // namespace cuzk::service
