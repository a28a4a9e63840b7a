// The motion gate and the locate stage on rendered scenes of a Nine Men's Morris board located by its given
// corners (its printed markers then keep the fit; the PlainBoard scenes have none, so only the check of the
// view tells a knocked camera): a hand lying still over the board is never settled; a piece taken from beside the
// board, a lamp switched on and a knocked camera are not hands, nor is the absence of a hand that rested beside the
// board when it settled; the board settles again soon after (the camera's move followed, so the sites read right
// afterwards).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <opencv2/calib3d.hpp>
#include <thread>

#include "calibration/board_locator.h"
#include "vision/game_vision.h"
#include "vision/render/hand.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::vision {
namespace {

constexpr int64_t kFrameMs = 33;

class GateScenes : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = calib::load_board_model("morris9");
    const GameArt art = load_game_art("morris9");
    look_.pieces = art.pieces;
    look_.board.colours = art.board;
    look_.board.markers = !plain_board_;
    look_.camera.tilt_deg = 12;
    look_.camera.px_per_pitch = px_per_pitch_;
    look_.camera.azimuth_deg = azimuth_deg_;
    look_.sensor.noise = 1.5;
    renderer_.emplace(model_, look_, cv::Size(1280, 720), 5);
    Rng rng(5);
    BoardContents board = {{"a7", {"W"}}, {"d7", {"B"}}, {"b4", {"W"}}, {"f4", {"B"}}, {"d2", {"W"}}, {"g1", {"B"}}};
    scene_.pieces = place_pieces(model_, look_.pieces, board, rng);
    for (int i = 0; i < 4; ++i) {
      scene_.pieces.push_back(beside_board(model_, look_.pieces, look_.board, 0, i, {"W"}, rng, true));
      scene_.pieces.push_back(beside_board(model_, look_.pieces, look_.board, 1, i, {"B"}, rng, true));
    }
    truth_ = visible_tokens(scene_.pieces);
    const nlohmann::json g = geometry_json(*renderer_);
    std::array<cv::Point2d, 4> corners;
    for (size_t k = 0; k < 4; ++k) corners[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
    pipeline_.emplace(make_pipeline("morris9", params_));
    pipeline_->use_fit(calib::BoardLocator(model_).from_corners(corners), cv::Size(1280, 720));
    still_ = draw(scene_, 1);
    // The board is seen settled and read first.
    feed(still_, 10);
    ASSERT_TRUE(last_.settled);
  }

  cv::Mat draw(const Scene& s, uint64_t noise_seed) { return renderer_->render(s, noise_seed); }

  // `n` frames of `image` (fresh sensor noise is not needed: the gate's noise floor is the frame's own).
  void feed(const cv::Mat& image, int n) {
    for (int i = 0; i < n; ++i) {
      Frame f;
      f.image = image;
      f.t_ms = t_;
      f.index = index_++;
      t_ += kFrameMs;
      last_ = pipeline_->process(f);
      if (params_.read_in_background) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      settled_frames_ += last_.settled;
      if (last_.board_state == "moved") moved_seen_ = true;
      if (last_.settled && first_settled_ms_ < 0) first_settled_ms_ = f.t_ms;
    }
  }
  void reset_counts() {
    settled_frames_ = 0;
    first_settled_ms_ = -1;
    moved_seen_ = false;
  }

  // A warm lamp from another side, brighter, with a glare spot of its own.
  void switch_on_a_lamp() {
    LightLook lamp = look_.light;
    lamp.exposure *= 1.35;
    lamp.directional += 0.35;
    lamp.azimuth_deg += 140;
    lamp.elevation_deg = 45;
    lamp.kelvin = 3000;
    lamp.gradient += 0.15;
    lamp.glare_spots += 1;
    renderer_->set_light(lamp);
  }

