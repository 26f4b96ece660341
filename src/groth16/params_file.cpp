#include "groth16/params_file.hpp"

#include <algorithm>
#include <fstream>

#include "core/byte_reader.hpp"
#include "core/mapped_file.hpp"
#include "groth16/point_vector.hpp"

namespace cuzk::groth16 {
namespace {

template <class Point>
constexpr size_t point_bytes(PointEncoding e) {
  constexpr bool g1 = std::is_same_v<Point, G1Affine>;
  if (e == PointEncoding::kCompressed) return g1 ? ec::kG1CompressedBytes : ec::kG2CompressedBytes;
  return g1 ? ec::kG1UncompressedBytes : ec::kG2UncompressedBytes;
}

template <class Point>
Expected<Point> decode(std::span<const uint8_t> b, const ReadOptions& o) {
  Expected<Point> p = [&] {
    if constexpr (std::is_same_v<Point, G1Affine>) {
      return o.encoding == PointEncoding::kCompressed ? ec::g1_from_compressed(b, o.subgroup)
                                                      : ec::g1_from_uncompressed(b, o.subgroup);
    } else {
      return o.encoding == PointEncoding::kCompressed ? ec::g2_from_compressed(b, o.subgroup)
                                                      : ec::g2_from_uncompressed(b, o.subgroup);
    }
  }();
  if (p && p->is_identity()) return invalid_argument("the point at infinity");
  return p;
}

template <class Point>
Expected<Point> read_point(ByteReader& r, std::string_view field, const ReadOptions& o) {
  const size_t at = r.offset();
  auto b = r.take(point_bytes<Point>(o.encoding), field);
  if (!b) return b.error();
  auto p = decode<Point>(*b, o);
  if (!p) return r.error_at(at, p.error().code, field, p.error().message);
  return p;
}

// A u32-BE count and that many points.
template <class Point>
Expected<std::vector<Point>> read_points(ByteReader& r, const std::string& name, ThreadPool& pool,
                                         const ReadOptions& o, Progress* progress = nullptr) {
  auto n = r.u32_be(name + " length");
  if (!n) return n.error();
  return decode_points<Point>(
      r, *n, point_bytes<Point>(o.encoding), name, pool, [&](std::span<const uint8_t> b) { return decode<Point>(b, o); },
      progress);
}

// Files this large show their loading progress on a terminal.
constexpr size_t kProgressFrom = size_t{64} << 20;

Expected<VerifyingKey> read_vk_from(ByteReader& r, ThreadPool& pool, const ReadOptions& o) {
  VerifyingKey vk;
  CUZK_TRY_ASSIGN(vk.alpha_g1, read_point<G1Affine>(r, "alpha_g1", o))
  CUZK_TRY_ASSIGN(vk.beta_g1, read_point<G1Affine>(r, "beta_g1", o))
  CUZK_TRY_ASSIGN(vk.beta_g2, read_point<G2Affine>(r, "beta_g2", o))
  CUZK_TRY_ASSIGN(vk.gamma_g2, read_point<G2Affine>(r, "gamma_g2", o))
  CUZK_TRY_ASSIGN(vk.delta_g1, read_point<G1Affine>(r, "delta_g1", o))
  CUZK_TRY_ASSIGN(vk.delta_g2, read_point<G2Affine>(r, "delta_g2", o))
  auto ic = read_points<G1Affine>(r, "ic", pool, o);
  if (!ic) return ic.error();
  vk.ic = std::move(*ic);
  return vk;
}

template <class Point>
void append(std::vector<uint8_t>& out, const Point& p) {
  const auto b = ec::to_uncompressed(p);
  out.insert(out.end(), b.begin(), b.end());
}
void append_u32_be(std::vector<uint8_t>& out, size_t n) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(n >> s));
}
template <class Point>
void append_points(std::vector<uint8_t>& out, const std::vector<Point>& ps) {
  append_u32_be(out, ps.size());
  for (const auto& p : ps) append(out, p);
}

