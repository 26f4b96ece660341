// GPU SpMV of a compiled R1CS matrix (gpu/spmv.hpp says the storage and the scheduling).

#include "gpu/field.cuh"  // first: gpu/field.cuh says why

#include "gpu/spmv.hpp"

#include <array>
#include <cstring>
#include <string>
#include <unordered_map>

#include "core/error.hpp"

namespace cuzk::gpu {

namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned kWarp = 32;

// One term's contribution, for each storage form: acc + coeff * z, with ±1 as an add or subtract.
struct TaggedTerms {
  const uint16_t* code;
  const DeviceFr* table;
  __device__ __forceinline__ DeviceFr add(const DeviceFr& acc, uint64_t k, const DeviceFr& z) const {
    const uint32_t c = code[k];
    if (c == 0) return acc + z;
    if (c == 1) return acc - z;
    return acc + table[c - 2] * z;
  }
};

struct PlainTerms {
  const DeviceFr* coeff;
  DeviceFr one, minus_one;
  __device__ __forceinline__ DeviceFr add(const DeviceFr& acc, uint64_t k, const DeviceFr& z) const {
    const DeviceFr c = coeff[k];
    if (c == one) return acc + z;
    if (c == minus_one) return acc - z;
    return acc + c * z;
  }
};

// One thread per row; rows longer than kWarpRowTerms are left to spmv_long_rows.
template <class Terms>
__global__ void spmv_short_rows(const uint64_t* row_start, const uint32_t* column, Terms terms, const DeviceFr* z,
                                DeviceFr* out, size_t rows) {
  const size_t r = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  const uint64_t begin = row_start[r], end = row_start[r + 1];
  if (end - begin > DeviceCsr::kWarpRowTerms) return;
  DeviceFr acc = DeviceFr::zero();
  for (uint64_t k = begin; k < end; ++k) acc = terms.add(acc, k, z[column[k]]);
  out[r] = acc;
}

// One warp per long row: lanes take every 32nd term, then a shuffle tree adds the 32 partial sums.
template <class Terms>
__global__ void spmv_long_rows(const uint32_t* long_rows, size_t count, const uint64_t* row_start,
                               const uint32_t* column, Terms terms, const DeviceFr* z, DeviceFr* out) {
  const size_t w = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (w >= count) return;  // the whole warp leaves together
  const uint32_t r = long_rows[w];
  const uint64_t begin = row_start[r], end = row_start[r + 1];
  DeviceFr acc = DeviceFr::zero();
  for (uint64_t k = begin + lane; k < end; k += kWarp) acc = terms.add(acc, k, z[column[k]]);
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) {
    DeviceFr other;
    for (size_t i = 0; i < DeviceFr::kLimbs; ++i) other.limbs[i] = __shfl_down_sync(0xffffffffu, acc.limbs[i], offset);
    acc = acc + other;
  }
  if (lane == 0) out[r] = acc;
}

template <class Terms>
void launch(const uint64_t* row_start, const uint32_t* column, const uint32_t* long_rows, size_t rows,
            size_t long_count, Terms terms, const DeviceFr* z, DeviceFr* out, cudaStream_t stream) {
  if (rows) {
    spmv_short_rows<<<unsigned((rows + kBlock - 1) / kBlock), kBlock, 0, stream>>>(row_start, column, terms, z, out,
                                                                                   rows);
    Stream::check_launch();
  }
  if (long_count) {
    const size_t threads = long_count * kWarp;
    spmv_long_rows<<<unsigned((threads + kBlock - 1) / kBlock), kBlock, 0, stream>>>(long_rows, long_count, row_start,
                                                                                     column, terms, z, out);
    Stream::check_launch();
  }
}

using Key = std::array<uint64_t, 4>;
struct KeyHash {
  size_t operator()(const Key& k) const { return k[0] ^ (k[1] * 0x9e3779b97f4a7c15ULL) ^ (k[2] >> 7) ^ k[3]; }
};

}  // namespace

