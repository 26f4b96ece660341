#include "post/params.hpp"

#include <array>

#include "core/hex.hpp"
#include "core/memory_size.hpp"
#include "gadgets/sha256_native.hpp"
#include "params/check.hpp"
#include "porep/params.hpp"

namespace cuzk::post {

namespace fs = std::filesystem;

namespace {

// rust-fil-proofs @87348a74 parameters.json, the v28 proof-of-spacetime-fallback entries
// (SPEC-POST.md §1 lists the names; derived_official_stem re-derives them, tested).
constexpr std::array<OfficialParams, 10> kOfficial = {{
    {PostKind::kWinning, uint64_t{2} << 10,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e",
     "82c88066be968bb550a05e30ff6c2413", "ffd79788d614d27919ae5bd2d94eacb6"},
    {PostKind::kWinning, uint64_t{8} << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331",
     "700171ecf7334e3199437c930676af82", "79ebb55f56fda427743e35053edad8fc"},
    {PostKind::kWinning, uint64_t{512} << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781",
     "827359440349fe8f5a016e7598993b79", "bd2cd62f65c1ab84f19ca27e97b7c731"},
    {PostKind::kWinning, uint64_t{32} << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e",
     "d84f79a16fe40e9e25a36e2107bb1ba0", "fc02943678dd119e69e7fab8420e8819"},
    {PostKind::kWinning, uint64_t{64} << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c",
     "2170a91ad5bae22ea61f2ea766630322", "6d3789148fb6466d07ee1e24d6292fd6"},
    {PostKind::kWindow, uint64_t{2} << 10,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0",
     "7610b9f82bfc88405b7a832b651ce2f6", "0e0958009936b9d5e515ec97b8cb792d"},
    {PostKind::kWindow, uint64_t{8} << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9",
     "c49499bb76a0762884896f9683403f55", "34d4feeacd9abf788d69ef1bb4d8fd00"},
    {PostKind::kWindow, uint64_t{512} << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9",
     "1a7d4a9c8a502a497ed92a54366af33f", "4dae975de4f011f101f5a2f86d1daaba"},
    {PostKind::kWindow, uint64_t{32} << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc",
     "2cf49eb26f1fee94c85781a390ddb4c8", "0f8ec542485568fa3468c066e9fed82b"},
    {PostKind::kWindow, uint64_t{64} << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def",
     "3810b7780ac0e299b22ae70f1f94c9bc", "59d2bf1857adc59a4f08fcf2afaa916b"},
}};


}  // namespace

const OfficialParams* official_params(PostKind kind, uint64_t sector_size) {
  for (const OfficialParams& p : kOfficial)
    if (p.kind == kind && p.sector_size == sector_size) return &p;
  return nullptr;
}

std::string derived_official_stem(const PostParams& p) {
  const std::string identifier = "FallbackPoSt::PublicParams{sector_size: " + std::to_string(p.sector.sector_size) +
                                 ", challenge_count: " + std::to_string(p.challenge_count) +
                                 ", sector_count: " + std::to_string(p.sector_count) + "}";
  const gadgets::native::Sha256Digest h = gadgets::native::sha256(
      std::span(reinterpret_cast<const uint8_t*>(identifier.data()), identifier.size()));
  return "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-" + std::to_string(p.sector.base_arity) + "-" +
         std::to_string(p.sector.sub_arity) + "-" + std::to_string(p.sector.top_arity) + "-" + to_hex(h);
}

std::string own_params_stem(PostKind kind, uint64_t sector_size) {
  return "cuzk-v1-" + std::string(kind_name(kind)) + "-" + exact_size_text(sector_size);
}

Expected<ParamsFiles> find_params(const fs::path& dir, PostKind kind, uint64_t sector_size) {
  if (const OfficialParams* official = official_params(kind, sector_size)) {
    const fs::path params = dir / (std::string(official->stem) + ".params");
    const fs::path vk = dir / (std::string(official->stem) + ".vk");
    if (fs::exists(params) && fs::exists(vk)) {
      for (const auto& [file, want] : {std::pair{params, official->params_digest}, std::pair{vk, official->vk_digest}}) {
        std::string digest;
        CUZK_TRY_ASSIGN(digest, params::cached_file_digest(file));
        if (digest != want) {
          return Error{ErrorCode::kCorruption, file.string() + ": BLAKE2b digest " + digest + ", parameters.json says " +
                                                   std::string(want) + " (a damaged or partial download?)"};
        }
      }
      return ParamsFiles{params, vk, true};
    }
  }
  const std::string stem = own_params_stem(kind, sector_size);
  const fs::path params = dir / (stem + ".params"), vk = dir / (stem + ".vk");
  if (fs::exists(params) && fs::exists(vk)) return ParamsFiles{params, vk, false};
  std::string msg = "no " + std::string(kind_name(kind)) + " parameters for " + exact_size_text(sector_size) +
                    " sectors in " + dir.string() + ": ";
  if (const OfficialParams* official = official_params(kind, sector_size))
    msg += "fetch " + std::string(official->stem) + ".params and .vk there, or ";
  msg += "run `cuzk setup --circuit " + std::string(kind_name(kind)) + " --sector-size " + exact_size_text(sector_size) +
         " --out " + dir.string() + "` (cuzk's own SRS, for tests and benchmarks)";
  return Error{ErrorCode::kNotFound, msg};
}

}  // namespace cuzk::post
