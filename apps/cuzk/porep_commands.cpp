#include "porep_commands.hpp"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "command_support.hpp"
#include "local_engine.hpp"
#include "settings.hpp"
#include "core/base64.hpp"
#include "core/hex.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "engine/porep_handler.hpp"
#include "ff/decimal.hpp"
#include "groth16/params_file.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
#include "porep/c1_check.hpp"
#include "porep/challenges.hpp"
#include "porep/circuit.hpp"
#include "porep/params.hpp"
#include "porep/prover.hpp"
#include "porep/sector_shape.hpp"
#include "porep/synthetic_c1.hpp"
#include "porep/verify.hpp"

namespace cuzk::app {
namespace {

namespace fs = std::filesystem;

porep::SectorShape sector_shape(const std::string& text) {
  return must(porep::shape_for_sector_size(must(porep::parse_sector_size(text))));
}

}  // namespace

int run_porep_setup(const PorepSetupOptions& o) {
  return guarded("setup", [&] {
    ThreadPool pool(o.threads);
    const porep::SectorShape sector = sector_shape(o.sector_size);
    const fs::path dir = param_dir_setting(o.out);
    groth16::GpuChoice where{groth16::GpuChoice::Kind::off, 0};  // the points on the CPU unless --device
    if (o.device) {
      where = must(gpu_choice_setting(o.gpu, ""));
      must(groth16::check_gpu_choice(where));
      if (!groth16::chooses_gpu(where)) throw Exception(invalid_argument("--device: no GPU visible (or --gpu off)"));
    }
    fs::create_directories(dir);
    auto t0 = Clock::now();
    const r1cs::CompiledR1cs<ff::Fr> compiled = [&] {
      Progress progress("compiling", sector.challenges_per_partition, compile_progress_style(sector.sector_size));
      return porep::compile_partition(porep::circuit_shape(sector), porep::PorepPoseidon(), &pool, &progress);
    }();
    const double compile_ms = ms_since(t0);
    t0 = Clock::now();
    const groth16::ToxicWaste tw = o.seed ? groth16::ToxicWaste::from_seed(*o.seed) : groth16::ToxicWaste::random();
    const groth16::Parameters params = must(groth16::setup_on(where, compiled, tw, pool));
    const double setup_ms = ms_since(t0);
    const std::string stem = porep::own_params_stem(sector.sector_size);
    t0 = Clock::now();
    must(groth16::write_params(dir / (stem + ".params"), params));
    must(groth16::write_vk(dir / (stem + ".vk"), params.vk));
    fmt::print("setup: PoRep {} circuit, {} constraints, {} public inputs; compile {:.1f} s, setup {:.1f} s{}, "
               "write {:.1f} s\n  -> {}\n",
               sector.name, compiled.num_constraints(), compiled.num_inputs - 1, compile_ms / 1e3, setup_ms / 1e3,
               o.device ? " (points on the GPU)" : "",
               ms_since(t0) / 1e3, (dir / (stem + ".{params,vk}")).string());
    return 0;
  });
}

int run_porep_prove(const PorepProveOptions& o) {
  return guarded("prove porep", [&] {
    ThreadPool pool(o.threads);
    const std::string c1 = slurp(o.c1);
    const groth16::GpuChoice choice = must(gpu_choice_setting(o.gpu, o.gpu_memory));
    const std::optional<groth16::GpuChoice> gpu = must(groth16::device_choice(choice));  // before any long work
    // The daemon's path, in process (local_engine.hpp): partitions synthesised ahead of the GPU
    // (witness only; a, b, c by the GPU from the compiled partition circuit), each verified.
    engine::PorepHandlerOptions ho;
    static_cast<engine::Groth16HandlerOptions&>(ho) = local_handler_options(pool, o.params_dir, gpu, o.blinding_seed);
    engine::JobRequest request;
    request.kind = engine::ProofKind::porep_seal_commit;
    request.vanilla_proof.assign(c1.begin(), c1.end());
    request.payload_name = o.c1;
    // The C1's replica_id against the miner and sector (the handler checks it; a wrapped C1's
    // SectorNum stands for a missing --sector-id).
    const bool sector_known = o.sector_id.has_value() || (o.miner_id && must(porep::read_c1_file(o.c1)).wrapped);
    if (o.miner_id.has_value() != sector_known)
      throw Exception(invalid_argument("--miner-id and --sector-id go together (--sector-id may be left out for a "
                                       "Curio-wrapped C1, whose SectorNum it then is)"));
    request.miner_id = o.miner_id.value_or(0);
    request.sector_number = o.sector_id.value_or(0);
    const engine::JobResult r = prove_in_process(std::make_unique<engine::PorepHandler>(std::move(ho)), gpu,
                                                 std::move(request), "prove porep", o.json);
    write_file(o.out, std::string_view(reinterpret_cast<const char*>(r.proof.data()), r.proof.size()));
    const engine::JobTimes& t = r.times;
    if (o.json) {
      fmt::print("{{\"command\":\"prove porep\",\"backend\":\"{}\",\"parse_ms\":{:.1f},\"load_ms\":{:.1f},"
                 "\"total_ms\":{:.1f},\"partitions\":{}}}\n",
                 r.backend, t.parse_ms, t.srs_load_ms, t.total_ms, partition_json(r));
      return 0;
    }
    fmt::print("prove porep: {} partition{}, backend {}{}\n", r.partitions, r.partitions == 1 ? "" : "s", r.backend,
               gpu ? " (witness-only synthesis; a, b, c by the GPU from the compiled circuit)" : "");
    fmt::print("  parse C1 {:.1f} ms; parameters read{} and the prover made in {:.1f} ms\n", t.parse_ms,
               gpu ? ", the partition circuit compiled" : "", t.srs_load_ms);
    fmt::print("{}", partition_lines(r));
    fmt::print("  total {:.1f} s; proof verified, {} bytes -> {}\n", t.total_ms / 1e3, r.proof.size(), o.out);
    return 0;
  });
}

int run_porep_verify(const PorepVerifyOptions& o) {
  return guarded("verify porep", [&] {
    ThreadPool pool(0);
    porep::PorepPublicData data;
    if (!o.c1.empty()) {
      data = must(porep::public_data_of(must(porep::read_c1_file(o.c1))));
    } else {
      if (o.registered_proof.empty() || (o.prover_id.empty() && !o.miner_id) || !o.sector_id || o.ticket.empty() ||
          o.seed.empty() || o.comm_r.empty() || o.comm_d.empty()) {
        throw Exception(invalid_argument("give --c1, or the public data: --registered-proof, --prover-id or --miner-id, "
                                      "--sector-id, --ticket, --seed, --comm-r, --comm-d"));
      }
      // A name, or the Go / Rust id Curio sends (e.g. 13 = StackedDrg32GiBV1_1_Feat_SyntheticPoRep).
      uint64_t id = 0;
      const char* end = o.registered_proof.data() + o.registered_proof.size();
      const auto [at, ec] = std::from_chars(o.registered_proof.data(), end, id);
      const porep::RegisteredSealProof kind = ec == std::errc() && at == end
                                                  ? must(porep::registered_seal_proof(id))
                                                  : must(porep::registered_seal_proof(o.registered_proof));
      data = porep::public_data_for(kind, must(porep::shape_for_sector_size(kind.sector_size)));
      data.prover_id = o.miner_id ? porep::prover_id_from_miner(*o.miner_id) : hex32("--prover-id", o.prover_id);
      data.sector_id = *o.sector_id;
      data.ticket = hex32("--ticket", o.ticket);
      data.seed = hex32("--seed", o.seed);
      data.comm_r = hex32("--comm-r", o.comm_r);
      data.comm_d = hex32("--comm-d", o.comm_d);
    }
    const fs::path vk_path = !o.vk.empty() ? fs::path(o.vk)
                                           : must(porep::find_params(param_dir_setting(o.params_dir),
                                                                     data.nodes * 32))
                                                 .vk;
    const groth16::VerifyingKey vk = must(groth16::read_vk(vk_path, pool));
    const groth16::PreparedVerifyingKey pvk(vk);
    const std::string proof = slurp(o.proof);
    const bool ok = must(porep::verify_porep(
        pvk, std::span(reinterpret_cast<const uint8_t*>(proof.data()), proof.size()), data));
    fmt::print("{}\n", ok ? "valid" : "INVALID");
    return ok ? 0 : 1;
  });
}

int run_porep_public_inputs(const PorepInputsOptions& o) {
  return guarded("porep public-inputs", [&] {
    const porep::C1 c1 = must(porep::read_c1_file(o.c1));
    const porep::PorepPublicData data = must(porep::public_data_of(c1));
    std::string json;
    for (uint32_t k = 0; k < data.partitions; ++k) {
      const std::vector<ff::Fr> inputs = must(porep::partition_public_inputs(data, k));
      std::string row;
      for (const ff::Fr& x : inputs) {
        if (o.json) {
          row += fmt::format("{}\"{}\"", row.empty() ? "" : ",", ff::to_decimal(x.to_int()));
        } else {
          fmt::print("{} {}\n", k, ff::to_decimal(x.to_int()));
        }
      }
      json += fmt::format("{}[{}]", json.empty() ? "" : ",", row);
    }
    if (o.json) fmt::print("{{\"registered_proof\":\"{}\",\"partitions\":[{}]}}\n", c1.registered_proof, json);
    return 0;
  });
}

int run_gen_c1(const GenC1Options& o) {
  return guarded("gen-c1", [&] {
    const porep::SectorShape sector = sector_shape(o.sector_size);
    porep::SyntheticC1Options options;
    if (o.synthetic && !o.registered_proof.empty())
      throw Exception(invalid_argument("--synthetic and --registered-proof: give one"));
    options.registered_proof = !o.registered_proof.empty() ? o.registered_proof
                               : o.synthetic ? "StackedDrg" + std::string(sector.name) + "V1_1_Feat_SyntheticPoRep"
                                             : "StackedDrg" + std::string(sector.name) + "V1_1";
    options.seed = o.seed;
    options.miner_id = o.miner_id;
    options.sector_id = o.sector_id;
    const auto t0 = Clock::now();
    const porep::C1 c1 = must(porep::generate_synthetic_c1(options));
    if (c1.partitions.empty() || must(porep::registered_seal_proof(c1.registered_proof)).sector_size != sector.sector_size)
      throw Exception(invalid_argument("--registered-proof " + options.registered_proof + " is not a " +
                                    std::string(sector.name) + " proof"));
    const porep::SyntheticC1Inputs in = porep::synthetic_c1_inputs(options);
    std::string json = porep::to_json(c1);
    if (o.curio) {
      json = fmt::format("{{\"SectorNum\":{},\"Phase1Out\":\"{}\",\"SectorSize\":{}}}", in.sector_id,
                         base64_encode(std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size())),
                         sector.sector_size);
    }
    write_file(o.out, json);
    fmt::print("gen-c1: {} synthetic C1 (seed {}), {} bytes in {:.1f} s -> {}\n", c1.registered_proof, o.seed,
               json.size(), ms_since(t0) / 1e3, o.out);
    fmt::print("  public data: --registered-proof {} --miner-id {} --sector-id {} --ticket {} --seed {} --comm-r {} "
               "--comm-d {}\n",
               c1.registered_proof, in.miner_id, in.sector_id, to_hex(in.ticket), to_hex(c1.seed), to_hex(c1.comm_r),
               to_hex(c1.comm_d));
    return 0;
  });
}

}  // namespace cuzk::app
