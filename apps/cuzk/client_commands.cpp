#include "client_commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <google/protobuf/util/json_util.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "command_support.hpp"
#include "core/hex.hpp"
#include "core/memory_size.hpp"
#include "porep/c1.hpp"
#include "porep/sector_shape.hpp"
#include "post/registered.hpp"
#include "snap/update_shape.hpp"
#include "service/address.hpp"
#include "service/client.hpp"
#include "vanilla_files.hpp"

namespace cuzk::app {
namespace {

using service::Client;

std::string address_or_default(const std::string& address) {
  if (!address.empty()) return address;
  if (const char* env = std::getenv("CUZK_ADDRESS"); env && *env) return env;
  return std::string(service::kDefaultListen);
}

// What a SubmitProofRequest needs from a C1 (SPEC §6): the registered proof, and from Curio's
// wrapper {"SectorNum", "Phase1Out", "SectorSize"} the sector number. The C1 is parsed and checked
// whole (porep::parse_c1) so that a damaged file is refused here, naming the field.
struct C1Header {
  porep::RegisteredSealProof proof;
  std::optional<uint64_t> sector_number;
};

C1Header read_c1_header(const std::string& path, std::string_view bytes) {
  const porep::C1 c1 = must(porep::parse_c1(bytes, path));
  return {must(porep::registered_seal_proof(c1.registered_proof)),
          c1.wrapped ? std::optional<uint64_t>(c1.sector_num) : std::nullopt};
}

v1::Priority priority(const std::string& name) {
  static constexpr std::array<std::pair<std::string_view, v1::Priority>, 4> kNames{{
      {"low", v1::LOW}, {"normal", v1::NORMAL}, {"high", v1::HIGH}, {"critical", v1::CRITICAL}}};
  for (const auto& [n, p] : kNames) {
    if (n == name) return p;
  }
  throw Exception(invalid_argument("--priority: expected low, normal, high or critical, got " + name));
}

// "<prefix>-" and the first 16 hex digits of SHA-256 over the payloads: the same payload gets the
// same id, so a resubmission joins the running job as Curio's retries do.
std::string content_request_id(std::string_view prefix, const std::vector<std::string_view>& payloads) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::array<uint8_t, SHA256_DIGEST_LENGTH> digest{};
  bool ok = ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1;
  for (std::string_view p : payloads) ok = ok && EVP_DigestUpdate(ctx.get(), p.data(), p.size()) == 1;
  ok = ok && EVP_DigestFinal_ex(ctx.get(), digest.data(), nullptr) == 1;
  if (!ok) throw Exception(Error{ErrorCode::kInternal, "SHA-256 of the payload: OpenSSL failed"});
  return std::string(prefix) + "-" + to_hex(std::span<const uint8_t>(digest.data(), 8));
}

void check_flags_of(const SubmitOptions& o, bool porep) {
  if (porep && !o.vanilla.empty()) throw Exception(invalid_argument("--vanilla: for window-post, winning-post or snap"));
  if (!porep && !o.c1.empty()) throw Exception(invalid_argument("--c1: for --kind porep"));
  if (porep && o.c1.empty()) throw Exception(invalid_argument("--kind porep: give --c1"));
  if (!porep && o.vanilla.empty()) throw Exception(invalid_argument("--kind " + o.kind + ": give --vanilla"));
}

// The request Curio's PoRepSnarkCuzk sends (curio lib/ffi): POREP_SEAL_COMMIT, the C1 bytes in
// vanilla_proof, sector size and numeric registered proof, sector number and miner id.
void porep_request(const SubmitOptions& o, v1::SubmitProofRequest& request) {
  std::string bytes = slurp(o.c1);
  const C1Header c1 = read_c1_header(o.c1, bytes);
  const std::optional<uint64_t> sector = o.sector_number ? o.sector_number : c1.sector_number;
  if (o.request_id.empty())
    request.set_request_id(o.miner_id && sector ? fmt::format("porep-{}-{}", *o.miner_id, *sector)
                                                : content_request_id("c1", {bytes}));
  request.set_proof_kind(v1::POREP_SEAL_COMMIT);
  request.set_sector_size(c1.proof.sector_size);
  request.set_registered_proof(c1.proof.id);
  request.set_sector_number(sector.value_or(0));
  request.set_vanilla_proof(std::move(bytes));
}

// WindowPoStCuzk / WinningPoStCuzk (SPEC-POST.md §8): the partition's sectors' vanilla proofs in
// ascending sector order, the registered proof, randomness, partition index; Curio's ids
// wdpost-<miner>-<partition>-<randomness[:8] as Go prints a byte slice: [b0 b1 ...]> and
// winpost-<miner>-<randomness[:8] hex>.
void post_request(const SubmitOptions& o, post::PostKind kind, v1::SubmitProofRequest& request) {
  if (o.registered_proof.empty()) throw Exception(invalid_argument("--kind " + o.kind + ": give --registered-proof"));
  const post::RegisteredPostProof proof = must(post::registered_post_proof(o.registered_proof));
  if (proof.kind != kind)
    throw Exception(invalid_argument(fmt::format("--registered-proof {} is a {} proof, not {}", proof.name,
                                                 post::kind_name(proof.kind), o.kind)));
  if (o.randomness.empty()) throw Exception(invalid_argument("--kind " + o.kind + ": give --randomness (32 bytes, hex)"));
  const std::array<uint8_t, 32> randomness = hex32("--randomness", o.randomness);
  if (kind == post::PostKind::kWinning && o.partition != 0)
    throw Exception(invalid_argument("--partition: WinningPoSt has one partition"));
  std::vector<VanillaFile> files = read_post_vanilla(o.vanilla);
  if (o.request_id.empty()) {
    const uint64_t miner = o.miner_id.value_or(0);
    request.set_request_id(kind == post::PostKind::kWindow
                               ? fmt::format("wdpost-{}-{}-[{}]", miner, o.partition,
                                             fmt::join(randomness.begin(), randomness.begin() + 8, " "))
                               : fmt::format("winpost-{}-{}", miner,
                                             to_hex(std::span<const uint8_t>(randomness.data(), 8))));
  }
  request.set_proof_kind(kind == post::PostKind::kWindow ? v1::WINDOW_POST_PARTITION : v1::WINNING_POST);
  request.set_sector_size(proof.sector_size);
  request.set_registered_proof(proof.id);
  request.set_randomness(randomness.data(), randomness.size());
  request.set_partition_index(o.partition);
  request.set_sector_number(o.sector_number.value_or(0));
  for (VanillaFile& f : files) request.add_vanilla_proofs(f.bytes.data(), f.bytes.size());
}

// ProveUpdateCuzk (SPEC-SNAP.md §8): the partitions' PartitionProof blobs in order, the
// registered update proof, the three commitments (32 bytes each), sector and miner; Curio's id
// snap-<miner>-<sector>.
void snap_request(const SubmitOptions& o, v1::SubmitProofRequest& request) {
  snap::RegisteredUpdateProof proof;
  if (!o.registered_proof.empty()) {
    uint64_t id = 0;
    const auto [end, ec] = std::from_chars(o.registered_proof.data(), o.registered_proof.data() + o.registered_proof.size(), id);
    if (ec != std::errc() || end != o.registered_proof.data() + o.registered_proof.size())
      throw Exception(invalid_argument("--registered-proof " + o.registered_proof + ": expected an update proof id 0-4"));
    proof = must(snap::registered_update_proof(id));
    if (!o.sector_size.empty() && must(snap::parse_update_sector_size(o.sector_size)) != proof.sector_size)
      throw Exception(invalid_argument(fmt::format("--registered-proof {} ({}) is not a {} sector", id, proof.name,
                                                   o.sector_size)));
  } else if (!o.sector_size.empty()) {
    proof = must(snap::registered_update_proof_for_size(must(snap::parse_update_sector_size(o.sector_size))));
  } else {
    throw Exception(invalid_argument("--kind snap: give --registered-proof or --sector-size"));
  }
  for (const auto& [flag, hex] : {std::pair{"--comm-r-old", &o.comm_r_old}, std::pair{"--comm-r-new", &o.comm_r_new},
                                  std::pair{"--comm-d-new", &o.comm_d_new}})
    if (hex->empty()) throw Exception(invalid_argument(std::string("--kind snap: give ") + flag + " (32 bytes, hex)"));
  const std::array<uint8_t, 32> comm_r_old = hex32("--comm-r-old", o.comm_r_old),
                                comm_r_new = hex32("--comm-r-new", o.comm_r_new),
                                comm_d_new = hex32("--comm-d-new", o.comm_d_new);
  auto blobs = read_partition_blobs(o.vanilla);
  if (o.request_id.empty()) {
    if (o.miner_id && o.sector_number) {
      request.set_request_id(fmt::format("snap-{}-{}", *o.miner_id, *o.sector_number));
    } else {
      std::vector<std::string_view> payloads;
      for (const auto& [name, blob] : blobs) payloads.emplace_back(reinterpret_cast<const char*>(blob.data()), blob.size());
      request.set_request_id(content_request_id("snap", payloads));
    }
  }
  request.set_proof_kind(v1::SNAP_DEALS_UPDATE);
  request.set_sector_size(proof.sector_size);
  request.set_registered_proof(proof.id);
  request.set_sector_number(o.sector_number.value_or(0));
  request.set_comm_r_old(comm_r_old.data(), comm_r_old.size());
  request.set_comm_r_new(comm_r_new.data(), comm_r_new.size());
  request.set_comm_d_new(comm_d_new.data(), comm_d_new.size());
  for (const auto& [name, blob] : blobs) request.add_vanilla_proofs(blob.data(), blob.size());
}

v1::SubmitProofRequest submit_request(const SubmitOptions& o) {
  v1::SubmitProofRequest request;
  request.set_request_id(o.request_id);
  check_flags_of(o, o.kind == "porep");
  // Curio's priorities: HIGH for WindowPoSt, CRITICAL for WinningPoSt, NORMAL otherwise.
  const std::string curio_priority = o.kind == "window-post" ? "high" : o.kind == "winning-post" ? "critical" : "normal";
  if (o.kind == "porep") {
    porep_request(o, request);
  } else if (o.kind == "window-post" || o.kind == "winning-post") {
    post_request(o, o.kind == "window-post" ? post::PostKind::kWindow : post::PostKind::kWinning, request);
  } else if (o.kind == "snap") {
    snap_request(o, request);
  } else {
    throw Exception(invalid_argument("--kind: porep, window-post, winning-post or snap, not " + o.kind));
  }
  request.set_priority(priority(o.priority.empty() ? curio_priority : o.priority));
  request.set_miner_id(o.miner_id.value_or(0));
  return request;
}

// Status and timings on stdout; the proof to `out` (or as hex); the error on stderr. Exit 0 only
// for COMPLETED.
int report_result(const char* command, const v1::AwaitProofResponse& r, const std::string& out) {
  fmt::print("job_id: {}\nstatus: {}\n", r.job_id(), v1::AwaitProofResponse::Status_Name(r.status()));
  fmt::print("times_ms: queue_wait {} srs_load {} synthesis {} gpu_compute {} total {}\n", r.queue_wait_ms(),
             r.srs_load_ms(), r.synthesis_ms(), r.gpu_compute_ms(), r.total_ms());
  if (r.status() != v1::AwaitProofResponse::COMPLETED) {
    fmt::print(stderr, "cuzk {}: job {} {}{}{}\n", command, r.job_id(),
               v1::AwaitProofResponse::Status_Name(r.status()), r.error_message().empty() ? "" : ": ",
               r.error_message());
    return 1;
  }
  if (out.empty()) {
    fmt::print("proof: {}\n", to_hex(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(r.proof().data()),
                                                               r.proof().size())));
  } else {
    write_file(out, r.proof());
    fmt::print("proof: {} bytes -> {}\n", r.proof().size(), out);
  }
  return 0;
}

