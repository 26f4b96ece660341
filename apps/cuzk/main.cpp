// cuzk: one binary, subcommands. This file parses flags and wires objects; the work lives in src/.

#include <CLI/CLI.hpp>

#include <cstdio>

#include "client_commands.hpp"
#include "command_support.hpp"
#include "settings.hpp"
#include "daemon_commands.hpp"
#include "gpu_bench_commands.hpp"
#include "e2e_bench.hpp"
#include "latency_bench.hpp"
#include "pipeline_bench.hpp"
#include "groth16_bench.hpp"
#include "groth16_commands.hpp"
#include "params_commands.hpp"
#include "porep_commands.hpp"
#include "post_commands.hpp"
#include "snap_commands.hpp"
#include "synth_bench.hpp"
#include "version.hpp"
#include "selfcheck.hpp"

namespace {
using cuzk::groth16::MsmStreams;
// `--msm-streams one|two` of bench e2e and bench pipeline, into `name` (checked there).
void add_msm_streams_option(CLI::App& bench, std::string& name) {
  name = std::string(msm_streams_name(MsmStreams::two));
  bench.add_option("--msm-streams", name, "GPU: two (b_g2 on its own stream beside the G1 MSMs; default) or one "
                   "(one MSM after another: the peer of docs/PERF.md 56)")
      ->check(CLI::IsMember({std::string(msm_streams_name(MsmStreams::one)),
                             std::string(msm_streams_name(MsmStreams::two))}));
}
MsmStreams msm_streams_of(const std::string& name) {
  return name == msm_streams_name(MsmStreams::one) ? MsmStreams::one : MsmStreams::two;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk: a Groth16 prover for Filecoin proofs (BLS12-381)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("cuzk ") + cuzk::app::kVersion + " (commit " + cuzk::app::kCommit +
                                        (cuzk::app::kWithCuda ? ", CUDA)" : ", without CUDA: CPU proving only)"));

  cuzk::app::SelfcheckOptions selfcheck;
  auto* sc = app.add_subcommand("selfcheck", "check the pairing's bilinearity and time field, curve and pairing ops");
  sc->add_flag("--quick", selfcheck.quick, "one short timing round");
  sc->add_flag("--json", selfcheck.json, "print the results as one JSON object");

