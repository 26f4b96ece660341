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
#include "params/find.hpp"
#include "params/official.hpp"
#include "post/registered.hpp"

namespace cuzk::post {

// The FallbackPoSt circuit of a kind in the table of published files (params/official.hpp: V1
// and V1_2 WindowPoSt share one; the ApiVersion is not part of the identifier).
params::Circuit params_circuit(PostKind kind);
using OfficialParams = params::OfficialFile;
const OfficialParams* official_params(PostKind kind, uint64_t sector_size);  // nullptr: unknown

// The stem as rust-fil-proofs derives it (parameter_cache.rs cache_identifier): "v28-" + the cache
// prefix "proof-of-spacetime-fallback-merkletree-poseidon_hasher-{base}-{sub}-{top}" + "-" + hex
// SHA-256 of "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}".
std::string derived_official_stem(const PostParams& params);

// cuzk's own stem, e.g. "cuzk-v1-window-post-2KiB" (params::own_stem).
std::string own_params_stem(PostKind kind, uint64_t sector_size);

// The files to use: params::find_files (official ones first, their digests checked, then cuzk's
// own; neither: an error saying what to fetch or run).
using ParamsFiles = params::Files;
Expected<ParamsFiles> find_params(const std::filesystem::path& dir, PostKind kind, uint64_t sector_size);

}  // namespace cuzk::post
