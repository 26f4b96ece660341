#include "params/check.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/error.hpp"
#include "core/memory_size.hpp"
#include "core/hex.hpp"

namespace cuzk::params {

namespace fs = std::filesystem;

namespace {


struct Sidecar {
  uint64_t size = 0;
  long long mtime = 0;
};

Expected<Sidecar> stat_file(const fs::path& file) {
  std::error_code ec;
  Sidecar s;
  s.size = fs::file_size(file, ec);
  if (ec) return Error{ErrorCode::kIo, file.string() + ": " + ec.message()};
  s.mtime = static_cast<long long>(fs::last_write_time(file, ec).time_since_epoch().count());
  if (ec) return Error{ErrorCode::kIo, file.string() + ": " + ec.message()};
  return s;
}

std::optional<std::string> read_sidecar(const fs::path& file, const Sidecar& now) {
  std::ifstream in(file.string() + ".cuzk-digest");
  uint64_t size = 0;
  long long mtime = 0;
  std::string digest;
  if (in >> size >> mtime >> digest && size == now.size && mtime == now.mtime && digest.size() == 32) return digest;
  return std::nullopt;
}

FileCheck check_file(const fs::path& path, std::string_view want, Digests digests) {
  FileCheck c;
  c.path = path;
  std::error_code ec;
  if (!fs::exists(path, ec)) return c;  // Status::missing
  Expected<Sidecar> st = stat_file(path);
  if (!st) {
    c.status = FileCheck::Status::unreadable;
    c.digest = st.error().message;
    return c;
  }
  std::optional<std::string> digest = read_sidecar(path, *st);
  if (!digest && digests == Digests::cached_only) {
    c.status = FileCheck::Status::unchecked;
    return c;
  }
  if (!digest) {
    Expected<std::string> d = cached_file_digest(path);
    if (!d) {
      c.status = FileCheck::Status::unreadable;
      c.digest = d.error().message;
      return c;
    }
    digest = *d;
  }
  c.digest = *digest;
  c.status = *digest == want ? FileCheck::Status::ok : FileCheck::Status::mismatch;
  return c;
}

}  // namespace

Expected<std::string> file_digest(const fs::path& file) {
  if (sodium_init() < 0) return Error{ErrorCode::kInternal, "libsodium failed to initialise"};
  // Read, not mapped: a file truncated or replaced while it is hashed (an operator re-fetching
  // parameters) ends the read early, an error for this check; a mapping would fault (SIGBUS).
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{ErrorCode::kIo, file.string() + ": open: " + std::strerror(errno)};
  struct stat at_open {};
  if (::fstat(fd, &at_open) != 0) {
    const int e = errno;
    ::close(fd);
    return Error{ErrorCode::kIo, file.string() + ": fstat: " + std::strerror(e)};
  }
  crypto_generichash_blake2b_state state;
  std::array<uint8_t, 64> out{};
  crypto_generichash_blake2b_init(&state, nullptr, 0, out.size());
  std::vector<uint8_t> chunk(size_t(1) << 24);
  uint64_t done = 0;
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return Error{ErrorCode::kIo, file.string() + ": read at byte " + std::to_string(done) + ": " + std::strerror(e)};
    }
    if (n == 0) break;
    crypto_generichash_blake2b_update(&state, chunk.data(), size_t(n));
    done += uint64_t(n);
  }
  ::close(fd);
  if (done != uint64_t(at_open.st_size))
    return Error{ErrorCode::kCorruption, file.string() + ": " + std::to_string(done) + " bytes read, it had " +
                                             std::to_string(at_open.st_size) + " when the check began (changed during it?)"};
  crypto_generichash_blake2b_final(&state, out.data(), out.size());
  return to_hex(std::span<const uint8_t>(out.data(), 16));
}

