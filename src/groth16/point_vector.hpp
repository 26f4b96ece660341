#pragma once
// Decoding a run of fixed-size encoded points from a key file, in parallel: the shared inner loop
// of the .params and .zkey readers. The first bad point (lowest index) is reported, as
// "<file>: offset <n>: <name>[i]: <reason>".

#include <atomic>
#include <limits>
#include <string>
#include <vector>

#include "core/byte_reader.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"

namespace cuzk::groth16 {

// decode(std::span<const uint8_t>) -> Expected<Point>, for count points of `size` bytes each;
// progress (if any) advances by the bytes decoded.
template <class Point, class Decode>
Expected<std::vector<Point>> decode_points(ByteReader& r, size_t count, size_t size, const std::string& name,
                                           ThreadPool& pool, Decode&& decode, Progress* progress = nullptr) {
  if (count > r.remaining() / size) {
    return r.error(ErrorCode::kCorruption, name,
                   std::to_string(count) + " points need " + std::to_string(count * size) + " bytes, " +
                       std::to_string(r.remaining()) + " remain");
  }
  const size_t start = r.offset();
  const auto bytes = r.take(count * size, name).value();
  std::vector<Point> points(count);
  std::atomic<size_t> first_bad{std::numeric_limits<size_t>::max()};
  pool.parallel_for(count, 256, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end && i < first_bad.load(std::memory_order_relaxed); ++i) {
      auto p = decode(bytes.subspan(i * size, size));
      if (!p) {
        size_t cur = first_bad.load();
        while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {}
        return;
      }
      points[i] = *p;
    }
    if (progress) progress->advance((end - begin) * size);
  });
  if (const size_t i = first_bad.load(); i != std::numeric_limits<size_t>::max()) {
    const Error e = decode(bytes.subspan(i * size, size)).error();
    return r.error_at(start + i * size, e.code, name + "[" + std::to_string(i) + "]", e.message);
  }
  return points;
}

}  // namespace cuzk::groth16
