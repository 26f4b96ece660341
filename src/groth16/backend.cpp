#include "groth16/backend.hpp"

#include <string>

#include "core/error.hpp"
#include "core/timing.hpp"

namespace cuzk::groth16 {

Expected<void> check_witness(const CircuitSizes* circuit, const Witness& z) {
  if (circuit == nullptr) return invalid_argument("Groth16 prove: a witness needs the compiled circuit; this backend has none");
  if (z.inputs.size() != circuit->inputs || z.aux.size() != circuit->aux) {
    return invalid_argument("Groth16 prove: the witness has " + std::to_string(z.inputs.size()) + " inputs and " +
                            std::to_string(z.aux.size()) + " aux values, the circuit " +
                            std::to_string(circuit->inputs) + " and " + std::to_string(circuit->aux));
  }
  return {};
}

CpuProver::CpuProver(const Parameters& params, ThreadPool& pool, const r1cs::CompiledR1cs<ff::Fr>* circuit)
    : params_(params), pool_(pool), circuit_(circuit) {
  if (circuit_ != nullptr) density_ = density_of(*circuit_);
}

Expected<Proof> CpuProver::prove(const Witness& z, const Blinding& blinding, ProverTimes* times) {
  const CircuitSizes sizes = circuit_ ? CircuitSizes{circuit_->num_inputs, circuit_->num_aux} : CircuitSizes{};
  if (auto ok = check_witness(circuit_ ? &sizes : nullptr, z); !ok) return ok.error();
  double spmv_ms = 0;
  auto rows = timed(spmv_ms, [&] { return r1cs::spmv(*circuit_, z.inputs, z.aux, pool_); });
  const Assignment w{{z.inputs.begin(), z.inputs.end()},
                     {z.aux.begin(), z.aux.end()},
                     std::move(rows.a),
                     std::move(rows.b),
                     std::move(rows.c),
                     density_};
  auto proof = groth16::prove(params_, w, blinding, pool_, times);
  if (times) {
    times->spmv = spmv_ms;
    times->total += spmv_ms;
  }
  return proof;
}

}  // namespace cuzk::groth16
