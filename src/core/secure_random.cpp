#include "core/secure_random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"

namespace cuzk {

void secure_random_bytes(std::span<uint8_t> out) {
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::getrandom(out.data() + done, out.size() - done, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Exception(Error{ErrorCode::kIo, std::string("getrandom: ") + std::strerror(errno)});
    }
    done += static_cast<size_t>(n);
  }
}

}  // namespace cuzk
