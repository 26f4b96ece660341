#include "snap_commands.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <memory>

#include "command_support.hpp"
#include "local_engine.hpp"
#include "settings.hpp"
#include "vanilla_files.hpp"
#include "core/base64.hpp"
#include "core/hex.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/snap_handler.hpp"
#include "groth16/params_file.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/params.hpp"
#include "snap/circuit.hpp"
#include "snap/prover.hpp"
#include "snap/synthetic_vanilla.hpp"
#include "snap/update_shape.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::app {
namespace {

namespace fs = std::filesystem;

snap::UpdateShape shape_of(const std::string& sector_size, std::optional<uint64_t> registered_proof) {
  if (registered_proof) {
    const snap::RegisteredUpdateProof p = must(snap::registered_update_proof(*registered_proof));
    if (!sector_size.empty() && must(snap::parse_update_sector_size(sector_size)) != p.sector_size)
      throw Exception(invalid_argument(fmt::format("--registered-proof {} ({}) is not a {} sector", *registered_proof, p.name,
                                                sector_size)));
    return must(snap::update_shape_for_sector_size(p.sector_size));
  }
  if (sector_size.empty()) throw Exception(invalid_argument("give --sector-size or --registered-proof"));
  return must(snap::update_shape_for_sector_size(must(snap::parse_update_sector_size(sector_size))));
}

ff::Fr fr_flag(const std::string& flag, const std::string& hex) {
  if (hex.empty()) throw Exception(invalid_argument("give " + flag + " (32 bytes, hex)"));
  const std::array<uint8_t, 32> bytes = hex32(flag, hex);
  Expected<ff::Fr> v = ff::Fr::from_bytes_le(std::span<const uint8_t, 32>(bytes));
  if (!v) throw Exception(invalid_argument(flag + ": not a canonical field element"));
  return *v;
}

snap::UpdatePublic public_of(const SnapPublicFlags& f) {
  return {fr_flag("--comm-r-old", f.comm_r_old), fr_flag("--comm-d-new", f.comm_d_new), fr_flag("--comm-r-new", f.comm_r_new)};
}

std::string hex_of(const ff::Fr& v) {
  std::array<uint8_t, 32> b{};
  v.to_bytes_le(b);
  return to_hex(b);
}

std::vector<uint8_t> le_bytes(const ff::Fr& v) {
  std::array<uint8_t, 32> b{};
  v.to_bytes_le(b);
  return {b.begin(), b.end()};
}

int run_snap_prove(const SnapCommands& c) {
  return guarded("prove snap", [&] {
    ThreadPool pool(c.threads);
    const snap::UpdateShape shape = shape_of(c.pub.sector_size, c.pub.registered_proof);
    const snap::UpdatePublic pub = public_of(c.pub);
    const snap::RegisteredUpdateProof registered = must(snap::registered_update_proof_for_size(shape.sector_size()));
    const groth16::GpuChoice choice = must(gpu_choice_setting(c.gpu, c.gpu_memory));
    const std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(choice));  // before any long work
    // The daemon's path (local_engine.hpp): the request Curio sends, proved by the engine.
    engine::JobRequest request;
    request.kind = engine::ProofKind::snap_deals_update;
    request.registered_proof = registered.id;
    request.sector_size = shape.sector_size();
    for (auto& [name, blob] : read_partition_blobs(c.vanilla)) {
      request.payload_names.push_back(name);
      request.vanilla_proofs.push_back(std::move(blob));
    }
    request.comm_r_old = le_bytes(pub.comm_r_old);
    request.comm_r_new = le_bytes(pub.comm_r_new);
    request.comm_d_new = le_bytes(pub.comm_d_new);
    const engine::JobResult r = prove_in_process(
        std::make_unique<engine::SnapHandler>(local_handler_options(pool, c.params_dir, gpu, c.blinding_seed)), gpu,
        std::move(request), "prove snap", c.json);
    write_file(c.out, std::string_view(reinterpret_cast<const char*>(r.proof.data()), r.proof.size()));
    const engine::JobTimes& t = r.times;
    if (c.json) {
      fmt::print("{{\"command\":\"prove snap\",\"sector_size\":\"{}\",\"backend\":\"{}\",\"parse_ms\":{:.1f},"
                 "\"load_ms\":{:.1f},\"total_ms\":{:.1f},\"partitions\":{}}}\n",
                 shape.name(), r.backend, t.parse_ms, t.srs_load_ms, t.total_ms, partition_json(r));
      return 0;
    }
    fmt::print("prove snap: {} ({} partition{}), backend {}\n", shape.name(), r.partitions, r.partitions == 1 ? "" : "s",
               r.backend);
    fmt::print("  decode and validate {:.1f} ms; parameters read and the prover made in {:.1f} ms\n", t.parse_ms,
               t.srs_load_ms);
    fmt::print("{}", partition_lines(r));
    fmt::print("  total {:.1f} s; proof verified, {} bytes -> {}\n", t.total_ms / 1e3, r.proof.size(), c.out);
    return 0;
  });
}

