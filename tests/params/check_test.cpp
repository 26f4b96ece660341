// params/: the table of official files against the naming rules of shared/SPEC-POST.md §1 and
// SPEC-SNAP.md §2, and check_dir / verdict / report on a scratch directory whose files hash to a
// published BLAKE2b vector (RFC 7693 appendix A: BLAKE2b-512("abc") begins ba80a53f981c4d0d...).

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "params/check.hpp"
#include "support/process.hpp"

namespace cuzk::params {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

constexpr std::string_view kAbcDigest = "ba80a53f981c4d0d6a2797b69f12f6e9";  // RFC 7693 A, first 16 bytes

// Each kind at each of the five sector sizes, named "v28-<prefix>-<base>-<sub>-<top>-..." with the
// tree shape of the size (8-0-0 up to 512 MiB, 8-8-0 at 32 GiB, 8-8-2 at 64 GiB), distinct stems
// except where parameters.json shares one, 32-hex digests.
TEST(OfficialParams, TableFollowsTheNamingRules) {
  const std::pair<Circuit, std::string_view> prefixes[] = {
      {Circuit::porep, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-"},
      {Circuit::winning_post, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-"},
      {Circuit::window_post, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-"},
      {Circuit::snap_deals, "v28-empty-sector-update-merkletree-poseidon_hasher-"},
  };
  const std::pair<uint64_t, std::string_view> shapes[] = {
      {2048, "8-0-0-"}, {8u << 20, "8-0-0-"}, {512u << 20, "8-0-0-"}, {uint64_t(32) << 30, "8-8-0-"}, {uint64_t(64) << 30, "8-8-2-"}};
  std::set<std::string_view> stems;
  for (const auto& [circuit, prefix] : prefixes) {
    for (const auto& [size, shape] : shapes) {
      const OfficialFile* f = official_file(circuit, size);
      ASSERT_NE(f, nullptr) << to_string(circuit) << " " << size;
      EXPECT_EQ(f->stem.substr(0, prefix.size()), prefix);
      EXPECT_EQ(f->stem.substr(prefix.size(), shape.size()), shape) << f->stem;
      EXPECT_EQ(f->params_digest.size(), 32u);
      EXPECT_EQ(f->vk_digest.size(), 32u);
      EXPECT_NE(f->params_digest, f->vk_digest);
      EXPECT_TRUE(stems.insert(f->stem).second) << "stem listed twice: " << f->stem;
    }
  }
  EXPECT_EQ(official_files().size(), stems.size());
  EXPECT_EQ(official_file(Circuit::porep, 12345), nullptr);
  // The 32 GiB Window PoSt name as shared/SPEC-POST.md §1 gives it.
  EXPECT_EQ(official_file(Circuit::window_post, uint64_t(32) << 30)->stem,
            "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
            "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc");
}

TEST(ParamsCheck, DigestIsBlake2b512PrefixAndCached) {
  test::TempDir dir("params-check");
  const fs::path f = dir.path() / "abc";
  write(f, "abc");
  EXPECT_EQ(file_digest(f).value(), kAbcDigest);
  EXPECT_EQ(cached_file_digest(f).value(), kAbcDigest);
  ASSERT_TRUE(fs::exists(f.string() + ".cuzk-digest"));
  // A sidecar with the right size and mtime is believed (that is its point) ...
  std::string sidecar;
  {
    std::ifstream in(f.string() + ".cuzk-digest");
    std::getline(in, sidecar);
  }
  write(f.string() + ".cuzk-digest", sidecar.substr(0, sidecar.size() - 32) + std::string(32, '0'));
  EXPECT_EQ(cached_file_digest(f).value(), std::string(32, '0'));
  // ... and a changed file is hashed again.
  write(f, "abcd");
  EXPECT_NE(cached_file_digest(f).value(), std::string(32, '0'));
  EXPECT_FALSE(file_digest(dir.path() / "missing").has_value());
}

// The digest reads the file (no mapping: a file cut short while it is hashed would fault one): one
// whose bytes read differ from its size when the check began is an error, not a digest. A FIFO
// (size 0, 100 bytes to read) stands for a file that changed during the check.
TEST(ParamsCheck, AFileChangedDuringTheDigestIsAnError) {
  test::TempDir dir("params-check");
  const fs::path fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ofstream(fifo) << std::string(100, 'x');
  });
  const Expected<std::string> d = file_digest(fifo);
  writer.join();
  ASSERT_FALSE(d.has_value());
  EXPECT_EQ(d.error().code, ErrorCode::kCorruption);
  EXPECT_NE(d.error().message.find("100 bytes read, it had 0 when the check began"), std::string::npos)
      << d.error().message;
  EXPECT_FALSE(file_digest(dir.path() / "missing").has_value());
}

// A two-entry table whose files are "abc" (so their digests are known) checks ok; a wrong .vk is
// a mismatch that names both digests; a missing file is listed with the directory it goes in.
TEST(ParamsCheck, StatusesVerdictAndReport) {
  test::TempDir dir("params-check");
  const OfficialFile table[] = {{Circuit::porep, 2048, "stem-a", kAbcDigest, kAbcDigest},
                                {Circuit::window_post, 2048, "stem-b", kAbcDigest, kAbcDigest}};
  // Nothing there.
  auto checks = check_dir(dir.path(), std::nullopt, Digests::compute, table);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].params.status, FileCheck::Status::missing);
  EXPECT_EQ(verdict(checks, std::nullopt), Verdict::incomplete);
  std::string text = report(dir.path(), checks);
  EXPECT_NE(text.find("stem-a.params"), std::string::npos) << text;
  EXPECT_NE(text.find("stem-a.vk"), std::string::npos);
  EXPECT_NE(text.find("stem-b.params"), std::string::npos) << text;
  EXPECT_NE(text.find(dir.path().string()), std::string::npos);

