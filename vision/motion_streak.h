// A camera that moves while its shutter is open streaks the whole picture one way: each point is spread along a
// short straight line (the same line everywhere, for a shaken camera). The streak lies one way in the picture
// while every piece on the board is turned its own way, so a learnt picture of a kind shows its strokes smeared
// across a different turn from a read face's, and a die's dots merge into bars whose count no blob count finds.
// The streak is undone here, before any face is cut: found from the picture itself (no truth), and taken out by
// a Wiener filter of its line kernel, so the start's pictures and every read's show sharp strokes and round dots
// again whatever each piece's turn.
//
// Finding it: a line kernel of length L multiplies the picture's spectrum by sinc(π u L), u the frequency along
// the line, which is zero on the lines u = ±1/L. The log power spectrum (averaged over overlapping tiles of the
// board's region) is projected onto each direction; along the streak's, that profile dips at u = 1/L, well below
// its neighbours at 0.6/L and 1.4/L, while the perpendicular direction's profile (the same picture, unstreaked)
// does not. A sharp picture's profile shows no such notch in any direction; the board's grid lines and the
// pieces' rims show a little anisotropy but smoothly. The gradient energy along the found direction, against
// across it, must also be low (a streak smooths the picture along itself), which a notch from the pieces' own
// pattern does not give. Defocus and noise fill the notch (the power there falls below the noise in every
// direction); the streak then still shows as the main lobe's fall along its direction, fitted ray by ray
// (StreakParams::min_lobe_share).
#pragma once

#include <opencv2/core.hpp>

namespace sb::vision {

struct StreakParams {
  int tile = 128;                  // spectrum tiles (pixels; 50 % overlap), at most max_tiles of them
  int max_tiles = 12;              // spread over the region, the rest skipped (cost: 12 find as many as 40)
  double min_length_px = 3.0;      // shortest streak searched ...
  double max_length_px = 14.0;     // ... and longest
  double min_notch = 0.6;          // the notch's depth below its neighbours (natural log of power) to call it found
  double max_energy_ratio = 0.75;  // gradient energy along the streak over across it, at most
  // The notch's depth less that energy ratio, at least: a picture barely smoothed along the direction needs a
  // clear notch. Two sharp stills of the tuning sets (Cờ toán 9400051 image 4's start, JPEG 47: notch 0.66 at
  // ratio 0.74; Cờ tư lệnh 9500051 image 18: 0.60 at 0.66) passed each threshold alone; every streak of 3.5 px or
  // more found on the four tuning/unseen sets clears this by 0.08.
  double min_notch_over_ratio = 0.0;
  // Without a notch, the main lobe's fall towards it: the share of the power's difference from across that it
  // explains, at least this (estimate_streak; 0 turns it off). On the 2,000 Cờ toán stills of seeds 9400031/32
  // (209 streaks of 3.5 px or more, 1,791 pictures with none), a throw-away replica of each on the board's region:
  // the notch found 125 of the streaks and 11 where none was; the lobe alone at 0.85 156 and 3 (at 0.8: 165 and
  // 10).
  double min_lobe_share = 0.85;
  // ... and the gradient energy along it over across, at most this: a streak smooths the picture along itself
  // (of the lobe's streaks found in the replica, 95 % had at most 0.89 at their true direction, the largest 1.09;
  // its 3 false ones 1.12–1.36, and a sharp Cờ tư lệnh still, 9500042 image 505, 1.19: 23 pieces missed once a
  // "streak" of 11 px was undone).
  double max_lobe_energy_ratio = 1.0;
  double min_undo_px = 3.5;       // shorter streaks are left alone
  double noise_to_signal = 0.02;  // the Wiener filter's noise-to-signal term (of |H|², H the kernel's spectrum)
};

struct MotionStreak {
  double length_px = 0;     // 0: none found
  double angle_deg = 0;     // direction in the image (x right, y down), 0..180
  double notch = 0;         // depth of the spectrum's notch (StreakParams::min_notch)
  double energy_ratio = 1;  // gradient energy along over across
  double lobe_share = 0;    // the main lobe's share (StreakParams::min_lobe_share), when no notch was found
  bool found() const { return length_px > 0; }
};

// The streak of `bgr` over `roi` (found() false when none is clearly there).
MotionStreak estimate_streak(const cv::Mat& bgr, cv::Rect roi, const StreakParams& params = {});

// A copy of `bgr` (8-bit, 3 channels) whose `roi` has the streak taken out by a Wiener filter; outside the roi the
// pixels are `bgr`'s.
cv::Mat remove_streak(const cv::Mat& bgr, cv::Rect roi, const MotionStreak& streak, double noise_to_signal);

// estimate_streak, then remove_streak when a streak of at least min_undo_px is found; otherwise `bgr` itself.
// `found`, when given, gets the streak.
cv::Mat undo_motion_streak(const cv::Mat& bgr, cv::Rect roi, const StreakParams& params, MotionStreak* found = nullptr);

}  // namespace sb::vision
