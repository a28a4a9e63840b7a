#include "calibration/tracker.h"

#include <chrono>

#include "calibration/markers.h"

namespace sb::calib {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double bilinear(const cv::Mat& gray, cv::Point2d p) {
  int x = static_cast<int>(std::floor(p.x)), y = static_cast<int>(std::floor(p.y));
  double fx = p.x - x, fy = p.y - y;
  const uchar* r0 = gray.ptr<uchar>(y);
  const uchar* r1 = gray.ptr<uchar>(y + 1);
  return (r0[x] * (1 - fx) + r0[x + 1] * fx) * (1 - fy) + (r1[x] * (1 - fx) + r1[x + 1] * fx) * fy;
}

}  // namespace

const char* track_state_name(TrackState s) {
  switch (s) {
    case TrackState::Searching:
      return "searching";
    case TrackState::Locked:
      return "locked";
    case TrackState::Occluded:
      return "occluded";
    case TrackState::Moved:
      return "moved";
    case TrackState::Lost:
      return "lost";
  }
  return "searching";
}

BoardTracker::BoardTracker(BoardLocator locator, TrackerParams params) : locator_(std::move(locator)), params_(params) {
  auto dictionary = aruco_dictionary(locator_.model().markers.dictionary);
  for (const Marker& m : locator_.model().markers.markers) patterns_.push_back(marker_cells(*dictionary, m.id).black);
}

void BoardTracker::reset(const BoardFit& fit) {
  fit_ = fit;
  candidate_.reset();
  frames_since_relocation_ = 0;
  frames_unseen_ = 0;
  expected_in_place_ = -1;  // learnt at the next check
}

int BoardTracker::markers_in_place(const cv::Mat& gray, const BoardFit& fit) const {
  const auto& markers = locator_.model().markers.markers;
  int in_place = 0;
  std::vector<Vec2> cells;
  for (size_t i = 0; i < markers.size(); ++i) {
    const Marker& m = markers[i];
    int n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(patterns_[i].size()))));
    Vec2 top_left = m.corners()[0];
    double cell = m.size_mm / n;
    cells.clear();
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) cells.push_back({top_left.x + (c + 0.5) * cell, top_left.y + (r + 0.5) * cell});
    std::vector<cv::Point2d> px = locator_.project(fit, cells);
    std::vector<double> v(px.size());
    bool inside = true;
    for (size_t k = 0; k < px.size() && inside; ++k) {
      inside = px[k].x >= 0 && px[k].y >= 0 && px[k].x < gray.cols - 1 && px[k].y < gray.rows - 1;
      if (inside) v[k] = bilinear(gray, px[k]);
    }
    if (!inside) continue;
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    if (*hi - *lo < 40) continue;  // no contrast: covered, or not a marker there
    double mid = (*lo + *hi) / 2;
    int matching = 0;
    for (size_t k = 0; k < v.size(); ++k) matching += (v[k] < mid) == patterns_[i][k];
    in_place += matching >= params_.min_cells_matching;
  }
  return in_place;
}

double BoardTracker::shift_between(const BoardFit& a, const BoardFit& b) const {
  const Quad& q = locator_.model().playing_area_corners();
  std::vector<Vec2> corners(q.begin(), q.end());
  std::vector<cv::Point2d> pa = locator_.project(a, corners), pb = locator_.project(b, corners);
  double shift = 0;
  for (size_t i = 0; i < pa.size(); ++i) shift = std::max(shift, cv::norm(pa[i] - pb[i]));
  return shift;
}

std::optional<BoardFit> BoardTracker::relocate(const cv::Mat& gray) const {
  if (!locator_.model().markers.markers.empty())
    if (auto f = locator_.locate(gray)) return f;
  if (fit_ && fit_->method != "markers") return locator_.find_outline(gray);
  return std::nullopt;
}

TrackUpdate BoardTracker::update(const cv::Mat& frame) {
  TrackUpdate u;
  cv::Mat gray = gray_of(frame);
  if (!fit_) {
    auto t0 = Clock::now();
    fit_ = relocate(gray);
    u.relocated = true;
    u.relocate_ms = ms_since(t0);
    if (!fit_) return u;  // Searching
    expected_in_place_ = markers_in_place(gray, *fit_);
    frames_since_relocation_ = 0;
    u.state = TrackState::Locked;
    u.markers_in_place = expected_in_place_;
    return u;
  }

  auto t0 = Clock::now();
  u.markers_in_place = markers_in_place(gray, *fit_);
  u.check_ms = ms_since(t0);
  if (expected_in_place_ < 0) expected_in_place_ = u.markers_in_place;
  ++frames_since_relocation_;
  bool all_in_place = u.markers_in_place >= expected_in_place_ && expected_in_place_ > 0;
  bool some_in_place = u.markers_in_place >= 2;
  bool due = frames_since_relocation_ >= params_.relocate_every || candidate_.has_value();
  // A few markers still in place mean the board has not moved: only a hand hides the others.
  if (!due && (all_in_place || (some_in_place && !candidate_))) {
    frames_unseen_ = 0;
    u.state = all_in_place ? TrackState::Locked : TrackState::Occluded;
    return u;
  }

  t0 = Clock::now();
  std::optional<BoardFit> found = relocate(gray);
  u.relocated = true;
  u.relocate_ms = ms_since(t0);
  frames_since_relocation_ = 0;
  if (!found) {
    candidate_.reset();
    ++frames_unseen_;
    u.state = frames_unseen_ >= params_.lost_after ? TrackState::Lost : TrackState::Occluded;
    return u;
  }
  frames_unseen_ = 0;
  u.shift_px = shift_between(*fit_, *found);
  // A fit from the few markers the detector found (small, blurred or glared markers) can be several pixels off
  // while the fit in use still shows as many markers' patterns where it says (and two such fits differ as much
  // from each other): the board moved only if the new fit puts more markers in place than the one in use, on
  // this very frame.
  const bool explains_more = markers_in_place(gray, *found) > u.markers_in_place;
  if (u.shift_px <= params_.moved_threshold_px || !explains_more) {
    candidate_.reset();
    expected_in_place_ = std::max(expected_in_place_, markers_in_place(gray, *fit_));
    u.state = u.markers_in_place >= expected_in_place_ ? TrackState::Locked : TrackState::Occluded;
    return u;
  }
  // Moved, if the relocation before agrees; otherwise wait for the next frame to confirm.
  if (candidate_ && shift_between(*candidate_, *found) <= params_.moved_threshold_px) {
    fit_ = found;
    candidate_.reset();
    expected_in_place_ = markers_in_place(gray, *fit_);
    u.markers_in_place = expected_in_place_;
    u.state = TrackState::Moved;
    return u;
  }
  candidate_ = found;
  u.state = TrackState::Occluded;
  return u;
}

}  // namespace sb::calib
