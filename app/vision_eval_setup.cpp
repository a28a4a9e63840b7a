#include "app/vision_eval_setup.h"

#include "app/render_setup.h"
#include "vision/game_vision.h"

namespace sb::cli {

GameVision game_vision(const std::string& game) {
  GameVision g{board_model_for(game), vision::load_game_art(game), vision::vocabulary_for(game), {}};
  g.sides = vision::default_sides_for(g.art, g.vocab);
  return g;
}

std::unique_ptr<vision::Pipeline> eval_pipeline(const GameVision& gv, std::optional<calib::Lens> lens) {
  return std::make_unique<vision::Pipeline>(vision::make_pipeline(gv.model.game, {}, std::move(lens)));
}

TrueFit true_fit(const vision::Camera& cam) {
  TrueFit t;
  t.lens.image_size = cam.image_size;
  t.lens.camera_matrix = cam.K;
  t.lens.distortion.assign(cam.distortion.val, cam.distortion.val + 5);
  const cv::Matx33d rt(cam.R(0, 0), cam.R(0, 1), cam.t[0], cam.R(1, 0), cam.R(1, 1), cam.t[1], cam.R(2, 0), cam.R(2, 1),
                       cam.t[2]);
  t.fit.board_to_ideal = cam.K * rt;
  t.fit.method = "corners";  // an exact fit given from outside, as --corners or --calibration give one
  return t;
}

}  // namespace sb::cli
