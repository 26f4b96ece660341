#pragma once
// bellperson's parameter files (shared/SPEC.md §6):
//   .vk:     alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, u32-BE n, ic[n]
//   .params: the .vk bytes, then h, l, a, b_g1, b_g2, each a u32-BE count and the points.
// Points are zcash-encoded (ec/serialize.hpp), uncompressed in bellperson's files; the point at
// infinity is rejected everywhere, as bellperson's reader does. The compressed variant (same
// order) is what polka-storage ships its keys in. Errors name the file, the byte offset and the
// field ("h[17]"). Files are read with pread in chunks (64 MiB) at absolute offsets and each
// chunk decoded in parallel, not through a memory map: a file truncated while it loads gives a
// short read, a clean error for that load naming the offset, where a mapping would fault the
// process (SIGBUS). A whole private copy would hold a 47 GiB file twice. A file replaced by a
// rename during the load is read whole from the file first opened (the descriptor keeps it); one
// changed in place (size or modification time differs at the end) is refused.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "ec/serialize.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

enum class PointEncoding { kUncompressed, kCompressed };

struct ReadOptions {
  PointEncoding encoding = PointEncoding::kUncompressed;
  // kSkip only for a file already checked once (e.g. matched against parameters.json's digest).
  ec::SubgroupCheck subgroup = ec::SubgroupCheck::kCheck;
  // read_vk / read_params: called before each read of the file with its offset (a caller's
  // progress; the tests truncate the file here).
  std::function<void(uint64_t offset)> before_read = nullptr;
};

// source names the bytes in errors (usually the path).
Expected<VerifyingKey> parse_vk(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool,
                                ReadOptions options = {});
Expected<Parameters> parse_params(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool,
                                  ReadOptions options = {});
Expected<VerifyingKey> read_vk(const std::filesystem::path& path, ThreadPool& pool, ReadOptions options = {});
Expected<Parameters> read_params(const std::filesystem::path& path, ThreadPool& pool, ReadOptions options = {});

// Uncompressed, bellperson's layout.
std::vector<uint8_t> vk_bytes(const VerifyingKey& vk);
Expected<void> write_vk(const std::filesystem::path& path, const VerifyingKey& vk);
Expected<void> write_params(const std::filesystem::path& path, const Parameters& params);

}  // namespace cuzk::groth16
