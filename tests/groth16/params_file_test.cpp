// read_params reads the file with pread in chunks (params_file.hpp): the file path gives what
// parse_params gives on the same bytes (every cut, a bad point), and a file truncated, changed
// or replaced while it loads is a clean error for that load (or, replaced, the first file whole),
// never a fault. The truncation happens in ReadOptions::before_read, between the reader's size
// check and its reads of the points.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "groth16/params_file.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

namespace fs = std::filesystem;

// vk: 96 + 96 + 192 + 192 + 96 + 192 = 864 bytes, ic: 4 + 3·96 (h's count at 1156, its points
// from 1160), then h, l, a, b_g1 (4 + 5·96 each) and b_g2 (4 + 2·192).
constexpr size_t kHPoints = 1160;

Parameters small_params() {
  auto rng = test::rng(3);
  auto g1 = [&] { return ec::scalar_mul(ec::G1Jacobian::generator(), test::random_element<ff::Fr>(rng).to_int()).to_affine(); };
  auto g2 = [&] { return ec::scalar_mul(ec::G2Jacobian::generator(), test::random_element<ff::Fr>(rng).to_int()).to_affine(); };
  Parameters p;
  p.vk.alpha_g1 = g1();
  p.vk.beta_g1 = g1();
  p.vk.beta_g2 = g2();
  p.vk.gamma_g2 = g2();
  p.vk.delta_g1 = g1();
  p.vk.delta_g2 = g2();
  p.vk.ic = {g1(), g1(), g1()};
  for (auto* v : {&p.h, &p.l, &p.a, &p.b_g1}) for (int i = 0; i < 5; ++i) v->push_back(g1());
  for (int i = 0; i < 2; ++i) p.b_g2.push_back(g2());
  return p;
}

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("cuzk_params_load_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
};

std::vector<uint8_t> slurp_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}
void write(const fs::path& p, std::span<const uint8_t> b) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

TEST(ParamsLoad, TheFileReaderAgreesWithTheByteParser) {
  ThreadPool pool(2);
  TempDir t;
  const Parameters p = small_params();
  const fs::path path = t.dir / "t.params";
  ASSERT_TRUE(write_params(path, p));
  EXPECT_EQ(read_params(path, pool).value(), p);
  const std::vector<uint8_t> good = slurp_file(path);
  ASSERT_EQ(good.size(), kHPoints + 4 * 5 * 96 + 3 * 4 + 4 + 2 * 192);
  // Every cut through the vk and h, and a few after: the same error from the file as from bytes.
  std::vector<size_t> cuts;
  for (size_t c = 0; c < kHPoints + 200; c += 7) cuts.push_back(c);
  for (size_t c : {good.size() - 400, good.size() - 1}) cuts.push_back(c);
  for (const size_t cut : cuts) {
    write(path, std::span(good).first(cut));
    const auto from_file = read_params(path, pool);
    const auto from_bytes = parse_params(std::span(good).first(cut), path.string(), pool);
    ASSERT_FALSE(from_file) << cut;
    ASSERT_FALSE(from_bytes) << cut;
    EXPECT_EQ(from_file.error().message, from_bytes.error().message) << cut;
    EXPECT_EQ(from_file.error().code, ErrorCode::kCorruption) << cut;
  }
  auto bad = good;
  bad[kHPoints + 3 * 96 + 40] ^= 0x01;  // h[3]'s x coordinate
  write(path, bad);
  EXPECT_EQ(read_params(path, pool).error().message, parse_params(bad, path.string(), pool).error().message);
  auto trailing = good;
  trailing.push_back(0);
  write(path, trailing);
  EXPECT_EQ(read_params(path, pool).error().message,
            path.string() + ": offset " + std::to_string(good.size()) + ": end: 1 unexpected trailing bytes");
  // The verifying key alone, and a missing file.
  ASSERT_TRUE(write_vk(t.dir / "t.vk", p.vk));
  EXPECT_EQ(read_vk(t.dir / "t.vk", pool).value(), p.vk);
  EXPECT_EQ(read_params(t.dir / "none.params", pool).error().code, ErrorCode::kIo);
}

TEST(ParamsLoad, ATruncationDuringTheLoadIsACleanErrorNamingTheOffset) {
  ThreadPool pool(2);
  TempDir t;
  const fs::path path = t.dir / "t.params";
  ASSERT_TRUE(write_params(path, small_params()));
  const uint64_t size = fs::file_size(path);
  const std::string began = "it had " + std::to_string(size) + " bytes when the load began (truncated during the load?)";

  // Cut to two and a half points of h just before h's points are read (after their count was
  // checked against the file's size).
  ReadOptions o;
  o.before_read = [&](uint64_t offset) {
    if (offset == kHPoints) fs::resize_file(path, kHPoints + 240);
  };
  auto r = read_params(path, pool, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(r.error().message, path.string() + ": offset 1400: h[0]: the file ends at byte 1400, " + began);

  // Cut inside the verifying key's ic, after its fixed part was read.
  ASSERT_TRUE(write_params(path, small_params()));
  o.before_read = [&](uint64_t offset) {
    if (offset == 868) fs::resize_file(path, 1000);
  };
  r = read_params(path, pool, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, path.string() + ": offset 1000: ic: the file ends at byte 1000, " + began);

  // Cut to nothing before the last section.
  ASSERT_TRUE(write_params(path, small_params()));
  o.before_read = [&](uint64_t offset) {
    if (offset + 4 + 2 * 192 == size) fs::resize_file(path, 0);
  };
  r = read_params(path, pool, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, path.string() + ": offset " + std::to_string(size - 4 - 2 * 192) +
                                   ": b_g2 length: the file ends at byte " + std::to_string(size - 4 - 2 * 192) + ", " + began);
}

TEST(ParamsLoad, AFileChangedInPlaceIsRefusedAndOneReplacedIsReadWhole) {
  ThreadPool pool(2);
  TempDir t;
  const fs::path path = t.dir / "t.params";
  const Parameters p = small_params();
  ASSERT_TRUE(write_params(path, p));
  const std::vector<uint8_t> good = slurp_file(path);
  fs::last_write_time(path, fs::last_write_time(path) - std::chrono::hours(1));
  // The same bytes written over h in place: the size holds, the modification time does not.
  ReadOptions o;
  o.before_read = [&](uint64_t offset) {
    if (offset != kHPoints) return;
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(kHPoints);
    f.write(reinterpret_cast<const char*>(good.data() + kHPoints), 96);
  };
  auto r = read_params(path, pool, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(r.error().message, path.string() + ": changed during the load (" + std::to_string(good.size()) + " bytes when it began, " +
                                   std::to_string(good.size()) + " at its end)");

  // Another file renamed over the path mid-load: the load reads the file it opened, whole.
  Parameters other = small_params();
  other.h.pop_back();
  ASSERT_TRUE(write_params(t.dir / "other.params", other));
  o.before_read = [&](uint64_t offset) {
    if (offset == kHPoints) fs::rename(t.dir / "other.params", path);
  };
  ASSERT_TRUE(write_params(path, p));
  EXPECT_EQ(read_params(path, pool, o).value(), p);
  EXPECT_EQ(read_params(path, pool).value(), other);
}

}  // namespace
}  // namespace cuzk::groth16