  // The camera turned by about 1.3° and shifted a few millimetres, as a bumped tripod does.
  void knock_camera() {
    Camera knocked = renderer_->camera();
    cv::Matx33d turn;
    cv::Rodrigues(cv::Vec3d(0.012, -0.02, 0.008), turn);
    const cv::Vec3d centre = knocked.position() + cv::Vec3d(3, -2, 1);
    knocked.R = turn * knocked.R;
    knocked.t = -(knocked.R * centre);
    renderer_->set_camera(knocked);
  }
  std::vector<std::string> wrong_sites(const BoardObservation& obs) const {
    std::vector<std::string> wrong;
    for (size_t i = 0; i < model_.sites.size(); ++i) {
      auto it = truth_.find(model_.sites[i].name);
      const std::string want = it == truth_.end() ? "" : it->second;
      if (obs.sites[i].token != want) wrong.push_back(model_.sites[i].name + " read '" + obs.sites[i].token + "'");
    }
    return wrong;
  }

  // A second of the still board after a knock: the move is noticed and the board settles and reads right.
  void expect_a_knock_followed() {
    knock_camera();
    reset_counts();
    feed(draw(scene_, 6), 30);
    EXPECT_TRUE(moved_seen_) << "the camera's move was not noticed";
    ASSERT_TRUE(last_.settled);
    const std::vector<std::string> wrong = wrong_sites(last_);
    EXPECT_TRUE(wrong.empty()) << wrong.size() << " sites wrong after the camera moved, first: " << wrong.front();
  }

  HandPose hand_over(const std::string& site) const {
    HandPose h;
    h.player = 0;
    h.shoulder = shoulder_of(0, model_, look_.hands, 0);
    const calib::Vec2 c = model_.sites[static_cast<size_t>(model_.site_index(site))].centre;
    h.grip = {c.x, c.y, -30};
    h.rest = 0;
    return h;
  }

  // Set before SetUp() by a fixture that wants them: a board without markers (its fit from the corners is kept,
  // and checked against the view when still), other pipeline parameters.
  bool plain_board_ = false;
  double px_per_pitch_ = 40;
  double azimuth_deg_ = 0;
  PipelineParams params_;
  calib::BoardModel model_;
  Look look_;
  std::optional<Renderer> renderer_;
  Scene scene_;
  std::map<std::string, std::string> truth_;
  std::optional<Pipeline> pipeline_;
  cv::Mat still_;
  BoardObservation last_;
  int64_t t_ = 0;
  int index_ = 0;
  int settled_frames_ = 0;
  int64_t first_settled_ms_ = -1;
  bool moved_seen_ = false;
};

TEST_F(GateScenes, AHandHeldStillOverTheBoardIsNeverSettled) {
  Scene with_hand = scene_;
  with_hand.hands.push_back(hand_over("d5"));
  const cv::Mat hand = draw(with_hand, 2);
  reset_counts();
  feed(hand, 90);  // three seconds of a hand thinking over the board
  EXPECT_EQ(settled_frames_, 0) << "settled at " << first_settled_ms_ << " ms with the hand still over the board";
  const int64_t left = t_;
  feed(still_, 20);
  ASSERT_GE(first_settled_ms_, 0) << "never settled after the hand left";
  EXPECT_LE(first_settled_ms_ - left, 300);
}

TEST_F(GateScenes, APieceTakenFromBesideTheBoardDoesNotHoldTheBoard) {
  Scene taken = scene_;
  auto reserve =
      std::find_if(taken.pieces.begin(), taken.pieces.end(), [](const PieceInstance& p) { return p.site.empty(); });
  ASSERT_NE(reserve, taken.pieces.end());
  Scene reaching = taken;
  HandPose h = hand_over("a1");
  h.grip = {reserve->xy.x, reserve->xy.y, -25};
  reaching.hands.push_back(h);
  taken.pieces.erase(reserve);
  feed(draw(reaching, 3), 6);
  reset_counts();
  const int64_t left = t_;
  feed(draw(taken, 4), 20);
  ASSERT_GE(first_settled_ms_, 0) << "never settled after a piece was taken from beside the board";
  EXPECT_LE(first_settled_ms_ - left, 300);
}

