// Locating printed boards in synthetic photographs: markers (every site within half a pixel at tilts up to 45°,
// any rotation, 30–100 px per square, noise, blur, uneven light, half the markers under hands), four manual
// corners, the outline of plain boards, and no board at all.
#include <gtest/gtest.h>

#include <random>

#include "calibration/board_locator.h"
#include "engines/common/errors.h"
#include "tests/calibration/synthetic_photos.h"

namespace sb::calib {
namespace {

using testing::Photo;
using testing::photograph;
using testing::photograph_in_view;
using testing::print_page;

double worst_site_error(const BoardLocator& locator, const BoardFit& fit, const Photo& photo, std::string* where) {
  double worst = 0;
  for (const Site& s : locator.model().sites) {
    double e = cv::norm(locator.project(fit, {s.centre})[0] - photo.sites.at(s.name));
    if (e > worst) worst = e, *where = s.name;
  }
  return worst;
}

struct Condition {
  double tilt, rotation, px_per_pitch, blur, noise, light;
  int covered;  // markers under hands: 0, or 4 (half): one whole side and one more
};

// Markers hidden by hands: the near side (where a player reaches in) and one more.
std::vector<int> hands_over(const BoardModel& m, int count, std::mt19937_64& rng) {
  std::vector<int> ids;
  for (const Marker& mk : m.markers.markers) ids.push_back(mk.id);
  // Near markers first (largest y), then the others shuffled.
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return m.markers.find(a)->centre.y > m.markers.find(b)->centre.y; });
  std::shuffle(ids.begin() + 3, ids.end(), rng);
  ids.resize(std::min<size_t>(count, ids.size()));
  return ids;
}

TEST(LocateByMarkers, EverySiteWithinHalfAPixelOnPhotosOfPrintedBoards) {
  const std::vector<Condition> conditions = {
      {0, 0, 30, 0.7, 2, 0.0, 0},     // straight down, smallest scale
      {45, 30, 100, 1.0, 4, 0.5, 0},  // steepest tilt, as large as fits, dim on one side
      {30, 200, 60, 0.8, 3, 0.3, 4},  // half the markers under hands
      {40, 300, 30, 0.8, 3, 0.4, 4},  // steep, small, half hidden
      {15, 95, 45, 1.2, 5, 0.2, 2},   // turned a quarter, blurred, noisy
  };
  std::mt19937_64 rng(11);
  for (const std::string& game : board_games()) {
    auto page = print_page(game);
    BoardLocator locator(page.model);
    for (size_t i = 0; i < conditions.size(); ++i) {
      const Condition& c = conditions[i];
      SyntheticViewParams p;
      // Scales are pixels per site spacing; Morris points stand 30–50 mm apart, so there the smallest scale is
      // the one that still gives a 26 mm piece (a draughts square) 30 px.
      p.tilt_deg = c.tilt, p.rotation_deg = c.rotation;
      p.px_per_pitch = std::max(c.px_per_pitch, 30 * page.model.pitch_mm / 26);
      p.blur_sigma_px = c.blur, p.noise_sigma = c.noise, p.light_falloff = c.light, p.light_angle_deg = 40.0 * i;
      p.seed = 100 + i;
      Photo photo = photograph_in_view(page, p, hands_over(page.model, c.covered, rng));
      SCOPED_TRACE(game + " condition " + std::to_string(i));
      ASSERT_TRUE(photo.inside);
      auto fit = locator.locate(photo.image);
      ASSERT_TRUE(fit.has_value());
      // At 30 px a blurred, noisy marker is sometimes missed; the fit needs only some of them.
      EXPECT_GE(static_cast<int>(fit->marker_ids.size()), 8 - c.covered - 1);
      std::string where;
      double worst = worst_site_error(locator, *fit, photo, &where);
      EXPECT_LT(worst, 0.5) << "at site " << where;
      EXPECT_LT(fit->reprojection_error_px, 0.5);
    }
  }
}

