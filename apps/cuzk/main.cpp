// cuzk: one binary, subcommands. This file parses flags and wires objects; the work lives in src/.

#include <CLI/CLI.hpp>

#include "groth16_bench.hpp"
#include "groth16_commands.hpp"
#include "selfcheck.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 prover for Filecoin proofs (BLS12-381)"};
  app.require_subcommand(1);

  cuzk::app::SelfcheckOptions selfcheck;
  auto* sc = app.add_subcommand("selfcheck", "check the pairing's bilinearity and time field, curve and pairing ops");
  sc->add_flag("--quick", selfcheck.quick, "one short timing round");
  sc->add_flag("--json", selfcheck.json, "print the results as one JSON object");

  cuzk::app::SetupOptions setup;
  auto* su = app.add_subcommand("setup", "make Groth16 parameters for an iden3 .r1cs from fresh toxic waste (tests, benchmarks)");
  su->add_option("--r1cs", setup.r1cs, "the circuit (iden3 .r1cs)")->required();
  su->add_option("--params", setup.params, "bellperson .params to write")->required();
  su->add_option("--vk", setup.vk, "bellperson .vk to write");
  su->add_option("--vk-json", setup.vk_json, "snarkjs verification_key.json to write");
  su->add_option("--seed", setup.seed, "reproducible toxic waste (insecure: tests only)");
  su->add_option("--threads", setup.threads, "worker threads (default: all)");

  cuzk::app::ProveOptions prove;
  auto* pr = app.add_subcommand("prove", "a Groth16 proof from a .zkey (snarkjs) or .params + .r1cs, and a .wtns");
  pr->add_option("--zkey", prove.zkey, "snarkjs proving key");
  pr->add_option("--params", prove.params, "bellperson parameters (with --r1cs)");
  pr->add_option("--r1cs", prove.r1cs, "the circuit (iden3 .r1cs), with --params");
  pr->add_option("--wtns", prove.wtns, "the witness (iden3 .wtns)")->required();
  pr->add_option("--proof", prove.proof, "proof to write: *.json = snarkjs proof.json, else 192-byte binary")->required();
  pr->add_option("--public", prove.public_json, "snarkjs public.json to write");
  pr->add_option("--threads", prove.threads, "worker threads (default: all)");

  cuzk::app::VerifyOptions verify;
  auto* ve = app.add_subcommand("verify", "check a Groth16 proof (exit 0 valid, 1 invalid, 2 error)");
  ve->add_option("--vk", verify.vk, "snarkjs verification_key.json, or bellperson .vk")->required();
  ve->add_option("--proof", verify.proof, "snarkjs proof.json, or 192-byte binary")->required();
  ve->add_option("--public", verify.public_json, "snarkjs public.json")->required();

  cuzk::bench::Groth16BenchOptions bench_groth16;
  bench_groth16.tests_dir = CUZK_TESTS_DIR;
  auto* be = app.add_subcommand("bench", "benchmarks");
  be->require_subcommand(1);
  auto* bg = be->add_subcommand("groth16", "time each stage of one CPU proof of a synthetic 2^K-constraint circuit, beside snarkjs");
  bg->add_option("--log-constraints", bench_groth16.log_constraints, "K: the circuit has 2^K constraints")->check(CLI::Range(4, 24));
  bg->add_option("--threads", bench_groth16.threads, "worker threads (default: all)");
  bg->add_option("--ptau", bench_groth16.ptau, "snarkjs powers of tau (BLS12-381, power >= K+2) to run snarkjs beside");
  bg->add_flag("--json", bench_groth16.json, "print one JSON object");

  CLI11_PARSE(app, argc, argv);
  if (bg->parsed()) return cuzk::bench::run_groth16_bench(bench_groth16);
  if (sc->parsed()) return cuzk::app::run_selfcheck(selfcheck);
  if (su->parsed()) return cuzk::app::run_setup(setup);
  if (pr->parsed()) return cuzk::app::run_prove(prove);
  if (ve->parsed()) return cuzk::app::run_verify(verify);
  return 1;
}