// The takeback of a simulated Morris game (eval-vision morris9 --simulations 1 --seed 8200001): the hand that
// had taken the piece back rested beside the sheet's corner and the board settled; it crept a little closer,
// its fingertips over the board zone's corner, and the board settled again with it there (against a scene that
// held the hand already, only the hand's small shift had changed: eval-vision morris6 --simulations 2 --seed
// 8400006 had two frames settled under a hand so); then it put the piece down at the corner and left. Its
// absence looked like an arm lying across the board's edge (the settled scene still held it) and the board was
// held unsettled for the rest of the game. The settled scene now never takes in a change from the image's edge:
// the hand that crept over the board holds it (the renderer's truth says it is over the board there), and once
// gone it does not.
TEST_F(GateScenes, AHandThatRestedBesideTheBoardHoldsItWhenItCreepsOverAndNotOnceGone) {
  const double pitch = model_.pitch_mm;
  const calib::Vec2 corner{model_.size_mm.x + 0.3 * pitch, model_.size_mm.y + 0.3 * pitch};
  Scene resting = scene_;
  HandPose h = hand_over("g1");
  // Well beside it: a hand within about half a pitch of the zone holds the board (its skin within three gate
  // pixels of the zone, AHandStoppingJustOverTheZonesEdgeIsNeverSettled); at 0.45 pitch here its fingers touched
  // the zone's corner in the gate image while the truth called it beside the board.
  h.grip = {corner.x + 0.9 * pitch, corner.y + 0.9 * pitch, -20};
  resting.hands.push_back(h);
  ASSERT_FALSE(renderer_->hand_cover(resting).over_board);
  reset_counts();
  feed(draw(resting, 7), 20);
  ASSERT_GE(first_settled_ms_, 0) << "a hand beside the board, not over it, held the board unsettled";
  resting.hands.back().grip = {corner.x + 0.3 * pitch, corner.y + 0.3 * pitch, -20};
  ASSERT_TRUE(renderer_->hand_cover(resting).over_board);
  reset_counts();
  feed(draw(resting, 8), 45);
  EXPECT_EQ(settled_frames_, 0) << "settled at " << first_settled_ms_ << " ms with the hand crept over the board";

  Scene after = scene_;
  PieceInstance laid = after.pieces.back();
  laid.xy = {corner.x, corner.y};
  laid.base_mm = 0;
  laid.site.clear();
  after.pieces.push_back(laid);
  reset_counts();
  const int64_t left = t_;
  feed(draw(after, 9), 40);  // the piece lies at the corner, the hand has gone
  ASSERT_GE(first_settled_ms_, 0) << "never settled after the hand left the piece at the sheet's corner";
  EXPECT_LE(first_settled_ms_ - left, 400);
  EXPECT_TRUE(last_.settled);
}

// The hands of the brazilian 20-game run (eval-vision brazilian --simulations 20 --seed 8821001) that the board
// settled under: game 17 at 23.7 s, fingertips resting on the sheet's border just over the board zone's edge (14
// to 17 gate pixels of change in the zone, an arm held it from 18); game 10 at 79.3 s, a hand carrying a captured
// man away, still for a moment with its knuckles at the zone's corner (3 to 4 pixels). The renderer's truth calls
// a hand over the board as soon as its silhouette touches the zone, both drawn at a quarter of the image's size:
// on a small picture (26 px per pitch) that is with the hand up to two gate pixels short of the gate's zone. Here
// a camera from the side at that scale, and each player's hand comes in towards the corners of the zone on their
// side and the middle of that side and stops at the first place the truth calls over the board (towards the far
// left corner it settled in 31 of its 38 frames).
class SideViewGateScenes : public GateScenes {
 protected:
  SideViewGateScenes() {
    px_per_pitch_ = 26;
    azimuth_deg_ = -97;
  }
};

