#pragma once
// A circuit with a key of our own, as the engine's cache holds it (engine::Groth16Circuit), for the
// benches that prove at full size without Filecoin's files: the partition circuit compiled, then
// the key made from one toxic waste on each GPU (groth16::DeviceKey::generate, kept there; the
// same key on each, checked by its verifying key) or on the CPU (setup).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "engine/groth16_circuit.hpp"
#include "groth16/select_prover.hpp"
#include "r1cs/compiled.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::bench {

struct OwnKeyCircuit {
  std::shared_ptr<engine::Groth16Circuit> circuit;
  std::string backend;  // the provers' names, "gpu 0 (NVIDIA H200) + gpu 1 (...)" or "cpu"
  size_t constraints = 0, aux = 0;
  double compile_ms = 0;
  // The first prover's key: exponents, points, circuit up (groth16::OwnKeyProver).
  double scalars_ms = 0, points_ms = 0, circuit_ms = 0;
  // "cpu", or the GPU provers' placement (groth16/gpu_memory_plan.hpp): "resident",
  // "resident_compact", "streamed"; the first GPU's where they differ.
  std::string placement = "cpu";
};

// The circuit `compile` makes ("what": how `say` names it), keyed on `gpus` (Kind::device each),
// or the CPU when empty; the GPU provers' streams of `priority`. `say` reports each step (may be
// empty).
OwnKeyCircuit make_own_key_circuit(const std::string& what, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
                                   uint64_t seed, ThreadPool& pool, const std::vector<groth16::GpuChoice>& gpus,
                                   const std::function<void(const std::string&)>& say = {},
                                   groth16::GpuPriority priority = groth16::GpuPriority::normal);
// A PoRep sector's partition circuit.
OwnKeyCircuit make_own_key_circuit(const porep::SectorShape& sector, uint64_t seed, ThreadPool& pool,
                                   const std::vector<groth16::GpuChoice>& gpus,
                                   const std::function<void(const std::string&)>& say = {});

}  // namespace cuzk::bench
