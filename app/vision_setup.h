// What `read` and `referee --source` share: the vision options (--corners, --calibration, --lens, --set,
// --debug) and a game's pipeline set up from them.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "app/args.h"
#include "calibration/calibration.h"
#include "calibration/corner_lens.h"
#include "vision/pipeline.h"

namespace sb::cli {

// --corners x,y,x,y,x,y,x,y; --calibration FILE.json (from `calibrate --save`); --lens FILE.json; --set FILE.json
// (a learnt piece set, see `enroll`); --debug FILE.png|DIR (the pipeline's overlay).
std::vector<OptionSpec> vision_option_specs();

// "x,y,x,y,x,y,x,y": the playing area's corners near-left, near-right, far-right, far-left.
std::array<cv::Point2d, 4> parse_corner_list(const std::string& text);

// The image in `path`, in colour; an InputError naming the file when it is missing or cannot be decoded.
cv::Mat read_image_file(const std::string& path);

// One still picture shown to `pipeline` as a still scene until the motion gate has seen it settle and the sites
// were read (or the board was not found: `located` false).
vision::BoardObservation read_still_image(vision::Pipeline& pipeline, const cv::Mat& image);

// One line for people: the lens fit_corners_with_lens estimated (or that it kept the plain homography), with the
// residuals it decided on.
std::string corner_lens_note(const calib::CornerLens& est);

class VisionSetup {
 public:
  // Reads and checks every vision option at once (a bad file is an error before any frame is read).
  VisionSetup(const std::string& game, const Args& args, vision::PipelineParams params = {});

  vision::Pipeline& pipeline() { return *pipeline_; }
  // Called with the first frame: applies the --corners or --calibration fit (a calibration made for another image
  // size is an InputError). Corners without --lens: the lens's radial distortion is estimated from the board in
  // this frame (calib::fit_corners_with_lens) and kept when it clearly fits the board's drawing better; the
  // returned line says what was found (empty when nothing was estimated).
  std::string start(const cv::Mat& first_frame);
  bool has_fixed_fit() const { return corners_.has_value() || calibration_.has_value(); }
  bool has_set() const { return has_set_; }

 private:
  std::string game_;
  std::optional<std::array<cv::Point2d, 4>> corners_;
  std::optional<calib::Calibration> calibration_;
  std::string calibration_path_;
  std::optional<calib::Lens> lens_;
  bool has_set_ = false;
  std::unique_ptr<vision::Pipeline> pipeline_;
};

}  // namespace sb::cli