TEST_F(SideViewGateScenes, AHandStoppingJustOverTheZonesEdgeIsNeverSettled) {
  const calib::Quad& q = model_.outline_corners();  // near left, near right, far right, far left
  auto middle = [](calib::Vec2 a, calib::Vec2 b) { return calib::Vec2{(a.x + b.x) / 2, (a.y + b.y) / 2}; };
  const std::vector<std::pair<int, calib::Vec2>> targets = {
      {0, q[0]}, {0, q[1]}, {0, middle(q[0], q[1])}, {1, q[2]}, {1, q[3]}, {1, middle(q[2], q[3])}};
  const double pitch = model_.pitch_mm;
  std::vector<std::string> settled_at;
  for (const auto& [player, target] : targets) {
    // The hand comes from the player's shoulder straight towards the target, its grip 20 mm above the table.
    Scene with_hand = scene_;
    HandPose h = hand_over("d4");
    h.player = player;
    h.shoulder = shoulder_of(player, model_, look_.hands, 0);
    with_hand.hands.push_back(h);
    const double dx = h.shoulder[0] - target.x, dy = h.shoulder[1] - target.y, len = std::hypot(dx, dy);
    const calib::Vec2 out{dx / len, dy / len};
    auto at = [&](double away) {
      with_hand.hands.back().grip = {target.x + out.x * away, target.y + out.y * away, -20};
      return renderer_->hand_cover(with_hand).over_board;
    };
    double start = 2.0 * pitch;
    while (at(start) && start < 8 * pitch) start += 0.5 * pitch;
    ASSERT_FALSE(at(start)) << "player " << player << "'s hand is over the board from the start";
    double away = start;
    while (away > -pitch && !at(away)) away -= 0.02 * pitch;
    ASSERT_TRUE(at(away)) << "the hand never came over the board towards (" << target.x << ", " << target.y << ")";
    feed(still_, 10);
    ASSERT_TRUE(last_.settled);
    reset_counts();
    // The hand comes in over a quarter of a second, then rests there for a second.
    for (int step = 1; step <= 8; ++step) {
      at(start + (away - start) * step / 8);
      feed(draw(with_hand, static_cast<uint64_t>(20 + step)), 1);
    }
    feed(draw(with_hand, 11), 30);
    if (settled_frames_ > 0)
      settled_at.push_back("player " + std::to_string(player) + " towards (" + std::to_string(target.x) + ", " +
                           std::to_string(target.y) + "), grip " + std::to_string(away / pitch) +
                           " pitch beyond: " + std::to_string(settled_frames_) + " frames");
  }
  EXPECT_TRUE(settled_at.empty()) << settled_at.size() << " hands just over the board settled, first "
                                  << settled_at.front();
}

TEST_F(GateScenes, ALampSwitchedOnSettlesAgainSoon) {
  switch_on_a_lamp();
  reset_counts();
  const int64_t on = t_;
  feed(draw(scene_, 5), 20);
  ASSERT_GE(first_settled_ms_, 0) << "never settled after the lamp was switched on";
  EXPECT_LE(first_settled_ms_ - on, 400);
}

TEST_F(GateScenes, AKnockedCameraIsFollowedAndTheBoardReadsRightAfter) {
  expect_a_knock_followed();
}

// Without markers nothing but the view itself tells that the camera moved (its check when still).
class PlainBoardGateScenes : public GateScenes {
 protected:
  PlainBoardGateScenes() { plain_board_ = true; }
};

TEST_F(PlainBoardGateScenes, AKnockedCameraIsFollowedAndTheBoardReadsRightAfter) {
  expect_a_knock_followed();
}

