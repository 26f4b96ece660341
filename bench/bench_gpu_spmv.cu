// GPU SpMV throughput (gpu/spmv.hpp) on matrices shaped like a PoRep partition's A, B and C.
//   bench_gpu_spmv [--log2-rows 24] [--reps 10] [--columns local|random|both] [--json]
// The shape is what a real partition measures (512MiB PoRep partition, KeygenCS; gpu/spmv.hpp):
//   A: terms per row 1 (58.7 %), 2 (32.4 %), 3-4 (8.1 %), 9-32 (0.5 %), 33-256 (0.3 %),
//      257-929 (0.1 %); coefficients +1 17.6 %, −1 19.7 %, other 62.8 % from 1329 distinct values;
//   B: one term per row, +1 (99.9 %);
//   C: terms per row 0 (24.1 %), 1 (10.5 %), 2 (16.9 %), 3-4 (48.3 %), 33-256 (0.1 %);
//      coefficients +1 58.2 %, −1 30.2 %, other 11.6 % from 448 distinct values.
// z has as many entries as rows (a partition has about as many aux as constraints), 98 % bits.
// Columns: "local" draws each term's column within ±4096 of its row (SHA-256 rows read recent
// variables); "random" draws it uniformly (the worst case: every z read a DRAM sector).
// Each matrix is timed in both storage forms (plain 32-byte coefficients, tagged 16-bit codes).
// Reported: median and best of --reps runs after a warm-up (CUDA events), rows/s, and the bytes a
// run must move (row starts, columns, coefficients, one 32-byte z sector per term, the output)
// over its median time.

#include "gpu/field.cuh"  // before any ff header (gpu/field.cuh says why)

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/event.hpp"
#include "gpu/spmv.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

struct Shape {
  const char* name;
  // cumulative percentages of row lengths: {upper percentage, min length, max length}
  std::vector<std::array<double, 3>> lengths;
  double plus_one, minus_one;  // percentages; the rest is "other"
  size_t distinct_other;
};

const Shape kShapes[] = {
    {"A", {{58.7, 1, 1}, {91.1, 2, 2}, {99.15, 3, 4}, {99.62, 9, 32}, {99.89, 33, 256}, {100, 257, 929}}, 17.6, 19.7,
     1329},
    {"B", {{100, 1, 1}}, 99.9, 0.05, 10},
    {"C", {{24.1, 0, 0}, {34.6, 1, 1}, {51.5, 2, 2}, {99.9, 3, 4}, {100, 33, 256}}, 58.2, 30.2, 448},
};

struct HostCsr {
  std::vector<uint64_t> row_start;
  std::vector<uint32_t> column;
  std::vector<Fr> coeff;
};

Fr random_fr(std::mt19937_64& g) {
  Fr::Int v;
  for (auto& l : v.limbs) l = g();
  v.limbs[3] &= 0x0fffffffffffffffULL;  // below r
  return Fr::from_montgomery(v);
}

HostCsr make_matrix(const Shape& s, size_t rows, bool local, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> pct(0, 100);
  std::vector<Fr> other(s.distinct_other);
  for (size_t i = 0; i < other.size(); ++i) other[i] = i < 250 ? Fr::from_uint(2).pow(i + 1) : random_fr(g);
  HostCsr m;
  m.row_start.reserve(rows + 1);
  m.row_start.push_back(0);
  std::vector<uint32_t> cols;
  for (size_t r = 0; r < rows; ++r) {
    const double p = pct(g);
    size_t len = 0;
    for (const auto& [upper, lo, hi] : s.lengths) {
      if (p < upper) {
        len = size_t(lo) + (hi > lo ? g() % size_t(hi - lo + 1) : 0);
        break;
      }
    }
    cols.clear();
    for (size_t t = 0; t < len; ++t) {
      const int64_t c = local ? int64_t(r) + int64_t(g() % 8192) - 4096 : int64_t(g() % rows);
      cols.push_back(uint32_t(std::clamp<int64_t>(c, 0, int64_t(rows) - 1)));
    }
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (uint32_t c : cols) {
      const double q = pct(g);
      m.column.push_back(c);
      m.coeff.push_back(q < s.plus_one                 ? Fr::one()
                        : q < s.plus_one + s.minus_one ? -Fr::one()
                                                       : other[g() % other.size()]);
    }
    m.row_start.push_back(m.column.size());
  }
  return m;
}

