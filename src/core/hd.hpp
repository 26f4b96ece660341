#pragma once
// Host/device function markers: under nvcc, functions that the kernels and the host (the CPU
// twins, the host tests) both run; in a plain C++ build, ordinary inline functions. In core/ so
// that ec/formulas.hpp, the point formulas of both the CPU and the GPU, can use them.

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_NOINLINE __host__ __device__ __noinline__
#define CUZK_HD_CONSTEXPR __host__ __device__ constexpr
// Before a __host__ __device__ template that host-only types instantiate too (ec/formulas.hpp over
// ff::Fp): nvcc checks each instantiation's calls for both sides and rejects the host types'
// constexpr operators (#20013), though that instantiation never runs on the device. Thrust's
// __thrust_exec_check_disable__ is the same pragma.
#define CUZK_NO_EXEC_CHECK _Pragma("nv_exec_check_disable")
#else
#define CUZK_HD inline
#define CUZK_HD_NOINLINE inline
#define CUZK_HD_CONSTEXPR constexpr
#define CUZK_NO_EXEC_CHECK
#endif
