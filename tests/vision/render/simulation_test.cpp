#include "vision/render/simulation.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/vision/render/render_test_support.h"

namespace sb::vision {
namespace {

using testing::plain_look;

struct Fixture {
  calib::BoardModel model = calib::load_board_model("brazilian");
  Look look = plain_look("brazilian", 14);
  Camera camera = place_camera(model, look.camera, {320, 180});
  PhysicalBoard start() const {
    PhysicalBoard b;
    b.board = {{"22", {"W"}}, {"23", {"W"}}, {"18", {"B"}}, {"5", {"W"}}};
    b.pile[1] = {"W"};
    return b;
  }
  // White captures 23x14 over 18, then crowns the man on 5 by putting another man on it.
  std::vector<Turn> turns() const {
    return {Turn{0,
                 {Action::pick("23"), Action::put("14"), Action::pick("18"), Action::discard()},
                 1.0,
                 {{"type", "move"}, {"notation", "23x14"}}},
            Turn{0, {Action::take_from_pile("W"), Action::put("5")}, 0.5, {{"type", "crown"}}}};
  }
};

std::vector<SimFrame> run(const Fixture& f, const SimulationOptions& o, uint64_t seed, std::vector<Turn> turns) {
  Simulation sim(f.model, f.look, f.camera, f.start(), o, seed);
  for (auto& t : turns) sim.add(t);
  std::vector<SimFrame> frames;
  SimFrame fr;
  while (sim.next(fr)) frames.push_back(fr);
  return frames;
}

TEST(Simulation, PlaysTheTurnsAndEndsWithTheBoardTheyMake) {
  Fixture f;
  SimulationOptions o;
  o.fps = 20;
  auto frames = run(f, o, 1, f.turns());
  ASSERT_GT(frames.size(), 40u);
  EXPECT_TRUE(frames.front().camera.has_value());
  for (size_t i = 1; i < frames.size(); ++i) EXPECT_EQ(frames[i].t_ms - frames[i - 1].t_ms, 50);
  auto first = visible_tokens(frames.front().scene.pieces), last = visible_tokens(frames.back().scene.pieces);
  EXPECT_EQ(first, (std::map<std::string, std::string>{{"22", "W"}, {"23", "W"}, {"18", "B"}, {"5", "W"}}));
  EXPECT_EQ(last, (std::map<std::string, std::string>{{"22", "W"}, {"14", "W"}, {"5", "W"}}));
  // The crowned man is two men high; the captured piece lies beside the board.
  for (const auto& p : frames.back().scene.pieces)
    if (p.site == "5") EXPECT_EQ(p.layers.size(), 2u);
  int beside = 0;
  for (const auto& p : frames.back().scene.pieces) beside += p.site.empty();
  EXPECT_EQ(beside, 1);  // the black man taken; the white one in the pile went onto the king
  EXPECT_TRUE(frames.back().scene.hands.empty());
}

TEST(Simulation, ALiftedPieceLeavesItsSiteWhileHeldAndTheTurnIsReportedWhenTheHandIsGone) {
  Fixture f;
  SimulationOptions o;
  o.fps = 25;
  o.hover_chance = 0;
  o.rest_chance = 0;
  auto frames = run(f, o, 2, f.turns());
  bool saw_holding = false;
  int events = 0;
  for (const auto& fr : frames) {
    auto board = visible_tokens(fr.scene.pieces);
    if (fr.holding) {
      saw_holding = true;
      ASSERT_EQ(fr.scene.hands.size(), 1u);
      ASSERT_TRUE(fr.scene.hands[0].held.has_value());
      EXPECT_FALSE(board.count("23") && board.count("14"));  // the piece is on one site or in the hand
    }
    for (const auto& e : fr.events) {
      ++events;
      EXPECT_TRUE(fr.scene.hands.empty());
      EXPECT_LT(e["t_start"].get<int64_t>(), e["t_end"].get<int64_t>());
      EXPECT_LE(e["t_end"].get<int64_t>(), fr.t_ms);
      if (e["type"] == "move") EXPECT_EQ(board.count("18"), 0u);
    }
  }
  EXPECT_TRUE(saw_holding);
  EXPECT_EQ(events, 2);
}

TEST(Simulation, SameSeedSameFramesAnotherSeedAnotherGameOfHands) {
  Fixture f;
  SimulationOptions o;
  o.fps = 15;
  auto a = run(f, o, 7, f.turns()), b = run(f, o, 7, f.turns()), c = run(f, o, 8, f.turns());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].scene.hands.size(), b[i].scene.hands.size());
    if (!a[i].scene.hands.empty()) EXPECT_EQ(a[i].scene.hands[0].grip, b[i].scene.hands[0].grip);
  }
  bool differs = a.size() != c.size();
  for (size_t i = 0; !differs && i < a.size(); ++i)
    differs = a[i].scene.hands.size() != c[i].scene.hands.size() ||
              (!a[i].scene.hands.empty() && a[i].scene.hands[0].grip != c[i].scene.hands[0].grip);
  EXPECT_TRUE(differs);
}