// The view a plain board's fit is checked against follows the light: after a lamp was switched on, the view
// taken before it shares few features with a knocked view, and the knock is told late or followed inexactly
// (eval-vision morris3 --simulations 1 --seed 8713011: a knock at 51 s after a lamp at 5.6 s was never told, and
// the board never settled again; here, without it, a1 reads a piece after the knock).
class SmallPlainBoardGateScenes : public GateScenes {
 protected:
  SmallPlainBoardGateScenes() {
    plain_board_ = true;
    px_per_pitch_ = 28;
  }
};

TEST_F(SmallPlainBoardGateScenes, AKnockedCameraIsFollowedAfterALampWasSwitchedOn) {
  switch_on_a_lamp();
  reset_counts();
  feed(draw(scene_, 5), 30);
  ASSERT_GE(first_settled_ms_, 0) << "never settled after the lamp was switched on";
  expect_a_knock_followed();
}

// Markers too small for the detector to find again once the camera moved (eval-vision morris6 --simulations 2
// --seed 8400006, game 2: 34 px per pitch, two glare spots): they confirm the given fit at the start, so the
// tracker follows the board, but after the knock it could not relocate it ("lost") and nothing else told that
// the camera had moved: the gate saw the whole picture shifted against its settled scene and never settled
// again. While the markers do not confirm the fit, the view it was made on tells.
class SmallMarkerGateScenes : public GateScenes {
 protected:
  SmallMarkerGateScenes() { px_per_pitch_ = 20; }
};

TEST_F(SmallMarkerGateScenes, AKnockedCameraIsFollowedWhenTheMarkersCannotBeFoundAgain) {
  ASSERT_EQ(last_.board_state, "locked") << "the markers did not confirm the given fit: not the case this tests";
  expect_a_knock_followed();
}

// A camera close enough that the picture ends inside the gate image: on the near side the room round the sheet
// is out of view (black), and an arm reaching over the board comes in from the picture's edge, not the gate
// image's (brazilian seed 6967658757376383: a hand lying flat over the near rows during the injected illegal
// move, 58 frames settled; morris9 seed 8719012: 42 frames, an arm in from the far side). Its change never
// touched the gate image's border, so it never held the board, and the board settled with the hand taken into
// the settled scene. Arms come in from wherever the picture ends.
class CloseViewGateScenes : public GateScenes {
 protected:
  CloseViewGateScenes() { px_per_pitch_ = 80; }

  // A hand of `player` lying flat over `site`, its arm in from beyond the picture on that player's side, for two
  // seconds: never settled, and settled soon after it has gone.
  void expect_hand_from_beyond_the_picture_never_settled(int player, const std::string& site) {
    // The premise: on that side the middle of the gate image's edge lies beyond the picture (black).
    const Rectifier& rect = *pipeline_->rectifier();
    FramePyramid pyramid;
    pyramid.reset(still_, rect.frame_roi());
    cv::Mat gate;
    rect.gate_image(pyramid, gate);
    const cv::Vec3b edge_mid = gate.at<cv::Vec3b>(player == 0 ? gate.rows - 1 : 0, gate.cols / 2);
    ASSERT_EQ(edge_mid, cv::Vec3b(0, 0, 0))
        << "the picture shows the gate image's edge on player " << player << "'s side: not the case this tests";

    Scene with_hand = scene_;
    HandPose h = hand_over(site);
    h.player = player;
    // The shoulder straight behind the board's middle: the arm crosses the gate image's edge where it is beyond
    // the picture, not at a corner the picture still shows.
    h.shoulder = shoulder_of(player, model_, look_.hands, -170 * look_.hands.size);
    h.rest = 1;  // lying flat
    h.grip[2] = -12;
    with_hand.hands.push_back(h);
    ASSERT_TRUE(renderer_->hand_cover(with_hand).over_board);
    reset_counts();
    feed(draw(with_hand, 2), 60);
    EXPECT_EQ(settled_frames_, 0) << "settled at " << first_settled_ms_ << " ms with the hand over the board";
    reset_counts();
    const int64_t left = t_;
    feed(still_, 20);
    ASSERT_GE(first_settled_ms_, 0) << "never settled after the hand left";
    EXPECT_LE(first_settled_ms_ - left, 300);
  }
};