void write_bytes(std::ofstream& f, const std::vector<uint8_t>& bytes) {
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A point vector streamed in chunks, so a key of tens of GiB is never held twice in memory.
template <class Point>
void write_points(std::ofstream& f, const std::vector<Point>& ps) {
  constexpr size_t kChunk = 4096;
  std::vector<uint8_t> buf;
  append_u32_be(buf, ps.size());
  for (size_t i = 0; i < ps.size(); i += kChunk) {
    for (size_t j = i; j < std::min(ps.size(), i + kChunk); ++j) append(buf, ps[j]);
    write_bytes(f, buf);
    buf.clear();
  }
  write_bytes(f, buf);
}

// Opens path for writing, runs write(stream), and reports a failure naming the file.
template <class Write>
Expected<void> write_file(const std::filesystem::path& path, Write&& write) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) write(f);
  f.close();
  if (!f) return Error{ErrorCode::kIo, path.string() + ": could not write the file"};
  return {};
}

Expected<void> expect_end(const ByteReader& r) {
  if (r.remaining() != 0) {
    return r.error(ErrorCode::kCorruption, "end", std::to_string(r.remaining()) + " unexpected trailing bytes");
  }
  return {};
}

}  // namespace

Expected<VerifyingKey> parse_vk(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool,
                                ReadOptions options) {
  ByteReader r(bytes, source);
  auto vk = read_vk_from(r, pool, options);
  if (!vk) return vk;
  if (auto end = expect_end(r); !end) return end.error();
  return vk;
}

Expected<Parameters> parse_params(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool,
                                  ReadOptions options) {
  ByteReader r(bytes, source);
  Progress progress("loading " + source, bytes.size(),
                    bytes.size() >= kProgressFrom ? Progress::stderr_style() : ProgressStyle::off);
  Parameters p;
  auto vk = read_vk_from(r, pool, options);
  if (!vk) return vk.error();
  p.vk = std::move(*vk);
  for (auto [name, dst] : {std::pair{"h", &p.h}, {"l", &p.l}, {"a", &p.a}, {"b_g1", &p.b_g1}}) {
    auto v = read_points<G1Affine>(r, name, pool, options, &progress);
    if (!v) return v.error();
    *dst = std::move(*v);
  }
  auto b_g2 = read_points<G2Affine>(r, "b_g2", pool, options, &progress);
  if (!b_g2) return b_g2.error();
  p.b_g2 = std::move(*b_g2);
  if (auto end = expect_end(r); !end) return end.error();
  return p;
}

Expected<VerifyingKey> read_vk(const std::filesystem::path& path, ThreadPool& pool, ReadOptions options) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  return parse_vk(file->bytes(), path.string(), pool, options);
}

Expected<Parameters> read_params(const std::filesystem::path& path, ThreadPool& pool, ReadOptions options) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  return parse_params(file->bytes(), path.string(), pool, options);
}

std::vector<uint8_t> vk_bytes(const VerifyingKey& vk) {
  std::vector<uint8_t> out;
  append(out, vk.alpha_g1);
  append(out, vk.beta_g1);
  append(out, vk.beta_g2);
  append(out, vk.gamma_g2);
  append(out, vk.delta_g1);
  append(out, vk.delta_g2);
  append_points(out, vk.ic);
  return out;
}

Expected<void> write_vk(const std::filesystem::path& path, const VerifyingKey& vk) {
  return write_file(path, [&](std::ofstream& f) { write_bytes(f, vk_bytes(vk)); });
}

Expected<void> write_params(const std::filesystem::path& path, const Parameters& params) {
  return write_file(path, [&](std::ofstream& f) {
    write_bytes(f, vk_bytes(params.vk));
    write_points(f, params.h);
    write_points(f, params.l);
    write_points(f, params.a);
    write_points(f, params.b_g1);
    write_points(f, params.b_g2);
  });
}

}  // namespace cuzk::groth16
