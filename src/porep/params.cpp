#include "porep/params.hpp"

#include <sodium.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "core/mapped_file.hpp"

namespace cuzk::porep {

namespace fs = std::filesystem;

namespace {

// rust-fil-proofs @87348a74 parameters.json, the v28 stacked-proof-of-replication entries.
constexpr std::array<OfficialParams, 5> kOfficial = {{
    {2048,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f",
     "434fb1338ecfaf0f59256f30dde4968f", "dc1ade9929ade1708238f155343044ac"},
    {8388608,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb",
     "09e612e4eeb7a0eb95679a88404f960c", "b687beb9adbd9dabe265a7e3620813e4"},
    {536870912,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472",
     "6c77597eb91ab936c1cef4cf19eba1b3", "065179da19fbe515507267677f02823e"},
    {34359738368,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820",
     "6a388072a518cf46ebd661f5cc46900a", "0c7b4aac1c40fdb7eb82bc355b41addf"},
    {68719476736,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2",
     "1801f8a6e1b00bceb00cc27314bb5ce3", "a89884252c04c298d0b3c81bfd884164"},
}};

std::string size_name(uint64_t bytes) {
  static constexpr std::array<const char*, 4> kUnits = {"B", "KiB", "MiB", "GiB"};
  size_t unit = 0;
  while (unit + 1 < kUnits.size() && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++unit;
  }
  return std::to_string(bytes) + kUnits[unit];
}

}  // namespace

fs::path parameter_dir(const std::optional<fs::path>& flag) {
  if (flag) return *flag;
  const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
  if (env != nullptr && *env != '\0') return fs::path(env);
  return fs::path(kDefaultParameterDir);
}

const OfficialParams* official_params(uint64_t sector_size) {
  for (const OfficialParams& p : kOfficial)
    if (p.sector_size == sector_size) return &p;
  return nullptr;
}

std::string own_params_stem(uint64_t sector_size) { return "cuzk-v1-stacked-porep-" + size_name(sector_size); }

Expected<std::string> parameter_digest(const fs::path& file) {
  if (sodium_init() < 0) return Error{ErrorCode::kInternal, "libsodium failed to initialise"};
  Expected<MappedFile> mapped = MappedFile::open(file);
  if (!mapped) return mapped.error();
  crypto_generichash_blake2b_state state;
  std::array<uint8_t, 64> out{};
  crypto_generichash_blake2b_init(&state, nullptr, 0, out.size());
  const std::span<const uint8_t> bytes = mapped->bytes();
  constexpr size_t kChunk = size_t(1) << 24;
  for (size_t at = 0; at < bytes.size(); at += kChunk) {
    const size_t n = std::min(kChunk, bytes.size() - at);
    crypto_generichash_blake2b_update(&state, bytes.data() + at, n);
  }
  crypto_generichash_blake2b_final(&state, out.data(), out.size());
  return to_hex(std::span<const uint8_t>(out.data(), 16));
}

Expected<std::string> cached_parameter_digest(const fs::path& file) {
  std::error_code ec;
  const uint64_t size = fs::file_size(file, ec);
  if (ec) return Error{ErrorCode::kIo, file.string() + ": " + ec.message()};
  const auto mtime = fs::last_write_time(file, ec).time_since_epoch().count();
  const fs::path sidecar = file.string() + ".cuzk-digest";
  {
    std::ifstream in(sidecar);
    uint64_t s = 0;
    long long m = 0;
    std::string digest;
    if (in >> s >> m >> digest && s == size && m == static_cast<long long>(mtime) && digest.size() == 32) return digest;
  }
  std::string digest;
  CUZK_TRY_ASSIGN(digest, parameter_digest(file));
  std::ofstream out(sidecar);  // best effort: a read-only directory only costs a re-hash
  if (out) out << size << ' ' << static_cast<long long>(mtime) << ' ' << digest << '\n';
  return digest;
}

Expected<ParamsFiles> find_params(const fs::path& dir, uint64_t sector_size) {
  if (const OfficialParams* official = official_params(sector_size)) {
    const fs::path params = dir / (std::string(official->stem) + ".params");
    const fs::path vk = dir / (std::string(official->stem) + ".vk");
    if (fs::exists(params) && fs::exists(vk)) {
      for (const auto& [file, want] : {std::pair{params, official->params_digest}, std::pair{vk, official->vk_digest}}) {
        std::string digest;
        CUZK_TRY_ASSIGN(digest, cached_parameter_digest(file));
        if (digest != want) {
          return Error{ErrorCode::kCorruption, file.string() + ": BLAKE2b digest " + digest + ", parameters.json says " +
                                                   std::string(want) + " (a damaged or partial download?)"};
        }
      }
      return ParamsFiles{params, vk, true};
    }
  }
  const std::string stem = own_params_stem(sector_size);
  const fs::path params = dir / (stem + ".params"), vk = dir / (stem + ".vk");
  if (fs::exists(params) && fs::exists(vk)) return ParamsFiles{params, vk, false};
  std::string msg = "no PoRep parameters for " + size_name(sector_size) + " sectors in " + dir.string() + ": ";
  if (const OfficialParams* official = official_params(sector_size)) {
    msg += "fetch " + std::string(official->stem) + ".params and .vk there, or ";
  }
  msg += "run `cuzk setup --circuit porep --sector-size " + size_name(sector_size) + " --out " + dir.string() +
         "` (cuzk's own SRS, for tests and benchmarks)";
  return Error{ErrorCode::kNotFound, msg};
}

}  // namespace cuzk::porep
