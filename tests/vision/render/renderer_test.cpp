#include "vision/render/renderer.h"

#include <gtest/gtest.h>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "tests/vision/render/render_test_support.h"
#include "vision/render/board_art.h"
#include "vision/render/hand.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

using testing::plain_look;

const std::vector<std::string> kGames = {"brazilian", "international", "english", "morris9", "morris3",
                                         "morris6",   "morris12",      "cotoan",  "cotulenh"};

// A few pieces of both sides on the game's first sites.
BoardContents some_pieces(const calib::BoardModel& m, const PieceLook& look) {
  BoardContents b;
  char sides[2] = {look.sides[0].side, look.sides[1].side};
  for (size_t i = 0; i < m.sites.size(); i += 3) {
    std::string t(1, sides[(i / 3) % 2]);
    if (look.face == FaceKind::Dots) t += static_cast<char>('0' + (i / 3) % 10);
    if (look.face == FaceKind::Symbols) t += "CHIETAGSFNM"[(i / 3) % 11];
    b[m.sites[i].name] = {t};
  }
  return b;
}

TEST(Renderer, SameSeedGivesTheSamePictureAndAnotherSeedAnother) {
  calib::BoardModel m = calib::load_board_model("cotoan");
  Rng rng(9);
  Look look = sample_look(load_game_art("cotoan"), m, {640, 360}, {}, rng);
  auto draw = [&](uint64_t seed) {
    Renderer r(m, look, {640, 360}, seed);
    Rng place(seed);
    Scene scene;
    scene.pieces = place_pieces(m, look.pieces, some_pieces(m, look.pieces), place);
    return r.render(scene, seed);
  };
  cv::Mat a = draw(4), b = draw(4), c = draw(5);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_L1), 0);
  EXPECT_GT(cv::norm(a, c, cv::NORM_L1), 0);
}

// The markers a standard ArUco detector finds lie where the truth says, to a fraction of a pixel: the truth's
// geometry is the geometry that was drawn, through tilt, rotation and lens distortion.
TEST(Renderer, MarkersAreDetectedWhereTheTruthPutsThem) {
  struct View {
    const char* game;
    double tilt, azimuth, roll, k1;
  };
  for (View v : {View{"brazilian", 0, 0, 0, 0}, View{"cotulenh", 35, 30, 5, -0.12}, View{"morris9", 45, 200, -8, 0.04},
                 View{"cotoan", 20, 100, 0, -0.08}}) {
    calib::BoardModel m = calib::load_board_model(v.game);
    Look look = plain_look(v.game);
    look.camera.tilt_deg = v.tilt;
    look.camera.azimuth_deg = v.azimuth;
    look.camera.roll_deg = v.roll;
    look.camera.k1 = v.k1;
    look.camera.px_per_pitch = 0.9 * max_px_per_pitch(m, look.camera, {1280, 720});
    Renderer r(m, look, {1280, 720}, 1);
    cv::Mat img = r.render({}, 1);
    nlohmann::json truth = geometry_json(r);

    auto dict = cv::aruco::getPredefinedDictionary(aruco_dictionary_id(m.markers.dictionary));
    std::vector<int> ids;
    std::vector<std::vector<cv::Point2f>> corners;
    auto params = cv::aruco::DetectorParameters::create();
    params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_CONTOUR;
    cv::aruco::detectMarkers(img, dict, corners, ids, params);
    EXPECT_GE(ids.size(), 6u) << v.game;
    int judged = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      const auto& q = truth["markers"][std::to_string(ids[i])];
      ASSERT_EQ(q.size(), 4u) << v.game << " marker " << ids[i] << " is not on this board";
      // Markers cut by the image border are found with cut corners; judge the whole ones.
      bool inside = true;
      for (int k = 0; k < 4; ++k) {
        double x = q[k][0].get<double>(), y = q[k][1].get<double>();
        inside = inside && x > 15 && y > 15 && x < 1265 && y < 705;
      }
      if (!inside) continue;
      ++judged;
      cv::Point2d found(0, 0), truth_centre(0, 0);
      for (int k = 0; k < 4; ++k) {
        cv::Point2d t(q[k][0].get<double>(), q[k][1].get<double>());
        // The detector fits lines to a thresholded contour: each corner is within a pixel or so, the centre
        // (where the errors of opposite corners cancel) within about half a pixel.
        EXPECT_LT(cv::norm(cv::Point2d(corners[i][k]) - t), 1.5) << v.game << " marker " << ids[i] << " corner " << k;
        found += cv::Point2d(corners[i][k]) * 0.25;
        truth_centre += t * 0.25;
      }
      EXPECT_LT(cv::norm(found - truth_centre), 0.6) << v.game << " marker " << ids[i];
    }
    EXPECT_GE(judged, 4) << v.game;
  }
}

