// The motion gate: decides, frame by frame, whether the board is settled: no hand, arm or piece in transit over
// it, and still for a short window. It works on the rectifier's small gate image of the board and its
// surroundings.
//
// Stages of update(): normalise (a global gain per colour channel against the previous frame, a smooth gain
// field against the settled reference: lighting flicker, a lamp switched on and a slow change of daylight are
// not motion) → temporal change (blurred colour difference above a threshold that follows the measured noise)
// → per-site and board disturbance → static check (a change against the settled scene that stays, coming in
// from the gate image's edge across the ring just outside the board zone and well into the zone — an arm, the
// hand resting over the board, or whose skin comes within a few pixels of the zone: a hand resting with only its
// fingertips or knuckles over the zone's edge — keeps the board unsettled; a piece put down or taken beside the board
// does not reach from the edge over it; the settled scene never takes in a change that comes from the edge — a hand
// resting beside the board when it settles, or one that came there while it stayed settled — nor a shadow beside
// the board (an arm's, whose darkening of the dark table is too small to join it to the edge), so such a hand
// shows whole when it creeps over the board and is no change once gone; anything still holding the board after
// `absorb_ms` becomes part of the scene) → settled when nothing moved for `still_ms`. debug_image() shows what
// moved, what changed and what holds the board.
#pragma once

#include <cstdint>
#include <opencv2/core.hpp>
#include <vector>

namespace sb::vision {

struct GateParams {
  int64_t still_ms = 200;          // no motion over the board for this long before it counts as settled
  double noise_k = 4.5;            // motion: a blurred difference above noise_k × the measured noise ...
  double min_threshold = 7;        // ... and above this many grey levels
  int min_moving_px = 3;           // moving gate pixels in the zone that make the board disturbed
  double ring_foreign_px = 6;      // static changed pixels in the ring that mean an arm lies across it ...
  int arm_zone_px = 18;            // ... when the same change reaches this many pixels into the zone (a hand:
                                   // fingertips over the zone corner 22, a hand beside it with its shadow 15)
  int hand_guard_px = 3;           // an arm holds the board too when within this many gate pixels (3/8 pitch)
  int hand_near_px = 4;            // of the zone this many of its changed pixels are no shadow: fingertips or
                                   // knuckles resting over the zone's edge showed 3 to 17 pixels in the zone, and
                                   // the renderer's truth, drawn at a quarter of the image's size, calls a hand
                                   // over the board up to two gate pixels short of it; a hand's soft shadow
                                   // reaches further than its skin (15 pixels in the zone beside a hand that is not);
                                   // with none of its change in the zone it is not over the board (a reserve man
                                   // taken from against the board's side)
  int motion_guard_px = 2;         // skin moving within this many gate pixels beside the zone (0: none) ...
  int guard_skin_px = 3;           // ... on at least this many pixels disturbs the board as motion in it does: a hand
                                   // arriving moves beside the zone a frame before it moves in it, while the
                                   // renderer's truth calls it over the board already; a shadow moving there does
                                   // not count (an arm's shadow beside a small board), nor skin further out (a hand
                                   // taking a man from beside a small board is not over it: at 3 pixels, morris3
                                   // seed 8822003 games 1 and 5 lost 545 settled frames with no hand over the
                                   // board, at 2 pixels 3)
  double shadow_tint = 1.25;       // a darker pixel whose channels darkened within this ratio of each other is a
                                   // shadow (a hand's skin or sleeve changes the colour as well)
  int64_t gap_ms = 2000;           // frames further apart than this: the scene is taken anew (a camera that
                                   // stalled and came back, still pictures read one after another), as at the
                                   // first frame; compared with the scene before the gap, a whole new picture held
                                   // the board for absorb_ms
  int64_t absorb_ms = 8000;        // a static change still there after this long is taken into the scene (a
                                   // hand resting on the board's edge stays for seconds: it must not be taken in)
  double reference_follow = 0.05;  // while settled the reference follows the frame at this rate (daylight)
  double light_step = 0.04;        // a frame brighter or darker than the previous by more than this share (the
                                   // median, in a channel) is a lamp switched: the settled scene is carried
                                   // over to the new light pixel by pixel, if the frame before it was still and
                                   // the frame after it is (an arm coming in also changes the median)
  double lamp_agreement = 0.2;     // ... and at least this share of the watched pixels changed by its gain ...
  double lamp_tolerance = 0.08;    // ... within this share of it (a lamp: 0.47 of them; arms: none)
  double covered_share = 0.3;      // a watched pixel darker than this share of the settled scene's ...
  double covered_grey = 12;        // ... or than this grey level is dark; a frame whose watched pixels are ...
  double covered_part = 0.5;       // ... this share dark is covered (an arm right before the camera): motion
  double covered_likeness = 0.3;   // ... or whose watched pixels correlate less than this with the settled scene's
                                   // (a bright sleeve filling the view: no lamp keeps so little of the scene) ...
  double covered_detail = 0.5;     // ... and show less than this share of its detail (a knocked camera shows as much)
};

struct GateResult {
  bool settled = false;
  bool disturbed = false;          // motion this frame over the board zone
  bool ring_blocked = false;       // a static change lies across the ring (an arm) and is not yet absorbed
  bool just_settled = false;       // settled now and not in the previous frame
  bool covered = false;            // most of the view went dark against the settled scene: something covers it
  int moving_px = 0;               // moving pixels in the zone
  double noise = 0;                // the measured noise (grey levels, blurred difference)
  double threshold = 0;            // the motion threshold used
  std::vector<float> site_motion;  // per site: share of its cell that moved
  int64_t last_motion_ms = -1;     // time of the last frame with motion
  int64_t settle_latency_ms = -1;  // when just_settled: now − the last motion
};

class MotionGate {
 public:
  // `zone`, `ring`: 8-bit masks of the gate image (Rectifier::zone_mask, ring_mask); `cells`: per site, its cell;
  // `unseen`: where the camera's picture does not reach (Rectifier::gate_unseen_mask; empty: it covers the image).
  MotionGate(cv::Mat zone, cv::Mat ring, std::vector<cv::Rect> cells, GateParams params = {}, cv::Mat unseen = {});

