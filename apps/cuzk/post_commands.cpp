#include "post_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <memory>

#include "command_support.hpp"
#include "local_engine.hpp"
#include "settings.hpp"
#include "vanilla_files.hpp"
#include "core/hex.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/post_handler.hpp"
#include "groth16/params_file.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/params.hpp"
#include "porep/sector_shape.hpp"
#include "porep_commands.hpp"
#include "post/circuit.hpp"
#include "post/params.hpp"
#include "post/prover.hpp"
#include "post/synthetic_vanilla.hpp"
#include "post/vanilla.hpp"
#include "post/verify.hpp"

namespace cuzk::app {
namespace {

namespace fs = std::filesystem;

// The vanilla proofs of --vanilla, decoded, in ascending sector order.
std::vector<post::FallbackPoStSectorProof> read_vanilla_proofs(const std::vector<std::string>& args) {
  std::vector<post::FallbackPoStSectorProof> out;
  for (const std::string& f : vanilla_files(args)) out.push_back(must(post::read_vanilla_file(f)));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.sector_id < b.sector_id; });
  return out;
}

post::RegisteredPostProof registered(const std::string& text) {
  if (text.empty()) throw Exception(invalid_argument("--registered-proof: required (a Go id 0-14 or a name)"));
  return must(post::registered_post_proof(text));
}

