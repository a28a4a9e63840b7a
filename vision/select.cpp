#include "vision/select.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sb::vision {

float middle_value(std::vector<float>& values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
  const float lo = *lo_it, hi = *hi_it;
  constexpr int kBuckets = 1024;
  // Few values, or values a histogram cannot split (all alike, not finite): the plain selection.
  if (values.size() < 4 * kBuckets || !(hi > lo) || !std::isfinite(hi - lo)) {
    std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
    return values[mid];
  }
  // A bucket index that never decreases as the value grows (a difference and a product by a positive factor are
  // monotonic under rounding), so every value of a bucket lies between those of the buckets on either side:
  // the middle value is the one of its rank within the bucket where the counts pass `mid`.
  const float scale = static_cast<float>(kBuckets) / (hi - lo);
  auto bucket = [&](float v) { return std::min(kBuckets - 1, static_cast<int>((v - lo) * scale)); };
  std::array<int, kBuckets> count{};
  for (float v : values) ++count[static_cast<size_t>(bucket(v))];
  size_t below = 0;
  int b = 0;
  while (below + static_cast<size_t>(count[static_cast<size_t>(b)]) <= mid)
    below += static_cast<size_t>(count[static_cast<size_t>(b++)]);
  size_t kept = 0;
  for (float v : values)
    if (bucket(v) == b) values[kept++] = v;  // never ahead of the reading position
  std::nth_element(values.begin(), values.begin() + static_cast<long>(mid - below),
                   values.begin() + static_cast<long>(kept));
  return values[mid - below];
}

}  // namespace sb::vision
