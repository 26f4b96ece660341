#pragma once
// A bounds-checked cursor over the bytes of a file or buffer, for the binary formats we read
// (.params, .vk, .zkey, .r1cs, .wtns, compiled circuits). Every read names the field it reads;
// running past the end, or any error raised through error(), reads
//   "<source>: offset <n>: <field>: <what>"
// so a truncated or corrupted file says where and what.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk {

class ByteReader {
 public:
  // source: what the bytes are, usually the file's path.
  ByteReader(std::span<const uint8_t> bytes, std::string source) : bytes_(bytes), source_(std::move(source)) {}

  size_t offset() const { return offset_; }
  size_t remaining() const { return bytes_.size() - offset_; }
  const std::string& source() const { return source_; }

  // The next n bytes, or an error when fewer remain.
  Expected<std::span<const uint8_t>> take(size_t n, std::string_view field) {
    if (n > remaining()) {
      return error(ErrorCode::kCorruption, field,
                   "needs " + std::to_string(n) + " bytes, the file ends after " + std::to_string(remaining()));
    }
    const auto out = bytes_.subspan(offset_, n);
    offset_ += n;
    return out;
  }
  Expected<uint32_t> u32_be(std::string_view field) { return integer<uint32_t>(field, true); }
  Expected<uint32_t> u32_le(std::string_view field) { return integer<uint32_t>(field, false); }
  Expected<uint64_t> u64_le(std::string_view field) { return integer<uint64_t>(field, false); }

  // Moves to an absolute offset (for formats with section tables).
  Expected<void> seek(size_t offset, std::string_view field) {
    if (offset > bytes_.size()) {
      return error(ErrorCode::kCorruption, field,
                   "offset " + std::to_string(offset) + " is past the end (" + std::to_string(bytes_.size()) + " bytes)");
    }
    offset_ = offset;
    return {};
  }

  // An error at the current offset.
  Error error(ErrorCode code, std::string_view field, std::string_view what) const { return error_at(offset_, code, field, what); }
  Error error_at(size_t offset, ErrorCode code, std::string_view field, std::string_view what) const {
    std::string m = source_;
    m.append(": offset ").append(std::to_string(offset)).append(": ");
    m.append(field).append(": ").append(what);
    return Error{code, std::move(m)};
  }

 private:
  template <class T>
  Expected<T> integer(std::string_view field, bool big_endian) {
    auto b = take(sizeof(T), field);
    if (!b) return b.error();
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      const size_t k = big_endian ? i : sizeof(T) - 1 - i;
      v = static_cast<T>(v << 8 | (*b)[k]);
    }
    return v;
  }

  std::span<const uint8_t> bytes_;
  std::string source_;
  size_t offset_ = 0;
};

}  // namespace cuzk