// The generators of `gen-vanilla`, by --kind: the one place a new kind (snap) is added.
int gen_post_vanilla(post::PostKind kind, const GenVanillaOptions& o) {
  const uint64_t size = must(porep::parse_sector_size(o.sector_size));
  post::SyntheticVanillaOptions options;
  options.proof = o.registered_proof.empty() ? must(post::registered_post_proof(kind, size)) : registered(o.registered_proof);
  if (options.proof.kind != kind || options.proof.sector_size != size)
    throw Exception(invalid_argument("--registered-proof " + std::string(options.proof.name) + " is not a " +
                                  o.sector_size + " " + std::string(post::kind_name(kind)) + " proof"));
  options.seed = o.seed;
  options.sectors = o.sectors;
  options.first_sector_id = o.first_sector_id;
  if (!o.randomness.empty()) options.randomness = hex32("--randomness", o.randomness);
  ThreadPool pool(0);
  const auto t0 = Clock::now();
  const post::SyntheticVanilla v = must(post::generate_synthetic_vanilla(options, post::PostPoseidon(), pool));
  fs::create_directories(o.out);
  std::string sectors;
  size_t bytes = 0;
  for (const post::FallbackPoStSectorProof& p : v.proofs) {
    const std::vector<uint8_t> b = post::encode_vanilla(p);
    bytes += b.size();
    write_file((fs::path(o.out) / fmt::format("sector-{}.vanilla.bin", p.sector_id)).string(),
               std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    std::array<uint8_t, 32> comm_r{};
    p.comm_r.to_bytes_le(comm_r);
    sectors += fmt::format("{} {}\n", p.sector_id, to_hex(comm_r));
  }
  write_file((fs::path(o.out) / "sectors.txt").string(), sectors);
  fmt::print("gen-vanilla: {} ({}), {} synthetic sector proof{} ({} bytes) in {:.1f} s -> {}\n", options.proof.name,
             options.proof.id, v.proofs.size(), v.proofs.size() == 1 ? "" : "s", bytes, ms_since(t0) / 1e3, o.out);
  fmt::print("  public data: --registered-proof {} --randomness {} --sectors-file {}\n", options.proof.id,
             to_hex(v.randomness), (fs::path(o.out) / "sectors.txt").string());
  return 0;
}

int run_gen_vanilla(const GenVanillaOptions& o) {
  return guarded("gen-vanilla", [&] {
    if (o.out.empty()) throw Exception(invalid_argument("--out: required (a directory)"));
    if (o.kind == "window-post" || o.kind == "winning-post") return gen_post_vanilla(must(post::parse_post_kind(o.kind)), o);
    throw Exception(invalid_argument("--kind " + o.kind + ": window-post, winning-post or snap"));
  });
}

int run_post_prove(const PostProveOptions& o) {
  return guarded("prove post", [&] {
    ThreadPool pool(o.threads);
    const post::RegisteredPostProof kind = registered(o.registered_proof);
    const post::Bytes32 randomness = hex32("--randomness", o.randomness);
    const groth16::GpuChoice choice = must(gpu_choice_setting(o.gpu, o.gpu_memory));
    const std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(choice));  // before any long work
    // The request Curio sends (SPEC-POST.md §8), proved by the engine as the daemon does
    // (local_engine.hpp): the files' bytes in ascending sector order.
    engine::JobRequest request;
    request.kind = kind.kind == post::PostKind::kWindow ? engine::ProofKind::window_post_partition
                                                        : engine::ProofKind::winning_post;
    request.registered_proof = kind.id;
    request.sector_size = kind.sector_size;
    request.randomness.assign(randomness.begin(), randomness.end());
    request.partition_index = o.partition;
    for (VanillaFile& f : read_post_vanilla(o.vanilla)) {
      request.payload_names.push_back(std::move(f.name));
      request.vanilla_proofs.push_back(std::move(f.bytes));
    }
    const size_t sectors = request.vanilla_proofs.size();
    const engine::JobResult r = prove_in_process(
        std::make_unique<engine::PostHandler>(kind.kind, local_handler_options(pool, o.params_dir, gpu, o.blinding_seed)),
        gpu, std::move(request), "prove post", o.json);
    write_file(o.out, std::string_view(reinterpret_cast<const char*>(r.proof.data()), r.proof.size()));
    const engine::JobTimes& t = r.times;
    if (o.json) {
      fmt::print("{{\"command\":\"prove post\",\"registered_proof\":\"{}\",\"sectors\":{},\"partition\":{},"
                 "\"backend\":\"{}\",\"parse_ms\":{:.1f},\"load_ms\":{:.1f},\"synthesis_ms\":{:.1f},"
                 "\"prove_ms\":{:.1f},\"verify_ms\":{:.1f},\"total_ms\":{:.1f}}}\n",
                 kind.name, sectors, o.partition, r.backend, t.parse_ms, t.srs_load_ms, t.synthesis_ms, t.gpu_compute_ms,
                 t.verify_ms, t.total_ms);
      return 0;
    }
    fmt::print("prove post: {} partition {} ({} sector{}), backend {}\n", kind.name, o.partition, sectors,
               sectors == 1 ? "" : "s", r.backend);
    fmt::print("  decode and validate {:.1f} ms; parameters read and the prover made in {:.1f} ms\n", t.parse_ms,
               t.srs_load_ms);
    fmt::print("{}", partition_lines(r));
    fmt::print("  total {:.1f} ms; proof verified -> {}\n", t.total_ms, o.out);
    return 0;
  });
}

