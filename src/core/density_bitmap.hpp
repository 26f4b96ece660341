#pragma once
// Which entries of a scalar vector take part in an MSM (shared/SPEC.md §5): a variable is dense
// in A (or B) when it appears there with a nonzero merged coefficient. The .params vectors a and
// b_g1/b_g2 hold one base per dense variable only, so an MSM walks the scalars and the bitmap
// together and takes the next base at each set bit (bellperson's DensityTracker, read as a fact).
//
// Why in core: it is a plain bit set (no field, no curve). Synthesis (r1cs/proving_cs.hpp) fills
// it; the CPU MSM (msm/pippenger.hpp), the GPU MSM (its words, gpu/msm.hpp) and the prover
// (groth16/assignment.hpp) read it. Its old home, msm, sits beside poly and pairing below r1cs;
// r1cs linked msm for this class alone, dragging Pippenger into every circuit's synthesis. In
// core, the lowest layer, each of them reaches it through links it has anyway (docs/layers.md).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cuzk {

class DensityBitmap {
 public:
  DensityBitmap() = default;
  explicit DensityBitmap(size_t size) { resize(size); }

  // A new entry at the end, sparse until set. O(1): synthesis calls this once per variable.
  void add_element() {
    if (size_ % 64 == 0) words_.push_back(0);
    ++size_;
  }
  // Growing adds sparse entries (the count is unchanged); shrinking drops entries and recounts.
  void resize(size_t size) {
    const bool shrink = size < size_;
    size_ = size;
    words_.resize((size + 63) / 64, 0);
    if (!shrink) return;
    if (size % 64 != 0) words_.back() &= (uint64_t{1} << (size % 64)) - 1;
    count_ = 0;
    for (uint64_t w : words_) count_ += static_cast<size_t>(std::popcount(w));
  }
  // Marks entry i dense (idempotent).
  void set(size_t i) {
    const uint64_t bit = uint64_t{1} << (i % 64);
    uint64_t& w = words_[i / 64];
    count_ += (w & bit) == 0;
    w |= bit;
  }
  bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }

  size_t size() const { return size_; }
  size_t count() const { return count_; }  // the number of dense entries (= bases needed)
  const std::vector<uint64_t>& words() const { return words_; }

  friend bool operator==(const DensityBitmap& a, const DensityBitmap& b) {
    return a.size_ == b.size_ && a.words_ == b.words_;
  }

 private:
  size_t size_ = 0;
  size_t count_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace cuzk