  // Present before hashing: cached_only leaves it unchecked, compute checks it.
  write(dir.path() / "stem-a.params", "abc");
  write(dir.path() / "stem-a.vk", "abc");
  checks = check_dir(dir.path(), std::nullopt, Digests::cached_only, table);
  EXPECT_EQ(checks[0].params.status, FileCheck::Status::unchecked);
  checks = check_dir(dir.path(), std::nullopt, Digests::compute, table);
  EXPECT_EQ(checks[0].params.status, FileCheck::Status::ok);
  EXPECT_EQ(checks[0].vk.status, FileCheck::Status::ok);
  EXPECT_TRUE(checks[0].ok());
  EXPECT_EQ(verdict(checks, 2048), Verdict::incomplete);  // stem-b is missing
  write(dir.path() / "stem-b.params", "abc");
  write(dir.path() / "stem-b.vk", "abc");
  checks = check_dir(dir.path(), std::nullopt, Digests::compute, table);
  EXPECT_EQ(verdict(checks, std::nullopt), Verdict::complete);
  EXPECT_EQ(verdict(checks, 2048), Verdict::complete);
  EXPECT_EQ(verdict(check_dir(dir.path(), uint64_t(32) << 30, Digests::compute, table), uint64_t(32) << 30),
            Verdict::incomplete);  // no circuit of that size in the table
  checks = check_dir(dir.path(), std::nullopt, Digests::cached_only, table);
  EXPECT_EQ(checks[0].params.status, FileCheck::Status::ok) << "cached by the computing check";

  // A damaged file.
  write(dir.path() / "stem-a.vk", "abd");
  checks = check_dir(dir.path(), 2048, Digests::compute, table);
  EXPECT_EQ(checks[0].vk.status, FileCheck::Status::mismatch);
  EXPECT_EQ(verdict(checks, 2048), Verdict::damaged);
  text = report(dir.path(), checks);
  EXPECT_NE(text.find("DIGEST MISMATCH"), std::string::npos) << text;
  EXPECT_NE(text.find(checks[0].vk.digest), std::string::npos);
  EXPECT_NE(text.find(kAbcDigest), std::string::npos);
  // Damage in another circuit's file counts too.
  write(dir.path() / "stem-a.vk", "abc");
  write(dir.path() / "stem-b.params", "xyz");
  EXPECT_EQ(verdict(check_dir(dir.path(), 2048, Digests::compute, table), 2048), Verdict::damaged);
}

}  // namespace
}  // namespace cuzk::params
