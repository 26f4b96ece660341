// porep/params.hpp: the parameter directory's precedence, the BLAKE2b digest against a published
// vector, and which files find_params picks (or refuses) in a scratch directory.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "porep/params.hpp"
#include "support/process.hpp"

namespace cuzk::porep {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// RFC 7693 appendix A: BLAKE2b-512("abc") = ba80a53f981c4d0d6a2797b69f12f6e9 23...; the
// parameters.json digest is its first 16 bytes.
TEST(PorepParams, DigestIsBlake2b512Prefix) {
  test::TempDir dir("porep-params");
  const fs::path f = dir.path() / "abc";
  write(f, "abc");
  EXPECT_EQ(parameter_digest(f).value(), "ba80a53f981c4d0d6a2797b69f12f6e9");
  EXPECT_FALSE(parameter_digest(dir.path() / "missing").has_value());
}

TEST(PorepParams, FindPrefersVerifiedOfficialThenOwn) {
  test::TempDir dir("porep-params");
  const uint64_t kib2 = 2048;
  // Nothing there: the error names the directory and the command to run.
  auto none = find_params(dir.path(), kib2);
  ASSERT_FALSE(none.has_value());
  EXPECT_NE(none.error().message.find("cuzk setup --circuit porep --sector-size 2KiB"), std::string::npos);
  EXPECT_NE(none.error().message.find(dir.path().string()), std::string::npos);

  // Our own files.
  const std::string own = own_params_stem(kib2);
  EXPECT_EQ(own, "cuzk-v1-stacked-porep-2KiB");
  EXPECT_EQ(own_params_stem(uint64_t(32) << 30), "cuzk-v1-stacked-porep-32GiB");
  write(dir.path() / (own + ".params"), "p");
  write(dir.path() / (own + ".vk"), "v");
  auto found = find_params(dir.path(), kib2);
  ASSERT_TRUE(found.has_value()) << found.error().message;
  EXPECT_FALSE(found->official);
  EXPECT_EQ(found->params.filename(), own + ".params");

  // Official names with the wrong bytes: refused, naming the file and both digests (never a
  // silent fallback to our own SRS).
  const OfficialParams* official = official_params(kib2);
  ASSERT_NE(official, nullptr);
  const fs::path bad = dir.path() / (std::string(official->stem) + ".params");
  write(bad, "not the parameters");
  write(dir.path() / (std::string(official->stem) + ".vk"), "not the vk");
  auto refused = find_params(dir.path(), kib2);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find(bad.string()), std::string::npos);
  EXPECT_NE(refused.error().message.find(official->params_digest), std::string::npos);
  // The digest was cached beside the file; changing the file invalidates it.
  EXPECT_TRUE(fs::exists(bad.string() + ".cuzk-digest"));
  EXPECT_EQ(official_params(12345), nullptr);
}

}  // namespace
}  // namespace cuzk::porep