TEST(Simulation, HandsSometimesRestStillOverTheBoard) {
  Fixture f;
  SimulationOptions o;
  o.fps = 10;
  o.hover_chance = 1;
  o.rest_chance = 1;
  auto frames = run(f, o, 3, f.turns());
  Renderer r(f.model, f.look, f.camera, 1);
  int still_over_board = 0;
  for (size_t i = 1; i < frames.size(); ++i) {
    if (frames[i].scene.hands.empty() || frames[i - 1].scene.hands.empty()) continue;
    if (frames[i].scene.hands[0].grip == frames[i - 1].scene.hands[0].grip && r.hand_cover(frames[i].scene).over_board)
      ++still_over_board;
  }
  EXPECT_GE(still_over_board, 10);  // at least a second of a motionless hand over the board
  bool rested = false;
  for (const auto& fr : frames)
    if (!fr.scene.hands.empty() && fr.scene.hands[0].rest > 0.99) rested = true;
  EXPECT_TRUE(rested);
}

TEST(Simulation, ANudgedCameraAndALampSwitchedOnArriveOnTheirFrames) {
  Fixture f;
  SimulationOptions o;
  o.fps = 20;
  Camera moved = f.camera;
  moved.t += cv::Vec3d(5, 0, 0);
  LightLook lamp = f.look.light;
  lamp.exposure = 1.5;
  std::vector<Turn> turns = {Turn{0, {Action::nudge(moved)}, 0.5, {{"type", "camera_moved"}}},
                             Turn{0, {Action::light_change(lamp)}, 0.5, {{"type", "light_on"}}}};
  auto frames = run(f, o, 4, turns);
  int cameras = 0, lights = 0, shaking = 0;
  for (const auto& fr : frames) {
    cameras += fr.camera.has_value();
    lights += fr.light.has_value();
    shaking += fr.extras.shake_px > 0;
    if (fr.camera && fr.index > 0) EXPECT_EQ(fr.camera->t, moved.t);
    if (fr.light && fr.index > 0) EXPECT_EQ(fr.light->exposure, 1.5);
  }
  EXPECT_EQ(cameras, 2);  // the first frame's and the knocked one
  EXPECT_EQ(lights, 2);
  EXPECT_GE(shaking, 1);
}

TEST(Simulation, AWronglyPlannedTurnIsAProgrammingError) {
  PhysicalBoard b;
  b.board = {{"a1", {"W"}}};
  EXPECT_THROW(b.apply(Action::pick("b2"), 0), std::logic_error);
  EXPECT_THROW(b.apply(Action::put("b2"), 0), std::logic_error);
  EXPECT_THROW(b.apply(Action::discard(), 0), std::logic_error);
  b.apply(Action::pick("a1"), 0);
  EXPECT_THROW(b.apply(Action::pick("a1"), 0), std::logic_error);
  b.apply(Action::put("a2"), 0);
  EXPECT_EQ(b.board, (BoardContents{{"a2", {"W"}}}));
}

TEST(Simulation, StacksSplitAndJoin) {
  PhysicalBoard b;
  b.board = {{"f4", {"RT", "RI"}}};
  b.apply(Action::pick("f4", 1), 0);  // the infantry steps off the tank
  EXPECT_EQ(b.hand, std::vector<std::string>{"RI"});
  b.apply(Action::put("f5"), 0);
  b.apply(Action::pick("f4"), 0);
  b.apply(Action::put("f5"), 0);  // the tank drives under... onto it: a stack again, tank on top
  EXPECT_EQ(b.board, (BoardContents{{"f5", {"RI", "RT"}}}));
}

}  // namespace
}  // namespace sb::vision