void print_status_table(const v1::GetStatusResponse& s) {
  fmt::print("uptime {} s; proofs completed {}, failed {}{}\n", s.uptime_seconds(), s.total_proofs_completed(),
             s.total_proofs_failed(),
             s.pinned_memory_bytes() == 0 ? std::string()
                                          : fmt::format("; pinned memory {} of {}", gib_text(s.pinned_memory_bytes()),
                                                        s.pinned_memory_limit_bytes() ? gib_text(s.pinned_memory_limit_bytes())
                                                                                      : std::string("no limit")));
  fmt::print("\n{:<4} {:<28} {:>12} {:>12}  {:<24} {}\n", "GPU", "name", "VRAM free", "VRAM total", "job", "kind");
  for (const auto& g : s.gpus()) {
    fmt::print("{:<4} {:<28} {:>12} {:>12}  {:<24} {}\n", g.ordinal(), g.name(), gib_text(g.vram_free_bytes()),
               gib_text(g.vram_total_bytes()), g.current_job_id().empty() ? "-" : g.current_job_id(),
               g.current_proof_kind().empty() ? "-" : g.current_proof_kind());
  }
  fmt::print("\n{:<16} {:<5} {:>12} {:>5}\n", "SRS", "tier", "size", "refs");
  for (const auto& srs : s.loaded_srs()) {
    fmt::print("{:<16} {:<5} {:>12} {:>5}\n", srs.circuit_id(), v1::SRSStatus::Tier_Name(srs.tier()),
               gib_text(srs.size_bytes()), srs.ref_count());
  }
  fmt::print("\n{:<24} {:>8} {:>12}\n", "queue", "pending", "in progress");
  for (const auto& q : s.queues()) fmt::print("{:<24} {:>8} {:>12}\n", q.proof_kind(), q.pending(), q.in_progress());
}

