#include "synth_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "core/thread_pool.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"
#include "groth16/witness.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/proving_cs.hpp"

namespace cuzk::bench {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

int run_synth_bench(const SynthBenchOptions& o) {
  // The input: partition 0 of a C1 file, or an all-zero partition of the size's shape.
  std::optional<porep::C1> c1;
  uint64_t bytes = 0;
  if (!o.c1.empty()) {
    Expected<porep::C1> read = porep::read_c1_file(o.c1);
    if (!read) {
      fmt::print(stderr, "bench synth: {}\n", read.error().message);
      return 2;
    }
    c1 = std::move(*read);
    bytes = porep::registered_seal_proof(c1->registered_proof).value().sector_size;
  } else {
    Expected<uint64_t> parsed = porep::parse_sector_size(o.sector_size);
    if (!parsed) {
      fmt::print(stderr, "bench synth: {}\n", parsed.error().message);
      return 2;
    }
    bytes = *parsed;
  }
  const porep::SectorShape sector = porep::shape_for_sector_size(bytes).value();
  const porep::StackedCircuitShape shape = porep::circuit_shape(sector);
  const porep::PorepPoseidon poseidon;
  const std::vector<porep::ChallengeProof> blank = c1 ? std::vector<porep::ChallengeProof>{} : porep::blank_challenges(shape);
  const ff::Fr zero = ff::Fr::zero();
  const porep::PartitionWitness witness =
      c1 ? porep::partition_witness(*c1, 0) : porep::PartitionWitness{zero, zero, zero, zero, zero, blank};
  std::vector<double> ms;
  uint64_t rows = 0, aux = 0;
  // Witness-only: `concurrent` threads each synthesise the partition into a buffer of their own,
  // its challenges on a pool of `parallel` threads when asked, as prove_c1 does: the buffers come
  // from a WitnessPool of the partition's size (counted first, untimed) and are allocated and
  // faulted in before the timed runs.
  std::optional<groth16::WitnessPool> buffers;
  if (o.witness_only) {
    r1cs::CountingCS<ff::Fr> count;
    porep::synthesize_partition(count, shape, poseidon, witness);
    buffers.emplace(groth16::CircuitSizes{count.num_inputs(), count.num_aux()});
    buffers->reserve(std::max(1u, o.concurrent));
  }
  std::optional<ThreadPool> pool;
  if (o.parallel > 0) pool.emplace(o.parallel);
  const auto witness_once = [&] {
    const groth16::WitnessPool::Lease z = buffers->lend();
    porep::synthesize_partition_witness(shape, poseidon, witness, z.z(), buffers->sizes().inputs,
                                        pool ? &*pool : nullptr);
    return buffers->sizes().aux;
  };
  for (unsigned run = 0; run < std::max(1u, o.repeat); ++run) {
    const auto t0 = Clock::now();
    if (o.compile) {
      const r1cs::CompiledR1cs<ff::Fr> compiled = porep::compile_partition(shape, poseidon, pool ? &*pool : nullptr);
      aux = compiled.num_aux;
      rows = compiled.num_constraints();
    } else if (o.witness_only) {
      std::vector<std::thread> threads;
      for (unsigned i = 1; i < std::max(1u, o.concurrent); ++i) threads.emplace_back(witness_once);
      aux = witness_once();
      for (std::thread& t : threads) t.join();
      rows = sector.constraints;  // WitnessCS keeps no rows; the circuit's count (tested)
    } else {
      r1cs::ProvingCS<ff::Fr> cs;
      porep::synthesize_partition(cs, shape, poseidon, witness);
      aux = cs.aux().size();
      rows = cs.num_constraints();
    }
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2], min = sorted.front();
  const std::string mode = o.compile ? fmt::format("compile (KeygenCS){}",
                                                   o.parallel ? fmt::format(", challenges on {} threads", o.parallel) : "")
                           : !o.witness_only ? "proving"
                           : fmt::format("witness-only{}{}",
                                         o.concurrent > 1 ? fmt::format(", {} at once", o.concurrent) : "",
                                         o.parallel ? fmt::format(", challenges on {} threads", o.parallel) : "");
  if (o.json) {
    std::string runs;
    for (double m : ms) runs += (runs.empty() ? "" : ",") + fmt::format("{:.1f}", m);
    fmt::print(
        "{{\"bench\":\"synth\",\"sector_size\":\"{}\",\"mode\":\"{}\",\"input\":\"{}\",\"constraints\":{},\"aux\":{},"
        "\"runs_ms\":[{}],\"median_ms\":{:.1f},\"min_ms\":{:.1f},\"constraints_per_s\":{:.0f},\"peak_rss_mib\":{:.0f}}}\n",
        sector.name, mode, o.c1.empty() ? "blank" : o.c1, rows, aux, runs, median, min, double(rows) * std::max(1u, o.concurrent) / (median / 1e3),
        peak_rss_mib());
    return 0;
  }
  fmt::print("synth bench: one {} partition, {} mode, {} input\n", sector.name, mode,
             o.c1.empty() ? "all-zero (blank)" : o.c1);
  fmt::print("  constraints {}, aux {}\n", rows, aux);
  for (size_t i = 0; i < ms.size(); ++i) fmt::print("  run {}: {:>10.1f} ms\n", i + 1, ms[i]);
  fmt::print("  median {:.1f} ms, min {:.1f} ms: {:.2f} M constraints/s; peak RSS {:.0f} MiB\n", median, min,
             double(rows) * std::max(1u, o.concurrent) / (median / 1e3) / 1e6, peak_rss_mib());
  return 0;
}

}  // namespace cuzk::bench
