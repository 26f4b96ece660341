#pragma once
// Where a PoRep circuit's Groth16 parameters live (shared/SPEC.md §6). The directory is the
// caller's (the app's --params, else $FIL_PROOFS_PARAMETER_CACHE, else kDefaultParameterDir:
// apps/cuzk/settings.hpp). In it the
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
#include "params/find.hpp"
#include "params/official.hpp"

namespace cuzk::porep {

inline constexpr std::string_view kDefaultParameterDir = params::kDefaultParameterDir;

// One published PoRep circuit (params/official.hpp, the table of every proof kind's files; one
// circuit per sector size serves both the V1 and V1_1 registered proofs: the graph enters through
// public inputs).
using OfficialParams = params::OfficialFile;
const OfficialParams* official_params(uint64_t sector_size);  // nullptr for an unknown size

// cuzk's own file stem for a sector size, e.g. "cuzk-v1-stacked-porep-2KiB" (params::own_stem).
std::string own_params_stem(uint64_t sector_size);

// The files to use in `dir` for a sector size: params::find_files (official ones first, their
// digests checked, then cuzk's own; neither: an error that says what to fetch or run).
using ParamsFiles = params::Files;
Expected<ParamsFiles> find_params(const std::filesystem::path& dir, uint64_t sector_size);

// Hex of the first 16 bytes of BLAKE2b-512 of the file (parameters.json's "digest"):
// params::file_digest.
Expected<std::string> parameter_digest(const std::filesystem::path& file);

}  // namespace cuzk::porep