// The proto3 JSON mapping with the proto's field names and every field present: uint64 as
// decimal strings, enums by name (as tests/oracle/grpc_client.mjs prints them).
std::string to_json(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  if (const auto status = google::protobuf::util::MessageToJsonString(message, &out, options); !status.ok()) {
    throw Exception(Error{ErrorCode::kInternal, "JSON: " + status.ToString()});
  }
  return out;
}

void add_address(CLI::App* cmd, std::string& address) {
  cmd->add_option("--address", address,
                  fmt::format("daemon: host:port, unix:///path or /path (default: $CUZK_ADDRESS, else {})",
                              service::kDefaultListen));
}

void add_submit_flags(CLI::App* cmd, SubmitOptions& o) {
  add_address(cmd, o.address);
  cmd->add_option("--kind", o.kind, "porep (default), window-post, winning-post or snap")
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  cmd->add_option("--c1", o.c1, "porep: the C1 (SealCommitPhase1Output JSON, or Curio's wrapper), sent as is");
  cmd->add_option("--vanilla", o.vanilla,
                  "window-post, winning-post: the partition's FallbackPoStSectorProof files or directories of "
                  "*.vanilla.bin (sent in ascending sector order); snap: the PartitionProof files in partition "
                  "order, or Curio's snap-vproof.json");
  cmd->add_option("--registered-proof", o.registered_proof,
                  "PoSt: Go id 0-14 or name (e.g. 13); snap: the update proof id 0-4 (or --sector-size)");
  cmd->add_option("--sector-size", o.sector_size, "snap: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  cmd->add_option("--randomness", o.randomness, "PoSt: 32 bytes, hex");
  cmd->add_option("--partition", o.partition, "window-post: the partition's index (default 0)");
  cmd->add_option("--comm-r-old", o.comm_r_old, "snap: the sector key's comm_r, 32 bytes hex");
  cmd->add_option("--comm-r-new", o.comm_r_new, "snap: the updated sector's comm_r, 32 bytes hex");
  cmd->add_option("--comm-d-new", o.comm_d_new, "snap: the new data's comm_d, 32 bytes hex");
  cmd->add_option("--request-id", o.request_id,
                  "idempotency key (default: Curio's: porep-<miner>-<sector>, wdpost-<miner>-<partition>-"
                  "[randomness[:8]], winpost-<miner>-<randomness[:8] hex>, snap-<miner>-<sector>; porep and snap "
                  "without miner and sector: c1-|snap-<first 16 hex digits of SHA-256 of the payload>)");
  cmd->add_option("--priority", o.priority,
                  "low, normal, high or critical (default: Curio's: high for window-post, critical for "
                  "winning-post, normal otherwise)")
      ->check(CLI::IsMember({"low", "normal", "high", "critical"}));
  cmd->add_option("--miner-id", o.miner_id, "the miner's actor id (sent as miner_id)");
  cmd->add_option("--sector-number", o.sector_number, "sent as sector_number (porep default: the wrapper's SectorNum)");
}

}  // namespace

