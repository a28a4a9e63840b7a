// Scoring the motion gate on a simulated video against its truth: the settled flag must never be raised while a
// hand is over the board (or the camera shakes), and once the hand has left it should come soon. Frames are fed
// in order, one video at a time (begin_video() between videos).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sb::vision {

struct GateFigures {
  int64_t videos = 0;
  int64_t frames = 0;
  int64_t unstable_frames = 0;     // frames the truth says are not stable (a hand over the board, a shake)
  int64_t false_settled = 0;       // ... of which the gate called settled: the target is none
  int64_t false_settled_spells = 0;  // runs of such frames
  int64_t leaves = 0;              // hands leaving: an unstable run followed by a stable one of at least
                                   // `min_still_ms`
  int64_t never_settled = 0;       // ... after which the gate did not settle before the next disturbance
  std::vector<double> latency_ms;  // per leave that settled: the settled frame's time − the first stable frame's
  double median_latency_ms() const;
  double percentile_latency_ms(double q) const;
};

class GateTally {
 public:
  // A stable spell shorter than this (a hand pausing just outside the board) is not counted as a leave.
  explicit GateTally(int64_t min_still_ms = 1000) : min_still_ms_(min_still_ms) {}

  void begin_video();
  void add_frame(int64_t t_ms, bool truth_stable, bool settled);
  // Closes the current video (also done by begin_video()).
  void end_video();

  GateFigures figures() const { return f_; }
  // Where the gate was wrong: "video v frame t: settled while a hand is over the board", at most a few hundred.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void close_spell(int64_t end_ms);

  int64_t min_still_ms_;
  GateFigures f_;
  std::vector<std::string> notes_;
  bool in_video_ = false;
  bool have_prev_ = false;
  bool prev_stable_ = true;
  bool prev_false_settled_ = false;
  bool seen_unstable_ = false;  // the current stable spell follows a disturbance (not the video's start)
  int64_t spell_start_ms_ = -1;  // first frame of the current stable spell
  int64_t spell_settled_ms_ = -1;
  int64_t last_t_ = 0;
};

}  // namespace sb::vision
