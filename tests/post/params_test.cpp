// PoSt parameter files (post/params.hpp): the official names re-derived as rust-fil-proofs does
// (SHA-256 of the FallbackPoSt::PublicParams identifier) equal the ten v28 names of
// parameters.json listed in SPEC-POST.md §1; finding files: our own, an official one whose digest
// does not match (refused, naming the file), none (the error says what to run).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "post/params.hpp"

namespace cuzk::post {
namespace {

namespace fs = std::filesystem;

TEST(PostParams, OfficialStemsAreDerivedAndListed) {
  // SPEC-POST.md §1: the last 64 hex digits of each file stem (parameters.json, v28).
  struct Case {
    PostKind kind;
    uint64_t size;
    const char* tail;
  };
  const Case cases[] = {
      {PostKind::kWinning, uint64_t{2} << 10, "8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
      {PostKind::kWinning, uint64_t{8} << 20, "8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
      {PostKind::kWinning, uint64_t{512} << 20, "8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
      {PostKind::kWinning, uint64_t{32} << 30, "8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
      {PostKind::kWinning, uint64_t{64} << 30, "8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
      {PostKind::kWindow, uint64_t{2} << 10, "8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
      {PostKind::kWindow, uint64_t{8} << 20, "8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
      {PostKind::kWindow, uint64_t{512} << 20, "8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
      {PostKind::kWindow, uint64_t{32} << 30, "8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
      {PostKind::kWindow, uint64_t{64} << 30, "8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
  };
  for (const Case& k : cases) {
    const std::string want = std::string("v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-") + k.tail;
    EXPECT_EQ(derived_official_stem(post_params(k.kind, k.size).value()), want);
    ASSERT_NE(official_params(k.kind, k.size), nullptr);
    EXPECT_EQ(official_params(k.kind, k.size)->stem, want);
  }
}

TEST(PostParams, FindOwnOfficialOrSayWhatToRun) {
  const fs::path dir = fs::temp_directory_path() / ("cuzk_post_params_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto none = find_params(dir, PostKind::kWindow, 2048);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("cuzk setup --circuit window-post --sector-size 2KiB"), std::string::npos)
      << none.error().message;
  EXPECT_NE(none.error().message.find(std::string(official_params(PostKind::kWindow, 2048)->stem)), std::string::npos);
  for (const char* ext : {".params", ".vk"}) std::ofstream(dir / ("cuzk-v1-winning-post-2KiB" + std::string(ext))) << "x";
  const auto own = find_params(dir, PostKind::kWinning, 2048);
  ASSERT_TRUE(own);
  EXPECT_FALSE(own->official);
  EXPECT_EQ(own->vk, dir / "cuzk-v1-winning-post-2KiB.vk");
  // An official name with other bytes: refused, not silently replaced by our own.
  const std::string stem(official_params(PostKind::kWinning, 2048)->stem);
  for (const char* ext : {".params", ".vk"}) std::ofstream(dir / (stem + ext)) << "not the file";
  const auto bad = find_params(dir, PostKind::kWinning, 2048);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find(stem + ".params: BLAKE2b digest"), std::string::npos) << bad.error().message;
  EXPECT_NE(bad.error().message.find("82c88066be968bb550a05e30ff6c2413"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::post