int run_submit(const SubmitOptions& o) {
  return guarded("submit", [&] {
    Client client(address_or_default(o.address));
    const v1::SubmitProofResponse r = must(client.submit_proof(submit_request(o)));
    fmt::print("job_id: {}\nqueue_position: {}\nassigned_gpu: {}\n", r.job_id(), r.queue_position(),
               r.assigned_gpu().empty() ? "-" : r.assigned_gpu());
    return 0;
  });
}

int run_await(const AwaitOptions& o) {
  return guarded("await", [&] {
    Client client(address_or_default(o.address));
    v1::AwaitProofRequest request;
    request.set_job_id(o.job_id);
    request.set_timeout_ms(o.timeout_ms);
    return report_result("await", must(client.await_proof(request)), o.out);
  });
}

int run_prove_remote(const ProveRemoteOptions& o) {
  return guarded("prove-remote", [&] {
    Client client(address_or_default(o.submit.address));
    v1::ProveRequest request;
    *request.mutable_submit() = submit_request(o.submit);
    const v1::ProveResponse r = must(client.prove(request));
    return report_result("prove-remote", r.result(), o.out);
  });
}

int run_status(const StatusOptions& o) {
  return guarded("status", [&] {
    Client client(address_or_default(o.address));
    const v1::GetStatusResponse s = must(client.get_status());
    if (o.json) {
      fmt::print("{}\n", to_json(s));
    } else {
      print_status_table(s);
    }
    return 0;
  });
}

