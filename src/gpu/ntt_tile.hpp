#pragma once
// The shared-memory tile of one NTT pass (gpu/ntt.cu's ntt_pass), here so that the host test
// (tests/gpu/ntt_tables_test.cpp) checks the layout the kernels use.
//
// A pass of k bits with 2^c columns (c = pass_columns_log) holds a tile of 2^(k + c) elements,
// element i = (row << c) + column. Its threads hold 2^b elements each (b = pass_radix_bits(k)):
// thread t loads and stores elements i = t + m·threads, m < 2^b; the k stages run in groups of
// group_bits(k, b, g) stages, where set o (o < 2^(k + c - R) for a group of R stages starting at
// stage s_lo) holds column o mod 2^c and rows group_row0(o >> c, s_lo, R) | (m << s_lo), m < 2^R.
//
// In shared memory the tile sits in four planes of 64-bit words (words 2v, 2v + 1 of element i at
// plane v, slot tile_swizzle(i)). A warp's 64-bit access is served by half-warps, conflict-free
// when the 16 lanes' slots differ mod 16; tile_swizzle XORs into bits 0..3 a mask picked by bits
// 4..6 (nibble h of 0x927c5eb0), found by a search over XOR swizzles and checked by the test for
// every access of every pass shape of 2^1..2^28.

#include "core/hd.hpp"

namespace cuzk::gpu::ntt_detail {

inline constexpr unsigned kMaxPassBits = 10;  // 2^10 Fr = 32 KiB of shared memory per tile

// Stages a thread runs in registers per trip through shared memory: radix-8 groups (8 elements a
// thread, 128 registers) for passes of 3j bits, radix-4 (4 elements, twice the threads, 80
// registers, 24 warps per SM against 16) for the others. Measured on the H200 (docs/PERF.md 18):
// radix-4 is 11-23 % faster on passes of 7 and 8 bits, 5 % slower on 9.
CUZK_HD_CONSTEXPR unsigned pass_radix_bits(unsigned k) { return k % 3 == 0 ? 3 : 2; }

// log2 of the columns a tile holds: as many as fill 2^kMaxPassBits elements, at most the columns
// there are (stride_log = log2 of the pass's column stride; 0 after the last pass).
CUZK_HD_CONSTEXPR unsigned pass_columns_log(unsigned k, unsigned stride_log) {
  return stride_log < kMaxPassBits - k ? stride_log : kMaxPassBits - k;
}

// Stages in group g of ceil(k / b): as even as possible, larger first (9 = 3+3+3, 8 = 2+2+2+2,
// 7 = 2+2+2+1).
CUZK_HD_CONSTEXPR unsigned pass_groups(unsigned k, unsigned b) { return (k + b - 1) / b; }
CUZK_HD_CONSTEXPR unsigned group_bits(unsigned k, unsigned b, unsigned g) {
  return k / pass_groups(k, b) + (g < k % pass_groups(k, b) ? 1 : 0);
}

// The first of the 2^R rows of set q (q = o >> c) in a group of stages s_lo .. s_lo + R - 1: the
// rows that differ in those bits only.
CUZK_HD_CONSTEXPR unsigned group_row0(unsigned q, unsigned s_lo, unsigned R) {
  return ((q >> s_lo) << (s_lo + R)) | (q & ((1u << s_lo) - 1));
}

// A bijection on [0, 1024) that changes bits 0..3 only (a tile of 512 stays within 512).
CUZK_HD_CONSTEXPR unsigned tile_swizzle(unsigned i) { return i ^ ((0x927c5eb0u >> (((i >> 4) & 7) * 4)) & 15); }

}  // namespace cuzk::gpu::ntt_detail
