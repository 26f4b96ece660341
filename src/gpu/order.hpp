#pragma once
// The index order of a vector on the device: an NTT's input and output (gpu/ntt.hpp), an MSM's
// scalars (gpu/msm.hpp). bit_reversed: element i at position bitrev(i) over log2(size) bits.

namespace cuzk::gpu {

enum class Order { natural, bit_reversed };

}  // namespace cuzk::gpu
