#include "app/demo_game.h"

#include <algorithm>
#include <thread>

#include "app/move_plan.h"
#include "app/physical_board.h"
#include "vision/render/rng.h"

namespace sb::cli {

nlohmann::json to_json(const DemoGameOptions& o) {
  return {{"seed", o.seed},   {"max_plies", o.max_plies}, {"illegal_ply", o.illegal_ply},
          {"fps", o.fps},     {"pace", o.pace},           {"speed", o.speed},
          {"pause_s", o.pause_s}, {"games", o.games},     {"size", {o.size.width, o.size.height}}};
}

Move demo_move(const Rules& rules, const State& s, vision::Rng& rng) {
  const std::vector<Move> legal = rules.legal_moves(s);
  const Side me = rules.side_to_move(s);
  auto points = [&](const Move& m) {
    const Score after = rules.score(rules.apply(s, m)), before = rules.score(s);
    const size_t i = me == Side::First ? 0 : 1;
    return after[i] - before[i];
  };
  std::vector<const Move*> captures, offers;
  for (const Move& m : legal)
    if (!m.captured.empty()) captures.push_back(&m);
  if (!captures.empty()) {
    // The capture worth most (ties: the first drawn), so the scores move.
    rng.shuffle(captures);
    return **std::max_element(captures.begin(), captures.end(), [&](const Move* a, const Move* b) {
      return points(*a) < points(*b);
    });
  }
  if (rng.chance(0.8)) {
    for (const Move& m : legal) {
      const State next = rules.apply(s, m);
      if (rules.outcome(next).over()) continue;
      for (const Move& reply : rules.legal_moves(next))
        if (!reply.captured.empty()) {
          offers.push_back(&m);
          break;
        }
    }
    if (!offers.empty()) return *offers[static_cast<size_t>(rng.below(static_cast<int>(offers.size())))];
  }
  return legal[static_cast<size_t>(rng.below(static_cast<int>(legal.size())))];
}

namespace {

// A look a club's demo table could have: the config's own piece set, the camera behind a player or at the
// side, tilted at most 30°, sharp, not compressed.
vision::Look demo_look(const std::string& game, const calib::BoardModel& model, cv::Size size, uint64_t seed) {
  vision::GameArt art = vision::load_game_art(game);
  vision::Rng rng(seed);
  vision::LookRange range;
  range.any_azimuth = false;
  range.default_sets_only = true;
  range.max_tilt_deg = 30;
  range.min_px_per_pitch = 40;
  range.jpeg = false;
  range.sensor_blur = false;
  vision::Look look = vision::sample_look(art, model, size, range, rng);
  look.camera.px_per_pitch = std::min(look.camera.px_per_pitch, vision::max_px_per_pitch(model, look.camera, size));
  return look;
}

}  // namespace

DemoGameSource::DemoGameSource(std::shared_ptr<const Rules> rules, calib::BoardModel model, DemoGameOptions options)
    : rules_(std::move(rules)), model_(std::move(model)), options_(options) {
  look_ = demo_look(rules_->id(), model_, options_.size, options_.seed);
  renderer_ = std::make_unique<vision::Renderer>(model_, look_, options_.size, options_.seed);
  wall_start_ = std::chrono::steady_clock::now();
  start_game();
}

void DemoGameSource::start_game() {
  ++game_no_;
  const uint64_t seed = options_.seed * 7919u + static_cast<uint64_t>(game_no_);
  vision::Rng rng(seed);
  const State start = rules_->start();
  vision::PhysicalBoard phys;
  phys.board = board_contents(*rules_, start);
  const OffBoard off = off_board(*rules_, start);
  phys.pile = off.captured;
  phys.reserve = off.reserve;
  MovePlanner planner(*rules_, phys);
  vision::SimulationOptions sim_options;
  sim_options.fps = options_.fps;
  sim_options.pace = options_.pace;
  sim_ = std::make_unique<vision::Simulation>(model_, look_, renderer_->camera(), phys, sim_options, seed ^ 0xD3u);

  plan_ = DemoPlan{};
  plan_.game_no = game_no_;
  const int illegal_at = options_.illegal_ply >= 0 ? options_.illegal_ply : rng.between(2, 5);
  auto think = [&] { return rng.uniform(0.8, 2.5); };
  State s = start;
  for (int ply = 0; ply < options_.max_plies && !rules_->outcome(s).over(); ++ply) {
    const int player = rules_->side_to_move(s) == Side::First ? 0 : 1;
    if (plan_.illegal_before_ply < 0 && ply >= illegal_at) {
      if (auto shift = illegal_shift(*rules_, s, model_, rng)) {
        sim_->add({player, planner.shift(player, shift->first, shift->second), think(), nullptr});
        // The player sees the red banner, thinks it over and puts the piece back.
        sim_->add({player, planner.shift(player, shift->second, shift->first), rng.uniform(4.5, 5.5), nullptr});
        plan_.illegal_before_ply = ply;
        plan_.illegal_from = shift->first;
        plan_.illegal_to = shift->second;
      }
    }
    const Move m = demo_move(*rules_, s, rng);
    const State next = rules_->apply(s, m);
    // Before the first move the players wait for the referee to see the pieces set up.
    const double think_s = think();
    sim_->add({player, planner.move(s, m, next), ply == 0 ? std::max(3.0, think_s) : think_s, nullptr});
    plan_.moves.push_back(m.notation);
    plan_.captures += m.captured.empty() ? 0 : 1;
    s = next;
  }
  game_start_ms_ = game_no_ == 1 ? 0 : t_ms_ + static_cast<int64_t>(1000 / options_.fps);
  pause_until_ms_ = -1;
}

void DemoGameSource::pace_to(int64_t t_ms) {
  if (options_.speed <= 0) return;
  using namespace std::chrono;
  const auto due = wall_start_ + duration_cast<steady_clock::duration>(duration<double, std::milli>(t_ms / options_.speed));
  auto now = steady_clock::now();
  // Rendering fell behind: the game goes on from now rather than rushing to catch up.
  if (now - due > milliseconds(500)) wall_start_ += now - due;
  while (!stopped_ && !(stop_when_ && stop_when_()) && steady_clock::now() < due) std::this_thread::sleep_for(std::min<steady_clock::duration>(due - steady_clock::now(), milliseconds(20)));
}

std::optional<vision::Frame> DemoGameSource::next() {
  if (stop_when_ && stop_when_()) stopped_ = true;
  if (stopped_ || ended_) {
    ended_ = true;
    return std::nullopt;
  }
  vision::Frame frame;
  if (pause_until_ms_ < 0) {
    vision::SimFrame sf;
    if (sim_->next(sf)) {
      if (sf.camera) renderer_->set_camera(*sf.camera);
      if (sf.light) renderer_->set_light(*sf.light);
      t_ms_ = game_start_ms_ + sf.t_ms;
      last_image_ = renderer_->render(sf.scene, options_.seed * 1000003u + static_cast<uint64_t>(index_), sf.extras);
    } else if (options_.games > 0 && game_no_ >= options_.games) {
      ended_ = true;  // the last game: nothing follows that the pause would wait for
      return std::nullopt;
    } else {
      pause_until_ms_ = t_ms_ + static_cast<int64_t>(options_.pause_s * 1000);
    }
  }
  if (pause_until_ms_ >= 0) {
    // The finished game stays on the table for a while (the same picture: nothing moves).
    t_ms_ += static_cast<int64_t>(1000 / options_.fps);
    if (t_ms_ >= pause_until_ms_) {
      start_game();
      if (on_new_game_) on_new_game_(plan_);
      return next();
    }
  }
  pace_to(t_ms_);
  if (stopped_) return std::nullopt;
  frame.image = last_image_;
  frame.t_ms = t_ms_;
  frame.index = index_++;
  return frame;
}

}  // namespace sb::cli