struct Timing {
  double median_ms, best_ms;
};

Timing time_spmv(const DeviceCsr& d, const Fr* z, Fr* out, const Stream& stream, int reps) {
  std::vector<double> ms;
  for (int i = 0; i <= reps; ++i) {
    Event start, end;
    start.record(stream);
    spmv(d, z, out, stream);
    end.record(stream);
    end.synchronize();
    if (i > 0) ms.push_back(Event::elapsed_ms(start, end));
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

int run(int argc, char** argv) {
  int log2_rows = 24, reps = 10;
  bool json = false;
  std::string columns = "both";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--log2-rows" && i + 1 < argc) log2_rows = std::stoi(argv[++i]);
    else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::stoi(argv[++i]));
    else if (a == "--columns" && i + 1 < argc) columns = argv[++i];
    else if (a == "--json") json = true;
    else {
      std::fprintf(stderr, "usage: bench_gpu_spmv [--log2-rows 24] [--reps 10] [--columns local|random|both] [--json]\n");
      return 2;
    }
  }
  const auto devices = list_devices();
  if (devices.empty()) {
    std::fprintf(stderr, "bench_gpu_spmv: no CUDA device\n");
    return 1;
  }
  const size_t rows = size_t{1} << log2_rows;
  Stream stream;
  // z: 98 % bits, 2 % full elements, as a PoRep witness.
  std::vector<Fr> z(rows);
  {
    std::mt19937_64 g(7);
    for (auto& v : z) {
      const uint64_t k = g() % 100;
      v = k < 49 ? Fr::zero() : k < 98 ? Fr::one() : random_fr(g);
    }
  }
  DeviceBuffer<Fr> dz(rows, stream), dout(rows, stream);
  dz.upload(z, stream);
  if (!json) {
    std::printf("GPU SpMV, %s, 2^%d rows, z of 2^%d entries; median (best) of %d\n", devices[0].name.c_str(),
                log2_rows, log2_rows, reps);
    std::printf("%-3s %-7s %-7s %12s %10s %10s %10s %12s %8s\n", "mat", "columns", "form", "nnz", "terms/row",
                "median ms", "best ms", "rows/s", "GB/s");
  }
  for (const bool local : {true, false}) {
    if ((local && columns == "random") || (!local && columns == "local")) continue;
    for (const Shape& s : kShapes) {
      const HostCsr m = make_matrix(s, rows, local, 1000 + (s.name[0] - 'A'));
      for (const CoeffForm form : {CoeffForm::plain, CoeffForm::tagged}) {
        const DeviceCsr d(m.row_start, m.column, m.coeff, stream, form);
        const Timing t = time_spmv(d, dz.data(), dout.data(), stream, reps);
        const double nnz = double(d.nonzeros());
        const double coeff_bytes = d.form() == CoeffForm::tagged ? 2 : 32;
        const double bytes = 8.0 * (rows + 1) + (4 + coeff_bytes + 32) * nnz + 32.0 * rows;
        const double gbs = bytes / (t.median_ms * 1e6);
        const double rows_per_s = double(rows) / (t.median_ms * 1e-3);
        const char* form_name = d.form() == CoeffForm::tagged ? "tagged" : "plain";
        if (json) {
          std::printf("{\"bench\":\"gpu_spmv\",\"matrix\":\"%s\",\"columns\":\"%s\",\"form\":\"%s\",\"log2_rows\":%d,"
                      "\"nnz\":%.0f,\"long_rows\":%zu,\"median_ms\":%.4f,\"best_ms\":%.4f,\"rows_per_s\":%.4g,"
                      "\"gb_per_s\":%.1f}\n",
                      s.name, local ? "local" : "random", form_name, log2_rows, nnz, d.long_rows(), t.median_ms,
                      t.best_ms, rows_per_s, gbs);
        } else {
          std::printf("%-3s %-7s %-7s %12.0f %10.3f %10.3f %10.3f %12.3g %8.0f\n", s.name, local ? "local" : "random",
                      form_name, nnz, nnz / double(rows), t.median_ms, t.best_ms, rows_per_s, gbs);
        }
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace cuzk::gpu

int main(int argc, char** argv) {
  try {
    return cuzk::gpu::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_spmv: %s\n", e.what());
    return 1;
  }
}
