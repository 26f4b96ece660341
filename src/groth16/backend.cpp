#include "groth16/backend.hpp"

#include <string>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "poly/domain.hpp"

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

Expected<void> check_circuit(const ParameterSizes& params, const r1cs::CompiledR1cs<ff::Fr>& circuit,
                             const Density& density) {
  const auto differ = [](const std::string& what, size_t circuit_has, size_t key_has) {
    return invalid_argument("Groth16 prover: the compiled circuit has " + std::to_string(circuit_has) + " " + what +
                            ", the key " + std::to_string(key_has) + " (a circuit of another shape?)");
  };
  if (circuit.num_inputs != params.ic) return differ("inputs", circuit.num_inputs, params.ic);
  if (circuit.num_aux != params.l) return differ("aux variables", circuit.num_aux, params.l);
  const size_t a_dense = circuit.num_inputs + density.a_aux.count();
  if (a_dense != params.a) return differ("A-dense variables", a_dense, params.a);
  const size_t b_dense = density.b_input.count() + density.b_aux.count();
  if (b_dense != params.b_g1) return differ("B-dense variables", b_dense, params.b_g1);
  const auto domain = poly::EvaluationDomain<ff::Fr>::for_size(circuit.num_constraints() + circuit.num_inputs);
  if (!domain) return domain.error();
  if (domain->size() != params.h + 1) return differ("domain points", domain->size(), params.h + 1);
  return {};
}

CpuProver::CpuProver(const Parameters& params, ThreadPool& pool, const r1cs::CompiledR1cs<ff::Fr>* circuit)
    : params_(params), pool_(pool), circuit_(circuit) {
  if (circuit_ == nullptr) return;
  density_ = density_of(*circuit_);
  check_circuit(ParameterSizes::of(params), *circuit_, density_).value();  // throws
  witnesses_.emplace(CircuitSizes{circuit_->num_inputs, circuit_->num_aux});
}

Expected<Proof> CpuProver::prove(const Witness& z, const Blinding& blinding, ProverTimes* times) {
  const std::optional<CircuitSizes> sizes = circuit_sizes();
  if (auto ok = check_witness(sizes ? &*sizes : nullptr, z); !ok) return ok.error();
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