// The board is drawn where the truth says: at every site centre of a draughts board the dark square's colour,
// of a Morris board the ink of the point's dot, through tilt, rotation and distortion.
TEST(Renderer, SiteCentresShowTheBoardPaintTheModelPutsThere) {
  for (const char* game : {"brazilian", "international", "english", "morris9", "morris3", "morris6", "morris12"}) {
    calib::BoardModel m = calib::load_board_model(game);
    Look look = plain_look(game);
    look.light.ambient = 1;
    look.light.directional = 0;
    look.board.texture = 0;
    look.camera.tilt_deg = 35;
    look.camera.azimuth_deg = 250;
    look.camera.roll_deg = 4;
    look.camera.k1 = -0.1;
    look.camera.px_per_pitch = 0.9 * max_px_per_pitch(m, look.camera, {1280, 720});
    Renderer r(m, look, {1280, 720}, 1);
    cv::Mat img = r.render({}, 1);
    bool squares = m.kind == calib::BoardKind::Squares;
    const Rgb& expected = squares ? look.board.colours.dark : look.board.colours.ink;
    const Rgb& other = squares ? look.board.colours.light : look.board.colours.light;
    cv::Vec3f light = r.lighting().flat_gain({0, 0}, {640, 360});
    for (const auto& s : m.sites) {
      cv::Vec3b px = img.at<cv::Vec3b>(cv::Point(r.site_pixel(s.name) + cv::Point2d(0.5, 0.5)));
      cv::Vec3b want = expected.bgr8(), not_want = other.bgr8();
      double d_want = 0, d_other = 0;
      for (int c = 0; c < 3; ++c) {
        d_want += std::abs(px[c] - want[c] * light[c]);
        d_other += std::abs(px[c] - not_want[c] * light[c]);
      }
      EXPECT_LT(d_want, d_other) << game << " site " << s.name;
      EXPECT_LT(d_want, 60) << game << " site " << s.name;
    }
  }
}

// What stands on a site is drawn where the truth says its top is: rendering with and without one piece
// changes the picture at that point and nowhere far from it.
TEST(Renderer, APieceIsDrawnWhereTheTruthSaysItsTopIs) {
  for (const auto& game : kGames) {
    calib::BoardModel m = calib::load_board_model(game);
    Look look = plain_look(game);
    look.camera.tilt_deg = 30;
    look.camera.azimuth_deg = 60;
    look.camera.px_per_pitch = 0.9 * max_px_per_pitch(m, look.camera, {1280, 720});
    look.pieces.max_offset = 0.2;
    Renderer r(m, look, {1280, 720}, 2);
    BoardContents b = some_pieces(m, look.pieces);
    Rng place(3);
    Scene with;
    with.pieces = place_pieces(m, look.pieces, b, place);
    const PieceInstance& p = with.pieces[with.pieces.size() / 2];
    Scene without = with;
    without.pieces.erase(without.pieces.begin() + static_cast<long>(with.pieces.size() / 2));
    cv::Mat a = r.render(with, 1), c = r.render(without, 1);
    cv::Point2d top = r.top_pixel(p);
    cv::Vec3b pa = a.at<cv::Vec3b>(cv::Point(top)), pc = c.at<cv::Vec3b>(cv::Point(top));
    EXPECT_GT(cv::norm(cv::Vec3i(pa) - cv::Vec3i(pc)), 10) << game << " " << p.site;
    // Far from the piece (more than two pitches in the image) nothing changed.
    cv::Mat diff;
    cv::absdiff(a, c, diff);
    cv::cvtColor(diff, diff, cv::COLOR_BGR2GRAY);
    double reach = 2.5 * m.pitch_mm * r.camera().px_per_mm({p.xy.x, p.xy.y, 0});
    cv::circle(diff, cv::Point(top), static_cast<int>(reach), cv::Scalar(0), cv::FILLED);
    EXPECT_EQ(cv::countNonZero(diff > 2), 0) << game;
    // And the truth's board lists it.
    EXPECT_EQ(board_json(with.pieces)[p.site], p.top()) << game;
  }
}

