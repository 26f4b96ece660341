#pragma once
// A compiled circuit (PCE, shared/DESIGN.md decision 4): the matrices A, B, C of an R1CS in CSR
// form over z = [inputs ‖ aux], recorded once per circuit shape by KeygenCS, cached on disk, and
// applied to each witness by sparse matrix-vector products.

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"

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

extern template struct CompiledR1cs<ff::Fr>;
extern template RowValues<ff::Fr> spmv(const CompiledR1cs<ff::Fr>&, std::span<const ff::Fr>,
                                       std::span<const ff::Fr>, ThreadPool&);
extern template void spmv(const CsrMatrix<ff::Fr>&, uint32_t, std::span<const ff::Fr>, std::span<const ff::Fr>,
                          std::span<ff::Fr>, ThreadPool&);

}  // namespace cuzk::r1cs
