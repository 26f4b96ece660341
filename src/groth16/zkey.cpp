#include "groth16/zkey.hpp"

#include <cstring>
#include <map>
#include <string>

#include "core/byte_reader.hpp"
#include "core/mapped_file.hpp"
#include "ec/subgroup.hpp"
#include "groth16/point_vector.hpp"

namespace cuzk::groth16 {
namespace {

constexpr size_t kFpBytes = 48, kFrBytes = 32;
constexpr size_t kG1Bytes = 2 * kFpBytes, kG2Bytes = 4 * kFpBytes;

template <size_t N>
ff::BigInt<N> le_limbs(std::span<const uint8_t> b) {
  ff::BigInt<N> v;
  for (size_t i = 0; i < 8 * N; ++i) v.limbs[i / 8] |= uint64_t{b[i]} << (8 * (i % 8));
  return v;
}

Expected<ff::Fp> fp_from_lem(std::span<const uint8_t> b) {
  const auto v = le_limbs<6>(b);
  if (v >= ff::Fp::kModulus) return corruption("coordinate is not below p");
  return ff::Fp::from_montgomery(v);
}

template <class Point>
Expected<Point> point_from_lem(std::span<const uint8_t> b) {
  if (std::all_of(b.begin(), b.end(), [](uint8_t x) { return x == 0; })) return Point::identity();
  Point p;
  p.infinity = false;
  if constexpr (std::is_same_v<Point, G1Affine>) {
    auto x = fp_from_lem(b.first(kFpBytes)), y = fp_from_lem(b.subspan(kFpBytes));
    if (!x) return x.error();
    if (!y) return y.error();
    p.x = *x;
    p.y = *y;
  } else {
    ff::Fp c[4];
    for (int i = 0; i < 4; ++i) {
      auto v = fp_from_lem(b.subspan(i * kFpBytes, kFpBytes));
      if (!v) return v.error();
      c[i] = *v;
    }
    p.x = {c[0], c[1]};
    p.y = {c[2], c[3]};
  }
  if (!p.is_on_curve()) return corruption("point is not on the curve");
  if (!ec::in_subgroup(p)) return corruption("point is not in the prime-order subgroup");
  return p;
}

template <class Point>
Expected<Point> read_point(ByteReader& r, std::string_view field) {
  const size_t at = r.offset();
  auto b = r.take(std::is_same_v<Point, G1Affine> ? kG1Bytes : kG2Bytes, field);
  if (!b) return b.error();
  auto p = point_from_lem<Point>(*b);
  if (!p) return r.error_at(at, p.error().code, field, p.error().message);
  return p;
}

template <class Point>
Expected<std::vector<Point>> read_points(ByteReader& r, size_t count, const std::string& name, ThreadPool& pool) {
  return decode_points<Point>(r, count, std::is_same_v<Point, G1Affine> ? kG1Bytes : kG2Bytes, name, pool,
                              point_from_lem<Point>);
}

// The coefficient as stored, c·R^2 mod r, back to c: two Montgomery divisions by R.
ff::Fr coefficient_value(std::span<const uint8_t> b) {
  const ff::Fr once = ff::Fr::from_montgomery(le_limbs<4>(b));  // value (c R^2) / R
  return ff::Fr::from_montgomery(once.to_int());                 // value c R / R
}

}  // namespace

Expected<Zkey> read_zkey(const std::filesystem::path& path, ThreadPool& pool) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  return parse_zkey(file->bytes(), path.string(), pool);
}