int run_metrics(const MetricsOptions& o) {
  return guarded("metrics", [&] {
    Client client(address_or_default(o.address));
    fmt::print("{}", must(client.get_metrics()).prometheus_text());
    return 0;
  });
}

int run_preload(const SrsOptions& o) {
  return guarded("preload", [&] {
    Client client(address_or_default(o.address));
    v1::PreloadSrsRequest request;
    request.set_circuit_id(o.circuit_id);
    const v1::PreloadSrsResponse r = must(client.preload_srs(request));
    if (r.already_loaded()) {
      fmt::print("{}: already loaded\n", o.circuit_id);
    } else {
      fmt::print("{}: loaded in {} ms\n", o.circuit_id, r.load_time_ms());
    }
    return 0;
  });
}

int run_evict(const SrsOptions& o) {
  return guarded("evict", [&] {
    Client client(address_or_default(o.address));
    v1::EvictSrsRequest request;
    request.set_circuit_id(o.circuit_id);
    const v1::EvictSrsResponse r = must(client.evict_srs(request));
    if (r.was_loaded()) {
      fmt::print("{}: evicted, {} freed\n", o.circuit_id, gib_text(r.freed_bytes()));
    } else {
      fmt::print("{}: was not loaded\n", o.circuit_id);
    }
    return 0;
  });
}

