// `cuzk bench ntt` on the GPU (ntt_gpu_bench.hpp).
#include "gpu/field.cuh"
// (first: see field.cuh's note on nv_diag 550)
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/event.hpp"
#include "gpu/ntt.hpp"
#include "gpu/stream.hpp"
#include "ntt_gpu_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

namespace cuzk::bench {
namespace {

// Pseudo-random reduced elements, made on the device (2^28 of them from the host would take
// seconds): splitmix64 of the index, top word below r's (0x73eda753), so every value is < r.
__global__ void fill_random(gpu::DeviceFr* data, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t z = seed + i * 0x9e3779b97f4a7c15ull;
    gpu::DeviceFr x;
    for (int w = 0; w < 8; w += 2) {
      z += 0x9e3779b97f4a7c15ull;
      uint64_t m = z;
      m = (m ^ (m >> 30)) * 0xbf58476d1ce4e5b9ull;
      m = (m ^ (m >> 27)) * 0x94d049bb133111ebull;
      m ^= m >> 31;
      x.limbs[w] = uint32_t(m);
      x.limbs[w + 1] = uint32_t(m >> 32);
    }
    x.limbs[7] &= 0x3fffffffu;
    data[i] = x;
  }
}

struct Case {
  const char* transform;
  gpu::Order in, out;
};

const char* order_name(gpu::Order o) { return o == gpu::Order::natural ? "natural" : "bit_reversed"; }

}  // namespace