  // One frame's gate image (8-bit BGR, the masks' size) at time t.
  GateResult update(const cv::Mat& gate_bgr, int64_t t_ms);
  // Forget everything (the board moved): the next frames must be still again before anything is settled.
  void reset();

  const GateParams& params() const { return params_; }
  bool settled() const { return settled_; }
  // Debug: the last blurred difference against the previous frame (float, grey levels) and the moving mask.
  const cv::Mat& difference() const { return diff_; }
  const cv::Mat& moving() const { return moving_; }
  // Debug: the last static change against the settled scene (8-bit mask; empty when not checked this frame) and
  // the part of it that held the board unsettled.
  const cv::Mat& static_change() const { return static_change_; }
  const cv::Mat& holding() const { return holding_; }
  // Debug: `gate_bgr` (this frame's gate image) enlarged `scale` times with the zone (green) and ring (blue)
  // outlines, the moving pixels (yellow), the static change (red) and the part that holds the board (magenta);
  // beside it the plain gate image and the settled scene it is compared with.
  cv::Mat debug_image(const cv::Mat& gate_bgr, int scale = 3) const;

 private:
  // The parts of a change mask that touch the gate image's edge (where arms come in), grown a little.
  cv::Mat edge_parts(const cv::Mat& changed) const;

  cv::Mat zone_, ring_, watch_;  // watch = zone ∪ ring
  cv::Mat edge_;                 // where arms come in: the gate image's border and where the picture ends
  cv::Mat near_zone_;            // the zone grown by hand_guard_px
  cv::Mat motion_guard_;         // the band motion_guard_px wide round the zone
  std::vector<cv::Rect> cells_;
  GateParams params_;

  // Whether most watched pixels of `cur` are dark (against the settled scene, when there is one), or `cur` keeps
  // little of the settled scene: unlike it and with far less detail.
  bool covered(const cv::Mat& cur) const;
  // The correlation of the watched pixels' brightness in `cur` with the settled scene's (1 for a plain scene).
  double likeness_to_scene(const cv::Mat& cur) const;
  // How much detail `img` shows: the mean brightness step to the next pixel right and down over the watched
  // pixels, against their mean brightness (so that a lamp does not change it).
  double detail(const cv::Mat& img) const;

  cv::Mat prev_;                // previous frame, float, blurred
  cv::Mat reference_;           // the settled scene without hands, float, blurred
  cv::Mat lamp_reference_;      // the settled scene carried over to a light switched at the last frame, taken
                                // only if this frame is still (else an arm came in, not a lamp)
  bool prev_disturbed_ = true;  // the previous frame moved (or was the first)
  bool prev_covered_ = false;
  int64_t covered_still_since_ = -1;  // covered without motion since then (a lamp switched off in a dark room)
  cv::Mat diff_, moving_;
  cv::Mat static_change_, holding_;
  double noise_ = 2.0;
  bool have_prev_ = false;
  bool settled_ = false;
  int64_t last_motion_ms_ = -1;
  int64_t prev_t_ms_ = -1;  // the previous frame's time
  int64_t ring_blocked_since_ = -1;
  int64_t last_blocked_ms_ = -1;  // the last frame a change across the ring held the board
  std::vector<uint32_t> sample_idx_;
};

}  // namespace sb::vision
