#include "groth16/params_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "core/byte_reader.hpp"
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

// A key file read with pread at absolute offsets (params_file.hpp says why not a mapping).
class KeyFile {
 public:
  KeyFile() = default;
  static Expected<KeyFile> open(const std::filesystem::path& path, const ReadOptions& o) {
    KeyFile f;
    f.path_ = path.string();
    f.hook_ = o.before_read;
    f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd_ < 0) return f.os_error("open");
    if (::fstat(f.fd_, &f.at_open_) != 0) return f.os_error("fstat");
    return f;
  }
  KeyFile(KeyFile&& o) noexcept : path_(std::move(o.path_)), hook_(std::move(o.hook_)), fd_(std::exchange(o.fd_, -1)), at_open_(o.at_open_) {}
  KeyFile& operator=(KeyFile&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      path_ = std::move(o.path_);
      hook_ = std::move(o.hook_);
      fd_ = std::exchange(o.fd_, -1);
      at_open_ = o.at_open_;
    }
    return *this;
  }
  ~KeyFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  const std::string& path() const { return path_; }
  uint64_t size() const { return static_cast<uint64_t>(at_open_.st_size); }

  // Exactly out.size() bytes at `offset`; a file that ends sooner (cut while it loads) is an
  // error naming the offset and the field.
  Expected<void> read(uint64_t offset, std::span<uint8_t> out, std::string_view field) const {
    if (hook_) hook_(offset);
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Error{ErrorCode::kIo, fmt_at(offset + done, field, std::string("pread: ") + std::strerror(errno))};
      if (n == 0) {
        return Error{ErrorCode::kCorruption,
                     fmt_at(offset + done, field,
                            "the file ends at byte " + std::to_string(offset + done) + ", it had " + std::to_string(size()) +
                                " bytes when the load began (truncated during the load?)")};
      }
      done += static_cast<size_t>(n);
    }
    return {};
  }

  // Refuses a file changed in place during the load (its size or modification time differ).
  Expected<void> unchanged() const {
    struct stat now {};
    if (::fstat(fd_, &now) != 0) return os_error("fstat");
    if (now.st_size != at_open_.st_size || now.st_mtim.tv_sec != at_open_.st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != at_open_.st_mtim.tv_nsec) {
      return Error{ErrorCode::kCorruption, path_ + ": changed during the load (" + std::to_string(size()) + " bytes when it began, " +
                                               std::to_string(now.st_size) + " at its end)"};
    }
    return {};
  }

  std::string fmt_at(uint64_t offset, std::string_view field, std::string_view what) const {
    return path_ + ": offset " + std::to_string(offset) + ": " + std::string(field) + ": " + std::string(what);
  }

 private:
  Error os_error(const char* call) const { return Error{ErrorCode::kIo, path_ + ": " + call + ": " + std::strerror(errno)}; }

  std::string path_;
  std::function<void(uint64_t)> hook_;
  int fd_ = -1;
  struct stat at_open_ {};
};

// The verifying key at the start of `file`: its fixed points and ic count, then the ic points,
// read into one buffer (small) and parsed as bytes from offset 0. Returns the offset after it.
Expected<uint64_t> read_vk_part(const KeyFile& file, ThreadPool& pool, const ReadOptions& o, VerifyingKey& vk) {
  const size_t g1 = point_bytes<G1Affine>(o.encoding), g2 = point_bytes<G2Affine>(o.encoding);
  const size_t fixed = 3 * g1 + 3 * g2 + 4;
  std::vector<uint8_t> buf(std::min<uint64_t>(fixed, file.size()));
  if (auto ok = file.read(0, buf, "verifying key"); !ok) return ok.error();
  if (buf.size() == fixed) {
    const uint32_t n = uint32_t{buf[fixed - 4]} << 24 | uint32_t{buf[fixed - 3]} << 16 | uint32_t{buf[fixed - 2]} << 8 | buf[fixed - 1];
    const uint64_t ic = std::min<uint64_t>(uint64_t{n} * g1, file.size() - fixed);  // a short file: the parser says so
    buf.resize(fixed + ic);
    if (auto ok = file.read(fixed, std::span<uint8_t>(buf).subspan(fixed), "ic"); !ok) return ok.error();
  }
  ByteReader r(buf, file.path());
  CUZK_TRY_ASSIGN(vk, read_vk_from(r, pool, o));
  return r.offset();
}

// Up to this many bytes of points are read and decoded at a time.
constexpr size_t kChunkBytes = size_t{64} << 20;