int run_snap_verify(const SnapCommands& c) {
  return guarded("verify snap", [&] {
    ThreadPool pool(c.threads);
    const snap::UpdateShape shape = shape_of(c.pub.sector_size, c.pub.registered_proof);
    const snap::UpdatePublic pub = public_of(c.pub);
    const fs::path vk_path =
        !c.vk.empty() ? fs::path(c.vk)
                      : param_dir_setting(c.params_dir) /
                            (snap::own_params_stem(shape) + ".vk");
    const groth16::VerifyingKey vk = must(groth16::read_vk(vk_path, pool));
    const groth16::PreparedVerifyingKey pvk(vk);
    const std::string proof = slurp(c.proof);
    const bool ok = must(snap::verify_update(pvk, std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()),
                                             shape, pub));
    fmt::print("{}\n", ok ? "valid" : "INVALID");
    return ok ? 0 : 1;
  });
}

}  // namespace

void add_snap_commands(CLI::App& prove, CLI::App& verify, SnapCommands& c) {
  const auto public_flags = [&](CLI::App* s) {
    s->add_option("--sector-size", c.pub.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB (or a test size)");
    s->add_option("--registered-proof", c.pub.registered_proof, "abi.RegisteredUpdateProof 0-4 (instead of --sector-size)");
    s->add_option("--comm-r-old", c.pub.comm_r_old, "the sector key's comm_r, 32 bytes hex")->required();
    s->add_option("--comm-r-new", c.pub.comm_r_new, "the updated sector's comm_r, 32 bytes hex")->required();
    s->add_option("--comm-d-new", c.pub.comm_d_new, "the new data's comm_d, 32 bytes hex")->required();
    s->add_option("--params", c.params_dir, "parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE or "
                                            "/var/tmp/filecoin-proof-parameters)");
    s->add_option("--threads", c.threads, "worker threads (default: all)");
  };
  c.prove = prove.add_subcommand("snap", "SnapDeals: every partition proved from its vanilla proof (GPU or CPU), "
                                         "verified before it is written");
  public_flags(c.prove);
  c.prove->add_option("--vanilla", c.vanilla, "the PartitionProof bincode files in partition order, or Curio's "
                                              "snap-vproof.json")->required();
  c.prove->add_option("--out", c.out, "proof to write (192 bytes per partition)")->required();
  c.prove->add_option("--blinding-seed", c.blinding_seed, "reproducible r and s (insecure: tests only)");
  c.prove->add_option("--gpu", c.gpu, "prover backend: auto (GPU 0 if present), off (CPU) or a GPU ordinal "
                                      "(default: $CUZK_GPU, else auto)");
  c.prove->add_option("--gpu-memory", c.gpu_memory, "the most GPU memory to use, e.g. 16GiB (default: "
                                                    "$CUZK_GPU_MEMORY, else all free)");
  c.prove->add_flag("--json", c.json, "print the stage times as one JSON object");
  c.verify = verify.add_subcommand("snap", "check a SnapDeals proof from public data (exit 0 valid, 1 invalid, 2 error)");
  public_flags(c.verify);
  c.verify->add_option("--proof", c.proof, "the proof (192 bytes per partition)")->required();
  c.verify->add_option("--vk", c.vk, "bellperson .vk (instead of --params)");
}

std::optional<int> run_snap_command(const SnapCommands& c) {
  if (c.prove != nullptr && c.prove->parsed()) return run_snap_prove(c);
  if (c.verify != nullptr && c.verify->parsed()) return run_snap_verify(c);
  return std::nullopt;
}

int run_gen_vanilla_snap(const SnapCommands& c) {
  return guarded("gen-vanilla", [&] {
    if (c.gen_out.empty()) throw Exception(invalid_argument("give --out DIR"));
    const snap::UpdateShape shape = shape_of(c.gen_sector_size, std::nullopt);
    const snap::UpdatePoseidon poseidon;
    const auto t0 = Clock::now();
    const snap::SyntheticUpdate u = must(snap::generate_synthetic_update(shape, poseidon, c.gen_seed));
    fs::create_directories(c.gen_out);
    std::string json, files;
    for (size_t k = 0; k < u.partitions.size(); ++k) {
      const std::vector<uint8_t> blob = snap::encode_partition_proof(u.partitions[k]);
      const fs::path file = fs::path(c.gen_out) / fmt::format("snap-{}.partition{}.bin", shape.name(), k);
      write_file(file.string(), std::string_view(reinterpret_cast<const char*>(blob.data()), blob.size()));
      json += fmt::format("{}\"{}\"", json.empty() ? "" : ",", base64_encode(blob));
      files += (files.empty() ? "" : " ") + file.string();
    }
    write_file((fs::path(c.gen_out) / "snap-vproof.json").string(), "[" + json + "]");
    fmt::print("gen-vanilla: {} synthetic SnapDeals vanilla proofs (seed {}), {} partition{} in {:.1f} s -> {}\n",
               shape.name(), c.gen_seed, u.partitions.size(), u.partitions.size() == 1 ? "" : "s", ms_since(t0) / 1e3,
               c.gen_out);
    fmt::print("  public data: --sector-size {} --comm-r-old {} --comm-r-new {} --comm-d-new {}\n", shape.name(),
               hex_of(u.pub.comm_r_old), hex_of(u.pub.comm_r_new), hex_of(u.pub.comm_d_new));
    fmt::print("  vanilla: {} (or {}/snap-vproof.json)\n", files, c.gen_out);
    return 0;
  });
}

int run_snap_setup(const SnapCommands& c, std::optional<uint64_t> seed, unsigned threads) {
  return guarded("setup", [&] {
    ThreadPool pool(threads);
    const snap::UpdateShape shape = shape_of(c.setup_sector_size, std::nullopt);
    const fs::path dir = param_dir_setting(c.setup_out);
    fs::create_directories(dir);
    auto t0 = Clock::now();
    const r1cs::CompiledR1cs<ff::Fr> compiled = [&] {
      Progress progress("compiling", shape.challenges, compile_progress_style(shape.sector_size()));
      return snap::compile_partition(shape, snap::UpdatePoseidon(), &pool, &progress);
    }();
    const double compile_ms = ms_since(t0);
    t0 = Clock::now();
    const groth16::ToxicWaste tw = seed ? groth16::ToxicWaste::from_seed(*seed) : groth16::ToxicWaste::random();
    const groth16::Parameters params = must(groth16::setup_on(groth16::GpuChoice{groth16::GpuChoice::Kind::off, 0},
                                                              compiled, tw, pool));
    const double setup_ms = ms_since(t0);
    const std::string stem = snap::own_params_stem(shape);
    must(groth16::write_params(dir / (stem + ".params"), params));
    must(groth16::write_vk(dir / (stem + ".vk"), params.vk));
    fmt::print("setup: SnapDeals {} circuit, {} constraints, {} public inputs; compile {:.1f} s, setup {:.1f} s\n  -> {}\n",
               shape.name(), compiled.num_constraints(), compiled.num_inputs - 1, compile_ms / 1e3, setup_ms / 1e3,
               (dir / (stem + ".{params,vk}")).string());
    return 0;
  });
}

}  // namespace cuzk::app
