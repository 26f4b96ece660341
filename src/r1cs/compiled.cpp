// CompiledR1cs file I/O and SpMV, instantiated for BLS12-381 Fr.

#include "r1cs/compiled.hpp"

#include <array>
#include <cstring>
#include <fstream>
#include <string>

#include "core/error.hpp"

namespace cuzk::r1cs {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'};
constexpr uint32_t kVersion = 1;

// A fast 64-bit checksum of a section (a flipped byte anywhere must be caught even where the
// value stays structurally valid); not cryptographic, the file is a local cache.
class Checksum {
 public:
  void update(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < n; ++i) {
      tail_ |= uint64_t(p[i]) << (8 * fill_);
      if (++fill_ == 8) mix();
    }
  }
  uint64_t value() {
    if (fill_ != 0) mix();
    return h_ ^ (h_ >> 31) ^ len_;
  }

 private:
  void mix() {
    h_ = (h_ ^ tail_) * 0x9E3779B97F4A7C15ull;
    h_ ^= h_ >> 29;
    len_ += fill_;
    tail_ = 0;
    fill_ = 0;
  }
  uint64_t h_ = 0xCBF29CE484222325ull, tail_ = 0, len_ = 0;
  unsigned fill_ = 0;
};

class Writer {
 public:
  explicit Writer(const std::filesystem::path& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {}
  bool ok() const { return bool(out_); }
  void bytes(const void* data, size_t n) {
    out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
    sum_.update(data, n);
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);  // x86-64 / aarch64: little-endian
  }
  // Ends a section: its checksum, which a reader compares with its own.
  void seal() {
    const uint64_t v = sum_.value();
    out_.write(reinterpret_cast<const char*>(&v), sizeof v);
    sum_ = Checksum();
  }
  Expected<void> close() {
    out_.close();
    if (!out_) return Error{ErrorCode::kIo, path_.string() + ": write failed"};
    return {};
  }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
  Checksum sum_;
};

class Reader {
 public:
  Reader(const std::filesystem::path& path, std::ifstream& in, uint64_t size) : path_(path), in_(in), size_(size) {}

  Error fail(const std::string& field, const std::string& what) const { return fail_at(offset_, field, what); }
  Error fail_at(uint64_t offset, const std::string& field, const std::string& what) const {
    return corruption(path_.string() + ": offset " + std::to_string(offset) + ": " + field + ": " + what);
  }
  // Reads n bytes of `field`; false (with error set) when the file ends first.
  bool bytes(void* data, uint64_t n, const std::string& field) {
    if (n > size_ - offset_) {
      error_ = fail(field, "truncated (needs " + std::to_string(n) + " bytes, " +
                               std::to_string(size_ - offset_) + " left)");
      return false;
    }
    in_.read(static_cast<char*>(data), static_cast<std::streamsize>(n));
    if (!in_) {
      error_ = Error{ErrorCode::kIo,
                     path_.string() + ": offset " + std::to_string(offset_) + ": " + field + ": read failed"};
      return false;
    }
    sum_.update(data, n);
    offset_ += n;
    return true;
  }
  template <class T>
  bool pod(T& v, const std::string& field) {
    return bytes(&v, sizeof v, field);
  }
  // Room for n more bytes? Checked before allocating from a count read in the file.
  bool room(uint64_t n, const std::string& field) {
    if (n > size_ - offset_) {
      error_ = fail(field, "truncated (needs " + std::to_string(n) + " bytes, " +
                               std::to_string(size_ - offset_) + " left)");
      return false;
    }
    return true;
  }
  bool seal(const std::string& field) {
    const uint64_t expected = sum_.value();
    sum_ = Checksum();
    const uint64_t at = offset_;
    uint64_t stored = 0;
    if (!bytes(&stored, sizeof stored, field + " checksum")) return false;
    sum_ = Checksum();
    if (stored != expected) {
      offset_ = at;
      error_ = fail(field, "checksum mismatch (the section is corrupted)");
      return false;
    }
    return true;
  }
  uint64_t offset() const { return offset_; }
  uint64_t left() const { return size_ - offset_; }
  Error error() const { return error_; }
  void set_error(Error e) { error_ = std::move(e); }

 private:
  std::filesystem::path path_;
  std::ifstream& in_;
  uint64_t size_;
  uint64_t offset_ = 0;
  Checksum sum_;
  Error error_;
};

