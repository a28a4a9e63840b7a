// The scene renderer: draws what a camera over a real board sees. Everything that does not move (table,
// board, markers, light on them) is drawn once per camera pose and light into a backdrop; a frame then costs
// the pieces, the hands, their shadows and the sensor, which keeps a 1280×720 frame within ~20 ms on one core.
//
// Stages of a frame (see render()): backdrop copy → shadows (pieces sharp, hands soft) → pieces far to near
// (side faces lit by the lamp, textured top faces with a highlight) → held pieces and hands → sensor.
#pragma once

#include <memory>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/render/camera.h"
#include "vision/render/face_art.h"
#include "vision/render/lighting.h"
#include "vision/render/look.h"
#include "vision/render/scene.h"
#include "vision/render/sensor.h"

namespace sb::vision {

// Per-frame effects that are not part of the look: a camera being knocked.
struct FrameExtras {
  double shake_px = 0;
  double shake_angle_deg = 0;
};

// CPU milliseconds of each stage of the last render() (for `smartboard bench render`).
struct RenderTiming {
  double copy = 0, shadows = 0, pieces = 0, hands = 0, sensor = 0;
  double total() const { return copy + shadows + pieces + hands + sensor; }
};

// Where the hands are in a frame, for the truth.
struct HandCover {
  bool over_board = false;         // some hand (or a held piece) covers part of the board
  std::vector<std::string> sites;  // sites whose piece top (or centre, if empty) a hand hides
};

class Renderer {
 public:
  // `seed` fixes everything random that does not change between frames (textures, glare, noise pattern).
  Renderer(calib::BoardModel model, Look look, cv::Size image_size, uint64_t seed);
  Renderer(calib::BoardModel model, Look look, Camera camera, uint64_t seed);

  const calib::BoardModel& model() const { return model_; }
  const Look& look() const { return look_; }
  const Camera& camera() const { return camera_; }
  const Lighting& lighting() const { return *lighting_; }
  const cv::Mat& backdrop() const { return backdrop_; }

  // A knocked camera or a lamp switched on: the backdrop is drawn again.
  void set_camera(const Camera& camera);
  void set_light(const LightLook& light);

  cv::Mat render(const Scene& scene, uint64_t frame_seed, const FrameExtras& extras = {}) const;
  const RenderTiming& last_timing() const { return timing_; }

  double piece_radius_mm() const { return radius_mm_; }
  // Image position of the centre of a piece's top face (where a reader should look for its identity).
  cv::Point2d top_pixel(const PieceInstance& p) const;
  // Image position of a site's centre at board level.
  cv::Point2d site_pixel(const std::string& site) const;
  HandCover hand_cover(const Scene& scene) const;

 private:
  void prepare();
  void draw_backdrop();
  void draw_shadows(cv::Mat& img, const Scene& scene) const;
  void draw_piece(cv::Mat& img, const PieceInstance& p) const;
  void draw_top(cv::Mat& img, const PieceInstance& p, double top_mm, double radius_mm) const;
  void draw_hand(cv::Mat& img, const HandPose& hand) const;
  void hand_silhouette(cv::Mat& mask, const HandPose& hand, double scale) const;

  calib::BoardModel model_;
  Look look_;
  Camera camera_;
  uint64_t seed_;
  double radius_mm_ = 10;
  std::unique_ptr<Lighting> lighting_;
  std::unique_ptr<Sensor> sensor_;
  mutable std::unique_ptr<FaceArt> faces_;  // drawn on first use
  cv::Mat backdrop_;                        // lit table and board, 8-bit BGR
  cv::Mat board_zone_small_;                // where the board is, at 1/kSmall scale (hand cover test)
  double centre_px_per_mm_ = 1;
  mutable RenderTiming timing_;
};

}  // namespace sb::vision
