// The check that the camera moved (a plain board's fit kept from the corners given): a knocked camera is told,
// a hand held still over a small board is not.
#include "vision/view_registration.h"

#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/board_model.h"
#include "still_board.h"
#include "vision/render/hand.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

// The look of morris3 seed 8713011 (eval-vision --simulations, rounded): a 3×3 board on card, 27 px per pitch,
// a wooden table.
Look morris3_look() {
  return Look::from_json(nlohmann::json::parse(R"({
    "board": {"colours": {"dark": "#7c542d", "ink": "#2a1e14", "land": "#e8dbba", "light": "#eadbb9",
                          "sheet": "#e8e5de", "water": "#93bedb"},
              "edge": "#a49082", "gloss": 0.138, "markers": false, "material": "cardboard", "texture": 0.68,
              "thickness_mm": 2.55},
    "camera": {"aim_offset_mm": [-1.1, -4.8], "azimuth_deg": 80.4, "hfov_deg": 71.5, "k1": 0.0, "k2": 0.0,
               "px_per_pitch": 27.4, "roll_deg": 1.55, "tilt_deg": 4.15},
    "hands": {"size": 0.966, "skin": ["#cba48c", "#a9816c"], "sleeve": ["#c0c0c8", "#3c4b3e"],
              "sleeve_length": [0.375, 0.421]},
    "light": {"ambient": 0.591, "azimuth_deg": 65.7, "directional": 0.388, "elevation_deg": 80.3, "exposure": 1.127,
              "glare_size_mm": 30.6, "glare_spots": 0, "glare_strength": 0.386, "gradient": 0.073,
              "gradient_angle_deg": 105.6, "kelvin": 2881, "shadow_softness_mm": 3.16, "vignette": 0.109},
    "pieces": {"diameter_pitch": 0.55, "dot_size": 0.092, "dots": "scattered", "face": "plain", "gloss": 0.516,
               "grooves": 2, "height_mm": 6.09, "material": "stone", "max_offset": 0.054, "max_turn_deg": 180.0,
               "pattern_seed": 1889484375772486, "shade_jitter": 0.015, "shape": "stone",
               "sides": {"B": {"body": "#2c2f32", "mark": "#3e4147"}, "W": {"body": "#e7e4da", "mark": "#cfcabe"}},
               "symbols": "pictograms", "zero": "cross"},
    "sensor": {"defocus_px": 0.0, "jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 5.08},
    "table": {"accent": "#94634c", "angle_deg": 59.0, "base": "#b5795c", "scale_mm": 12.46, "surface": "wood"}
  })"),
                         "morris3 look");
}

class ViewCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = calib::load_board_model("morris3");
    look_ = morris3_look();
    renderer_.emplace(model_, look_, cv::Size(1280, 720), 8713011);
    const cv::Mat still = renderer_->render(Scene{}, 1);
    // As the locate stage takes it: the playing area, features in it grown by half.
    const nlohmann::json g = geometry_json(*renderer_);
    cv::Point2f centre(0, 0);
    for (const auto& c : g["corners"]) {
      quad_.emplace_back(c[0].get<float>(), c[1].get<float>());
      centre += quad_.back() * 0.25f;
    }
    std::vector<cv::Point> zone;
    for (const cv::Point2f& p : quad_) zone.emplace_back(cv::Point(centre + (p - centre) * 1.5f));
    mask_ = cv::Mat::zeros(still.size(), CV_8U);
    cv::fillConvexPoly(mask_, zone, cv::Scalar(255));
    still_ = still;
  }

  Registration check(const cv::Mat& frame, const RegistrationParams& params) const {
    ViewRegistration view(params);
    view.set_reference(still_, quad_, mask_);
    return view.check(frame);
  }

  cv::Mat hand_held_over(const std::string& site, int player) {
    Scene s;
    HandPose h;
    h.player = player;
    h.shoulder = shoulder_of(player, model_, look_.hands, 0);
    const calib::Vec2 c = model_.sites[static_cast<size_t>(model_.site_index(site))].centre;
    h.grip = {c.x, c.y, -25};
    h.rest = 0;
    s.hands.push_back(h);
    return renderer_->render(s, 7);
  }

  calib::BoardModel model_;
  Look look_;
  std::optional<Renderer> renderer_;
  cv::Mat still_, mask_;
  std::vector<cv::Point2f> quad_;
};

