// gpu_fill: holds a GPU's free memory for a while, as another process on a shared card would
// (tests/apps/gpu_multi.sh: a card filled in mid-run fails only the attempts made on it, and
// proves again after its rest). usage: gpu_fill <ordinal> <seconds> [MiB left free, default 256]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/stream.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gpu_fill <ordinal> <seconds> [MiB left free]\n");
    return 2;
  }
  try {
    const cuzk::gpu::Device device(std::stoi(argv[1]));
    const cuzk::gpu::ScopedDevice on(device);
    const size_t leave = (argc > 3 ? std::stoull(argv[3]) : 256) << 20;
    cuzk::gpu::Stream stream;
    const size_t free = device.info().free_bytes;
    const size_t bytes = free > leave ? free - leave : 0;
    cuzk::gpu::DeviceBuffer<uint8_t> hold(bytes, stream);
    hold.zero(stream);  // touched: the pages are the card's, not a reservation
    stream.synchronize();
    std::printf("holding %.1f GiB of GPU %d for %s s (%.1f GiB was free)\n", double(bytes) / double(1ull << 30),
                device.ordinal(), argv[2], double(free) / double(1ull << 30));
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::seconds(std::stoi(argv[2])));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_fill: %s\n", e.what());
    return 1;
  }
}