// A u32-BE count at `offset` and that many points, read in chunks and decoded in parallel. The
// first bad point is reported as "<file>: offset <n>: <name>[i]: <reason>" (point_vector.hpp).
template <class Point>
Expected<std::vector<Point>> read_points_from(const KeyFile& file, uint64_t& offset, const std::string& name, ThreadPool& pool,
                                              const ReadOptions& o, std::vector<uint8_t>& buf, Progress& progress) {
  const size_t size = point_bytes<Point>(o.encoding);
  std::array<uint8_t, 4> count_bytes{};
  const std::string length = name + " length";
  if (offset + 4 > file.size()) {
    return Error{ErrorCode::kCorruption, file.fmt_at(offset, length, "needs 4 bytes, the file ends after " + std::to_string(file.size() - offset))};
  }
  if (auto ok = file.read(offset, count_bytes, length); !ok) return ok.error();
  offset += 4;
  const size_t count = size_t{count_bytes[0]} << 24 | size_t{count_bytes[1]} << 16 | size_t{count_bytes[2]} << 8 | count_bytes[3];
  const uint64_t remain = file.size() - offset;
  if (count > remain / size) {
    return Error{ErrorCode::kCorruption, file.fmt_at(offset, name, std::to_string(count) + " points need " + std::to_string(count * size) +
                                                                       " bytes, " + std::to_string(remain) + " remain")};
  }
  std::vector<Point> points(count);
  const size_t per_chunk = std::max<size_t>(1, kChunkBytes / size);
  for (size_t first = 0; first < count; first += per_chunk) {
    const size_t n = std::min(per_chunk, count - first);
    buf.resize(n * size);
    if (auto ok = file.read(offset, buf, fmt::format("{}[{}]", name, first)); !ok) return ok.error();
    std::atomic<size_t> first_bad{std::numeric_limits<size_t>::max()};
    pool.parallel_for(n, 256, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end && i < first_bad.load(std::memory_order_relaxed); ++i) {
        auto p = decode<Point>(std::span<const uint8_t>(buf).subspan(i * size, size), o);
        if (!p) {
          size_t cur = first_bad.load();
          while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {}
          return;
        }
        points[first + i] = *p;
      }
    });
    if (const size_t i = first_bad.load(); i != std::numeric_limits<size_t>::max()) {
      const Error e = decode<Point>(std::span<const uint8_t>(buf).subspan(i * size, size), o).error();
      return Error{e.code, file.fmt_at(offset + i * size, fmt::format("{}[{}]", name, first + i), e.message)};
    }
    offset += n * size;
    progress.advance(n * size);
  }
  return points;
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
  KeyFile file;
  CUZK_TRY_ASSIGN(file, KeyFile::open(path, options));
  VerifyingKey vk;
  uint64_t end = 0;
  CUZK_TRY_ASSIGN(end, read_vk_part(file, pool, options, vk));
  if (end != file.size()) {
    return Error{ErrorCode::kCorruption, file.fmt_at(end, "end", std::to_string(file.size() - end) + " unexpected trailing bytes")};
  }
  if (auto ok = file.unchanged(); !ok) return ok.error();
  return vk;
}

Expected<Parameters> read_params(const std::filesystem::path& path, ThreadPool& pool, ReadOptions options) {
  KeyFile file;
  CUZK_TRY_ASSIGN(file, KeyFile::open(path, options));
  Progress progress("loading " + file.path(), file.size(), file.size() >= kProgressFrom && Progress::stderr_is_terminal());
  Parameters p;
  uint64_t offset = 0;
  CUZK_TRY_ASSIGN(offset, read_vk_part(file, pool, options, p.vk));
  std::vector<uint8_t> buf;
  for (auto [name, dst] : {std::pair{"h", &p.h}, {"l", &p.l}, {"a", &p.a}, {"b_g1", &p.b_g1}}) {
    CUZK_TRY_ASSIGN(*dst, read_points_from<G1Affine>(file, offset, name, pool, options, buf, progress));
  }
  CUZK_TRY_ASSIGN(p.b_g2, read_points_from<G2Affine>(file, offset, "b_g2", pool, options, buf, progress));
  if (offset != file.size()) {
    return Error{ErrorCode::kCorruption, file.fmt_at(offset, "end", std::to_string(file.size() - offset) + " unexpected trailing bytes")};
  }
  if (auto ok = file.unchanged(); !ok) return ok.error();
  return p;
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
