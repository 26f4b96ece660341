#pragma once
// Sparse matrix × vector over Fr on the GPU: a = A·z for one matrix of a compiled R1CS
// (shared/DESIGN.md decision 4). CPU twin and test oracle: r1cs::spmv (r1cs/compiled.hpp). src/gpu
// sits below r1cs, so the CSR arrays come in as spans: row_start (rows + 1 entries), column
// (an index into z = [inputs ‖ aux]) and coeff, the layout of r1cs::CsrMatrix.
//
// Coefficients. A PoRep partition's rows are short and their coefficients few (measured on the
// 512MiB partition, docs/PERF.md): A has 2.46 terms per row, 17.6 % +1, 19.7 % −1 and 62.8 %
// "other" drawn from only 1329 distinct values (powers of two from packing and SHA-256 word
// additions); B 1.00 term per row, 99.9 % +1; C 2.13 per row, 88 % ±1, 448 distinct. So the
// tagged form stores a 16-bit code per term (0: +1, 1: −1, k ≥ 2: table[k − 2]): 6 bytes per term
// with its column instead of 36, and no multiplication for ±1. A matrix with more distinct
// coefficients than the codes can name keeps the plain form (32-byte coefficients).
//
// Scheduling. A row of at most kWarpRowTerms terms is summed by one thread; longer rows (packing
// rows, up to 929 terms in A) by a whole warp, so no warp waits on one long row.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "gpu/buffer.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

enum class CoeffForm { plain, tagged };

// The tagged encoding (host side, no GPU needed): code[k] names coeff[k] as described above.
// Empty `table` and `code` with ok == false when more than kMaxCoeffTable distinct values occur.
struct CoeffCodes {
  static constexpr size_t kMaxCoeffTable = 65534;  // codes 2..65535
  bool ok = false;
  std::vector<uint16_t> code;
  std::vector<ff::Fr> table;
};
CoeffCodes encode_coefficients(std::span<const ff::Fr> coeff);

class DeviceCsr {  // one matrix on the device
 public:
  static constexpr uint32_t kWarpRowTerms = 32;  // rows longer than this get a warp each

  // Copies the matrix to the device on `stream` and waits for the copies (a one-time setup; the
  // spans may be released on return). `form` is a request: tagged falls back to plain when the coefficients do
  // not fit the table; form() says what was built. Throws on an inconsistent CSR.
  DeviceCsr(std::span<const uint64_t> row_start, std::span<const uint32_t> column, std::span<const ff::Fr> coeff,
            const Stream& stream, CoeffForm form = CoeffForm::tagged);

  size_t rows() const { return rows_; }
  size_t nonzeros() const { return nonzeros_; }
  CoeffForm form() const { return form_; }
  size_t long_rows() const { return long_rows_.size(); }  // rows summed by a warp
  size_t table_size() const { return table_.size(); }
  size_t device_bytes() const;

 private:
  friend void spmv(const DeviceCsr& m, const ff::Fr* z, ff::Fr* out, const Stream& stream);

  size_t rows_ = 0;
  size_t nonzeros_ = 0;
  CoeffForm form_ = CoeffForm::plain;
  DeviceBuffer<uint64_t> row_start_;
  DeviceBuffer<uint32_t> column_;
  DeviceBuffer<ff::Fr> coeff_;     // plain form
  DeviceBuffer<uint16_t> code_;    // tagged form
  DeviceBuffer<ff::Fr> table_;     // tagged form
  DeviceBuffer<uint32_t> long_rows_;
};

// out[r] = sum_k coeff[k] * z[column[k]] over row r, for every row; z (at least max column + 1
// elements) and out (rows() elements) are device pointers. Queued on `stream`.
void spmv(const DeviceCsr& m, const ff::Fr* z, ff::Fr* out, const Stream& stream);

}  // namespace cuzk::gpu
