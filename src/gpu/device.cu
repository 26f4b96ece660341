#include "gpu/cuda_check.hpp"
#include "gpu/device.hpp"

#include <cstdint>

namespace cuzk::gpu {

namespace {

DeviceInfo describe(int ordinal) {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo info;
  info.ordinal = ordinal;
  info.name = prop.name;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.multiprocessors = prop.multiProcessorCount;
  int previous = 0;
  CUDA_CHECK(cudaGetDevice(&previous));
  CUDA_CHECK(cudaSetDevice(ordinal));
  const cudaError_t status = cudaMemGetInfo(&info.free_bytes, &info.total_bytes);
  CUDA_CHECK(cudaSetDevice(previous));
  CUDA_CHECK(status);
  return info;
}

}  // namespace

std::vector<DeviceInfo> list_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" status
    return {};
  }
  std::vector<DeviceInfo> out;
  for (int i = 0; i < count; ++i) out.push_back(describe(i));
  return out;
}

Device::Device(int ordinal) : ordinal_(ordinal) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
  if (ordinal < 0 || ordinal >= count)
    throw Exception(invalid_argument("GPU ordinal " + std::to_string(ordinal) + " is not a visible device (" +
                                     std::to_string(count) + " visible)"));
}

void Device::make_current() const { CUDA_CHECK(cudaSetDevice(ordinal_)); }

DeviceInfo Device::info() const { return describe(ordinal_); }

size_t Device::pool_peak_bytes() const {
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  uint64_t high = 0;  // the attribute is a cuuint64_t (64-bit unsigned)
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  return size_t(high);
}

void Device::reset_pool_peak() const {
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  uint64_t zero = 0;  // the only value the attribute accepts: the mark restarts from current use
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
}

size_t Device::available_bytes() const { return info().free_bytes + pool_kept_bytes(); }

size_t Device::pool_kept_bytes() const {
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  uint64_t reserved = 0, used = 0;
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  return size_t(reserved - used);
}

size_t Device::pool_reserved_bytes() const {
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  uint64_t reserved = 0;
  CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  return size_t(reserved);
}

void Device::retain_pool_memory() const {
  cudaMemPool_t pool = nullptr;
  CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));  // e.g. a key generation's scratch
  uint64_t keep = UINT64_MAX;
  CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
}

ScopedDevice::ScopedDevice(const Device& device) {
  CUDA_CHECK(cudaGetDevice(&previous_));
  device.make_current();
}

ScopedDevice::~ScopedDevice() { cudaSetDevice(previous_); }

}  // namespace cuzk::gpu
