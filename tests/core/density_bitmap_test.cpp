#include "core/density_bitmap.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace cuzk {
namespace {

// Against a std::vector<bool> model: random add_element/set/resize sequences keep size, count and
// every bit equal; set is idempotent; shrinking drops the bits beyond the new size.
TEST(DensityBitmap, MatchesAVectorOfBool) {
  std::mt19937_64 g(7);
  DensityBitmap d;
  std::vector<bool> model;
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = g() % 10;
    if (op < 6) {
      d.add_element();
      model.push_back(false);
    } else if (op < 9 && !model.empty()) {
      const size_t i = g() % model.size();
      d.set(i);
      model[i] = true;
    } else {
      const size_t n = model.size() + 70 > 140 ? g() % (model.size() + 70) : model.size();
      d.resize(n);
      model.resize(n, false);
    }
  }
  ASSERT_EQ(d.size(), model.size());
  size_t count = 0;
  for (size_t i = 0; i < model.size(); ++i) {
    ASSERT_EQ(d.test(i), model[i]) << i;
    count += model[i];
  }
  EXPECT_EQ(d.count(), count);
  ASSERT_FALSE(model.empty());
  DensityBitmap copy = d;
  copy.set(0);
  copy.set(0);
  EXPECT_EQ(copy.count(), count + (model[0] ? 0 : 1));
}

}  // namespace
}  // namespace cuzk
