#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/byte_reader.hpp"
#include "core/mapped_file.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"

namespace cuzk {
namespace {

TEST(ByteReader, ReadsIntegersInBothOrders) {
  const std::vector<uint8_t> b{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10};
  ByteReader r(b, "buf");
  EXPECT_EQ(r.u32_be("a").value(), 0x01020304u);
  EXPECT_EQ(r.u32_le("b").value(), 0x08070605u);
  EXPECT_EQ(r.u64_le("c").value(), 0x100f0e0d0c0b0a09ull);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ByteReader, PastTheEndNamesSourceOffsetAndField) {
  const std::vector<uint8_t> b(6, 0);
  ByteReader r(b, "x.params");
  ASSERT_TRUE(r.take(4, "magic"));
  auto v = r.u32_be("ic length");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(v.error().message, "x.params: offset 4: ic length: needs 4 bytes, the file ends after 2");
  EXPECT_FALSE(r.seek(7, "section"));
  EXPECT_TRUE(r.seek(6, "section"));
}

TEST(MappedFile, MapsContentsAndNamesMissingFiles) {
  const auto path = std::filesystem::temp_directory_path() / ("cuzk_mapped_" + std::to_string(::getpid()));
  {
    std::ofstream f(path, std::ios::binary);
    f << "hello, map";
  }
  auto m = MappedFile::open(path);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(std::string(m->bytes().begin(), m->bytes().end()), "hello, map");
  MappedFile moved = std::move(*m);
  EXPECT_EQ(moved.bytes().size(), 10u);
  std::filesystem::remove(path);
  auto missing = MappedFile::open(path);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_NE(missing.error().message.find(path.string() + ": open: "), std::string::npos);
}

}  // namespace
}  // namespace cuzk

namespace cuzk {
namespace {

TEST(Progress, LineShowsPercentEtaAndDone) {
  EXPECT_EQ(Progress::line("loading k.params", 250'000, 1'000'000, 2.0),
            "loading k.params:  25% (0.2 of 1.0 M) ETA 6 s");
  EXPECT_EQ(Progress::line("setup", 1'000'000, 1'000'000, 3.25), "setup: 100% (1.0 of 1.0 M) done in 3.2 s");
  EXPECT_EQ(Progress::line("x", 0, 0, 0.5), "x: 100% (0.0 of 0.0 M) done in 0.5 s");
  // Disabled (not a terminal): counts, prints nothing, thread-safe.
  Progress p("quiet", 1000, false);
  ThreadPool pool(2);
  pool.parallel_for(1000, 10, [&](size_t b, size_t e) { p.advance(e - b); });
  EXPECT_EQ(p.done(), 1000u);
  EXPECT_FALSE(p.enabled());
}

}  // namespace
}  // namespace cuzk
