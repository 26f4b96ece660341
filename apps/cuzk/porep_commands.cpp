#include "porep_commands.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "command_support.hpp"
#include "core/base64.hpp"
#include "core/hex.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "ff/decimal.hpp"
#include "groth16/params_file.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
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

std::optional<fs::path> dir_flag(const std::string& dir) {
  return dir.empty() ? std::nullopt : std::optional<fs::path>(dir);
}

porep::Bytes32 hex32(const std::string& flag, const std::string& hex) {
  const std::vector<uint8_t> bytes = must(from_hex(hex));
  if (bytes.size() != 32) throw Failed{invalid_argument(flag + ": expected 32 bytes (64 hex digits)")};
  porep::Bytes32 out{};
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

}  // namespace

int run_porep_setup(const PorepSetupOptions& o) {
  return guarded("setup", [&] {
    ThreadPool pool(o.threads);
    const porep::SectorShape sector = sector_shape(o.sector_size);
    const fs::path dir = o.out.empty() ? porep::parameter_dir(std::nullopt) : fs::path(o.out);
    groth16::GpuChoice where{groth16::GpuChoice::Kind::off, 0};  // the points on the CPU unless --device
    if (o.device) {
      where = must(groth16::GpuChoice::from_flags(o.gpu, ""));
      must(groth16::check_gpu_choice(where));
      if (!groth16::chooses_gpu(where)) throw Failed{invalid_argument("--device: no GPU visible (or --gpu off)")};
    }
    fs::create_directories(dir);
    auto t0 = Clock::now();
    const r1cs::CompiledR1cs<ff::Fr> compiled = porep::compile_partition(porep::circuit_shape(sector), porep::PorepPoseidon(), &pool);
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
    auto t0 = Clock::now();
    const porep::C1 c1 = must(porep::read_c1_file(o.c1));
    const porep::RegisteredSealProof proof_kind = must(porep::registered_seal_proof(c1.registered_proof));
    const double parse_ms = ms_since(t0);
    const fs::path dir = porep::parameter_dir(dir_flag(o.params_dir));
    const porep::ParamsFiles files = must(porep::find_params(dir, proof_kind.sector_size));
    t0 = Clock::now();
    // Points are always checked to be on their curves. The subgroup checks (~80 us a G1 point:
    // 15 minutes for the 11 M points of a 2 KiB file) are skipped for an official file, whose
    // digest matched parameters.json, and for cuzk's own, which `cuzk setup` made for tests and
    // benchmarks; they run for nothing else.
    groth16::ReadOptions read;
    read.subgroup = ec::SubgroupCheck::kSkip;
    const groth16::Parameters params = must(groth16::read_params(files.params, pool, read));
    const groth16::PreparedVerifyingKey pvk(params.vk);
    const double load_ms = ms_since(t0);
    const porep::PorepPoseidon poseidon;
    const groth16::GpuChoice choice = must(groth16::GpuChoice::from_flags(o.gpu, o.gpu_memory));
    must(groth16::check_gpu_choice(choice));  // before compiling for it
    // On a GPU, only the witness is synthesised (WitnessCS) and the GPU computes a, b, c from the
    // compiled partition circuit, which goes up with the parameters; on the CPU, ProvingCS.
    const bool on_gpu = groth16::chooses_gpu(choice);
    t0 = Clock::now();
    std::optional<r1cs::CompiledR1cs<ff::Fr>> circuit;
    if (on_gpu) {
      const porep::RegisteredShape shape = must(porep::registered_shape(c1.registered_proof));
      circuit = porep::compile_partition(porep::circuit_shape(shape.shape), poseidon, &pool);
    }
    const double compile_ms = ms_since(t0);
    t0 = Clock::now();
    const std::unique_ptr<groth16::ProverBackend> backend =
        must(groth16::make_prover(params, pool, choice, circuit ? &*circuit : nullptr));
    const double backend_ms = ms_since(t0);  // a GPU backend uploads the parameters and the circuit here
    if (!backend->reads_host_key()) circuit.reset();  // a resident GPU backend holds its own copy on the device
    // On a GPU, partitions are synthesised ahead (witness only) and proved as their witnesses arrive.
    porep::ProveOptions options = on_gpu ? porep::ProveOptions::witness_pipeline(pool) : porep::ProveOptions{};
    options.blinding_seed = o.blinding_seed;
    // Partitions proved, with an ETA (a 32 GiB sector: ten; plain lines when stderr is no terminal).
    std::optional<Progress> progress;
    progress.emplace("proving", must(porep::registered_shape(c1.registered_proof)).shape.partitions);
    options.on_partition_done = [&](uint32_t) { progress->advance(1); };
    t0 = Clock::now();
    const porep::PorepProof proof = must(porep::prove_c1(c1, *backend, pvk, poseidon, options));
    progress.reset();  // its final line before the results
    const double prove_ms = ms_since(t0);
    const std::vector<uint8_t> bytes = proof.bytes();
    write_file(o.out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    if (o.json) {
      std::string parts;
      for (const porep::PartitionTimes& t : proof.times) {
        parts += fmt::format("{}{{\"synthesis_ms\":{:.1f},\"prove_ms\":{:.1f},\"verify_ms\":{:.1f}}}",
                             parts.empty() ? "" : ",", t.synthesis_ms, t.prove_ms, t.verify_ms);
      }
      fmt::print("{{\"command\":\"prove porep\",\"registered_proof\":\"{}\",\"backend\":\"{}\",\"parse_ms\":{:.1f},"
                 "\"load_params_ms\":{:.1f},\"compile_ms\":{:.1f},\"backend_ms\":{:.1f},\"prove_ms\":{:.1f},\"partitions\":[{}],"
                 "\"official_params\":{}}}\n",
                 c1.registered_proof, backend->name(), parse_ms, load_ms, compile_ms, backend_ms, prove_ms, parts,
                 files.official);
      return 0;
    }
    fmt::print("prove porep: {} ({} partition{}), parameters {} ({})\n", c1.registered_proof, proof.partitions.size(),
               proof.partitions.size() == 1 ? "" : "s", files.params.string(), files.official ? "official" : "cuzk's own");
    fmt::print("  parse C1 {:.1f} ms, load parameters {:.1f} ms, backend {} ready in {:.1f} ms{}\n", parse_ms, load_ms,
               backend->name(), backend_ms,
               options.from_witness ? fmt::format(" (circuit compiled in {:.1f} ms: witness-only synthesis, "
                                                  "a, b, c on the GPU)", compile_ms)
                                    : std::string());
    for (size_t k = 0; k < proof.times.size(); ++k) {
      const porep::PartitionTimes& t = proof.times[k];
      fmt::print("  partition {}: synthesis {:.1f} ms, prove {:.1f} ms (SpMV {:.0f}, H {:.0f}, MSMs h {:.0f} l {:.0f} "
                 "a {:.0f} b_g1 {:.0f} b_g2 {:.0f}), verify {:.1f} ms\n",
                 k, t.synthesis_ms, t.prove_ms, t.prover.spmv, t.prover.h_ntt, t.prover.msm_h, t.prover.msm_l,
                 t.prover.msm_a, t.prover.msm_b_g1, t.prover.msm_b_g2, t.verify_ms);
    }
    fmt::print("  total {:.1f} s; proof verified, {} bytes -> {}\n", prove_ms / 1e3, bytes.size(), o.out);
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
        throw Failed{invalid_argument("give --c1, or the public data: --registered-proof, --prover-id or --miner-id, "
                                      "--sector-id, --ticket, --seed, --comm-r, --comm-d")};
      }
      const porep::RegisteredSealProof kind = must(porep::registered_seal_proof(o.registered_proof));
      data = porep::public_data_for(kind, must(porep::shape_for_sector_size(kind.sector_size)));
      data.prover_id = o.miner_id ? porep::prover_id_from_miner(*o.miner_id) : hex32("--prover-id", o.prover_id);
      data.sector_id = *o.sector_id;
      data.ticket = hex32("--ticket", o.ticket);
      data.seed = hex32("--seed", o.seed);
      data.comm_r = hex32("--comm-r", o.comm_r);
      data.comm_d = hex32("--comm-d", o.comm_d);
    }
    const fs::path vk_path = !o.vk.empty() ? fs::path(o.vk)
                                           : must(porep::find_params(porep::parameter_dir(dir_flag(o.params_dir)),
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
    options.registered_proof =
        o.registered_proof.empty() ? "StackedDrg" + std::string(sector.name) + "V1_1" : o.registered_proof;
    options.seed = o.seed;
    options.miner_id = o.miner_id;
    options.sector_id = o.sector_id;
    const auto t0 = Clock::now();
    const porep::C1 c1 = must(porep::generate_synthetic_c1(options));
    if (c1.partitions.empty() || must(porep::registered_seal_proof(c1.registered_proof)).sector_size != sector.sector_size)
      throw Failed{invalid_argument("--registered-proof " + options.registered_proof + " is not a " +
                                    std::string(sector.name) + " proof")};
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
