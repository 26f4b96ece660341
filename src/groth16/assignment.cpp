#include "groth16/assignment.hpp"

namespace cuzk::groth16 {

Density density_of(const r1cs::CompiledR1cs<ff::Fr>& r1cs) {
  Density d{DensityBitmap(r1cs.num_aux), DensityBitmap(r1cs.num_inputs), DensityBitmap(r1cs.num_aux)};
  const auto mark = [&](const r1cs::CsrMatrix<ff::Fr>& m, DensityBitmap* inputs, DensityBitmap& aux) {
    for (size_t t = 0; t < m.num_terms(); ++t) {
      if (m.coeff[t].is_zero()) continue;
      const uint32_t col = m.column[t];
      if (col < r1cs.num_inputs) {
        if (inputs) inputs->set(col);
      } else {
        aux.set(col - r1cs.num_inputs);
      }
    }
  };
  mark(r1cs.a, nullptr, d.a_aux);
  mark(r1cs.b, &d.b_input, d.b_aux);
  return d;
}

Assignment assignment_of(const r1cs::ProvingCS<ff::Fr>& cs) {
  return {cs.inputs(), cs.aux(), cs.a(), cs.b(), cs.c(),
          {cs.a_aux_density(), cs.b_input_density(), cs.b_aux_density()}};
}

}  // namespace cuzk::groth16