CoeffCodes encode_coefficients(std::span<const ff::Fr> coeff) {
  static_assert(sizeof(ff::Fr) == sizeof(Key));
  CoeffCodes out;
  out.code.resize(coeff.size());
  const ff::Fr one = ff::Fr::one(), minus_one = -ff::Fr::one();
  std::unordered_map<Key, uint16_t, KeyHash> index;
  for (size_t k = 0; k < coeff.size(); ++k) {
    if (coeff[k] == one) {
      out.code[k] = 0;
    } else if (coeff[k] == minus_one) {
      out.code[k] = 1;
    } else {
      Key key;
      std::memcpy(key.data(), &coeff[k], sizeof key);  // the Montgomery bytes name the value
      auto [it, inserted] = index.try_emplace(key, uint16_t(out.table.size() + 2));
      if (inserted) {
        if (out.table.size() == CoeffCodes::kMaxCoeffTable) return CoeffCodes{};
        out.table.push_back(coeff[k]);
      }
      out.code[k] = it->second;
    }
  }
  out.ok = true;
  return out;
}

DeviceCsr::DeviceCsr(std::span<const uint64_t> row_start, std::span<const uint32_t> column,
                     std::span<const ff::Fr> coeff, const Stream& stream, CoeffForm form) {
  rows_ = row_start.empty() ? 0 : row_start.size() - 1;
  nonzeros_ = column.size();
  if (coeff.size() != nonzeros_ || (rows_ == 0 && nonzeros_ != 0) ||
      (!row_start.empty() && (row_start.front() != 0 || row_start.back() != nonzeros_))) {
    throw Exception(invalid_argument("DeviceCsr: " + std::to_string(row_start.size()) + " row starts, " +
                                     std::to_string(column.size()) + " columns and " + std::to_string(coeff.size()) +
                                     " coefficients do not form a CSR matrix"));
  }
  if (rows_ > UINT32_MAX) throw Exception(invalid_argument("DeviceCsr: more than 2^32 - 1 rows"));
  std::vector<uint32_t> long_rows;
  for (size_t r = 0; r < rows_; ++r) {
    if (row_start[r + 1] < row_start[r])
      throw Exception(invalid_argument("DeviceCsr: row_start decreases at row " + std::to_string(r)));
    if (row_start[r + 1] - row_start[r] > kWarpRowTerms) long_rows.push_back(uint32_t(r));
  }
  if (rows_ == 0) return;

  row_start_ = DeviceBuffer<uint64_t>(row_start.size(), stream);
  row_start_.upload(row_start, stream);
  column_ = DeviceBuffer<uint32_t>(column.size(), stream);
  column_.upload(column, stream);
  long_rows_ = DeviceBuffer<uint32_t>(long_rows.size(), stream);
  long_rows_.upload(long_rows, stream);
  CoeffCodes codes;
  if (form == CoeffForm::tagged) codes = encode_coefficients(coeff);
  if (codes.ok) {
    form_ = CoeffForm::tagged;
    code_ = DeviceBuffer<uint16_t>(codes.code.size(), stream);
    code_.upload(codes.code, stream);
    table_ = DeviceBuffer<ff::Fr>(codes.table.size(), stream);
    table_.upload(codes.table, stream);
  } else {
    form_ = CoeffForm::plain;
    coeff_ = DeviceBuffer<ff::Fr>(coeff.size(), stream);
    coeff_.upload(coeff, stream);
  }
  stream.synchronize();  // the host vectors above die here
}

size_t DeviceCsr::device_bytes() const {
  return row_start_.bytes() + column_.bytes() + coeff_.bytes() + code_.bytes() + table_.bytes() + long_rows_.bytes();
}

void spmv(const DeviceCsr& m, const ff::Fr* z, ff::Fr* out, const Stream& stream) {
  const auto* dz = reinterpret_cast<const DeviceFr*>(z);
  auto* dout = reinterpret_cast<DeviceFr*>(out);
  if (m.form_ == CoeffForm::tagged) {
    const TaggedTerms terms{m.code_.data(), reinterpret_cast<const DeviceFr*>(m.table_.data())};
    launch(m.row_start_.data(), m.column_.data(), m.long_rows_.data(), m.rows_, m.long_rows_.size(), terms, dz, dout,
           stream.get());
  } else {
    const PlainTerms terms{reinterpret_cast<const DeviceFr*>(m.coeff_.data()), DeviceFr::one(),
                           DeviceFr::from_cpu(-ff::Fr::one())};
    launch(m.row_start_.data(), m.column_.data(), m.long_rows_.data(), m.rows_, m.long_rows_.size(), terms, dz, dout,
           stream.get());
  }
}

}  // namespace cuzk::gpu
