#pragma once
// A compiled circuit (PCE, shared/DESIGN.md decision 4): the matrices A, B, C of an R1CS in CSR
// form over z = [inputs ‖ aux], recorded once per circuit shape by KeygenCS, cached on disk, and
// applied to each witness by sparse matrix-vector products.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/row_digest.hpp"

namespace cuzk::r1cs {

template <class F>
struct CsrMatrix {
  std::vector<uint64_t> row_start;  // num_rows + 1 entries; row r is [row_start[r], row_start[r+1])
  std::vector<uint32_t> column;     // index into z = [inputs ‖ aux]
  std::vector<F> coeff;

  size_t num_rows() const { return row_start.empty() ? 0 : row_start.size() - 1; }
  size_t num_terms() const { return column.size(); }
  friend bool operator==(const CsrMatrix&, const CsrMatrix&) = default;
};

template <class F>
struct CompiledR1cs {
  uint32_t num_inputs = 0;  // ONE included
  uint32_t num_aux = 0;
  CsrMatrix<F> a, b, c;

  size_t num_constraints() const { return a.num_rows(); }

  // File layout (all integers little-endian), version 1:
  //   "CUZKR1CS" | u32 version | u32 field bytes n | n bytes modulus LE
  //   | u32 num_inputs | u32 num_aux | u64 num_constraints | u64 header checksum
  //   then for A, B, C: u64 num_terms | u64 checksum, and the arrays
  //   row_start (u64 × rows+1) | column (u32 × terms) | coeff (n bytes canonical LE × terms),
  //   each followed by a u64 checksum of its bytes.
  // Coefficients are canonical, so a file does not depend on our Montgomery form.
  Expected<void> save(const std::filesystem::path& path) const;
  // Every failure is an Error naming the path, the byte offset and the field at fault.
  static Expected<CompiledR1cs> load(const std::filesystem::path& path);

  friend bool operator==(const CompiledR1cs&, const CompiledR1cs&) = default;
};

template <class F>
struct RowValues {
  std::vector<F> a, b, c;
};

// a = A·z, b = B·z, c = C·z, parallel over rows; equal, row for row, to ProvingCS's a/b/c.
template <class F>
RowValues<F> spmv(const CompiledR1cs<F>& r1cs, std::span<const F> inputs, std::span<const F> aux, ThreadPool& pool);

// One matrix: out[r] = (M·z)[r].
template <class F>
void spmv(const CsrMatrix<F>& m, uint32_t num_inputs, std::span<const F> inputs, std::span<const F> aux,
          std::span<F> out, ThreadPool& pool);

// The fingerprint of rows [0, end_row) in row_digest.hpp's canonical serialisation (what
// TestCS::digest and shared/tools/*_circuit_model.py compute), from the compiled form: columns
// below num_inputs are inputs, the rest aux. For circuits too large for TestCS.
template <class F>
std::string row_digest(const CompiledR1cs<F>& r1cs, size_t end_row) {
  Sha256 sha;
  std::vector<uint8_t> buf;
  const auto put_u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) buf.push_back(uint8_t(v >> (8 * i)));
  };
  for (size_t row = 0; row < end_row; ++row) {
    buf.clear();
    for (const CsrMatrix<F>* m : {&r1cs.a, &r1cs.b, &r1cs.c}) {
      const uint64_t begin = m->row_start[row], end = m->row_start[row + 1];
      put_u32(static_cast<uint32_t>(end - begin));
      for (uint64_t t = begin; t < end; ++t) {
        const uint32_t col = m->column[t];
        const bool input = col < r1cs.num_inputs;
        buf.push_back(input ? 0 : 1);
        put_u32(input ? col : col - r1cs.num_inputs);
        const size_t at = buf.size();
        buf.resize(at + F::kBytes);
        m->coeff[t].to_bytes_le(std::span<uint8_t, F::kBytes>(buf.data() + at, F::kBytes));
      }
    }
    sha.update(buf);
  }
  return sha.hex_digest();
}

extern template struct CompiledR1cs<ff::Fr>;
extern template RowValues<ff::Fr> spmv(const CompiledR1cs<ff::Fr>&, std::span<const ff::Fr>,
                                       std::span<const ff::Fr>, ThreadPool&);
extern template void spmv(const CsrMatrix<ff::Fr>&, uint32_t, std::span<const ff::Fr>, std::span<const ff::Fr>,
                          std::span<ff::Fr>, ThreadPool&);

}  // namespace cuzk::r1cs