TEST(LocateByMarkers, MarkersTheDetectorMissedAreFoundWhereTheFitPutsThemAndPinItDown) {
  // A small, tilted view where the detector sees only two neighbouring markers (as after a knocked camera, the
  // others small, blurred or glared): their fit extrapolates across the board by several pixels (7 px here);
  // the other markers, looked for where it puts them, make every site exact again.
  auto page = print_page("cotulenh");
  SyntheticViewParams p;
  p.tilt_deg = 30, p.rotation_deg = 10, p.px_per_pitch = 20, p.blur_sigma_px = 1.0, p.noise_sigma = 3, p.seed = 5;
  Photo photo = photograph_in_view(page, p);
  ASSERT_TRUE(photo.inside);
  cv::Mat gray = gray_of(photo.image);
  for (bool sight_missed : {false, true}) {
    LocatorParams lp;
    lp.sight_missed_markers = sight_missed;
    BoardLocator locator(page.model, lp);
    std::vector<MarkerSighting> seen = locator.detect(gray);
    ASSERT_GE(seen.size(), 4u);
    // Keep the two markers nearest each other: the least the fit accepts, and the worst spread.
    size_t a = 0, b = 1;
    double nearest = 1e9;
    for (size_t i = 0; i < seen.size(); ++i)
      for (size_t j = i + 1; j < seen.size(); ++j) {
        const double d = cv::norm(seen[i].corners[0] - seen[j].corners[0]);
        if (d < nearest) nearest = d, a = i, b = j;
      }
    const std::vector<MarkerSighting> two = {seen[a], seen[b]};
    auto first = locator.fit(two);
    ASSERT_TRUE(first.has_value());
    auto refined = locator.refine(gray, *first, two);
    ASSERT_TRUE(refined.has_value());
    std::string where;
    const double worst = worst_site_error(locator, *refined, photo, &where);
    SCOPED_TRACE(sight_missed ? "missed markers sought" : "detected markers only");
    if (sight_missed) {
      EXPECT_GE(refined->marker_ids.size(), 6u);
      EXPECT_LT(worst, 0.5) << "at site " << where;
    } else {
      EXPECT_GT(worst, 3.0) << "the two markers alone already fit: the test shows nothing";
    }
  }
}

TEST(LocateByMarkers, MarkersOfAnotherBoardAreNotTakenForThisOne) {
  auto page = print_page("morris9");
  SyntheticViewParams p;
  p.px_per_pitch = 40;
  Photo photo = photograph_in_view(page, p);
  BoardLocator brazilian(load_board_model("brazilian"));
  std::vector<int> foreign;
  EXPECT_TRUE(brazilian.detect(photo.image, &foreign).empty());
  EXPECT_EQ(foreign.size(), 8u);
  EXPECT_FALSE(brazilian.locate(photo.image).has_value());
}

TEST(LocateByMarkers, ATableWithoutABoardFindsNothing) {
  BoardModel model = load_board_model("cotoan");
  SyntheticViewParams p;
  p.px_per_pitch = 1;  // the board shrinks to a speck far away
  p.noise_sigma = 4;
  SyntheticView view = synthetic_view(model, p);
  BoardLocator locator(model);
  EXPECT_FALSE(locator.locate(view.image).has_value());
  EXPECT_FALSE(locator.find_outline(view.image).has_value());
}

TEST(LocateByCorners, SitesLieEvenlyBetweenTheFourCornersGiven) {
  for (std::string game : {"brazilian", "morris6", "cotulenh"}) {
    BoardModel model = load_board_model(game);
    SyntheticViewParams p;
    p.tilt_deg = 35, p.rotation_deg = 12, p.px_per_pitch = 35, p.draw_markers = false;
    SyntheticView view = synthetic_view(model, p);
    BoardLocator locator(model);
    std::array<cv::Point2d, 4> corners;
    for (int k = 0; k < 4; ++k) {
      Vec2 c = model.playing_area_corners()[k];
      cv::Vec3d v = view.board_to_ideal * cv::Vec3d(c.x, c.y, 1);
      corners[k] = {v[0] / v[2], v[1] / v[2]};
    }
    BoardFit fit = locator.from_corners(corners);
    EXPECT_EQ(fit.method, "corners");
    for (const Site& s : model.sites)
      EXPECT_LT(cv::norm(locator.project(fit, {s.centre})[0] - view.sites.at(s.name)), 1e-4) << game << " " << s.name;
  }
}

TEST(LocateByCorners, CornersNotGoingRoundTheBoardAreRefused) {
  BoardLocator locator(load_board_model("brazilian"));
  // near-left, far-right, near-right, far-left: the sides cross.
  EXPECT_THROW(locator.from_corners({cv::Point2d{100, 600}, {700, 100}, {700, 600}, {100, 100}}), InputError);
  EXPECT_THROW(locator.from_corners({cv::Point2d{100, 100}, {100, 100}, {700, 600}, {100, 600}}), InputError);
}

TEST(LocateByOutline, PlainPrintedBoardsAreFoundWithTheFirstPlayerNearest) {
  for (const std::string& game : board_games()) {
    BoardModel model = load_board_model(game);
    SyntheticViewParams p;
    p.tilt_deg = 25, p.rotation_deg = 8, p.px_per_pitch = 40 * std::max(1.0, model.pitch_mm / 26);
    p.draw_markers = false;
    p.noise_sigma = 3, p.blur_sigma_px = 0.8, p.light_falloff = 0.3;
    SyntheticView view = synthetic_view(model, p);
    BoardLocator locator(model);
    auto fit = locator.find_outline(view.image);
    ASSERT_TRUE(fit.has_value()) << game;
    EXPECT_EQ(fit->method, "outline");
    double worst = 0;
    for (const Site& s : model.sites)
      worst = std::max(worst, cv::norm(locator.project(*fit, {s.centre})[0] - view.sites.at(s.name)));
    EXPECT_LT(worst, 1.0) << game;
  }
}

}  // namespace
}  // namespace sb::calib
