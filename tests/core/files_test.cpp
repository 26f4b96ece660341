#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <cstdio>
#include <fstream>
#include <string>
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
  EXPECT_EQ(Progress::line("x", 0, 0, 0.5), "x: 100% (0 of 0) done in 0.5 s");
  EXPECT_EQ(Progress::line("proving", 3, 10, 6.0), "proving:  30% (3 of 10) ETA 14 s");  // counts as they are
  // Disabled (not a terminal): counts, prints nothing, thread-safe.
  Progress p("quiet", 1000, false);
  ThreadPool pool(2);
  pool.parallel_for(1000, 10, [&](size_t b, size_t e) { p.advance(e - b); });
  EXPECT_EQ(p.done(), 1000u);
  EXPECT_FALSE(p.enabled());
}

// Not a terminal: one plain line per tenth at most (no carriage returns), then the final line.
std::vector<std::string> progress_lines(size_t threads) {
  std::FILE* out = std::tmpfile();
  EXPECT_NE(out, nullptr);
  {
    Progress p("proving", 200, ProgressStyle::lines, out);
    if (threads == 1) {
      for (int i = 0; i < 200; ++i) p.advance(1);
    } else {
      ThreadPool pool(threads);
      pool.parallel_for(200, 1, [&](size_t b, size_t e) { p.advance(e - b); });
    }
  }
  std::rewind(out);
  std::vector<std::string> lines;
  char buf[256];
  while (std::fgets(buf, sizeof buf, out) != nullptr) lines.emplace_back(buf);
  std::fclose(out);
  return lines;
}

TEST(Progress, LinesStylePrintsEachTenthOnce) {
  const std::vector<std::string> lines = progress_lines(1);
  ASSERT_EQ(lines.size(), 10u);  // 10%, 20% .. 90%, then "done"
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    EXPECT_EQ(lines[i].find('\r'), std::string::npos);
    const std::string want = "proving:  " + std::to_string(10 * (i + 1)) + "% (" + std::to_string(20 * (i + 1)) + " of 200)";
    EXPECT_EQ(lines[i].substr(0, want.size()), want) << lines[i];
    EXPECT_NE(lines[i].find(" ETA "), std::string::npos) << lines[i];
  }
  EXPECT_NE(lines.back().find("100% (200 of 200) done in"), std::string::npos) << lines.back();
  // From two threads: never more lines, always the final one.
  const std::vector<std::string> racing = progress_lines(2);
  EXPECT_LE(racing.size(), 10u);
  ASSERT_FALSE(racing.empty());
  EXPECT_NE(racing.back().find("done in"), std::string::npos);
  EXPECT_NE(Progress::stderr_style(), ProgressStyle::off);
}

}  // namespace
}  // namespace cuzk
