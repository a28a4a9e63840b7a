// Processor time of the calling thread: the per-stage timings are reported in it, because wall time on a shared
// machine counts the other processes too.
#pragma once

#include <time.h>

namespace sb::vision {

inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace sb::vision
