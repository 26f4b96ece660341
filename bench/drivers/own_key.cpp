#include "own_key.hpp"

#include <fmt/format.h>

#include "bench_support.hpp"
#include "core/timing.hpp"
#include "groth16/setup.hpp"

namespace cuzk::bench {

OwnKeyCircuit make_own_key_circuit(const porep::SectorShape& sector, uint64_t seed, ThreadPool& pool,
                                   const std::vector<groth16::GpuChoice>& gpus,
                                   const std::function<void(const std::string&)>& say) {
  const auto compile = [&] { return porep::compile_partition(porep::circuit_shape(sector), porep::PorepPoseidon(), &pool); };
  return make_own_key_circuit(fmt::format("{} sector, {} partitions", sector.name, sector.partitions), compile, seed,
                              pool, gpus, say);
}

OwnKeyCircuit make_own_key_circuit(const std::string& what, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
                                   uint64_t seed, ThreadPool& pool, const std::vector<groth16::GpuChoice>& gpus,
                                   const std::function<void(const std::string&)>& say, groth16::GpuPriority priority) {
  const auto tell = [&](const std::string& line) {
    if (say) say(line);
  };
  OwnKeyCircuit out;
  tell(fmt::format("  {}: compiling the partition circuit", what));
  auto t0 = Clock::now();
  auto circuit = std::make_unique<r1cs::CompiledR1cs<ff::Fr>>(compile());
  out.compile_ms = ms_since(t0);
  out.constraints = circuit->num_constraints();
  out.aux = circuit->num_aux;
  tell(fmt::format("  {} constraints, {} aux in {:.1f} s; making the key", out.constraints, out.aux,
                   out.compile_ms / 1e3));
  const groth16::ToxicWaste tw = groth16::ToxicWaste::from_seed(seed);
  engine::Groth16CircuitParts parts;
  bool host_circuit = false;
  const auto first_key = [&](const groth16::OwnKeyProver& own) {
    out.scalars_ms = own.scalars_ms;
    out.points_ms = own.points_ms;
    out.circuit_ms = own.circuit_ms;
    out.backend = own.prover->name();
    parts.vk = own.vk;
  };
  if (gpus.empty()) {
    groth16::OwnKeyProver own =
        must(groth16::make_prover_with_own_key(*circuit, tw, pool, groth16::GpuChoice{groth16::GpuChoice::Kind::off}));
    first_key(own);
    parts.params = std::move(own.params);
    parts.cpu = std::move(own.prover);
    host_circuit = true;
  }
  for (const groth16::GpuChoice& g : gpus) {
    groth16::OwnKeyProver own = must(groth16::make_prover_with_own_key(*circuit, tw, pool, g, priority));
    if (parts.gpus.empty()) {
      first_key(own);
      if (own.placement) out.placement = placement_name(*own.placement);
    } else if (!(own.vk == parts.vk)) {
      throw Exception(Error{ErrorCode::kInternal, fmt::format("GPU {} made another key than GPU {}", g.ordinal,
                                                              parts.gpus.begin()->first)});
    } else {
      out.backend += " + " + own.prover->name();
    }
    host_circuit = host_circuit || own.prover->reads_host_key();
    if (own.params) parts.params = std::move(own.params);  // a streamed prover's (each has its own copy: one kept)
    parts.gpus[g.ordinal] = std::move(own.prover);
    tell(fmt::format("  {} ready ({:.1f} s since the start)", parts.gpus[g.ordinal]->name(), ms_since(t0) / 1e3));
  }
  if (host_circuit) parts.circuit = std::move(circuit);
  out.circuit = std::make_shared<engine::Groth16Circuit>(std::move(parts));
  return out;
}

}  // namespace cuzk::bench
