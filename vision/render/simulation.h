// A game played by hands in front of the camera, frame by frame. The caller (the app, which knows the rules)
// describes each turn as physical actions — pick a piece up, touch it down on a waypoint, put it down, drop a
// captured piece beside the board, take one from the pile — and the simulation moves the players' hands at a
// human pace (minimum-jerk reaches, lifts and set-downs, thinking pauses, hands hovering or resting still),
// lifts and lays the pieces, knocks the camera or switches a lamp on when asked, and reports for every frame
// the scene to draw and what has happened.
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/render/camera.h"
#include "vision/render/look.h"
#include "vision/render/renderer.h"
#include "vision/render/scene.h"

namespace sb::vision {

struct Action {
  enum class Kind {
    Pick,             // lift the top `layers` pieces (0: the whole stack) from `site`
    Touch,            // set the held piece down on `site` for a moment and lift it again (a waypoint)
    Put,              // put the held piece down on `site` (on top of what stands there)
    Discard,          // lay the held pieces on the table beside the board, with the player's captures
    TakeFromPile,     // take a piece showing `token` from the captured pieces beside the board
    TakeFromReserve,  // take a piece showing `token` from the player's own pieces not yet placed
    Hover,            // keep the hand still over the board for `seconds` (thinking)
    Rest,             // lay the hand flat on the board's near edge for `seconds`
    Nudge,            // the camera is knocked: it shakes and ends at `camera`
    Light,            // the light changes to `light` (a lamp switched on)
  };
  Kind kind = Kind::Pick;
  std::string site;
  int layers = 0;
  std::string token;
  double seconds = 0;
  std::optional<Camera> camera;
  std::optional<LightLook> light;

  static Action pick(std::string site, int layers = 0) { return {Kind::Pick, std::move(site), layers, {}, 0, {}, {}}; }
  static Action touch(std::string site) { return {Kind::Touch, std::move(site), 0, {}, 0, {}, {}}; }
  static Action put(std::string site) { return {Kind::Put, std::move(site), 0, {}, 0, {}, {}}; }
  static Action discard() { return {Kind::Discard, {}, 0, {}, 0, {}, {}}; }
  static Action take_from_pile(std::string token) { return {Kind::TakeFromPile, {}, 0, std::move(token), 0, {}, {}}; }
  static Action take_from_reserve(std::string token) {
    return {Kind::TakeFromReserve, {}, 0, std::move(token), 0, {}, {}};
  }
  static Action hover(double s) { return {Kind::Hover, {}, 0, {}, s, {}, {}}; }
  static Action rest(double s) { return {Kind::Rest, {}, 0, {}, s, {}, {}}; }
  static Action nudge(Camera c) { return {Kind::Nudge, {}, 0, {}, 0, std::move(c), {}}; }
  static Action light_change(LightLook l) { return {Kind::Light, {}, 0, {}, 0, {}, std::move(l)}; }
};

// The pieces as tokens: what each action does to them, without any picture. The app plans a turn on a copy
// of this, and the simulation keeps one in step with the pieces it draws.
struct PhysicalBoard {
  BoardContents board;
  std::array<std::vector<std::string>, 2> pile;     // captured pieces beside the board, by capturing player
  std::array<std::vector<std::string>, 2> reserve;  // pieces still to be placed, by owner
  std::vector<std::string> hand;                    // held, bottom to top

  // Applies one action of `player`. Throws std::logic_error when it cannot be done (picking from an empty
  // site, putting down with an empty hand): a turn planned wrongly.
  void apply(const Action& a, int player);
};

// One turn: a player's actions, and what it means for the truth (written when the turn ends).
struct Turn {
  int player = 0;
  std::vector<Action> actions;
  double think_s = 1.5;  // still board before the hand moves
  nlohmann::json event;  // e.g. {"type": "move", "ply": 3, "notation": "22-18"}; null for none
};

struct SimulationOptions {
  double fps = 30;
  double pace = 1.0;           // > 1: faster hands, shorter thinking
  double hover_chance = 0.25;  // a hand stays still over the board before acting
  double rest_chance = 0.15;   // a hand lies on the board's edge for a while after acting
  double settle_s = 1.5;       // still frames after the last turn
};

struct SimFrame {
  int index = 0;
  int64_t t_ms = 0;
  Scene scene;
  FrameExtras extras;
  std::optional<Camera> camera;        // the camera from this frame on (first frame: the initial one)
  std::optional<LightLook> light;      // the light from this frame on
  std::vector<nlohmann::json> events;  // turns that ended on this frame, with "t_start" and "t_end" added
  bool holding = false;                // a piece is in a hand
};

class Simulation {
 public:
  Simulation(const calib::BoardModel& model, const Look& look, const Camera& camera, const PhysicalBoard& start,
             const SimulationOptions& options, uint64_t seed);

  void add(Turn turn);
  // The next frame; false once every turn is played and the board has settled.
  bool next(SimFrame& frame);
  // The pieces as the simulation holds them now (tokens), for checking a turn did what it should.
  const PhysicalBoard& physical() const { return tokens_; }
  double time_s() const { return t_; }

 private:
  struct Motion {
    double duration = 0;
    cv::Vec3d to;
    double pinch = 0, rest = 0;
    double arc = 0;       // extra height at mid-course (carrying over other pieces)
    double shake_px = 0;  // camera shake during this motion (nudge)
    bool hand = true;     // false: no hand moves (waiting, camera, light)
    std::function<void()> at_end;
  };

  void start_turn();
  void begin_action(const Action& a);
  void queue_reach(const cv::Vec3d& target, double pinch, double rest, double arc, std::function<void()> at_end = {});
  void queue_wait(double seconds, std::function<void()> at_end = {});
  cv::Vec3d above(cv::Point2d xy, double height_mm) const { return {xy.x, xy.y, -height_mm}; }
  cv::Vec3d off_board(int player) const;
  PieceInstance* piece_on(const std::string& site);
  double stack_height(const PieceInstance& p) const {
    return look_.pieces.height_mm * static_cast<double>(p.layers.size());
  }
  std::vector<PieceInstance> board_pieces() const;
  void finish_turn();

  const calib::BoardModel& model_;
  Look look_;
  Camera camera_;
  SimulationOptions options_;
  Rng rng_;
  PhysicalBoard tokens_;
  std::vector<PieceInstance> pieces_;               // on sites
  std::array<std::vector<PieceInstance>, 2> pile_;  // beside the board
  std::array<std::vector<PieceInstance>, 2> reserve_;
  std::optional<PieceInstance> held_;

  std::deque<Turn> turns_;
  std::optional<Turn> current_;
  size_t next_action_ = 0;
  std::deque<Motion> motions_;
  std::optional<Motion> active_;
  double motion_t_ = 0;
  cv::Vec3d grip_, grip_start_;
  double pinch_ = 0, pinch_start_ = 0, rest_ = 0, rest_start_ = 0;
  bool hand_in_ = false, last_hand_in_ = false;
  cv::Vec3d last_grip_;
  int hand_player_ = 0;
  double t_ = 0, turn_start_ = 0;
  int frame_ = 0;
  double settle_left_ = 0;
  bool started_ = false;
  std::optional<Camera> pending_camera_;
  std::optional<LightLook> pending_light_;
  std::vector<nlohmann::json> pending_events_;
};

}  // namespace sb::vision
