#pragma once
// Which Groth16 parameter files prove a circuit, for every proof kind: in the directory the
// caller gives (the app's --params, else $FIL_PROOFS_PARAMETER_CACHE, else
// /var/tmp/filecoin-proof-parameters: apps/cuzk/settings.hpp), the official v28 file of the
// circuit and sector size (params/official.hpp; its BLAKE2b digest checked against
// parameters.json, cached beside it: params/check.hpp) is preferred, then cuzk's own
// (`cuzk setup --circuit ...`: our SRS for tests and benchmarks, never named like the official).

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "params/official.hpp"

namespace cuzk::params {

inline constexpr std::string_view kDefaultParameterDir = "/var/tmp/filecoin-proof-parameters";

// cuzk's own file stem, "cuzk-v1-<circuit>-<size>" (v1: the circuit version; bump it whenever a
// circuit's rows change): "cuzk-v1-stacked-porep-2KiB", "cuzk-v1-window-post-32GiB",
// "cuzk-v1-winning-post-2KiB", "cuzk-v1-snap-2KiB".
std::string own_stem(Circuit circuit, uint64_t sector_size);

// `cuzk setup --circuit <this>`: "porep", "window-post", "winning-post", "snap".
std::string_view setup_name(Circuit circuit);

struct Files {
  std::filesystem::path params, vk;
  bool official = false;
};

// The files to use in `dir`: the official ones when both are present and their digests match (a
// mismatch is kCorruption naming the file: a damaged download is never used silently), else
// cuzk's own; neither is kNotFound saying what to fetch or which setup to run.
Expected<Files> find_files(const std::filesystem::path& dir, Circuit circuit, uint64_t sector_size);

}  // namespace cuzk::params