TEST(Renderer, StackedPiecesStandTallerThanOne) {
  calib::BoardModel m = calib::load_board_model("brazilian");
  Look look = plain_look("brazilian");
  look.camera.tilt_deg = 40;
  Renderer r(m, look, {1280, 720}, 1);
  PieceInstance man;
  man.layers = {"W"};
  man.xy = {m.site("22").centre.x, m.site("22").centre.y};
  PieceInstance king = man;
  king.layers = {"W", "W"};
  cv::Point2d base = r.camera().project(man.xy.x, man.xy.y, 0);
  EXPECT_GT(cv::norm(r.top_pixel(king) - base), 1.8 * cv::norm(r.top_pixel(man) - base));
  Scene a, b;
  a.pieces = {man};
  b.pieces = {king};
  EXPECT_GT(cv::norm(r.render(a, 1), r.render(b, 1), cv::NORM_L1), 0);
}

TEST(Renderer, EveryGameRendersWithEveryLookOption) {
  cv::Size size(320, 180);
  // Every option on three games and every game with a third of the options keeps this test short.
  for (size_t gi = 0; gi < kGames.size(); ++gi) {
    const std::string& game = kGames[gi];
    calib::BoardModel m = calib::load_board_model(game);
    GameArt art = load_game_art(game);
    Rng rng(std::hash<std::string>{}(game));
    std::vector<nlohmann::json> patches = {
        {{"board", {{"material", "paper"}}}},
        {{"board", {{"material", "cardboard"}}}},
        {{"board", {{"material", "wood"}, {"markers", false}}}},
        {{"table", {{"surface", "wood"}}}},
        {{"table", {{"surface", "cloth"}}}},
        {{"table", {{"surface", "laminate"}}}},
        {{"table", {{"surface", "stone"}}}},
        {{"pieces", {{"material", "plastic"}}}},
        {{"pieces", {{"material", "wood"}}}},
        {{"pieces", {{"material", "stone"}, {"shape", "stone"}}}},
        {{"pieces", {{"shape", "disc"}, {"face", "grooves"}, {"grooves", 3}}}},
        {{"pieces", {{"dots", "dice"}}}},
        {{"pieces", {{"dots", "ring"}}}},
        {{"pieces", {{"dots", "scattered"}}}},
        {{"pieces", {{"zero", "cross"}}}},
        {{"pieces", {{"zero", "star"}}}},
        {{"pieces", {{"zero", "blank"}}}},
        {{"pieces", {{"symbols", "pictograms"}}}},
        {{"pieces", {{"symbols", "letters"}}}},
        {{"light", {{"glare_spots", 3}, {"kelvin", 2700}, {"vignette", 0.6}, {"gradient", 0.5}}}},
        {{"sensor", {{"noise", 8}, {"defocus_px", 1.5}}}},
        {{"sensor", {{"motion_px", 6}, {"motion_angle_deg", 30}}}},
        {{"sensor", {{"jpeg_quality", 30}}}}};
    Look base = sample_look(art, m, size, {}, rng);
    Rng place(1);
    BoardContents b = some_pieces(m, base.pieces);
    std::vector<cv::Mat> pictures;
    for (size_t pi = 0; pi < patches.size(); ++pi) {
      const auto& patch = patches[pi];
      bool always = pi == 0 || pi == 2 || pi == 4 || pi == 6 || pi == 7 || pi == 8;
      if (!always && (pi + gi) % 3 != 0) {
        pictures.emplace_back();
        continue;
      }
      nlohmann::json full = patch;
      // A face kind that does not fit the game's tokens would draw nothing new; keep the game's own face.
      if (full.contains("pieces") && full["pieces"].contains("face")) full["pieces"]["face"] = name_of(art.pieces.face);
      Look look = apply_look_patch(base, full, "test");
      Renderer r(m, look, size, 7);
      Rng pl(1);
      Scene scene;
      scene.pieces = place_pieces(m, look.pieces, b, pl);
      cv::Mat img;
      ASSERT_NO_THROW(img = r.render(scene, 7)) << game << " " << patch.dump();
      ASSERT_EQ(img.size(), size);
      cv::Scalar mean, sd;
      cv::meanStdDev(img, mean, sd);
      EXPECT_GT(sd[0] + sd[1] + sd[2], 10) << game << " " << patch.dump();
      pictures.push_back(img);
    }
    // Each option changes the picture (the base look already has some of them, so compare neighbours
    // that set the same key differently).
    EXPECT_GT(cv::norm(pictures[0], pictures[2], cv::NORM_L1), 0) << game;
    EXPECT_GT(cv::norm(pictures[4], pictures[6], cv::NORM_L1), 0) << game;
    EXPECT_GT(cv::norm(pictures[7], pictures[8], cv::NORM_L1), 0) << game;
  }
}

