// middle_value (vision/select.h) replaces std::nth_element in the paint fit; these tests hold it to that
// reference on random inputs: the same value, to the bit, for every size and spread of values.
#include "vision/select.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace sb::vision {
namespace {

float reference_middle(std::vector<float> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

TEST(MiddleValue, EqualsNthElementOnRandomValuesOfEverySpread) {
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<float> uniform(0.f, 255.f);
  std::exponential_distribution<float> skewed(0.05f);
  std::uniform_int_distribution<int> levels(0, 12);
  int checked = 0;
  for (size_t n : {1u, 2u, 3u, 100u, 4095u, 4096u, 4097u, 9999u, 40000u, 120001u}) {
    for (int kind = 0; kind < 5; ++kind) {
      std::vector<float> v(n);
      for (float& x : v) {
        if (kind == 0) x = uniform(rng);
        if (kind == 1) x = skewed(rng);                                        // a long tail: most in a few buckets
        if (kind == 2) x = static_cast<float>(levels(rng)) / 3.f;              // many equal values
        if (kind == 3) x = uniform(rng) - 128.f;                               // negative values too
        if (kind == 4) x = uniform(rng) < 1.f ? 1e30f : uniform(rng) / 255.f;  // rare values far off the rest
      }
      std::vector<float> copy = v;
      EXPECT_EQ(middle_value(copy), reference_middle(v)) << "size " << n << ", kind " << kind;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 50);
}

TEST(MiddleValue, IsTheUpperOfTwoHalvesThatMeetAtABucketsEdge) {
  // The counts of the lower buckets add up to the middle rank exactly: the middle value is the first of the
  // upper half, in the next bucket that holds any.
  std::vector<float> v(20000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 2 ? 3.f : 1000.f + static_cast<float>(i % 7);
  std::vector<float> copy = v;
  EXPECT_EQ(middle_value(copy), reference_middle(v));
  EXPECT_EQ(reference_middle(v), 1000.f);
}

TEST(MiddleValue, OfNothingIsZeroAndOfEqualValuesIsThatValue) {
  std::vector<float> none;
  EXPECT_EQ(middle_value(none), 0.f);
  std::vector<float> same(50000, 7.25f);
  EXPECT_EQ(middle_value(same), 7.25f);
}

}  // namespace
}  // namespace sb::vision
