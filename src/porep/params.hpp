#pragma once
// Where a PoRep circuit's Groth16 parameters live (shared/SPEC.md §6). The directory is --params
// DIR, else $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters. In it the
// official file of the sector size (its published name; its BLAKE2b digest checked against
// Filecoin's parameters.json) is preferred, then cuzk's own (`cuzk setup --circuit porep`, our
// SRS, for tests and benchmarks: never named like the official ones).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk::porep {

inline constexpr std::string_view kDefaultParameterDir = "/var/tmp/filecoin-proof-parameters";

// --params DIR if given, else $FIL_PROOFS_PARAMETER_CACHE if set and non-empty, else the default.
std::filesystem::path parameter_dir(const std::optional<std::filesystem::path>& flag);

// One published PoRep circuit (rust-fil-proofs parameters.json, v28; one circuit per sector size
// serves both the V1 and V1_1 registered proofs: the graph enters through public inputs).
struct OfficialParams {
  uint64_t sector_size;
  std::string_view stem;           // file name without .params / .vk
  std::string_view params_digest;  // hex of the first 16 bytes of BLAKE2b-512 of the file
  std::string_view vk_digest;
};
const OfficialParams* official_params(uint64_t sector_size);  // nullptr for an unknown size

// cuzk's own file stem for a sector size, e.g. "cuzk-v1-stacked-porep-2KiB" (v1: the circuit
// version; bump it whenever the circuit's rows change).
std::string own_params_stem(uint64_t sector_size);

struct ParamsFiles {
  std::filesystem::path params, vk;
  bool official = false;
};

// The files to use in `dir` for a sector size: official ones when present and their digests
// match (a mismatch is an error naming the file: a corrupt download must not be used silently),
// else cuzk's own; neither gives an error that says what to run. Digests of large files are
// cached beside them in "<file>.cuzk-digest" (size, mtime, digest), so a 47 GiB file is hashed
// once, not on every start.
Expected<ParamsFiles> find_params(const std::filesystem::path& dir, uint64_t sector_size);

// Hex of the first 16 bytes of BLAKE2b-512 of the file (parameters.json's "digest").
Expected<std::string> parameter_digest(const std::filesystem::path& file);

// parameter_digest, from "<file>.cuzk-digest" when its size and mtime still match the file (else
// computed and the sidecar written, best effort). Also used for the PoSt files (post/params.hpp).
Expected<std::string> cached_parameter_digest(const std::filesystem::path& file);

}  // namespace cuzk::porep