int run_ntt_gpu_bench(const NttGpuBenchOptions& options) {
  // h: Groth16's H stage as the prover runs it, and beside it its peer h_separate (below).
  const std::vector<std::string> transforms =
      options.transform == "all" ? std::vector<std::string>{"ntt", "intt", "coset_ntt", "coset_intt"}
      : options.transform == "h" ? std::vector<std::string>{"h", "h_separate"}
                                 : std::vector<std::string>{options.transform};
  for (const auto& t : transforms) {
    if (t != "ntt" && t != "intt" && t != "coset_ntt" && t != "coset_intt" && t != "h" && t != "h_separate") {
      std::fprintf(stderr, "bench ntt: unknown transform '%s' (ntt, intt, coset_ntt, coset_intt, all, h)\n",
                   t.c_str());
      return 2;
    }
  }
  const std::vector<std::string> orders =
      options.order == "all" ? std::vector<std::string>{"nn", "nr", "rn", "rr"} : std::vector<std::string>{options.order};
  for (const auto& o : orders) {
    if (o.size() != 2 || (o[0] != 'n' && o[0] != 'r') || (o[1] != 'n' && o[1] != 'r')) {
      std::fprintf(stderr, "bench ntt: unknown order '%s' (nn, nr, rn, rr, all)\n", o.c_str());
      return 2;
    }
  }
  std::vector<gpu::NttRoots> roots;
  if (options.roots == "two-level" || options.roots == "both") roots.push_back(gpu::NttRoots::two_level);
  if (options.roots == "full" || options.roots == "both") roots.push_back(gpu::NttRoots::full);
  if (roots.empty()) {
    std::fprintf(stderr, "bench ntt: unknown --roots '%s' (two-level, full, both)\n", options.roots.c_str());
    return 2;
  }
  if (options.log_n_min > options.log_n_max || options.log_n_max > gpu::ntt_detail::kMaxLogSize || options.repeat == 0) {
    std::fprintf(stderr, "bench ntt: need log_n_min <= log_n_max <= 28 and repeat >= 1\n");
    return 2;
  }
  try {
    const gpu::Device device(options.device);
    gpu::ScopedDevice scope(device);
    gpu::Stream stream;
    if (!options.json) {
      std::printf("GPU NTT over Fr on %s, data on the device, %u runs each\n", device.info().name.c_str(),
                  options.repeat);
      std::printf("%-11s %-6s %-9s %6s %11s %11s %11s %9s\n", "transform", "order", "roots", "log_n", "median_ms",
                  "min_ms", "max_ms", "GB/s");
    }
    for (unsigned log_n = options.log_n_min; log_n <= options.log_n_max; ++log_n) {
      const size_t n = size_t{1} << log_n;
      std::vector<std::unique_ptr<gpu::NttDomain>> domains;
      for (const gpu::NttRoots r : roots) domains.push_back(std::make_unique<gpu::NttDomain>(log_n, stream, r));
      // H's transforms take three vectors (a, b, c); the others one.
      const bool h_stage = transforms.front().starts_with("h");
      std::vector<gpu::DeviceBuffer<ff::Fr>> vectors;
      for (unsigned v = 0; v < (h_stage ? 3u : 1u); ++v) {
        vectors.emplace_back(n, stream);
        fill_random<<<1024, 256, 0, stream.get()>>>(reinterpret_cast<gpu::DeviceFr*>(vectors.back().data()), n,
                                                     0x5eed + log_n + (uint64_t{v} << 32));
        gpu::Stream::check_launch();
      }
      ff::Fr* const data = vectors[0].data();
      for (const auto& t : transforms) {
        for (const auto& o : orders) {
          gpu::Order in = o[0] == 'n' ? gpu::Order::natural : gpu::Order::bit_reversed;
          gpu::Order out = o[1] == 'n' ? gpu::Order::natural : gpu::Order::bit_reversed;
          // h: the prover's chain from rows in `in` order (h comes out in the other order, where
          // the MSM reads it: the second letter is not used), once per first letter; h_separate:
          // the chain before docs/PERF.md 40, 43 and 45, from natural rows: bellperson's seven
          // public transforms and h permuted to natural order, once.
          const auto first_with_rows = std::find_if(orders.begin(), orders.end(),
                                                    [&](const std::string& e) { return e[0] == o[0]; });
          if (t == "h" && &*first_with_rows != &o) continue;
          if (t == "h_separate" && o != orders.front()) continue;
          if (t == "h") out = in == gpu::Order::natural ? gpu::Order::bit_reversed : gpu::Order::natural;
          if (t == "h_separate") in = out = gpu::Order::natural;
          const char shown[3] = {in == gpu::Order::natural ? 'n' : 'r', out == gpu::Order::natural ? 'n' : 'r', '\0'};
          for (const auto& dp : domains) {
            const gpu::NttDomain& domain = *dp;
            const char* roots_name = domain.roots() == gpu::NttRoots::full ? "full" : "two-level";
            const auto run = [&] {
              if (t == "ntt") domain.ntt(data, in, out, stream);
              else if (t == "intt") domain.intt(data, in, out, stream);
              else if (t == "coset_ntt") domain.coset_ntt(data, in, out, stream);
              else if (t == "coset_intt") domain.coset_intt(data, in, out, stream);
              else if (t == "h") domain.h_from_rows(data, vectors[1].data(), vectors[2].data(), in, stream);
              else {
                for (auto& v : vectors) {
                  domain.intt(v.data(), gpu::Order::natural, gpu::Order::bit_reversed, stream);
                  domain.coset_ntt(v.data(), gpu::Order::bit_reversed, gpu::Order::natural, stream);
                }
                gpu::h_pointwise(data, vectors[1].data(), vectors[2].data(), domain.z_inv(), n, stream);
                domain.coset_intt(data, gpu::Order::natural, gpu::Order::natural, stream);
              }
            };
            run();  // warm-up
            std::vector<double> ms;
            for (unsigned r = 0; r < options.repeat; ++r) {
              gpu::Event start, stop;
              start.record(stream);
              run();
              stop.record(stream);
              stop.synchronize();
              ms.push_back(gpu::Event::elapsed_ms(start, stop));
            }
            std::vector<double> sorted = ms;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted[sorted.size() / 2];
            // One read and one write of the vector a transform (H: its six or seven transforms' worth).
            const double transforms_run = t == "h" ? 6.0 : t == "h_separate" ? 7.0 : 1.0;
            const double gbps = transforms_run * 2.0 * double(n) * sizeof(ff::Fr) / (median * 1e-3) / 1e9;
            if (options.json) {
              std::printf(
                  "{\"bench\":\"ntt_gpu\",\"device\":\"%s\",\"transform\":\"%s\",\"in\":\"%s\",\"out\":\"%s\","
                  "\"roots\":\"%s\",\"log_n\":%u,\"repeat\":%u,\"median_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,"
                  "\"gb_per_s\":%.1f}\n",
                  device.info().name.c_str(), t.c_str(), order_name(in), order_name(out), roots_name, log_n,
                  options.repeat, median, sorted.front(), sorted.back(), gbps);
            } else {
              std::printf("%-11s %-6s %-9s %6u %11.3f %11.3f %11.3f %9.1f\n", t.c_str(), shown, roots_name, log_n, median,
                          sorted.front(), sorted.back(), gbps);
            }
            std::fflush(stdout);
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench ntt: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace cuzk::bench