int run_post_verify(const PostVerifyOptions& o) {
  return guarded("verify post", [&] {
    ThreadPool pool(0);
    post::PostPublicData data;
    data.proof = registered(o.registered_proof);
    if (o.randomness.empty()) throw Exception(invalid_argument("--randomness: required (32 bytes, hex)"));
    data.randomness = hex32("--randomness", o.randomness);
    if (!o.vanilla.empty()) data.sectors = post::public_sectors(read_vanilla_proofs(o.vanilla));
    for (const std::string& s : o.sectors) {
      const size_t colon = s.find(':');
      if (colon == std::string::npos) throw Exception(invalid_argument("--sector " + s + ": expected ID:COMM_R_HEX"));
      post::PublicSector p;
      const auto [end, ec] = std::from_chars(s.data(), s.data() + colon, p.sector_id);
      if (ec != std::errc() || end != s.data() + colon)
        throw Exception(invalid_argument("--sector " + s + ": expected ID:COMM_R_HEX, ID a sector number"));
      p.comm_r = hex32("--sector " + s, s.substr(colon + 1));
      data.sectors.push_back(p);
    }
    if (!o.sectors_file.empty()) {
      std::ifstream in(o.sectors_file);
      if (!in) throw Exception(Error{ErrorCode::kIo, o.sectors_file + ": cannot open"});
      std::string line;
      for (size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        std::istringstream fields(line);
        uint64_t id = 0;
        std::string hex, extra;
        if (!(fields >> id >> hex) || (fields >> extra))
          throw Exception(invalid_argument(o.sectors_file + ": line " + std::to_string(n) + ": expected 'ID COMM_R_HEX'"));
        data.sectors.push_back({id, hex32(o.sectors_file + ": line " + std::to_string(n), hex)});
      }
    }
    if (data.sectors.empty())
      throw Exception(invalid_argument("give the challenged sectors: --sector ID:COMM_R, --sectors-file or --vanilla"));
    const fs::path vk_path =
        !o.vk.empty() ? fs::path(o.vk)
                      : must(post::find_params(param_dir_setting(o.params_dir), data.proof.kind,
                                               data.proof.sector_size))
                            .vk;
    groth16::ReadOptions read;
    if (o.vk_compressed) read.encoding = groth16::PointEncoding::kCompressed;
    const groth16::VerifyingKey vk = must(groth16::read_vk(vk_path, pool, read));
    const groth16::PreparedVerifyingKey pvk(vk);
    const std::string proof = slurp(o.proof);
    const bool ok = must(post::verify_post(
        pvk, std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()), data, o.partition));
    fmt::print("{}\n", ok ? "valid" : "INVALID");
    return ok ? 0 : 1;
  });
}

}  // namespace

