#include "groth16_bench.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "bench_circuit.hpp"
#include "core/thread_pool.hpp"
#include "core/timing.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "groth16/zkey.hpp"
#include "groth16/zkey_prover.hpp"
#include "r1cs/iden3.hpp"
#include "r1cs/iden3_convert.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::bench {
namespace {

using ff::Fr;
namespace fs = std::filesystem;

struct Stage {
  std::string name;
  double ms;
};

// Runs a shell command; its wall time in ms, or a negative value when it failed.
double timed_command(const std::string& cmd) {
  const auto t0 = Clock::now();
  const int status = std::system((cmd + " > /dev/null 2>&1").c_str());
  const double ms = ms_since(t0);
  return (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) ? ms : -1;
}

}  // namespace

int run_groth16_bench(const Groth16BenchOptions& o) {
  ThreadPool pool(o.threads);
  const size_t rows = size_t{1} << o.log_constraints;
  const auto circuit = [rows](auto& cs) { porep_like_circuit(cs, rows, 1); };
  std::vector<Stage> stages;
  const auto stage = [&](const char* name, auto&& f) {
    const auto t0 = Clock::now();
    auto r = f();
    stages.push_back({name, ms_since(t0)});
    return r;
  };

  auto compiled = stage("compile circuit (keygen)", [&] {
    r1cs::KeygenCS<Fr> cs;
    circuit(cs);
    return std::move(cs).finish();
  });
  const auto params = stage("setup (not part of proving)", [&] {
    return groth16::setup(compiled, groth16::ToxicWaste::from_seed(1), pool).value();
  });
  auto witness = stage("synthesis (witness only)", [&] {
    r1cs::WitnessCS<Fr> cs;
    circuit(cs);
    return cs;
  });
  groth16::Assignment w;
  w.inputs = witness.inputs();
  w.aux = witness.aux();
  auto rows_abc = stage("spmv a, b, c", [&] {
    return r1cs::spmv(compiled, std::span<const Fr>(w.inputs), std::span<const Fr>(w.aux), pool);
  });
  w.a = std::move(rows_abc.a);
  w.b = std::move(rows_abc.b);
  w.c = std::move(rows_abc.c);
  w.density = groth16::density_of(compiled);
  groth16::ProverTimes t;
  const auto proof = groth16::prove(params, w, groth16::Blinding::random(), pool, &t).value();
  const std::vector<Fr> pub(w.inputs.begin() + 1, w.inputs.end());
  if (!groth16::verify(groth16::PreparedVerifyingKey(params.vk), proof, pub).value()) {
    throw Exception(Error{ErrorCode::kVerifyFailed, "the proof does not verify"});
  }
  stages.push_back({"prove: H (7 NTTs)", t.h_ntt});
  stages.push_back({"prove: MSM h", t.msm_h});
  stages.push_back({"prove: MSM l", t.msm_l});
  stages.push_back({"prove: MSM a", t.msm_a});
  stages.push_back({"prove: MSM b_g1", t.msm_b_g1});
  stages.push_back({"prove: MSM b_g2", t.msm_b_g2});
  stages.push_back({"prove: total", t.total});
  const double ours = stages[2].ms + stages[3].ms + t.total;  // synthesis + spmv + prove

  // snarkjs on the same circuit and witness, from its own .zkey; cuzk proves from that .zkey too.
  double snark_ms = -1, zkey_ms = -1;
  std::string snark_note = "skipped: give --ptau FILE (BLS12-381, power >= K + 2)";
  if (!o.ptau.empty()) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("cuzk_bench_{}", ::getpid());
    fs::create_directories(dir);
    const std::string snarkjs = fmt::format("node '{}/oracle/node_modules/snarkjs/build/cli.cjs'", o.tests_dir);
    std::vector<Fr> z = w.inputs;
    z.insert(z.end(), w.aux.begin(), w.aux.end());
    r1cs::iden3::write_r1cs(dir / "c.r1cs", r1cs::iden3_from_compiled(compiled)).value();
    r1cs::iden3::write_wtns(dir / "c.wtns", z).value();
    if (timed_command(fmt::format("{} groth16 setup '{}' '{}' '{}'", snarkjs, (dir / "c.r1cs").string(), o.ptau,
                                  (dir / "c.zkey").string())) < 0) {
      snark_note = "snarkjs setup failed (is the .ptau large enough?)";
    } else {
      snark_ms = timed_command(fmt::format("{} groth16 prove '{}' '{}' '{}' '{}'", snarkjs, (dir / "c.zkey").string(),
                                           (dir / "c.wtns").string(), (dir / "p.json").string(), (dir / "pub.json").string()));
      const auto zkey = groth16::read_zkey(dir / "c.zkey", pool).value();
      const auto t0 = Clock::now();
      const auto zp = groth16::prove_zkey(zkey, z, groth16::Blinding::random(), pool).value();
      zkey_ms = ms_since(t0);
      snark_note = groth16::verify(groth16::PreparedVerifyingKey(zkey.vk), zp, pub).value() ? "" : "cuzk's zkey proof failed";
    }
    fs::remove_all(dir);
  }

  if (o.json) {
    std::string s = fmt::format("{{\"bench\":\"groth16\",\"log_constraints\":{},\"constraints\":{},\"threads\":{},\"stages_ms\":{{",
                                o.log_constraints, rows, pool.threads());
    for (size_t i = 0; i < stages.size(); ++i) s += fmt::format("{}\"{}\":{:.3f}", i ? "," : "", stages[i].name, stages[i].ms);
    s += fmt::format("}},\"cuzk_prove_with_synthesis_ms\":{:.3f},\"cuzk_zkey_prove_ms\":{:.3f},\"snarkjs_prove_ms\":{:.3f}}}", ours,
                     zkey_ms, snark_ms);
    fmt::print("{}\n", s);
    return 0;
  }
  fmt::print("groth16 bench: 2^{} = {} constraints, {} inputs, {} aux, {} threads\n", o.log_constraints, rows,
             compiled.num_inputs, compiled.num_aux, pool.threads());
  for (const auto& st : stages) fmt::print("  {:<30} {:>10.1f} ms\n", st.name, st.ms);
  fmt::print("  {:<30} {:>10}\n", "proof (192 bytes)", "verified");
  fmt::print("  {:<30} {:>10.1f} ms\n", "cuzk: synthesis + spmv + prove", ours);
  if (snark_ms >= 0 && zkey_ms >= 0) {
    fmt::print("  {:<30} {:>10.1f} ms\n", "cuzk: prove from snarkjs .zkey", zkey_ms);
    fmt::print("  {:<30} {:>10.1f} ms (node process, wall)\n", "snarkjs groth16 prove", snark_ms);
    fmt::print("  ratio snarkjs / cuzk (.zkey): {:.2f}x\n", snark_ms / zkey_ms);
  }
  if (!snark_note.empty()) fmt::print("  snarkjs: {}\n", snark_note);
  return 0;
}

}  // namespace cuzk::bench
