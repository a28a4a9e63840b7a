// Shared set-up for the renderer's tests: a plain, evenly lit look so that pixels can be compared.
#pragma once

#include "calibration/board_model.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"

namespace sb::vision::testing {

// The game's default look, seen from overhead with no noise, blur, glare or compression.
inline Look plain_look(const std::string& game, double px_per_pitch = 40) {
  GameArt art = load_game_art(game);
  Look look;
  look.pieces = art.pieces;
  look.board.colours = art.board;
  look.pieces.max_offset = 0;
  look.camera.px_per_pitch = px_per_pitch;
  look.light.glare_spots = 0;
  look.light.gradient = 0;
  look.light.vignette = 0;
  look.sensor.noise = 0;
  look.sensor.defocus_px = 0;
  look.sensor.motion_px = 0;
  look.sensor.jpeg_quality = 0;
  return look;
}

}  // namespace sb::vision::testing
