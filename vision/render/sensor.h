// What the camera's optics and sensor do to a rendered picture: defocus, motion blur, noise and JPEG
// compression. The noise is drawn once per sensor and shifted per frame, which keeps a frame cheap.
#pragma once

#include <opencv2/core.hpp>

#include "vision/render/look.h"

namespace sb::vision {

class Sensor {
 public:
  Sensor(const SensorLook& look, cv::Size image_size, uint64_t seed);
  // `frame_seed` chooses this frame's noise; `extra_motion_px`/`extra_angle_deg` add a streak of camera
  // shake (a nudged camera) to the look's own motion blur.
  void apply(cv::Mat& bgr, uint64_t frame_seed, double extra_motion_px = 0, double extra_angle_deg = 0) const;
  const SensorLook& look() const { return look_; }

 private:
  SensorLook look_;
  cv::Mat noise_;  // CV_8SC3, larger than the image by kNoiseMargin each way
};

// A normalised line kernel for motion blur of `length_px` at `angle_deg`.
cv::Mat motion_kernel(double length_px, double angle_deg);

}  // namespace sb::vision