TEST_F(ViewCheck, AHandHeldStillOverASmallBoardIsNoKnockedCamera) {
  // The rule before: a fitted motion moving a corner by more than moved_px was a move, whatever else explained the
  // matches. Under these hands it moved the far corners by a few pixels though nothing moved.
  RegistrationParams before;
  before.still_share = 1e9;
  for (const auto& [site, player] : {std::pair{"b2", 0}, std::pair{"c3", 0}}) {
    SCOPED_TRACE(std::string("a hand over ") + site + " from player " + std::to_string(player));
    const cv::Mat frame = hand_held_over(site, player);
    const Registration old_rule = check(frame, before);
    ASSERT_TRUE(old_rule.told);
    EXPECT_TRUE(old_rule.moved) << "the fitted motion moves no corner: this hand shows nothing";
    const Registration r = check(frame, RegistrationParams{});
    EXPECT_TRUE(r.told);
    EXPECT_FALSE(r.moved) << "corners " << r.corner_shift_px << " px off; " << r.still_close << " matches still, "
                          << r.fitted_close << " on the fitted motion";
  }
}

TEST_F(ViewCheck, AKnockedCameraIsTold) {
  Camera knocked = renderer_->camera();
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(0.004, -0.006, 0.003), turn);  // about 0.4°: a pixel or two at the board
  const cv::Vec3d at = knocked.position() + cv::Vec3d(1, -1, 0);
  knocked.R = turn * knocked.R;
  knocked.t = -(knocked.R * at);
  renderer_->set_camera(knocked);
  const Registration r = check(renderer_->render(Scene{}, 3), RegistrationParams{});
  ASSERT_TRUE(r.told);
  EXPECT_TRUE(r.moved) << "corners " << r.corner_shift_px << " px off; " << r.still_close << " matches still, "
                       << r.fitted_close << " on the fitted motion";
}

// English game 20 of the 20-game run (seed 8821003): a plain paper board on a fine green cloth. A lamp came on at
// 28 s, and the camera was knocked by about two thirds of a pitch at 39 s. Against the view kept from before the
// lamp, matches over the whole views agreed only on no motion (the squares' corners, one corner repeated 64 times,
// paired with their neighbours'; 44 of 418 agreed), so the check could never tell; the old fit was kept, every
// read after it was of the wrong cells, and nothing was recorded from ply 4 on. The views' shift found first by
// phase correlation, each feature is now matched only near where it puts it (182 of 450 agree, the knock told).
TEST(KnockedCamera, ABoardOfRepeatedSquaresKnockedAfterALampCameOnIsToldWhereItWent) {
  const calib::BoardModel model = calib::load_board_model("english");
  const Look look = testing::black_and_red_men_under_a_high_light();
  const Look lit = testing::with_warm_side_lamp(look);
  const cv::Size size(1280, 720);
  const uint64_t seed = 2425071305113808ull;
  Renderer renderer(model, look, size, seed);
  Scene scene;
  Rng rng(5);
  scene.pieces = place_pieces(model, look.pieces, testing::contents_of(testing::draughts_start_tokens(12, 32)), rng);
  // As the simulator writes frames: JPEG compressed.
  auto jpeg = [](const cv::Mat& image) {
    std::vector<uchar> bytes;
    cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, 90});
    return cv::imdecode(bytes, cv::IMREAD_COLOR);
  };
  const cv::Mat before = jpeg(renderer.render(scene, 1));
  const std::array<cv::Point2d, 4> corners_before = testing::corners_of(renderer);
  std::vector<cv::Point2f> quad;
  cv::Point2f centre(0, 0);
  for (const auto& c : corners_before) {
    quad.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
    centre += quad.back() * 0.25f;
  }
  std::vector<cv::Point> zone;
  for (const cv::Point2f& p : quad) zone.emplace_back(cv::Point(centre + (p - centre) * 1.5f));
  cv::Mat mask = cv::Mat::zeros(size, CV_8U);
  cv::fillConvexPoly(mask, zone, cv::Scalar(255));

  Renderer lamp_on(model, lit, size, seed);
  Camera knocked = lamp_on.camera();
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(0.012, -0.016, 0.006), turn);  // about 1.2°, as the simulator's knocks (0.6–2°)
  const cv::Vec3d at = knocked.position() + cv::Vec3d(3, -2, 1);
  knocked.R = turn * knocked.R;
  knocked.t = -(knocked.R * at);
  lamp_on.set_camera(knocked);
  const cv::Mat after = jpeg(lamp_on.render(scene, 2));
  const std::array<cv::Point2d, 4> corners_after = testing::corners_of(lamp_on);

  RegistrationParams unguided;
  unguided.guided_radius_px = 0;
  ViewRegistration plain(unguided);
  plain.set_reference(before, quad, mask);
  const Registration old_rule = plain.check(after);
  EXPECT_FALSE(old_rule.told && old_rule.moved) << "the views' matches alone told the knock: the case is gone";

  ViewRegistration view;
  view.set_reference(before, quad, mask);
  const Registration r = view.check(after);
  ASSERT_TRUE(r.told) << r.inliers << " of " << r.matches << " matches agree";
  EXPECT_TRUE(r.moved);
  std::vector<cv::Point2f> moved;
  cv::perspectiveTransform(quad, moved, cv::Mat(r.image_motion));
  for (size_t k = 0; k < 4; ++k)
    EXPECT_LT(cv::norm(cv::Point2d(moved[k]) - corners_after[k]), 2.0)
        << "corner " << k << " put at " << moved[k] << ", drawn at " << corners_after[k];
}

