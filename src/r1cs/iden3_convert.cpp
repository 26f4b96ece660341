#include "r1cs/iden3_convert.hpp"

namespace cuzk::r1cs {

CompiledR1cs<ff::Fr> compiled_from_iden3(const iden3::R1csFile& file) {
  CompiledR1cs<ff::Fr> out;
  out.num_inputs = 1 + file.n_pub_out + file.n_pub_in;
  out.num_aux = file.n_wires - out.num_inputs;
  for (auto* m : {&out.a, &out.b, &out.c}) m->row_start.assign(1, 0);
  for (const auto& con : file.constraints) {
    const std::pair<const std::vector<iden3::Term>*, CsrMatrix<ff::Fr>*> parts[] = {
        {&con.a, &out.a}, {&con.b, &out.b}, {&con.c, &out.c}};
    for (auto [terms, m] : parts) {
      for (const auto& t : *terms) {
        m->column.push_back(t.wire);
        m->coeff.push_back(t.coeff);
      }
      m->row_start.push_back(m->column.size());
    }
  }
  return out;
}

iden3::R1csFile iden3_from_compiled(const CompiledR1cs<ff::Fr>& r1cs) {
  iden3::R1csFile f;
  f.n_wires = r1cs.num_inputs + r1cs.num_aux;
  f.n_pub_in = r1cs.num_inputs - 1;
  f.n_labels = f.n_wires;
  f.constraints.resize(r1cs.num_constraints());
  for (size_t row = 0; row < r1cs.num_constraints(); ++row) {
    const std::pair<const CsrMatrix<ff::Fr>*, std::vector<iden3::Term>*> parts[] = {
        {&r1cs.a, &f.constraints[row].a}, {&r1cs.b, &f.constraints[row].b}, {&r1cs.c, &f.constraints[row].c}};
    for (auto [m, terms] : parts) {
      for (uint64_t t = m->row_start[row]; t < m->row_start[row + 1]; ++t) terms->push_back({m->column[t], m->coeff[t]});
    }
  }
  f.wire_to_label.resize(f.n_wires);
  for (uint32_t w = 0; w < f.n_wires; ++w) f.wire_to_label[w] = w;
  return f;
}

}  // namespace cuzk::r1cs
