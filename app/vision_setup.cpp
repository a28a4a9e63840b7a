#include "app/vision_setup.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include <opencv2/imgcodecs.hpp>

#include "calibration/board_locator.h"
#include "calibration/corner_lens.h"
#include "calibration/lens.h"
#include "engines/common/errors.h"
#include "vision/game_vision.h"
#include "vision/piece_set.h"

namespace sb::cli {

std::vector<OptionSpec> vision_option_specs() {
  return {{"--corners"}, {"--calibration"}, {"--lens"}, {"--set"}, {"--debug"}};
}

std::array<cv::Point2d, 4> parse_corner_list(const std::string& text) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(parse_double(item, "--corners value '" + item + "'", -1e6, 1e6));
  if (v.size() != 8)
    throw InputError("--corners: expected 8 numbers x,y,x,y,x,y,x,y (near-left, near-right, far-right, far-left), got " +
                     std::to_string(v.size()));
  std::array<cv::Point2d, 4> corners;
  for (size_t k = 0; k < 4; ++k) corners[k] = {v[2 * k], v[2 * k + 1]};
  return corners;
}

cv::Mat read_image_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("cannot read image '" + path + "': no such file");
  cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
  if (image.empty()) throw InputError("cannot read image '" + path + "': not an image OpenCV can decode");
  return image;
}

vision::BoardObservation read_still_image(vision::Pipeline& pipeline, const cv::Mat& image) {
  vision::Frame frame;
  frame.image = image;
  vision::BoardObservation obs;
  const int64_t step_ms = 100;
  const int frames = 40;  // 4 s of stillness: far beyond the gate's window
  for (int i = 0; i < frames && !obs.read; ++i) {
    frame.t_ms = i * step_ms;
    frame.index = i;
    obs = pipeline.process(frame);
    if (!obs.located) break;
  }
  return obs;
}

VisionSetup::VisionSetup(const std::string& game, const Args& args, vision::PipelineParams params) : game_(game) {
  if (args.has("--corners") && args.has("--calibration"))
    throw InputError("give the board either by --corners or by --calibration, not both");
  if (auto text = args.value("--corners")) corners_ = parse_corner_list(*text);
  if (auto path = args.value("--lens")) lens_ = calib::load_lens(*path);
  if (auto path = args.value("--calibration")) {
    calibration_ = calib::load_calibration(*path, game);
    calibration_path_ = *path;
    if (calibration_->lens) lens_ = calibration_->lens;
  }
  params.debug = params.debug || args.has("--debug");
  pipeline_ = std::make_unique<vision::Pipeline>(vision::make_pipeline(game, params, lens_));
  if (auto path = args.value("--set")) {
    pipeline_->set_piece_set(vision::load_piece_set(*path, game));
    has_set_ = true;
  }
}

std::string VisionSetup::start(const cv::Mat& first_frame) {
  const cv::Size image_size = first_frame.size();
  if (lens_) lens_->check_image_size(image_size, "the frames");
  std::string note;
  if (corners_ && lens_) {
    calib::BoardLocator locator(pipeline_->model(), {}, lens_);
    pipeline_->use_fit(locator.from_corners(*corners_), image_size);
  } else if (corners_) {
    const calib::CornerLens est = calib::fit_corners_with_lens(pipeline_->model(), first_frame, *corners_);
    pipeline_->use_fit(est.fit, image_size, est.lens);
    note = corner_lens_note(est);
  } else if (calibration_) {
    if (calibration_->image_size != image_size)
      throw InputError("--calibration '" + calibration_path_ + "' was made for " +
                       std::to_string(calibration_->image_size.width) + "x" +
                       std::to_string(calibration_->image_size.height) + " images, the frames are " +
                       std::to_string(image_size.width) + "x" + std::to_string(image_size.height));
    pipeline_->use_fit(calibration_->fit, image_size);
  }
  return note;
}

std::string corner_lens_note(const calib::CornerLens& est) {
  char line[200];
  if (est.lens)
    std::snprintf(line, sizeof line,
                  "--corners: lens estimated from the board, k1 %.3f at focal %.0f px (the drawing %.2f px from the "
                  "plain fit, %.2f px from this one; %d points, %.0f ms)",
                  est.k1, est.focal_px, est.plain_residual_px, est.lens_residual_px, est.points, est.ms);
  else
    std::snprintf(line, sizeof line,
                  "--corners: no lens distortion seen (the drawing %.2f px from the plain fit, %.2f px with k1 %.3f; "
                  "%d points, %.0f ms)",
                  est.plain_residual_px, est.lens_residual_px, est.k1, est.points, est.ms);
  return line;
}

}  // namespace sb::cli
