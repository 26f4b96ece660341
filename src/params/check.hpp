#pragma once
// Which official parameter files (params/official.hpp) a directory holds and whether their bytes
// are the published ones: `cuzk params check` and the daemon's start-up report. The digest is
// parameters.json's: the first 16 bytes of BLAKE2b-512 of the file, in hex. Hashing a 47 GiB
// .params takes about a minute, so a file's digest is cached beside it in "<file>.cuzk-digest"
// (its size, mtime and digest): computed once, and again only when the file changes.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "params/official.hpp"

namespace cuzk::params {

// Hex of the first 16 bytes of BLAKE2b-512 of the file.
Expected<std::string> file_digest(const std::filesystem::path& file);
// The same, read from "<file>.cuzk-digest" when its size and mtime still match the file, else
// computed and cached there (best effort: a read-only directory only costs a re-hash).
Expected<std::string> cached_file_digest(const std::filesystem::path& file);

// compute: hash files whose digest is not cached yet; cached_only: report them as unchecked
// (the daemon's start-up: it hashes a file when a job first needs it).
enum class Digests : uint8_t { compute, cached_only };

struct FileCheck {
  enum class Status : uint8_t { ok, missing, mismatch, unchecked, unreadable };
  std::filesystem::path path;
  Status status = Status::missing;
  std::string digest;  // what the file hashes to (mismatch, ok), or why it could not be read
};
std::string_view to_string(FileCheck::Status status);  // "ok", "missing", "DIGEST MISMATCH", ...

struct CircuitCheck {
  const OfficialFile* official = nullptr;
  FileCheck params, vk;
  bool ok() const { return params.status == FileCheck::Status::ok && vk.status == FileCheck::Status::ok; }
};

// Each of `files` (default: the whole table) whose sector size is `sector_size` (all when
// nullopt), looked up in `dir`.
std::vector<CircuitCheck> check_dir(const std::filesystem::path& dir, std::optional<uint64_t> sector_size,
                                    Digests digests, std::span<const OfficialFile> files = official_files());

// The answer for scripts (`cuzk params check` exits 0 only for complete): damaged when a present
// official file does not hash to its published digest or cannot be read; else, with a sector
// size, incomplete unless every circuit's two files are there and match; without one,
// incomplete unless some sector size has all of them.
enum class Verdict : uint8_t { complete, incomplete, damaged };
Verdict verdict(const std::vector<CircuitCheck>& checks, std::optional<uint64_t> sector_size);

// A table for people: one line per circuit and file, then the missing files and the directory
// they go in.
std::string report(const std::filesystem::path& dir, const std::vector<CircuitCheck>& checks);

}  // namespace cuzk::params