void add_post_commands(CLI::App& app, CLI::App& prove, CLI::App& verify, PostCommands& c) {
  auto* pp = prove.add_subcommand("post", "one WindowPoSt or WinningPoSt partition from its vanilla proofs (GPU or "
                                          "CPU), verified before it is written");
  pp->add_option("--vanilla", c.prove.vanilla, "bincode FallbackPoStSectorProof files, or directories of "
                                               "*.vanilla.bin (this partition's sectors)")->required();
  pp->add_option("--registered-proof", c.prove.registered_proof, "Go id 0-14 or name, e.g. 13 or "
                                                                 "StackedDrgWindow32GiBV1_1")->required();
  pp->add_option("--randomness", c.prove.randomness, "32 bytes, hex")->required();
  pp->add_option("--partition", c.prove.partition, "the partition's index (WindowPoSt; default 0)");
  pp->add_option("--params", c.prove.params_dir, "parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE or "
                                                 "/var/tmp/filecoin-proof-parameters)");
  pp->add_option("--out", c.prove.out, "proof to write (192 bytes)")->required();
  pp->add_option("--blinding-seed", c.prove.blinding_seed, "reproducible r and s (insecure: tests only)");
  pp->add_option("--threads", c.prove.threads, "worker threads (default: all)");
  pp->add_option("--gpu", c.prove.gpu, "prover backend: auto (GPU 0 if present), off (CPU) or a GPU ordinal "
                                       "(default: $CUZK_GPU, else auto)");
  pp->add_option("--gpu-memory", c.prove.gpu_memory, "the most GPU memory to use, e.g. 16GiB (default: "
                                                     "$CUZK_GPU_MEMORY, else all free)");
  pp->add_flag("--json", c.prove.json, "print the stage times as one JSON object");
  c.prove_cmd = pp;

  auto* vp = verify.add_subcommand("post", "check a WindowPoSt / WinningPoSt proof from public data (exit 0/1/2)");
  vp->add_option("--proof", c.verify.proof, "192 bytes per partition (all partitions, or --partition's)")->required();
  vp->add_option("--registered-proof", c.verify.registered_proof, "Go id 0-14 or name")->required();
  vp->add_option("--randomness", c.verify.randomness, "32 bytes, hex")->required();
  vp->add_option("--sector", c.verify.sectors, "a challenged sector, ID:COMM_R_HEX (repeatable)");
  vp->add_option("--sectors-file", c.verify.sectors_file, "challenged sectors, lines 'ID COMM_R_HEX' (gen-vanilla's)");
  vp->add_option("--vanilla", c.verify.vanilla, "take the sectors (id, comm_r) from these vanilla proofs");
  vp->add_option("--partition", c.verify.partition, "the proof is this partition's alone");
  vp->add_option("--params", c.verify.params_dir, "parameter directory holding the .vk");
  vp->add_option("--vk", c.verify.vk, "bellperson .vk (instead of --params)");
  vp->add_flag("--vk-compressed", c.verify.vk_compressed, "--vk's points are compressed (polka-storage's layout)");
  c.verify_cmd = vp;

  auto* gv = app.add_subcommand("gen-vanilla", "write synthetic, valid vanilla proofs of any sector size (test "
                                               "and benchmark input)");
  gv->add_option("--kind", c.gen.kind, "window-post, winning-post or snap (snap: --sector-size, --seed, --out)");
  gv->add_option("--sector-size", c.gen.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  gv->add_option("--registered-proof", c.gen.registered_proof, "default: the kind's current proof of the size");
  gv->add_option("--sectors", c.gen.sectors, "sectors (default: one full WindowPoSt partition; WinningPoSt 1)");
  gv->add_option("--seed", c.gen.seed, "every value is drawn from it (reproducible)");
  gv->add_option("--first-sector-id", c.gen.first_sector_id, "sector ids from this one up (default 1)");
  gv->add_option("--randomness", c.gen.randomness, "32 bytes, hex (default: drawn from the seed)");
  gv->add_option("--out", c.gen.out, "directory: sector-<id>.vanilla.bin and sectors.txt")->required();
  c.gen_cmd = gv;
}

std::optional<int> run_post_command(const PostCommands& c) {
  if (c.prove_cmd != nullptr && c.prove_cmd->parsed()) return run_post_prove(c.prove);
  if (c.verify_cmd != nullptr && c.verify_cmd->parsed()) return run_post_verify(c.verify);
  if (c.gen_cmd != nullptr && c.gen_cmd->parsed()) return run_gen_vanilla(c.gen);
  return std::nullopt;
}

int run_post_setup(const std::string& circuit, const PorepSetupOptions& o) {
  return guarded("setup", [&] {
    ThreadPool pool(o.threads);
    const post::PostKind kind = must(post::parse_post_kind(circuit));
    const post::PostParams params = must(post::post_params(kind, must(porep::parse_sector_size(o.sector_size))));
    const fs::path dir = param_dir_setting(o.out);
    fs::create_directories(dir);
    auto t0 = Clock::now();
    const r1cs::CompiledR1cs<ff::Fr> compiled = [&] {
      Progress progress("compiling", params.sector_count, compile_progress_style(params.sector.sector_size));
      return post::compile_partition(post::circuit_shape(params), post::PostPoseidon(), &pool, &progress);
    }();
    const double compile_ms = ms_since(t0);
    t0 = Clock::now();
    const groth16::ToxicWaste tw = o.seed ? groth16::ToxicWaste::from_seed(*o.seed) : groth16::ToxicWaste::random();
    const groth16::Parameters key =
        must(groth16::setup_on(groth16::GpuChoice{groth16::GpuChoice::Kind::off, 0}, compiled, tw, pool));
    const double setup_ms = ms_since(t0);
    const std::string stem = post::own_params_stem(kind, params.sector.sector_size);
    must(groth16::write_params(dir / (stem + ".params"), key));
    must(groth16::write_vk(dir / (stem + ".vk"), key.vk));
    fmt::print("setup: {} {} circuit, {} constraints, {} public inputs; compile {:.1f} s, setup {:.1f} s\n  -> {}\n",
               circuit, params.sector.name, compiled.num_constraints(), compiled.num_inputs - 1, compile_ms / 1e3,
               setup_ms / 1e3, (dir / (stem + ".{params,vk}")).string());
    return 0;
  });
}

}  // namespace cuzk::app