template <class F>
void write_matrix(Writer& w, const CsrMatrix<F>& m) {
  w.pod(uint64_t(m.num_terms()));
  w.seal();
  w.bytes(m.row_start.data(), m.row_start.size() * sizeof(uint64_t));
  w.seal();
  w.bytes(m.column.data(), m.column.size() * sizeof(uint32_t));
  w.seal();
  constexpr size_t kChunk = 4096;
  std::vector<uint8_t> buffer(kChunk * F::kBytes);
  for (size_t i = 0; i < m.coeff.size(); i += kChunk) {
    const size_t n = std::min(kChunk, m.coeff.size() - i);
    for (size_t j = 0; j < n; ++j) {
      m.coeff[i + j].to_bytes_le(std::span<uint8_t, F::kBytes>(buffer.data() + j * F::kBytes, F::kBytes));
    }
    w.bytes(buffer.data(), n * F::kBytes);
  }
  w.seal();
}

template <class F>
bool read_matrix(Reader& r, CsrMatrix<F>& m, const std::string& name, uint64_t rows, uint64_t columns) {
  uint64_t terms = 0;
  if (!r.pod(terms, name + ".num_terms") || !r.seal(name + ".num_terms")) return false;
  if (!r.room((rows + 1) * 8, name + ".row_start")) return false;
  m.row_start.resize(rows + 1);
  const uint64_t row_start_at = r.offset();
  if (!r.bytes(m.row_start.data(), (rows + 1) * 8, name + ".row_start") || !r.seal(name + ".row_start")) return false;
  if (m.row_start[0] != 0 || m.row_start[rows] != terms) {
    r.set_error(r.fail(name + ".row_start", "does not span [0, num_terms) (section at offset " +
                                                std::to_string(row_start_at) + ")"));
    return false;
  }
  for (uint64_t i = 0; i < rows; ++i) {
    if (m.row_start[i] > m.row_start[i + 1]) {
      r.set_error(r.fail(name + ".row_start", "decreases at row " + std::to_string(i)));
      return false;
    }
  }
  if (!r.room(terms * 4, name + ".column")) return false;
  m.column.resize(terms);
  if (!r.bytes(m.column.data(), terms * 4, name + ".column") || !r.seal(name + ".column")) return false;
  for (uint64_t i = 0; i < terms; ++i) {
    if (m.column[i] >= columns) {
      r.set_error(r.fail(name + ".column", "term " + std::to_string(i) + " names column " +
                                               std::to_string(m.column[i]) + " >= " + std::to_string(columns)));
      return false;
    }
  }
  if (!r.room(terms * F::kBytes, name + ".coeff")) return false;
  m.coeff.resize(terms);
  std::vector<uint8_t> buffer(4096 * F::kBytes);
  for (uint64_t i = 0; i < terms; i += 4096) {
    const uint64_t n = std::min<uint64_t>(4096, terms - i);
    const uint64_t at = r.offset();
    if (!r.bytes(buffer.data(), n * F::kBytes, name + ".coeff")) return false;
    for (uint64_t j = 0; j < n; ++j) {
      auto v = F::from_bytes_le(std::span<const uint8_t, F::kBytes>(buffer.data() + j * F::kBytes, F::kBytes));
      if (!v) {
        r.set_error(r.fail_at(at + j * F::kBytes, name + ".coeff",
                              "term " + std::to_string(i + j) + " is not canonical"));
        return false;
      }
      m.coeff[i + j] = *v;
    }
  }
  return r.seal(name + ".coeff");
}

}  // namespace

template <class F>
Expected<void> CompiledR1cs<F>::save(const std::filesystem::path& path) const {
  Writer w(path);
  if (!w.ok()) return Error{ErrorCode::kIo, path.string() + ": cannot open for writing"};
  w.bytes(kMagic, sizeof kMagic);
  w.pod(kVersion);
  w.pod(uint32_t(F::kBytes));
  std::array<uint8_t, F::kBytes> modulus{};
  for (size_t i = 0; i < F::kBytes; ++i) modulus[i] = uint8_t(F::kModulus.limbs[i / 8] >> (8 * (i % 8)));
  w.bytes(modulus.data(), modulus.size());
  w.pod(num_inputs);
  w.pod(num_aux);
  w.pod(uint64_t(num_constraints()));
  w.seal();
  write_matrix(w, a);
  write_matrix(w, b);
  write_matrix(w, c);
  return w.close();
}