TEST_F(CloseViewGateScenes, AHandLyingFlatOverTheNearRowsFromBeyondThePictureIsNeverSettled) {
  expect_hand_from_beyond_the_picture_never_settled(0, "d2");
}

// The same from the far side (morris9 seed 8719012: the picture ended across the far corner of the gate image).
TEST_F(CloseViewGateScenes, AHandLyingFlatOverTheFarRowsFromBeyondThePictureIsNeverSettled) {
  expect_hand_from_beyond_the_picture_never_settled(1, "d6");
}

// A live camera's pipeline reads on a worker thread: the frame that settles the board returns at once, without
// the read, and a later frame brings it, the same as the read in the frame gives.
TEST_F(GateScenes, ABackgroundReadLeavesTheSettlingFrameFreeAndArrivesWithALaterOne) {
  PipelineParams params;
  params.read_in_background = true;
  Pipeline live = make_pipeline("morris9", params);
  live.use_fit(calib::BoardLocator(model_).from_corners([&] {
    const nlohmann::json g = geometry_json(*renderer_);
    std::array<cv::Point2d, 4> c;
    for (size_t k = 0; k < 4; ++k) c[k] = {g["corners"][k][0].get<double>(), g["corners"][k][1].get<double>()};
    return c;
  }()),
               cv::Size(1280, 720));
  int64_t t = 0;
  bool settled_seen = false;
  BoardObservation got;
  for (int i = 0; i < 400 && !got.read; ++i, t += kFrameMs) {
    Frame f;
    f.image = still_;
    f.t_ms = t;
    f.index = i;
    const BoardObservation obs = live.process(f);
    if (obs.settled && !settled_seen) {
      settled_seen = true;
      EXPECT_FALSE(obs.read) << "the settling frame waited for the read";
    }
    if (obs.read) got = obs;
    if (settled_seen && !obs.read) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(settled_seen);
  ASSERT_TRUE(got.read) << "the background read never arrived";
  EXPECT_GT(got.times.read_ms, 0);
  ASSERT_EQ(got.sites.size(), last_.sites.size());
  for (size_t i = 0; i < got.sites.size(); ++i)
    EXPECT_EQ(got.sites[i].token, last_.sites[i].token) << model_.sites[i].name;
}

// A live camera's pipeline checks on a worker thread whether the camera moved: the still frame after a knock
// returns while the check runs, and a later frame says the board moved; no read of the old geometry is given
// meanwhile, and the board reads right once it settles again.
class LiveGateScenes : public PlainBoardGateScenes {
 protected:
  LiveGateScenes() { params_.read_in_background = true; }
};

TEST_F(LiveGateScenes, AKnockedCameraIsFollowedByACheckOffTheFrameLoop) {
  knock_camera();
  const cv::Mat view = draw(scene_, 6);
  bool checked_off_loop = false, read_before_moved = false;
  BoardObservation read_after;
  reset_counts();
  for (int i = 0; i < 400 && !read_after.read; ++i) {
    feed(view, 1);
    if (pipeline_->checking_camera() && !moved_seen_) checked_off_loop = true;
    if (last_.read && !moved_seen_) read_before_moved = true;
    if (last_.read && moved_seen_) read_after = last_;
  }
  EXPECT_TRUE(checked_off_loop) << "no frame returned while the check ran (the move was told in the frame)";
  EXPECT_TRUE(moved_seen_) << "the camera's move was not noticed";
  EXPECT_FALSE(read_before_moved) << "a read of the old geometry was given before the check told";
  ASSERT_TRUE(read_after.read) << "no read arrived after the camera's move";
  const std::vector<std::string> wrong = wrong_sites(read_after);
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " sites wrong after the camera moved, first: " << wrong.front();
}

}  // namespace
}  // namespace sb::vision
