// `smartboard bench vision`: per-frame costs of the vision path on fixed synthetic 1280×720 frames, one core.
// Each stage is one entry of vision_stages(); later parts of the pipeline add theirs there.
#pragma once

#include <functional>
#include <map>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "app/args.h"
#include "calibration/board_locator.h"
#include "calibration/board_model.h"

namespace sb::cli {

// One benchmark frame: a synthetic photo of a board with its true geometry, and the fit located once
// beforehand (stages that need a calibrated board start from it).
struct VisionFrame {
  std::string game;
  std::string condition;  // "tilt 30°, 2 markers covered", for the report
  cv::Mat image;          // BGR 1280×720
  cv::Mat gray;
  const calib::BoardModel* model = nullptr;
  const calib::BoardLocator* locator = nullptr;
  std::map<std::string, cv::Point2d> true_sites;
  calib::BoardFit fit;  // from the locator; method empty when it found nothing
};

// A stage: `run` does one frame's work of that stage and returns a number that goes into the signature
// (markers found, cells read, ...) so that a change of behaviour shows.
struct VisionStage {
  std::string name;
  double target_ms = 0;  // 0: no target
  std::function<long(const VisionFrame&)> run;
};

// The stages in the order they run; add new pipeline stages at the end.
std::vector<VisionStage> vision_stages();

int bench_vision(const Args& args);

// The pipeline's stages (gate, reads, end to end) on rendered frames of `games` (empty: Cờ toán, Cờ tư lệnh,
// international); bench_vision_pipeline.cpp.
void bench_vision_pipeline(const Args& args, const std::vector<std::string>& games);

}  // namespace sb::cli