// The near player's hand reaching 30 mm above `site`.
HandPose reaching(const calib::BoardModel& m, const Look& look, const std::string& site) {
  HandPose h;
  h.player = 0;
  h.shoulder = shoulder_of(0, m, look.hands);
  h.grip = {m.site(site).centre.x, m.site(site).centre.y, -30};
  return h;
}

TEST(Renderer, AHandOverTheBoardIsSeenAndCoversSitesAHandBesideItDoesNot) {
  calib::BoardModel m = calib::load_board_model("cotoan");
  Look look = plain_look("cotoan");
  Renderer r(m, look, {1280, 720}, 1);
  Scene empty;
  HandPose reach = reaching(m, look, "e5");
  reach.pinch = 1;
  Scene over = empty;
  over.hands = {reach};
  HandCover c = r.hand_cover(over);
  EXPECT_TRUE(c.over_board);
  EXPECT_FALSE(c.sites.empty());
  EXPECT_GT(cv::norm(r.render(over, 1), r.render(empty, 1), cv::NORM_L1), 0);
  Scene resting = empty;
  resting.hands = {resting_hand(0, m, look.hands, 0)};
  resting.hands[0].grip[1] += 120;  // well off the board's near edge
  EXPECT_FALSE(r.hand_cover(resting).over_board);
}

// A hand's motion blur is bounded by what an exposure can smear: a grip whose place a frame before projects far
// off (400 mm away in a 30th of a second here; near the camera's plane, thousands of pixels) once made a kernel as
// wide and a frame took ten seconds to draw (simulate brazilian, eval-vision seed 8822012, game 18).
TEST(Renderer, AMovingHandIsSmearedNoFurtherThanAnExposureCan) {
  calib::BoardModel m = calib::load_board_model("cotoan");
  Look look = plain_look("cotoan");
  Renderer r(m, look, {1280, 720}, 1);
  Scene empty;
  HandPose h = reaching(m, look, "e5");
  Scene still = empty, moving = empty;
  still.hands = {h};
  h.motion = {400, 0, 0};
  moving.hands = {h};
  const cv::Mat bare = r.render(empty, 1);
  auto changed_box = [&](const cv::Mat& img) {
    cv::Mat diff, grey, mask;
    cv::absdiff(img, bare, diff);
    cv::cvtColor(diff, grey, cv::COLOR_BGR2GRAY);
    cv::threshold(grey, mask, 12, 255, cv::THRESH_BINARY);
    return cv::boundingRect(mask);
  };
  const cv::Rect hand = changed_box(r.render(still, 1));
  ASSERT_GT(hand.area(), 0);
  const cv::Mat smear = r.render(moving, 1);
  const cv::Rect smeared = changed_box(smear);
  const cv::Rect bound(hand.x - 110, hand.y - 110, hand.width + 220, hand.height + 220);
  EXPECT_GT(cv::norm(smear, r.render(still, 1), cv::NORM_L1), 0) << "the moving hand was not smeared";
  EXPECT_EQ(smeared & bound, smeared) << "smeared over " << smeared << ", the hand itself over " << hand;
}

}  // namespace
}  // namespace sb::vision