Expected<std::string> cached_file_digest(const fs::path& file) {
  Sidecar st;
  CUZK_TRY_ASSIGN(st, stat_file(file));
  if (std::optional<std::string> cached = read_sidecar(file, st)) return *cached;
  std::string digest;
  CUZK_TRY_ASSIGN(digest, file_digest(file));
  std::ofstream out(file.string() + ".cuzk-digest");
  if (out) out << st.size << ' ' << st.mtime << ' ' << digest << '\n';
  return digest;
}

std::string_view to_string(FileCheck::Status status) {
  switch (status) {
    case FileCheck::Status::ok: return "ok";
    case FileCheck::Status::missing: return "missing";
    case FileCheck::Status::mismatch: return "DIGEST MISMATCH";
    case FileCheck::Status::unchecked: return "present (digest not checked yet)";
    case FileCheck::Status::unreadable: return "unreadable";
  }
  return "unknown";
}

std::vector<CircuitCheck> check_dir(const fs::path& dir, std::optional<uint64_t> sector_size, Digests digests,
                                    std::span<const OfficialFile> files) {
  std::vector<CircuitCheck> out;
  for (const OfficialFile& f : files) {
    if (sector_size && f.sector_size != *sector_size) continue;
    CircuitCheck c;
    c.official = &f;
    c.params = check_file(dir / (std::string(f.stem) + ".params"), f.params_digest, digests);
    c.vk = check_file(dir / (std::string(f.stem) + ".vk"), f.vk_digest, digests);
    out.push_back(std::move(c));
  }
  return out;
}

Verdict verdict(const std::vector<CircuitCheck>& checks, std::optional<uint64_t> sector_size) {
  const auto bad = [](const FileCheck& f) {
    return f.status == FileCheck::Status::mismatch || f.status == FileCheck::Status::unreadable;
  };
  for (const CircuitCheck& c : checks)
    if (bad(c.params) || bad(c.vk)) return Verdict::damaged;
  // Per sector size: are all its circuits there?
  std::vector<std::pair<uint64_t, bool>> sizes;  // (size, complete so far), in table order
  for (const CircuitCheck& c : checks) {
    auto at = std::find_if(sizes.begin(), sizes.end(), [&](const auto& s) { return s.first == c.official->sector_size; });
    if (at == sizes.end()) {
      sizes.emplace_back(c.official->sector_size, true);
      at = sizes.end() - 1;
    }
    at->second = at->second && c.ok();
  }
  if (sizes.empty()) return Verdict::incomplete;  // no circuit at this size
  if (sector_size) return sizes.front().second ? Verdict::complete : Verdict::incomplete;
  for (const auto& [size, complete] : sizes)
    if (complete) return Verdict::complete;
  return Verdict::incomplete;
}

std::string report(const fs::path& dir, const std::vector<CircuitCheck>& checks) {
  std::string out = fmt::format("parameters in {}\n", dir.string());
  std::vector<const FileCheck*> missing;
  for (const CircuitCheck& c : checks) {
    const std::string what = fmt::format("{} {}", to_string(c.official->circuit), exact_size_text(c.official->sector_size));
    for (const auto& [file, ext, want] : {std::tuple{&c.params, ".params", c.official->params_digest},
                                          std::tuple{&c.vk, ".vk", c.official->vk_digest}}) {
      std::string status(to_string(file->status));
      if (file->status == FileCheck::Status::mismatch)
        status += fmt::format(": {} hashes to {}, parameters.json says {} (a damaged or partial download: fetch it "
                              "again)", file->path.filename().string(), file->digest, want);
      if (file->status == FileCheck::Status::unreadable) status += ": " + file->digest;
      out += fmt::format("  {:<34} {:<7} {}\n", what, ext, status);
      if (file->status == FileCheck::Status::missing) missing.push_back(file);
    }
  }
  if (!missing.empty()) {
    out += fmt::format("missing files ({}), to be fetched into {} with Filecoin's tools "
                       "(e.g. `curio fetch-params <size>`; cuzk does not download):\n",
                       missing.size(), dir.string());
    for (const FileCheck* f : missing) out += fmt::format("  {}\n", f->path.filename().string());
  }
  return out;
}

}  // namespace cuzk::params
