#include "core/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace cuzk {
namespace {
Error os_error(const std::filesystem::path& path, const char* call) {
  return Error{ErrorCode::kIo, path.string() + ": " + call + ": " + std::strerror(errno)};
}
}  // namespace

Expected<MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return os_error(path, "open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Error e = os_error(path, "fstat");
    ::close(fd);
    return e;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {  // mmap rejects length 0; an empty file is an empty span
    ::close(fd);
    return MappedFile(path, nullptr, 0);
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  Error e = p == MAP_FAILED ? os_error(path, "mmap") : Error{};
  ::close(fd);  // the mapping keeps the file open
  if (p == MAP_FAILED) return e;
  return MappedFile(path, static_cast<const uint8_t*>(p), size);
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : path_(std::move(o.path_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    reset();
    path_ = std::move(o.path_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { reset(); }

void MappedFile::reset() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace cuzk
