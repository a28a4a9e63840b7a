// Tracking a board through video frames: still, under hands, bumped, gone.
#include "calibration/tracker.h"

#include <gtest/gtest.h>

#include "calibration/synthetic_view.h"

namespace sb::calib {
namespace {

struct Scene {
  BoardModel model = load_board_model("brazilian");
  SyntheticViewParams view;
  Scene() {
    view.tilt_deg = 25, view.rotation_deg = 5, view.px_per_pitch = 45, view.noise_sigma = 3;
    view.blur_sigma_px = 0.7;
  }
  SyntheticView frame(int seed, std::vector<int> covered = {}) {
    SyntheticViewParams p = view;
    p.seed = seed;
    p.covered_markers = std::move(covered);
    return synthetic_view(model, p);
  }
};

double worst_site_error(const BoardTracker& t, const SyntheticView& v) {
  double worst = 0;
  for (const Site& s : t.locator().model().sites)
    worst = std::max(worst, cv::norm(t.locator().project(*t.fit(), {s.centre})[0] - v.sites.at(s.name)));
  return worst;
}

TEST(Tracker, AStillBoardStaysLockedAndIsRelocatedOnlyEveryFewFrames) {
  Scene scene;
  TrackerParams params;
  params.relocate_every = 5;
  BoardTracker tracker(BoardLocator(scene.model), params);
  TrackUpdate first = tracker.update(scene.frame(1).image);
  EXPECT_EQ(first.state, TrackState::Locked);
  EXPECT_EQ(first.markers_in_place, 8);
  int relocations = 0;
  for (int i = 2; i <= 11; ++i) {
    TrackUpdate u = tracker.update(scene.frame(i).image);
    EXPECT_EQ(u.state, TrackState::Locked) << "frame " << i;
    EXPECT_EQ(u.markers_in_place, 8);
    relocations += u.relocated;
  }
  EXPECT_EQ(relocations, 2);
}

TEST(Tracker, HandsOverHalfTheMarkersKeepTheLastGoodFit) {
  Scene scene;
  BoardTracker tracker(BoardLocator(scene.model));
  SyntheticView clear = scene.frame(1);
  ASSERT_EQ(tracker.update(clear.image).state, TrackState::Locked);
  cv::Matx33d before = tracker.fit()->board_to_ideal;
  for (int i = 0; i < 20; ++i) {
    TrackUpdate u = tracker.update(scene.frame(2 + i, {0, 1, 2, 7}).image);
    EXPECT_EQ(u.state, TrackState::Occluded);
    EXPECT_EQ(u.markers_in_place, 4);
  }
  EXPECT_EQ(tracker.fit()->board_to_ideal, before);
  EXPECT_EQ(tracker.update(scene.frame(30).image).state, TrackState::Locked);
  EXPECT_LT(worst_site_error(tracker, clear), 0.5);
}

TEST(Tracker, ABumpedCameraRaisesBoardMovedOnceAndFollowsTheBoard) {
  Scene scene;
  BoardTracker tracker(BoardLocator(scene.model));
  ASSERT_EQ(tracker.update(scene.frame(1).image).state, TrackState::Locked);
  scene.view.rotation_deg += 2;  // bumped
  scene.view.aim_offset_mm = {6, -4};
  std::vector<TrackState> states;
  SyntheticView last;
  for (int i = 0; i < 6; ++i) {
    last = scene.frame(10 + i);
    states.push_back(tracker.update(last.image).state);
  }
  EXPECT_EQ(std::count(states.begin(), states.end(), TrackState::Moved), 1);
  EXPECT_EQ(states.back(), TrackState::Locked);
  EXPECT_LT(worst_site_error(tracker, last), 0.5);
}

TEST(Tracker, ABoardOutOfViewIsLostButItsFitKept) {
  Scene scene;
  TrackerParams params;
  params.lost_after = 4;
  BoardTracker tracker(BoardLocator(scene.model), params);
  ASSERT_EQ(tracker.update(scene.frame(1).image).state, TrackState::Locked);
  cv::Mat table(720, 1280, CV_8UC3, cv::Scalar(80, 100, 130));
  std::vector<TrackState> states;
  for (int i = 0; i < 5; ++i) states.push_back(tracker.update(table).state);
  EXPECT_EQ(states.front(), TrackState::Occluded);
  EXPECT_EQ(states.back(), TrackState::Lost);
  EXPECT_TRUE(tracker.fit().has_value());
  EXPECT_EQ(tracker.update(scene.frame(2).image).state, TrackState::Locked);
}

TEST(Tracker, WithoutAnyFitItSearches) {
  Scene scene;
  BoardTracker tracker(BoardLocator(scene.model));
  cv::Mat table(720, 1280, CV_8UC3, cv::Scalar(80, 100, 130));
  EXPECT_EQ(tracker.update(table).state, TrackState::Searching);
  EXPECT_FALSE(tracker.fit().has_value());
}

}  // namespace
}  // namespace sb::calib
