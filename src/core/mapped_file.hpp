#pragma once
// A read-only memory map of a whole file (POSIX mmap), unmapped on destruction. Large inputs
// (.params of tens of GiB, compiled circuits) are decoded straight from the mapping, so no copy
// of the file is ever held in memory.

#include <cstdint>
#include <filesystem>
#include <span>

#include "core/expected.hpp"

namespace cuzk {

class MappedFile {
 public:
  // Errors name the path and the failing call (open, fstat, mmap) with errno's text.
  static Expected<MappedFile> open(const std::filesystem::path& path);

  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const std::filesystem::path& path() const { return path_; }

 private:
  MappedFile(std::filesystem::path path, const uint8_t* data, size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  void reset();

  std::filesystem::path path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace cuzk
