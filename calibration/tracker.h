// Keeping a board located in a video. Every frame a cheap check reads each marker's pattern where the current
// fit predicts it (a few hundred pixel samples); every few frames, and whenever the check fails, the board is
// located again in full. A hand over some markers leaves the fit alone; a fit that changes beyond a threshold,
// confirmed by two relocations in a row, is a "board moved" event and the new fit is adopted.
#pragma once

#include <opencv2/core.hpp>
#include <optional>

#include "calibration/board_locator.h"

namespace sb::calib {

struct TrackerParams {
  int relocate_every = 15;          // frames between full relocations while the check passes
  double moved_threshold_px = 3.0;  // a playing-area corner moving farther than this means the board moved
  int lost_after = 90;              // frames without locating the board before the state says Lost
  int min_cells_matching = 33;      // of a 6×6 marker's 36 cells, to count it in place
};

enum class TrackState {
  Searching,  // no fit yet
  Locked,     // the fit holds: the markers are where it says
  Occluded,   // some or all markers hidden or unreadable; the last good fit is kept
  Moved,      // this frame adopted a new fit: the board (or camera) moved
  Lost,       // the board has not been seen for `lost_after` frames; the last fit is kept but stale
};

const char* track_state_name(TrackState s);

struct TrackUpdate {
  TrackState state = TrackState::Searching;
  int markers_in_place = 0;  // markers the cheap check read correctly
  bool relocated = false;    // a full relocation ran this frame
  double shift_px = 0;       // when relocated: how far the new fit moves the playing area's corners
  double check_ms = 0;       // time of the cheap check
  double relocate_ms = 0;    // time of the relocation, when one ran
};

class BoardTracker {
 public:
  explicit BoardTracker(BoardLocator locator, TrackerParams params = {});

  // Starts from a known fit (a saved calibration, --corners) instead of searching.
  void reset(const BoardFit& fit);
  TrackUpdate update(const cv::Mat& frame);

  const std::optional<BoardFit>& fit() const { return fit_; }
  const BoardLocator& locator() const { return locator_; }
  // The cheap check alone: how many of the board's markers show their own pattern where `fit` puts them.
  int markers_in_place(const cv::Mat& gray, const BoardFit& fit) const;
  // How far `b` puts the playing area's corners from where `a` does (image pixels, the largest of the four).
  double shift_between(const BoardFit& a, const BoardFit& b) const;

 private:
  std::optional<BoardFit> relocate(const cv::Mat& gray) const;

  BoardLocator locator_;
  TrackerParams params_;
  std::vector<std::vector<bool>> patterns_;  // per marker of the model, its cells (row-major, black = true)
  std::optional<BoardFit> fit_;
  std::optional<BoardFit> candidate_;  // a moved fit waiting for confirmation
  int frames_since_relocation_ = 0;
  int frames_unseen_ = 0;
  int expected_in_place_ = 0;  // markers the check read right when the fit was last confirmed
};

}  // namespace sb::calib
