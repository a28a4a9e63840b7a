// Deterministic random numbers for the renderer. The standard distributions are implementation-defined, so the
// renderer draws everything from its own: one seed gives the same picture with any standard library.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace sb::vision {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) { next(); }

  // splitmix64: small, fast, and good enough for pictures.
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int below(int n) { return n <= 0 ? 0 : static_cast<int>(next() % static_cast<uint64_t>(n)); }
  int between(int lo, int hi) { return lo + below(hi - lo + 1); }  // inclusive
  bool chance(double p) { return uniform() < p; }
  double normal() {  // Box–Muller, one value per call
    double u1 = uniform(), u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  double normal(double mean, double sigma) { return mean + sigma * normal(); }
  // An independent stream: parts of a picture draw from their own forks so that changing one part's number
  // of draws leaves the others as they were.
  Rng fork(uint64_t salt) { return Rng(next() ^ (salt * 0xD1B54A32D192ED03ull)); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(static_cast<int>(v.size()))];
  }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(static_cast<int>(i))]);
  }

 private:
  uint64_t state_;
};

}  // namespace sb::vision
