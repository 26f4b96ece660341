#pragma once
// A proving key held on one GPU: the bases of h, l, a, b_g1 (G1) and b_g2 (G2) in device memory,
// the verifying key on the host. What the GPU prover (groth16/gpu_prover.hpp) reads. Two ways in:
//   upload    — a host key (a .params file, or groth16::setup on the CPU), copied once;
//   generate  — our own SRS made on the GPU (`cuzk setup --device`, `cuzk bench e2e`): the
//               exponents from groth16::key_scalars on the CPU, then every fixed-base
//               multiplication on the device (gpu/fixed_base.hpp). Equal, point for point, to
//               groth16::setup with the same toxic waste; at 32 GiB (~47 GiB of bases) it never
//               exists on the host unless download() asks for it.
// Built only with CUDA (the cuzk::groth16_gpu library).

#include <memory>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::groth16 {

class DeviceKey {
 public:
  // The device buffers; valid while the key lives. Their stream is the key's own (bases are
  // complete when upload/generate return: other streams may read them without an event).
  struct Bases {
    gpu::DeviceBuffer<G1Affine> h, l, a, b_g1;
    gpu::DeviceBuffer<ec::G2Affine> b_g2;
  };
  struct GenerateTimes {
    double scalars_ms = 0;     // key_scalars on the CPU
    double fixed_base_ms = 0;  // uploads and fixed-base multiplications on the GPU
  };

  // Copies the key's bases to `device`. Throws cuzk::Exception when the device runs out of memory.
  static DeviceKey upload(const Parameters& params, const gpu::Device& device);
  // Makes the key of `circuit` from `tw` on `device` (see the header comment). Fails as setup()
  // does (tau a root of unity); throws cuzk::Exception on a CUDA failure (e.g. out of memory).
  static Expected<DeviceKey> generate(const r1cs::CompiledR1cs<ff::Fr>& circuit, const ToxicWaste& tw,
                                      ThreadPool& pool, const gpu::Device& device, GenerateTimes* times = nullptr);

  DeviceKey(DeviceKey&&) noexcept;
  DeviceKey& operator=(DeviceKey&&) noexcept;
  ~DeviceKey();

  // The whole key on the host, in bellperson's layout (to write a .params file).
  Parameters download() const;

  const VerifyingKey& vk() const;
  ParameterSizes sizes() const;
  const gpu::Device& device() const;
  const Bases& bases() const;
  size_t bytes() const;  // device memory held by the bases

 private:
  struct State;
  explicit DeviceKey(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

}  // namespace cuzk::groth16