  cuzk::app::SetupOptions setup;
  cuzk::app::PorepSetupOptions porep_setup;
  std::string setup_circuit;
  auto* su = app.add_subcommand("setup", "make Groth16 parameters from fresh toxic waste (our own SRS: tests, benchmarks)");
  cuzk::app::SnapCommands snap;
  su->add_option("--circuit", setup_circuit, "porep, window-post, winning-post or snap: that circuit of --sector-size "
                                            "(else --r1cs)")
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  su->add_option("--sector-size", porep_setup.sector_size, "with --circuit: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  su->add_option("--out", porep_setup.out, "with --circuit: directory (default: the parameter directory)");
  su->add_option("--r1cs", setup.r1cs, "the circuit (iden3 .r1cs)");
  su->add_option("--params", setup.params, "bellperson .params to write (with --r1cs)");
  su->add_option("--vk", setup.vk, "bellperson .vk to write");
  su->add_option("--vk-json", setup.vk_json, "snarkjs verification_key.json to write");
  su->add_option("--seed", setup.seed, "reproducible toxic waste (insecure: tests only)");
  su->add_option("--threads", setup.threads, "worker threads (default: all)");
  su->add_flag("--device", porep_setup.device, "with --circuit porep: compute the key's points on a GPU");
  su->add_option("--gpu", porep_setup.gpu, "with --device: auto or a GPU ordinal (default: $CUZK_GPU, else auto)");

  cuzk::app::ProveOptions prove;
  auto* pr = app.add_subcommand("prove", "a Groth16 proof from a .zkey (snarkjs) or .params + .r1cs, and a .wtns");
  pr->add_option("--zkey", prove.zkey, "snarkjs proving key");
  pr->add_option("--params", prove.params, "bellperson parameters (with --r1cs)");
  pr->add_option("--r1cs", prove.r1cs, "the circuit (iden3 .r1cs), with --params");
  pr->add_option("--wtns", prove.wtns, "the witness (iden3 .wtns)");
  pr->add_option("--proof", prove.proof, "proof to write: *.json = snarkjs proof.json, else 192-byte binary");
  pr->add_option("--public", prove.public_json, "snarkjs public.json to write");
  pr->add_option("--threads", prove.threads, "worker threads (default: all)");

  cuzk::app::VerifyOptions verify;
  auto* ve = app.add_subcommand("verify", "check a Groth16 proof (exit 0 valid, 1 invalid, 2 error)");
  ve->add_option("--vk", verify.vk, "snarkjs verification_key.json, or bellperson .vk");
  ve->add_option("--proof", verify.proof, "snarkjs proof.json, or 192-byte binary");
  ve->add_option("--public", verify.public_json, "snarkjs public.json");

  cuzk::app::PorepProveOptions porep_prove;
  auto* prp = pr->add_subcommand("porep", "PoRep C2: every partition of a C1 proved (on the GPU where there is one) "
                                          "and verified");
  prp->add_option("--c1", porep_prove.c1, "the C1 (SealCommitPhase1Output JSON, or Curio's wrapper)")->required();
  prp->add_option("--params", porep_prove.params_dir, "parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE or "
                                                      "/var/tmp/filecoin-proof-parameters)");
  prp->add_option("--out", porep_prove.out, "proof to write (192 bytes per partition)")->required();
  prp->add_option("--threads", porep_prove.threads, "worker threads (default: all)");
  prp->add_option("--miner-id", porep_prove.miner_id, "the miner's actor id: the C1's replica_id is checked against "
                                                      "it and the sector number before proving");
  prp->add_option("--sector-id", porep_prove.sector_id, "sector number, with --miner-id (default: a wrapped C1's "
                                                        "SectorNum)");
  prp->add_option("--blinding-seed", porep_prove.blinding_seed, "reproducible r and s (insecure: tests only; the "
                                                                "same seed gives the same bytes on every backend)");
  prp->add_option("--gpu", porep_prove.gpu, "prover backend: auto (GPU 0 if present), off (CPU) or a GPU ordinal "
                                            "(default: $CUZK_GPU, else auto)");
  prp->add_option("--gpu-memory", porep_prove.gpu_memory,
                  "the most GPU memory to use, e.g. 16GiB or per GPU 16GiB,1=4GiB; below what the key and circuit "
                  "need, they stay on the host and stream (default: $CUZK_GPU_MEMORY, else all free)");
  prp->add_flag("--json", porep_prove.json, "print the stage times as one JSON object");

  cuzk::app::PorepVerifyOptions porep_verify;
  auto* vep = ve->add_subcommand("porep", "check a PoRep proof from a C1 or from public data (exit 0/1/2)");
  vep->add_option("--proof", porep_verify.proof, "the proof (192 bytes per partition)")->required();
  vep->add_option("--c1", porep_verify.c1, "take the public data from this C1");
  vep->add_option("--params", porep_verify.params_dir, "parameter directory holding the .vk");
  vep->add_option("--vk", porep_verify.vk, "bellperson .vk (instead of --params)");
  vep->add_option("--registered-proof", porep_verify.registered_proof,
                  "name or Go id, e.g. StackedDrg32GiBV1_1 or 13 (without --c1)");
  vep->add_option("--prover-id", porep_verify.prover_id, "32 bytes, hex");
  vep->add_option("--miner-id", porep_verify.miner_id, "the miner's actor id (instead of --prover-id)");
  vep->add_option("--sector-id", porep_verify.sector_id, "sector number");
  vep->add_option("--ticket", porep_verify.ticket, "32 bytes, hex");
  vep->add_option("--seed", porep_verify.seed, "32 bytes, hex");
  vep->add_option("--comm-r", porep_verify.comm_r, "32 bytes, hex");
  vep->add_option("--comm-d", porep_verify.comm_d, "32 bytes, hex");

  cuzk::app::add_snap_commands(*pr, *ve, snap);

  cuzk::app::GenC1Options gen_c1;
  auto* gc = app.add_subcommand("gen-c1", "write a synthetic, satisfiable C1 of any sector size (test and benchmark input)");
  gc->add_option("--sector-size", gen_c1.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  gc->add_option("--registered-proof", gen_c1.registered_proof, "default StackedDrg<size>V1_1 (a ...V1 name: old graph)");
  gc->add_flag("--synthetic", gen_c1.synthetic,
              "synthetic PoRep: StackedDrg<size>V1_1_Feat_SyntheticPoRep (2KiB, 8MiB: the whole sector is labelled)");
  gc->add_option("--seed", gen_c1.seed, "every value is drawn from it (reproducible)");
  gc->add_option("--miner-id", gen_c1.miner_id, "instead of a drawn one");
  gc->add_option("--sector-id", gen_c1.sector_id, "instead of a drawn one");
  gc->add_option("--out", gen_c1.out, "the C1 JSON to write")->required();
  gc->add_flag("--curio", gen_c1.curio, "wrap it as Curio sends it ({SectorNum, Phase1Out: base64, SectorSize})");

  cuzk::app::PorepInputsOptions porep_inputs;
  auto* po = app.add_subcommand("porep", "PoRep tools");
  po->require_subcommand(1);
  auto* poi = po->add_subcommand("public-inputs", "each partition's public inputs from a C1 (decimal)");
  poi->add_option("--c1", porep_inputs.c1, "the C1")->required();
  poi->add_flag("--json", porep_inputs.json, "one JSON object");

  cuzk::app::ParamsCheckOptions params_check;
  auto* pa = app.add_subcommand("params", "Filecoin's official parameter files");
  pa->require_subcommand(1);
  auto* pac = pa->add_subcommand("check", "which official .params/.vk of each proof kind are in the parameter "
                                          "directory, and whether their digests match parameters.json (exit 0 "
                                          "complete, 1 incomplete or damaged, 2 bad input)");
  pac->add_option("dir", params_check.dir, "parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE or "
                                           "/var/tmp/filecoin-proof-parameters)");
  pac->add_option("--sector-size", params_check.sector_size, "only this size: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");

  cuzk::bench::Groth16BenchOptions bench_groth16;
  bench_groth16.tests_dir = CUZK_TESTS_DIR;
  auto* be = app.add_subcommand("bench", "benchmarks");
  be->require_subcommand(1);
  auto* bg = be->add_subcommand("groth16", "time each stage of one CPU proof of a synthetic 2^K-constraint circuit, beside snarkjs");
  bg->add_option("--log-constraints", bench_groth16.log_constraints, "K: the circuit has 2^K constraints")->check(CLI::Range(4, 24));
  bg->add_option("--threads", bench_groth16.threads, "worker threads (default: all)");
  bg->add_option("--ptau", bench_groth16.ptau, "snarkjs powers of tau (BLS12-381, power >= K+2) to run snarkjs beside");
  bg->add_flag("--json", bench_groth16.json, "print one JSON object");

  cuzk::bench::PipelineBenchOptions bench_pipeline;
  auto* bpl = be->add_subcommand("pipeline", "the engine: N synthetic sectors one job at a time, then all at once; "
                                              "with --gpu 0,1 also over all GPUs (proofs/hour and ratios)");
  bpl->add_option("--sector-size", bench_pipeline.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  bpl->add_option("--proofs", bench_pipeline.proofs, "sectors (default 4)");
  std::string pipeline_gpu, pipeline_gpu_memory;
  bpl->add_option("--gpu", pipeline_gpu, "auto, off (CPU), a GPU ordinal, or several (0,1: one GPU, then all "
                  "with whole proofs, then with partitions spread) (default: $CUZK_GPU, else auto)");
  bpl->add_option("--gpu-memory", pipeline_gpu_memory, "the most GPU memory to use: 16GiB, 1=4GiB or 16GiB,1=4GiB");
  bpl->add_option("--memory-budget", bench_pipeline.memory_budget, "the engine's host memory budget, e.g. 200GiB "
                  "(default: 90% of physical memory); a peak RSS above it fails the run");
  bpl->add_option("--partitions-per-gpu", bench_pipeline.partitions_per_gpu,
                  "partitions in flight on each GPU when pipelined (default 4)");
  std::string pipeline_msm_streams;
  add_msm_streams_option(*bpl, pipeline_msm_streams);
  bpl->add_option("--seed", bench_pipeline.seed, "toxic waste and C1s (insecure: a benchmark's key)");
  bpl->add_option("--threads", bench_pipeline.threads, "worker threads (default: all)");
  bpl->add_flag("--json", bench_pipeline.json, "print one JSON object");

  cuzk::bench::E2eBenchOptions bench_e2e;
  auto* bee = be->add_subcommand("e2e", "one kind of proof end to end with our own key: synthetic inputs, compile, "
                                        "key, N proofs (GPU or CPU), each verified");
  bee->add_option("--kind", bench_e2e.kind, "porep (default), window-post, winning-post or snap")
      ->check(CLI::IsMember({"porep", "window-post", "winning-post", "snap"}));
  bee->add_option("--sector-size", bench_e2e.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  bee->add_option("--proofs", bench_e2e.proofs, "proofs, one after another (default 1)");
  std::string e2e_gpu, e2e_gpu_memory;
  bee->add_option("--gpu", e2e_gpu, "auto, off (CPU) or a GPU ordinal (default: $CUZK_GPU, else auto)");
  bee->add_option("--gpu-memory", e2e_gpu_memory,
                  "the most GPU memory to use, e.g. 16GiB (the small-card path; default: $CUZK_GPU_MEMORY, else all free)");
  std::string e2e_msm_streams;
  add_msm_streams_option(*bee, e2e_msm_streams);
  bee->add_option("--seed", bench_e2e.seed, "toxic waste and inputs (insecure: a benchmark's key)");
  bee->add_option("--threads", bench_e2e.threads, "worker threads (default: all)");
  bee->add_option("--synthesis-workers", bench_e2e.synthesis_workers,
                  "GPU: partitions in flight, each synthesised and proved by a worker (default 2)");
  bee->add_flag("--serial-challenges", bench_e2e.serial_challenges,
                "GPU: each partition's challenges one after another on its worker (default: in parallel on the "
                "pool)");
  bee->add_flag("--json", bench_e2e.json, "print one JSON object");

  cuzk::bench::LatencyBenchOptions bench_latency;
  auto* bla = be->add_subcommand("latency", "a CRITICAL WinningPoSt behind PoRep jobs: its time alone, then submitted "
                                            "while PoRep partitions fill the GPU (own keys, synthetic inputs)");
  bla->add_option("--sector-size", bench_latency.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  bla->add_option("--porep-proofs", bench_latency.porep_proofs, "PoRep jobs submitted at once (default 2)");
  bla->add_option("--probes", bench_latency.probes, "WinningPoSts alone, and behind the PoRep jobs (default 3)");
  std::string latency_gpu, latency_gpu_memory;
  bla->add_option("--gpu", latency_gpu, "auto, off (CPU) or a GPU ordinal (default: $CUZK_GPU, else auto)");
  bla->add_option("--gpu-memory", latency_gpu_memory, "the most GPU memory to use, e.g. 16GiB");
  bla->add_option("--partitions-per-gpu", bench_latency.partitions_per_gpu, "partitions in flight (default 2)");
  bla->add_option("--seed", bench_latency.seed, "toxic waste and inputs (insecure: a benchmark's key)");
  bla->add_option("--threads", bench_latency.threads, "worker threads (default: all)");
  bla->add_flag("--json", bench_latency.json, "print one JSON object");

  cuzk::bench::SynthBenchOptions bench_synth;
  auto* bs = be->add_subcommand("synth", "time one PoRep partition's synthesis (proving or witness-only mode)");
  bs->add_option("--sector-size", bench_synth.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
  bs->add_option("--c1", bench_synth.c1, "synthesise partition 0 of this C1 (e.g. from gen-c1) instead of a blank one");
  bs->add_flag("--witness-only", bench_synth.witness_only, "WitnessCS (the assignment only) instead of ProvingCS");
  bs->add_option("--repeat", bench_synth.repeat, "runs (median and min are reported)");
  bs->add_flag("--json", bench_synth.json, "print one JSON object");
  bs->add_flag("--compile", bench_synth.compile, "time compiling the partition circuit (KeygenCS) instead");
  bs->add_option("--concurrent", bench_synth.concurrent, "with --witness-only: partitions at once");
  bs->add_option("--parallel", bench_synth.parallel,
                 "with --witness-only or --compile: each partition's challenges on a pool of this many threads");

  cuzk::bench::MsmGpuBenchOptions bench_msm;
  std::string msm_log_n = "16..24";
  auto* bm = be->add_subcommand("msm", "time the GPU MSM on device-resident random bases and scalars");
  bm->add_option("--group", bench_msm.group, "g1 or g2")->check(CLI::IsMember({"g1", "g2"}));
  bm->add_option("--log-n", msm_log_n, "sizes 2^A..2^B, as A..B or A (default 16..24)");
  bm->add_option("--window", bench_msm.window, "uniform windows of this many bits, 1..22 (default: chosen by size)");
  bm->add_option("--windows", bench_msm.windows, "this many windows of widths as equal as possible, 12..256")
      ->check(CLI::Range(12, 256));
  bm->add_option("--run-length", bench_msm.run_length, "sorted pairs per accumulating thread (default: the library's)");
  bm->add_option("--terms", bench_msm.terms,
                 "in-place: the scalars read straight into the windows' digits, as the prover's h (default); "
                 "classified: zeros and ones set apart first, as the witness MSMs")
      ->check(CLI::IsMember({"in-place", "classified"}));
  bm->add_option("--repeat", bench_msm.repeat, "timed runs per size (after one warm-up)");
  bm->add_option("--device", bench_msm.device, "CUDA device ordinal");
  bm->add_flag("--host", bench_msm.host, "bases and scalars in pinned host memory, streamed to the GPU in chunks");
  bm->add_option("--host-chunk", bench_msm.host_chunk_log, "with --host: chunks of 2^K terms (default 24)")
      ->check(CLI::Range(10, 28));
  bm->add_flag("--json", bench_msm.json, "one JSON object per size");

  cuzk::bench::NttGpuBenchOptions bench_ntt;
  std::string ntt_log_n = "20..27";
  auto* bn = be->add_subcommand("ntt", "time the GPU NTT over Fr on device-resident data");
  bn->add_option("--log-n", ntt_log_n, "sizes 2^A..2^B, as A..B or A (default 20..27)");
  bn->add_option("--transform", bench_ntt.transform,
                 "ntt, intt, coset_ntt, coset_intt, all, or h (Groth16's H of three vectors from rows in the order's "
                 "first letter, in six transforms, h left in the other order, and bellperson's seven as separate transforms "
                 "beside it, h natural; docs/PERF.md 40, 43, 45)");
  bn->add_option("--order", bench_ntt.order, "input/output order: nn, nr, rn, rr (n natural, r bit-reversed) or all");
  bn->add_option("--roots", bench_ntt.roots,
                 "the first pass's twiddles: two-level (two small tables and a product), full (a table of the n + 1 powers, "
                 "(n + 1) x 32 bytes on the device), or both in turn (docs/PERF.md 49)");
  bn->add_option("--repeat", bench_ntt.repeat, "timed runs per size (after one warm-up)");
  bn->add_option("--device", bench_ntt.device, "CUDA device ordinal");
  bn->add_flag("--json", bench_ntt.json, "one JSON object per size");

  cuzk::app::DaemonOptions daemon;
  auto* dm = app.add_subcommand("daemon", "serve proofs over gRPC (cuzk.v1, Curio's client) until SIGTERM; docs/daemon.md");
  dm->add_option("--config", daemon.config, "TOML settings (docs/config.md; default: $CUZK_CONFIG, else built-in)");
  dm->add_option("--listen", daemon.listen, "host:port or unix:///path (default 127.0.0.1:9820)");
  dm->add_option("--metrics-listen", daemon.metrics_listen, "host:port of the HTTP /metrics endpoint, or off");
  dm->add_option("--params", daemon.params_dir, "parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE, else "
                                                "/var/tmp/filecoin-proof-parameters)");
  dm->add_option("--gpu", daemon.gpu, "auto, off or GPU ordinals such as 0,1");
  dm->add_option("--gpu-memory", daemon.gpu_memory, "the most device memory to use on each GPU, e.g. 16GiB, or per "
                                                    "GPU: 1=4GiB or 16GiB,1=4GiB (GPU 1 4 GiB, the others 16 GiB)");
  dm->add_option("--spread", daemon.spread, "how a job uses several GPUs: proofs (each job on one GPU, best "
                                            "throughput) or partitions (a job's partitions over all GPUs, lowest "
                                            "latency)");
  dm->add_option("--memory-budget", daemon.memory_budget, "host memory for circuits and jobs (default 90% of RAM)");
  dm->add_option("--threads", daemon.threads, "worker threads (default: all)");
  dm->add_option("--preload", daemon.preload, "circuit ids to load at start, e.g. porep-32g (repeatable)");
  dm->add_option("--log-level", daemon.log_level, "trace, debug, info, warn, error or off");
  dm->add_option("--log-format", daemon.log_format, "text, or json: one JSON object per line for log shippers");
  dm->add_flag("--print-config", daemon.print_config, "print the settings in effect and exit");

  cuzk::app::ClientCommands client;
  cuzk::app::add_client_commands(app, client);
  cuzk::app::PostCommands post;
  cuzk::app::add_post_commands(app, *pr, *ve, post);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every usage error (unknown flag, value out of range) exits 2,
    // like the other refusals of bad input.
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (dm->parsed()) return cuzk::app::run_daemon(daemon);
  if (auto rc = cuzk::app::run_client_command(client)) return *rc;
  // gen-vanilla (post_commands.cpp) for every kind: SnapDeals' generator takes the same flags.
  if (post.gen_cmd->parsed() && post.gen.kind == "snap") {
    snap.gen_sector_size = post.gen.sector_size;
    snap.gen_seed = post.gen.seed;
    snap.gen_out = post.gen.out;
    return cuzk::app::run_gen_vanilla_snap(snap);
  }
  if (auto rc = cuzk::app::run_post_command(post)) return *rc;
  if (bm->parsed()) return cuzk::app::run_msm_bench(bench_msm, msm_log_n);
  if (bn->parsed()) return cuzk::app::run_ntt_bench(bench_ntt, ntt_log_n);
  using cuzk::app::guarded;
  if (bg->parsed()) return guarded("bench groth16", [&] { return cuzk::bench::run_groth16_bench(bench_groth16); });
  if (bs->parsed()) return guarded("bench synth", [&] { return cuzk::bench::run_synth_bench(bench_synth); });
  if (bee->parsed()) return guarded("bench e2e", [&] {
      bench_e2e.gpu = cuzk::app::must(cuzk::app::gpu_choice_setting(e2e_gpu, e2e_gpu_memory));
      bench_e2e.gpu.msm_streams = msm_streams_of(e2e_msm_streams);
      return cuzk::bench::run_e2e_bench(bench_e2e);
    });
  if (bla->parsed()) return guarded("bench latency", [&] {
      bench_latency.gpu = cuzk::app::must(cuzk::app::gpu_choice_setting(latency_gpu, latency_gpu_memory));
      return cuzk::bench::run_latency_bench(bench_latency);
    });
  if (bpl->parsed()) return guarded("bench pipeline", [&] {
      bench_pipeline.gpus = cuzk::app::must(cuzk::app::gpu_devices_setting(pipeline_gpu, pipeline_gpu_memory));
      for (cuzk::groth16::GpuChoice& g : bench_pipeline.gpus) g.msm_streams = msm_streams_of(pipeline_msm_streams);
      return cuzk::bench::run_pipeline_bench(bench_pipeline);
    });
  if (sc->parsed()) return guarded("selfcheck", [&] { return cuzk::app::run_selfcheck(selfcheck); });
  if (auto rc = cuzk::app::run_snap_command(snap)) return *rc;
  if (su->parsed() && setup_circuit == "snap") {
    snap.setup_sector_size = porep_setup.sector_size;
    snap.setup_out = porep_setup.out;
    return cuzk::app::run_snap_setup(snap, setup.seed, setup.threads);
  }
  if (su->parsed()) {
    porep_setup.seed = setup.seed;
    porep_setup.threads = setup.threads;
    if (porep_setup.device && setup_circuit != "porep") {
      std::fprintf(stderr, "setup: --device is for --circuit porep\n");
      return 2;
    }
    if (setup_circuit == "window-post" || setup_circuit == "winning-post")
      return cuzk::app::run_post_setup(setup_circuit, porep_setup);
    return setup_circuit == "porep" ? cuzk::app::run_porep_setup(porep_setup) : cuzk::app::run_setup(setup);
  }
  if (prp->parsed()) return cuzk::app::run_porep_prove(porep_prove);
  if (pr->parsed()) return cuzk::app::run_prove(prove);
  if (vep->parsed()) return cuzk::app::run_porep_verify(porep_verify);
  if (ve->parsed()) return cuzk::app::run_verify(verify);
  if (poi->parsed()) return cuzk::app::run_porep_public_inputs(porep_inputs);
  if (gc->parsed()) return cuzk::app::run_gen_c1(gen_c1);
  if (pac->parsed()) return cuzk::app::run_params_check(params_check);
  return 1;
}
