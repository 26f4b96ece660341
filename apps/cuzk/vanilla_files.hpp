#pragma once
// Vanilla proofs read from files, as `prove post|snap` and the daemon's clients (`submit`,
// `prove-remote`) send them: the bytes as they are (the engine decodes and checks them), in the
// order the request needs.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::app {

// --vanilla's files: as given, and directories' *.vanilla.bin files. Throws (invalid argument)
// when there are none.
std::vector<std::string> vanilla_files(const std::vector<std::string>& args);

// PoSt: bincode FallbackPoStSectorProof files in ascending sector order (the sector id is a
// proof's first 8 bytes, little-endian), as Curio sends a partition's.
struct VanillaFile {
  std::string name;
  std::vector<uint8_t> bytes;
  uint64_t sector_id = 0;
};
std::vector<VanillaFile> read_post_vanilla(const std::vector<std::string>& args);

// SnapDeals: the partitions' bincode PartitionProof blobs, one file each, or Curio's
// snap-vproof.json (a JSON array of standard base64 strings, partition order); names as
// "file" or "file[i]" for errors.
std::vector<std::pair<std::string, std::vector<uint8_t>>> read_partition_blobs(const std::vector<std::string>& files);

}  // namespace cuzk::app
