// The demo's camera: games of the engine's moves played by simulated hands in front of the renderer's camera,
// delivered frame by frame as a vision::FrameSource, so that what reaches the referee has gone through the same
// vision pipeline as a real camera's frames. Nothing else of the game leaves this file: the referee never sees
// the moves or the boards the renderer draws, only pixels.
//
// Each game: the pieces stand in the start position; the players move with a preference for captures (a demo
// should show the calculations and the scores early), and once per game, at `illegal_ply`, the player to move
// shifts a piece where no rule allows and puts it back a few seconds later. After the last move the board stays
// still for `pause_s`, then the pieces are set up again for the next game (on_new_game is called first), and
// so on until `games` are played (0: until stopped).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/board_model.h"
#include "engines/common/rules.h"
#include "vision/frame_source.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/simulation.h"

namespace sb::cli {

struct DemoGameOptions {
  uint64_t seed = 1;
  int max_plies = 60;      // a game longer than this is abandoned and the next one begins
  int illegal_ply = -1;    // the illegal move comes before this ply (0-based); -1: a random early ply (2–5)
  double fps = 15;         // frames per second of game time
  double pace = 1;         // > 1: faster hands and shorter thinking
  double speed = 1;        // game time runs this many times faster than the wall clock; 0: as fast as it renders
  double pause_s = 6;      // still board after a game before the next is set up
  int games = 0;           // games to play; 0: until stopped
  cv::Size size{1280, 720};
};
nlohmann::json to_json(const DemoGameOptions& o);

// What one planned game holds, for the terminal and the tests (the referee never reads it).
struct DemoPlan {
  int game_no = 1;
  std::vector<std::string> moves;  // notation, in order
  int illegal_before_ply = -1;     // -1: no illegal move found a place
  std::string illegal_from, illegal_to;
  int captures = 0;
};

// Chooses the demo's moves: a capture when there is one (the one worth most), else, most of the time (0.8), a move
// that leaves the opponent a capture, else any legal move. Deterministic for a seed.
Move demo_move(const Rules& rules, const State& s, vision::Rng& rng);

class DemoGameSource : public vision::FrameSource {
 public:
  DemoGameSource(std::shared_ptr<const Rules> rules, calib::BoardModel model, DemoGameOptions options);

  // Called (on the caller's thread, from next()) before the first frame of every game after the first.
  void on_new_game(std::function<void(const DemoPlan&)> f) { on_new_game_ = std::move(f); }
  // Ends the source: next() returns nullopt from now on (thread-safe).
  void stop() { stopped_ = true; }
  // Also ends it once `f` says so (asked while waiting for a frame's time: Ctrl-C).
  void stop_when(std::function<bool()> f) { stop_when_ = std::move(f); }

  std::optional<vision::Frame> next() override;
  vision::SourceState state() const override {
    return ended_ ? vision::SourceState::Ended : vision::SourceState::Running;
  }
  std::string describe() const override { return "the demo's rendered camera"; }

  const DemoPlan& plan() const { return plan_; }
  const vision::Look& look() const { return look_; }

 private:
  void start_game();
  void pace_to(int64_t t_ms);

  std::shared_ptr<const Rules> rules_;
  calib::BoardModel model_;
  DemoGameOptions options_;
  vision::Look look_;
  std::unique_ptr<vision::Renderer> renderer_;
  std::unique_ptr<vision::Simulation> sim_;
  DemoPlan plan_;
  std::function<void(const DemoPlan&)> on_new_game_;
  std::function<bool()> stop_when_;
  std::atomic<bool> stopped_{false};
  bool ended_ = false;

  int game_no_ = 0;
  int64_t game_start_ms_ = 0;  // game time at which the current game's simulation began
  int64_t t_ms_ = 0;           // game time of the latest frame
  int64_t index_ = 0;
  int64_t pause_until_ms_ = -1;  // after a game: the still board is shown until then
  cv::Mat last_image_;
  std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace sb::cli
