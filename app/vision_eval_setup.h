// What the vision evaluation needs to build a pipeline for a game: its board model, the pieces' vocabulary (side
// letters, identities, tallest stack) and the config's side colours as the reader's defaults.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_locator.h"
#include "calibration/board_model.h"
#include "calibration/lens.h"
#include "vision/observation.h"
#include "vision/piece_set.h"
#include "vision/pipeline.h"
#include "vision/render/camera.h"
#include "vision/render/look.h"

namespace sb::cli {

struct GameVision {
  calib::BoardModel model;
  vision::GameArt art;  // configs/<game>.json's pieces and board look
  vision::PieceVocabulary vocab;
  std::vector<vision::SideModel> sides;  // per side letter of vocab, the config's colours relative to white
};

// Throws InputError for an unknown game.
GameVision game_vision(const std::string& game);

// A fresh pipeline of the game with the config's defaults (vision::make_pipeline, as `read` and `referee
// --source` build it).
std::unique_ptr<vision::Pipeline> eval_pipeline(const GameVision& gv, std::optional<calib::Lens> lens = std::nullopt);

// The renderer's camera as a calibration would give it: the lens (camera matrix and distortion) and the
// homography from the board plane to the ideal image, K·[r1 r2 t].
struct TrueFit {
  calib::Lens lens;
  calib::BoardFit fit;
};
TrueFit true_fit(const vision::Camera& camera);

}  // namespace sb::cli
