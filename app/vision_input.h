// `referee --source SRC`: observation lines from a camera, video, image folder or stream through the vision
// pipeline (the app is the one place that wires vision to the arbiter).
//
// A line is given for every new reading of a settled board and whenever the board stops being settled (a hand
// comes over it: "stable": false). While the board still stands in the game's start position and no set was
// given (--set), the pipeline learns the piece set from it (the start tells every site's token), so a set it has
// never seen reads right; until then it reads with its defaults. A start without pieces (Morris) teaches how the
// empty board looks; the first piece placed then names White's colours and the next one Black's. Source trouble (a lost
// camera being reopened, a skipped frame) is told on stderr, never ends the game.
#pragma once

#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/vision_setup.h"
#include "engines/common/rules.h"
#include "vision/first_placements.h"
#include "vision/frame_source.h"

namespace sb::cli {

// --source SRC, --fps F, and vision_option_specs(); --save-set FILE writes the set learnt from the start;
// --observations-out FILE.jsonl keeps the observation lines given to the arbiter.
std::vector<OptionSpec> vision_input_option_specs();

class VisionInput {
 public:
  // `start`: the position the game starts from (the learning board); `learn`: learn the set from it.
  VisionInput(const Args& args, const Rules& rules, const State& start, bool learn);
  // The same with frames from `source` instead of --source (the demo's rendered camera) and the pipeline's
  // parameters given (debug: the overlay the screen's camera view shows).
  VisionInput(const Args& args, const Rules& rules, const State& start, bool learn,
              std::unique_ptr<vision::FrameSource> source, vision::PipelineParams params);
  // The next observation line (CONTRACT.md); nullopt when the source has ended.
  std::optional<std::string> next();
  std::string describe() const { return source_->describe(); }
  bool learnt() const { return learnt_; }
  const vision::Pipeline& pipeline() { return setup_.pipeline(); }
  // `tick` is called with each frame's time as the frame comes, before it is read: the referee's clock runs
  // on the frames' clock while the board stands still (a flag falls though nobody moves).
  void on_frame_time(std::function<void(int64_t t_ms)> tick) { frame_time_ = std::move(tick); }
  // A new game is set up in the start position: learn the set again from it (the pieces stand differently).
  void relearn() {
    learnt_ = false;
    learn_attempts_ = 0;
    unconfirmed_tries_ = 0;
    placements_.reset();
  }

 private:
  // Orients a board found by its outline and learns the set from the start; true when this reading is
  // superseded (the board was turned, or the set learnt) and the next settled frame must be read anew.
  bool try_learn(const vision::BoardObservation& obs);
  // A start without pieces (Morris) names no colour: the first pieces placed do (vision/first_placements.h).
  // True when the set was learnt from this reading and the next settled frame must be read anew.
  bool try_learn_placement(const vision::BoardObservation& obs);

  const Rules& rules_;
  std::string game_;
  VisionSetup setup_;
  std::unique_ptr<vision::FrameSource> source_;
  std::vector<std::string> start_tokens_;  // per site of the board model
  bool learn_ = false;
  bool learnt_ = false;
  bool started_ = false;
  bool was_settled_ = false;
  bool was_located_ = true;
  std::optional<std::string> save_set_;
  std::optional<std::string> debug_dir_;
  int learn_attempts_ = 0;
  int unconfirmed_tries_ = 0;                          // readings not read as the start that learning was tried from
  std::optional<vision::FirstPlacements> placements_;  // after a start without pieces, until both colours are named
  std::ofstream log_;                                  // --observations-out: every line given to the arbiter
  std::function<void(int64_t)> frame_time_;
};

}  // namespace sb::cli
