#pragma once
// Host/device function markers: under nvcc, functions that the kernels and the host (the CPU
// twins, the host tests) both run; in a plain C++ build, ordinary inline functions. In core/ so
// that ec/formulas.hpp, the point formulas of both the CPU and the GPU, can use them.

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_NOINLINE __host__ __device__ __noinline__
#define CUZK_HD_CONSTEXPR __host__ __device__ constexpr
#else
#define CUZK_HD inline
#define CUZK_HD_NOINLINE inline
#define CUZK_HD_CONSTEXPR constexpr
#endif