int run_cancel(const CancelOptions& o) {
  return guarded("cancel", [&] {
    Client client(address_or_default(o.address));
    v1::CancelProofRequest request;
    request.set_job_id(o.job_id);
    const v1::CancelProofResponse r = must(client.cancel_proof(request));
    fmt::print("{}: cancelled ({})\n", o.job_id, r.was_running() ? "was running" : "was not running");
    return 0;
  });
}

void add_client_commands(CLI::App& app, ClientCommands& s) {
  s.submit_cmd = app.add_subcommand("submit", "queue a proof (PoRep C2, WindowPoSt, WinningPoSt, SnapDeals) on a "
                                              "running daemon (SubmitProof), as Curio sends it; prints the job id");
  add_submit_flags(s.submit_cmd, s.submit);

  s.await_cmd = app.add_subcommand("await", "wait for a submitted job (AwaitProof): exit 0 completed, 1 not");
  add_address(s.await_cmd, s.await.address);
  s.await_cmd->add_option("--job-id", s.await.job_id, "as submit printed it")->required();
  s.await_cmd->add_option("--timeout-ms", s.await.timeout_ms, "give up after this long (default 0: wait until done)");
  s.await_cmd->add_option("--out", s.await.out, "proof to write (default: printed as hex)");

  s.prove_remote_cmd =
      app.add_subcommand("prove-remote", "submit and await in one call (Prove), as Curio does: exit 0 completed, 1 not");
  add_submit_flags(s.prove_remote_cmd, s.prove_remote.submit);
  s.prove_remote_cmd->add_option("--out", s.prove_remote.out, "proof to write (default: printed as hex)");

  s.status_cmd = app.add_subcommand("status", "a daemon's GPUs, SRS, queues and counters (GetStatus)");
  add_address(s.status_cmd, s.status.address);
  s.status_cmd->add_flag("--json", s.status.json, "the response as JSON (proto field names, uint64 as strings)");

  s.metrics_cmd = app.add_subcommand("metrics", "a daemon's Prometheus metrics (GetMetrics)");
  add_address(s.metrics_cmd, s.metrics.address);

  s.preload_cmd = app.add_subcommand("preload", "load a circuit's parameters (PreloadSRS), e.g. porep-32g");
  add_address(s.preload_cmd, s.preload.address);
  s.preload_cmd->add_option("--circuit-id", s.preload.circuit_id, "e.g. porep-32g")->required();

  s.evict_cmd = app.add_subcommand("evict", "drop a circuit's SRS from memory (EvictSRS)");
  add_address(s.evict_cmd, s.evict.address);
  s.evict_cmd->add_option("--circuit-id", s.evict.circuit_id, "e.g. porep-32g")->required();

  s.cancel_cmd = app.add_subcommand("cancel", "cancel a queued or running job (CancelProof)");
  add_address(s.cancel_cmd, s.cancel.address);
  s.cancel_cmd->add_option("--job-id", s.cancel.job_id, "as submit printed it")->required();
}

std::optional<int> run_client_command(const ClientCommands& s) {
  if (s.submit_cmd && s.submit_cmd->parsed()) return run_submit(s.submit);
  if (s.await_cmd && s.await_cmd->parsed()) return run_await(s.await);
  if (s.prove_remote_cmd && s.prove_remote_cmd->parsed()) return run_prove_remote(s.prove_remote);
  if (s.status_cmd && s.status_cmd->parsed()) return run_status(s.status);
  if (s.metrics_cmd && s.metrics_cmd->parsed()) return run_metrics(s.metrics);
  if (s.preload_cmd && s.preload_cmd->parsed()) return run_preload(s.preload);
  if (s.evict_cmd && s.evict_cmd->parsed()) return run_evict(s.evict);
  if (s.cancel_cmd && s.cancel_cmd->parsed()) return run_cancel(s.cancel);
  return std::nullopt;
}

}  // namespace cuzk::app