Expected<Zkey> parse_zkey(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool) {
  ByteReader r(bytes, source);
  std::span<const uint8_t> magic;
  CUZK_TRY_ASSIGN(magic, r.take(4, "magic"))
  if (std::memcmp(magic.data(), "zkey", 4) != 0) return r.error_at(0, ErrorCode::kInvalidArgument, "magic", "not a .zkey file");
  uint32_t version = 0, n_sections = 0;
  CUZK_TRY_ASSIGN(version, r.u32_le("version"))
  if (version != 1) return r.error_at(4, ErrorCode::kUnsupported, "version", "version " + std::to_string(version) + ", expected 1");
  CUZK_TRY_ASSIGN(n_sections, r.u32_le("section count"))
  std::map<uint32_t, std::pair<size_t, size_t>> sections;  // type -> (offset, size)
  for (uint32_t i = 0; i < n_sections; ++i) {
    uint32_t type = 0;
    uint64_t size = 0;
    CUZK_TRY_ASSIGN(type, r.u32_le("section type"))
    CUZK_TRY_ASSIGN(size, r.u64_le("section size"))
    const size_t at = r.offset();
    const std::string name = "section " + std::to_string(type);
    if (size > r.remaining()) return r.error(ErrorCode::kCorruption, name, "size " + std::to_string(size) + " runs past the end");
    if (!sections.emplace(type, std::pair{at, size_t(size)}).second) return r.error_at(at, ErrorCode::kCorruption, name, "appears twice");
    r.seek(at + size, name).value();
  }
  for (uint32_t type = 1; type <= 9; ++type) {
    if (!sections.count(type)) return r.error(ErrorCode::kCorruption, "section " + std::to_string(type), "missing");
  }
  // A reader confined to one section: reading past it is reported as running off its end.
  const auto section = [&](uint32_t type) {
    const auto [at, size] = sections.at(type);
    ByteReader s(bytes.first(at + size), source);
    s.seek(at, "section").value();
    return s;
  };

  Zkey z;
  {
    ByteReader s = section(1);
    uint32_t protocol = 0;
    CUZK_TRY_ASSIGN(protocol, s.u32_le("protocol"))
    if (protocol != 1) return s.error(ErrorCode::kUnsupported, "protocol", "protocol " + std::to_string(protocol) + " is not Groth16 (1)");
  }
  {
    ByteReader s = section(2);
    uint32_t n8q = 0, n8r = 0;
    std::span<const uint8_t> q, rr;
    CUZK_TRY_ASSIGN(n8q, s.u32_le("n8q"))
    if (n8q != kFpBytes) {
      return s.error(ErrorCode::kUnsupported, "n8q",
                     std::to_string(n8q) + "-byte base field: not BLS12-381 (a BN254 key has 32)");
    }
    CUZK_TRY_ASSIGN(q, s.take(kFpBytes, "q"))
    if (le_limbs<6>(q) != ff::Fp::kModulus) return s.error(ErrorCode::kUnsupported, "q", "not the BLS12-381 base field prime");
    CUZK_TRY_ASSIGN(n8r, s.u32_le("n8r"))
    if (n8r != kFrBytes) return s.error(ErrorCode::kUnsupported, "n8r", std::to_string(n8r) + "-byte scalar field, expected 32");
    CUZK_TRY_ASSIGN(rr, s.take(kFrBytes, "r"))
    if (le_limbs<4>(rr) != ff::Fr::kModulus) return s.error(ErrorCode::kUnsupported, "r", "not the BLS12-381 scalar field prime");
    CUZK_TRY_ASSIGN(z.n_vars, s.u32_le("nVars"))
    CUZK_TRY_ASSIGN(z.n_public, s.u32_le("nPublic"))
    CUZK_TRY_ASSIGN(z.domain_size, s.u32_le("domainSize"))
    if (z.domain_size == 0 || (z.domain_size & (z.domain_size - 1)) != 0) {
      return s.error(ErrorCode::kCorruption, "domainSize", std::to_string(z.domain_size) + " is not a power of two");
    }
    // In 64 bits: nPublic = 2^32 - 1 would wrap to 0 and pass (found by the fuzz target zkey).
    if (uint64_t{z.n_public} + 1 > z.n_vars) return s.error(ErrorCode::kCorruption, "nPublic", "more public signals than signals");
    CUZK_TRY_ASSIGN(z.vk.alpha_g1, read_point<G1Affine>(s, "alpha1"))
    CUZK_TRY_ASSIGN(z.vk.beta_g1, read_point<G1Affine>(s, "beta1"))
    CUZK_TRY_ASSIGN(z.vk.beta_g2, read_point<G2Affine>(s, "beta2"))
    CUZK_TRY_ASSIGN(z.vk.gamma_g2, read_point<G2Affine>(s, "gamma2"))
    CUZK_TRY_ASSIGN(z.vk.delta_g1, read_point<G1Affine>(s, "delta1"))
    CUZK_TRY_ASSIGN(z.vk.delta_g2, read_point<G2Affine>(s, "delta2"))
  }
  {
    ByteReader s = section(3);
    CUZK_TRY_ASSIGN(z.vk.ic, read_points<G1Affine>(s, size_t{z.n_public} + 1, "IC", pool))
  }
  {
    ByteReader s = section(4);
    uint32_t count = 0;
    CUZK_TRY_ASSIGN(count, s.u32_le("coefficient count"))
    constexpr size_t kEntry = 12 + kFrBytes;
    if (count > s.remaining() / kEntry) return s.error(ErrorCode::kCorruption, "coefficients", std::to_string(count) + " entries do not fit");
    z.coefficients.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      auto& c = z.coefficients[i];
      const size_t at = s.offset();
      c.matrix = s.u32_le("matrix").value();
      c.row = s.u32_le("row").value();
      c.signal = s.u32_le("signal").value();
      c.value = coefficient_value(s.take(kFrBytes, "value").value());
      if (c.matrix > 1 || c.row >= z.domain_size || c.signal >= z.n_vars) {
        return s.error_at(at, ErrorCode::kCorruption, "coefficient " + std::to_string(i),
                          "matrix " + std::to_string(c.matrix) + ", row " + std::to_string(c.row) + ", signal " +
                              std::to_string(c.signal) + " out of range");
      }
    }
  }
  {
    ByteReader s = section(5);
    CUZK_TRY_ASSIGN(z.a, read_points<G1Affine>(s, z.n_vars, "A", pool))
  }
  {
    ByteReader s = section(6);
    CUZK_TRY_ASSIGN(z.b1, read_points<G1Affine>(s, z.n_vars, "B1", pool))
  }
  {
    ByteReader s = section(7);
    CUZK_TRY_ASSIGN(z.b2, read_points<G2Affine>(s, z.n_vars, "B2", pool))
  }
  {
    ByteReader s = section(8);
    CUZK_TRY_ASSIGN(z.c, read_points<G1Affine>(s, z.n_vars - z.n_public - 1, "C", pool))
  }
  {
    ByteReader s = section(9);
    CUZK_TRY_ASSIGN(z.h, read_points<G1Affine>(s, z.domain_size, "H", pool))
  }
  return z;
}

}  // namespace cuzk::groth16