// Morris3 game 1 of seed 8822003: after a knock of about a degree the new fit put the sites of a 3×3 board, 31 px
// to the pitch, 5.3 px from where they were drawn (RANSAC through ORB's corners, each a pixel or so off and bunched
// round a small board). Here RANSAC alone leaves this board's corners 2.1 px off; aligned by its grey levels, 0.12.
TEST_F(ViewCheck, ASmallBoardKnockedIsFollowedToAHalfPixel) {
  auto jpeg = [](const cv::Mat& image) {
    std::vector<uchar> bytes;
    cv::imencode(".jpg", image, bytes, {cv::IMWRITE_JPEG_QUALITY, 90});
    return cv::imdecode(bytes, cv::IMREAD_COLOR);
  };
  Scene scene;
  Rng rng(3);
  scene.pieces = place_pieces(model_, look_.pieces, testing::contents_of({{"a1", "W"}, {"b2", "B"}, {"c3", "W"}}), rng);
  const cv::Mat before = jpeg(renderer_->render(scene, 1));
  // A man put on a3 between the views: the alignment must not follow it.
  for (const PieceInstance& p : place_pieces(model_, look_.pieces, testing::contents_of({{"a3", "B"}}), rng))
    scene.pieces.push_back(p);
  Camera knocked = renderer_->camera();
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(0.012, -0.016, 0.006), turn);  // about 1.2°, as the simulator's knocks (0.6–2°)
  const cv::Vec3d at = knocked.position() + cv::Vec3d(3, -2, 1);
  knocked.R = turn * knocked.R;
  knocked.t = -(knocked.R * at);
  renderer_->set_camera(knocked);
  const cv::Mat after = jpeg(renderer_->render(scene, 2));
  const std::array<cv::Point2d, 4> drawn = testing::corners_of(*renderer_);

  auto worst_corner = [&](const Registration& r) {
    std::vector<cv::Point2f> moved;
    cv::perspectiveTransform(quad_, moved, cv::Mat(r.image_motion));
    double worst = 0;
    for (size_t k = 0; k < 4; ++k) worst = std::max(worst, cv::norm(cv::Point2d(moved[k]) - drawn[k]));
    return worst;
  };
  RegistrationParams unrefined;
  unrefined.refine_grow = 0;
  ViewRegistration plain(unrefined);
  plain.set_reference(before, quad_, mask_);
  const Registration old_rule = plain.check(after);
  ASSERT_TRUE(old_rule.told && old_rule.moved);
  EXPECT_GT(worst_corner(old_rule), 0.5) << "RANSAC alone follows the knock to half a pixel: the case is gone";

  ViewRegistration view;
  view.set_reference(before, quad_, mask_);
  const Registration r = view.check(after);
  ASSERT_TRUE(r.told);
  EXPECT_TRUE(r.moved);
  EXPECT_TRUE(r.refined) << "correlation " << r.correlation_refined << " refined, " << r.correlation_ransac
                         << " RANSAC's";
  EXPECT_LT(worst_corner(r), 0.5) << "RANSAC alone: " << worst_corner(old_rule) << " px";
}

}  // namespace
}  // namespace sb::vision
