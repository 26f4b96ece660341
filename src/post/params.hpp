#pragma once
// Where a PoSt circuit's Groth16 parameters live: the directory the caller gives (as for PoRep:
// --params, $FIL_PROOFS_PARAMETER_CACHE, /var/tmp/filecoin-proof-parameters, read by the app:
// apps/cuzk/settings.hpp). In it the official
// v28 file of the kind and size (its published name, its BLAKE2b digest checked against
// parameters.json) is preferred, then cuzk's own (`cuzk setup --circuit window-post|winning-post`).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "post/registered.hpp"

namespace cuzk::post {

// One published FallbackPoSt circuit (rust-fil-proofs parameters.json, v28). V1 and V1_2 WindowPoSt
// share it: the ApiVersion is not part of the identifier.
struct OfficialParams {
  PostKind kind;
  uint64_t sector_size;
  std::string_view stem;           // file name without .params / .vk
  std::string_view params_digest;  // hex of the first 16 bytes of BLAKE2b-512 of the file
  std::string_view vk_digest;
};
const OfficialParams* official_params(PostKind kind, uint64_t sector_size);  // nullptr: unknown

// The stem as rust-fil-proofs derives it (parameter_cache.rs cache_identifier): "v28-" + the cache
// prefix "proof-of-spacetime-fallback-merkletree-poseidon_hasher-{base}-{sub}-{top}" + "-" + hex
// SHA-256 of "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}".
std::string derived_official_stem(const PostParams& params);

// cuzk's own stem, e.g. "cuzk-v1-window-post-2KiB" (v1: the circuit version).
std::string own_params_stem(PostKind kind, uint64_t sector_size);

struct ParamsFiles {
  std::filesystem::path params, vk;
  bool official = false;
};

// As porep::find_params: official files when present and their digests match (a mismatch is an
// error naming the file), else cuzk's own; neither: an error saying what to fetch or run.
Expected<ParamsFiles> find_params(const std::filesystem::path& dir, PostKind kind, uint64_t sector_size);

}  // namespace cuzk::post