template <class F>
Expected<CompiledR1cs<F>> CompiledR1cs<F>::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (!in || ec) return Error{ErrorCode::kIo, path.string() + ": cannot open for reading"};
  Reader r(path, in, size);

  char magic[8];
  if (!r.bytes(magic, 8, "magic")) return r.error();
  if (std::memcmp(magic, kMagic, 8) != 0) {
    return corruption(path.string() + ": offset 0: magic: not a cuzk compiled R1CS");
  }
  uint32_t version = 0, field_bytes = 0;
  if (!r.pod(version, "version")) return r.error();
  if (version != kVersion) {
    return Error{ErrorCode::kUnsupported, path.string() + ": offset 8: version: " + std::to_string(version) +
                                              " (this build reads " + std::to_string(kVersion) + ")"};
  }
  if (!r.pod(field_bytes, "field bytes")) return r.error();
  if (field_bytes != F::kBytes) {
    return r.fail("field bytes", std::to_string(field_bytes) + ", expected " + std::to_string(F::kBytes));
  }
  std::array<uint8_t, F::kBytes> modulus{};
  if (!r.bytes(modulus.data(), modulus.size(), "modulus")) return r.error();
  for (size_t i = 0; i < F::kBytes; ++i) {
    if (modulus[i] != uint8_t(F::kModulus.limbs[i / 8] >> (8 * (i % 8)))) {
      return corruption(path.string() + ": offset 16: modulus: not the modulus of this build's field");
    }
  }
  CompiledR1cs out;
  uint64_t rows = 0;
  if (!r.pod(out.num_inputs, "num_inputs") || !r.pod(out.num_aux, "num_aux") || !r.pod(rows, "num_constraints") ||
      !r.seal("header")) {
    return r.error();
  }
  const uint64_t columns = uint64_t(out.num_inputs) + out.num_aux;
  if (!read_matrix(r, out.a, "A", rows, columns) || !read_matrix(r, out.b, "B", rows, columns) ||
      !read_matrix(r, out.c, "C", rows, columns)) {
    return r.error();
  }
  if (r.left() != 0) return r.fail("end", std::to_string(r.left()) + " trailing bytes");
  return out;
}

template <class F>
void spmv(const CsrMatrix<F>& m, uint32_t num_inputs, std::span<const F> inputs, std::span<const F> aux,
          std::span<F> out, ThreadPool& pool) {
  const F one = F::one(), minus_one = -F::one();
  pool.parallel_for(m.num_rows(), 4096, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      F acc = F::zero();
      for (uint64_t k = m.row_start[r]; k < m.row_start[r + 1]; ++k) {
        const uint32_t col = m.column[k];
        const F& z = col < num_inputs ? inputs[col] : aux[col - num_inputs];
        // Memory-bound (DESIGN.md, lessons): most coefficients are ±1 (booleans, packing, SHA
        // xor/maj rows) and ~98 % of a PoRep witness is bits, so an add (or nothing) replaces a
        // Montgomery multiplication, ~10x its cost. Measured in docs/PERF.md (bench_r1cs).
        const F& coeff = m.coeff[k];
        if (coeff == one) {
          acc += z;
        } else if (coeff == minus_one) {
          acc -= z;
        } else if (z.is_zero()) {
          continue;
        } else if (z == one) {
          acc += coeff;
        } else {
          acc += coeff * z;
        }
      }
      out[r] = acc;
    }
  });
}

template <class F>
RowValues<F> spmv(const CompiledR1cs<F>& r1cs, std::span<const F> inputs, std::span<const F> aux, ThreadPool& pool) {
  if (inputs.size() != r1cs.num_inputs || aux.size() != r1cs.num_aux) {
    throw Exception(invalid_argument("spmv: the assignment has " + std::to_string(inputs.size()) + " inputs and " +
                                     std::to_string(aux.size()) + " aux, the circuit " +
                                     std::to_string(r1cs.num_inputs) + " and " + std::to_string(r1cs.num_aux)));
  }
  RowValues<F> out;
  const size_t rows = r1cs.num_constraints();
  out.a.resize(rows);
  out.b.resize(rows);
  out.c.resize(rows);
  spmv(r1cs.a, r1cs.num_inputs, inputs, aux, std::span<F>(out.a), pool);
  spmv(r1cs.b, r1cs.num_inputs, inputs, aux, std::span<F>(out.b), pool);
  spmv(r1cs.c, r1cs.num_inputs, inputs, aux, std::span<F>(out.c), pool);
  return out;
}

template struct CompiledR1cs<ff::Fr>;
template RowValues<ff::Fr> spmv(const CompiledR1cs<ff::Fr>&, std::span<const ff::Fr>, std::span<const ff::Fr>,
                                ThreadPool&);
template void spmv(const CsrMatrix<ff::Fr>&, uint32_t, std::span<const ff::Fr>, std::span<const ff::Fr>,
                   std::span<ff::Fr>, ThreadPool&);

}  // namespace cuzk::r1cs
