#include "vision/render/simulation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vision/render/hand.h"

namespace sb::vision {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Minimum-jerk profile: how people move a hand from one point to another.
double min_jerk(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * t * (10 - 15 * t + 6 * t * t);
}

bool uses_hand(Action::Kind k) {
  return k != Action::Kind::Nudge && k != Action::Kind::Light;
}

}  // namespace

void PhysicalBoard::apply(const Action& a, int player) {
  auto fail = [&](const std::string& why) { throw std::logic_error("simulation: " + why); };
  switch (a.kind) {
    case Action::Kind::Pick: {
      if (!hand.empty()) fail("pick at " + a.site + " with a full hand");
      auto it = board.find(a.site);
      if (it == board.end()) fail("pick from empty site " + a.site);
      auto& layers = it->second;
      size_t k = a.layers <= 0 || static_cast<size_t>(a.layers) >= layers.size() ? layers.size()
                                                                                 : static_cast<size_t>(a.layers);
      hand.assign(layers.end() - static_cast<long>(k), layers.end());
      layers.resize(layers.size() - k);
      if (layers.empty()) board.erase(it);
      break;
    }
    case Action::Kind::Touch:
      if (hand.empty()) fail("touch at " + a.site + " with an empty hand");
      break;
    case Action::Kind::Put: {
      if (hand.empty()) fail("put at " + a.site + " with an empty hand");
      auto& layers = board[a.site];
      layers.insert(layers.end(), hand.begin(), hand.end());
      hand.clear();
      break;
    }
    case Action::Kind::Discard:
      if (hand.empty()) fail("discard with an empty hand");
      pile[player & 1].insert(pile[player & 1].end(), hand.begin(), hand.end());
      hand.clear();
      break;
    case Action::Kind::TakeFromPile:
    case Action::Kind::TakeFromReserve: {
      if (!hand.empty()) fail("take " + a.token + " with a full hand");
      auto& first = a.kind == Action::Kind::TakeFromPile ? pile[player & 1] : reserve[player & 1];
      auto& second = a.kind == Action::Kind::TakeFromPile ? pile[1 - (player & 1)] : reserve[player & 1];
      // A piece from the heap if there is one; otherwise from the box under the table.
      for (auto* heap : {&first, &second}) {
        auto it = std::find(heap->rbegin(), heap->rend(), a.token);
        if (it != heap->rend()) {
          heap->erase(std::next(it).base());
          break;
        }
      }
      hand = {a.token};
      break;
    }
    case Action::Kind::Hover:
    case Action::Kind::Rest:
    case Action::Kind::Nudge:
    case Action::Kind::Light:
      break;
  }
}

Simulation::Simulation(const calib::BoardModel& model, const Look& look, const Camera& camera,
                       const PhysicalBoard& start, const SimulationOptions& options, uint64_t seed)
    : model_(model), look_(look), camera_(camera), options_(options), rng_(seed), tokens_(start) {
  if (!start.hand.empty()) throw std::logic_error("simulation: starts with a piece in hand");
  pieces_ = place_pieces(model_, look_.pieces, start.board, rng_);
  for (int p = 0; p < 2; ++p) {
    for (const auto& t : start.pile[p])
      pile_[p].push_back(
          beside_board(model_, look_.pieces, look_.board, p, static_cast<int>(pile_[p].size()), {t}, rng_));
    for (const auto& t : start.reserve[p])
      reserve_[p].push_back(
          beside_board(model_, look_.pieces, look_.board, p, static_cast<int>(reserve_[p].size()), {t}, rng_, true));
  }
  settle_left_ = options_.settle_s;
}

void Simulation::add(Turn turn) {
  turns_.push_back(std::move(turn));
}

cv::Vec3d Simulation::off_board(int player) const {
  double cx = model_.size_mm.x / 2;
  if (player == 0) return {cx + 120, model_.size_mm.y + 300, -140};
  return {cx - 120, -300, -140};
}

PieceInstance* Simulation::piece_on(const std::string& site) {
  for (auto& p : pieces_)
    if (p.site == site) return &p;
  return nullptr;
}

std::vector<PieceInstance> Simulation::board_pieces() const {
  std::vector<PieceInstance> all = pieces_;
  for (int p = 0; p < 2; ++p) {
    all.insert(all.end(), pile_[p].begin(), pile_[p].end());
    all.insert(all.end(), reserve_[p].begin(), reserve_[p].end());
  }
  return all;
}

void Simulation::queue_reach(const cv::Vec3d& target, double pinch, double rest, double arc,
                             std::function<void()> at_end) {
  cv::Vec3d from = motions_.empty() ? grip_ : motions_.back().to;
  double dist = cv::norm(target - from);
  Motion m;
  m.duration = (0.18 + dist / 650.0) * rng_.uniform(0.85, 1.15) / options_.pace;
  m.to = target;
  m.pinch = pinch;
  m.rest = rest;
  m.arc = arc;
  m.at_end = std::move(at_end);
  motions_.push_back(std::move(m));
}

void Simulation::queue_wait(double seconds, std::function<void()> at_end) {
  Motion m;
  m.duration = std::max(0.0, seconds);
  m.to = motions_.empty() ? grip_ : motions_.back().to;
  m.pinch = motions_.empty() ? pinch_ : motions_.back().pinch;
  m.rest = motions_.empty() ? rest_ : motions_.back().rest;
  m.hand = hand_in_;
  m.at_end = std::move(at_end);
  motions_.push_back(std::move(m));
}

void Simulation::start_turn() {
  current_ = std::move(turns_.front());
  turns_.pop_front();
  next_action_ = 0;
  Turn& turn = *current_;
  bool hands = std::any_of(turn.actions.begin(), turn.actions.end(), [](const Action& a) { return uses_hand(a.kind); });
  bool moves_pieces = std::any_of(turn.actions.begin(), turn.actions.end(), [](const Action& a) {
    return a.kind == Action::Kind::Pick || a.kind == Action::Kind::TakeFromReserve;
  });
  if (moves_pieces && rng_.chance(options_.hover_chance))
    turn.actions.insert(turn.actions.begin(), Action::hover(rng_.uniform(1.0, 2.5)));
  if (moves_pieces && rng_.chance(options_.rest_chance)) turn.actions.push_back(Action::rest(rng_.uniform(1.0, 3.0)));
  hand_player_ = turn.player & 1;
  // Think with the board untouched, then the hand comes in from off the board.
  queue_wait(turn.think_s / options_.pace, [this, hands] {
    turn_start_ = t_;
    if (hands) {
      hand_in_ = true;
      grip_ = off_board(hand_player_);
      pinch_ = 0.3;
      rest_ = 0;
    }
  });
}

void Simulation::begin_action(const Action& a) {
  const double h = look_.pieces.height_mm;
  const int player = hand_player_;
  switch (a.kind) {
    case Action::Kind::Pick: {
      PieceInstance* p = piece_on(a.site);
      if (!p) throw std::logic_error("simulation: pick from empty site " + a.site);
      double top = p->base_mm + stack_height(*p);
      size_t k = a.layers <= 0 || static_cast<size_t>(a.layers) >= p->layers.size() ? p->layers.size()
                                                                                    : static_cast<size_t>(a.layers);
      cv::Point2d xy = p->xy;
      queue_reach(above(xy, top + 40), 0.1, 0, 20);
      queue_reach(above(xy, top - h * static_cast<double>(k) / 2), 0.0, 0, 0);
      Action act = a;
      queue_wait(0.18 / options_.pace, [this, act, k, player] {
        tokens_.apply(act, player);
        PieceInstance* q = piece_on(act.site);
        PieceInstance lifted = *q;
        lifted.layers.assign(q->layers.end() - static_cast<long>(k), q->layers.end());
        lifted.site.clear();
        if (k == q->layers.size()) {
          pieces_.erase(pieces_.begin() + (q - pieces_.data()));
        } else {
          q->layers.resize(q->layers.size() - k);
          lifted.base_mm = q->base_mm + stack_height(*q);
        }
        held_ = lifted;
        pinch_ = 1;
      });
      motions_.back().pinch = 1;
      queue_reach(above(xy, top + 45), 1, 0, 0);
      break;
    }
    case Action::Kind::Touch:
    case Action::Kind::Put: {
      if (!held_) throw std::logic_error("simulation: set down at " + a.site + " with an empty hand");
      double carried = stack_height(*held_);
      PieceInstance* below = piece_on(a.site);
      cv::Point2d xy;
      double turn_deg = held_->turn_deg;
      double base = 0;
      if (below) {
        xy = below->xy;
        base = stack_height(*below);
      } else {
        std::vector<PieceInstance> others = pieces_;
        PieceInstance placed = place_piece(model_, look_.pieces, a.site, held_->layers, others,
                                           look_.pieces.sides.empty() ? 'W' : look_.pieces.sides[0].side, rng_);
        xy = placed.xy;
        turn_deg = placed.turn_deg;
      }
      queue_reach(above(xy, base + carried + 30), 1, 0, 35);
      queue_reach(above(xy, base + carried / 2), 1, 0, 0);
      if (a.kind == Action::Kind::Touch) {
        queue_wait(0.2 / options_.pace);
        queue_reach(above(xy, base + carried + 30), 1, 0, 0);
        break;
      }
      Action act = a;
      queue_wait(0.15 / options_.pace, [this, act, player, xy, turn_deg, base] {
        tokens_.apply(act, player);
        if (PieceInstance* b = piece_on(act.site)) {
          b->layers.insert(b->layers.end(), held_->layers.begin(), held_->layers.end());
        } else {
          PieceInstance p = *held_;
          p.site = act.site;
          p.xy = xy;
          p.base_mm = base;
          p.turn_deg = turn_deg;
          pieces_.push_back(p);
        }
        held_.reset();
        pinch_ = 0.2;
      });
      motions_.back().pinch = 0.2;
      queue_reach(above(xy, base + carried + 40), 0.2, 0, 0);
      break;
    }
    case Action::Kind::Discard: {
      if (!held_) throw std::logic_error("simulation: discard with an empty hand");
      double carried = stack_height(*held_);
      PieceInstance slot = beside_board(model_, look_.pieces, look_.board, player,
                                        static_cast<int>(pile_[player].size()), held_->layers, rng_);
      queue_reach(above(slot.xy, slot.base_mm + carried + 30), 1, 0, 40);
      queue_reach(above(slot.xy, slot.base_mm + carried / 2), 1, 0, 0);
      Action act = a;
      queue_wait(0.12 / options_.pace, [this, act, player, slot] {
        tokens_.apply(act, player);
        // Each captured piece lies on its own; a king's two men are laid side by side.
        for (size_t i = 0; i < held_->layers.size(); ++i) {
          PieceInstance p = slot;
          if (i > 0)
            p = beside_board(model_, look_.pieces, look_.board, player, static_cast<int>(pile_[player].size()),
                             {held_->layers[i]}, rng_);
          p.layers = {held_->layers[i]};
          pile_[player].push_back(p);
        }
        held_.reset();
        pinch_ = 0.2;
      });
      motions_.back().pinch = 0.2;
      queue_reach(above(slot.xy, slot.base_mm + carried + 40), 0.2, 0, 0);
      break;
    }
    case Action::Kind::TakeFromPile:
    case Action::Kind::TakeFromReserve: {
      bool from_pile = a.kind == Action::Kind::TakeFromPile;
      std::vector<PieceInstance>* heaps[2] = {from_pile ? &pile_[player] : &reserve_[player],
                                              from_pile ? &pile_[1 - player] : &reserve_[player]};
      std::vector<PieceInstance>* heap = nullptr;
      int index = -1;
      for (auto* hp : heaps) {
        for (int i = static_cast<int>(hp->size()) - 1; i >= 0; --i)
          if ((*hp)[i].top() == a.token) {
            heap = hp;
            index = i;
            break;
          }
        if (heap) break;
      }
      Action act = a;
      if (!heap) {
        // None beside the board: the player takes one from the box, out of view.
        queue_reach(off_board(player), 0.3, 0, 0, [this, act, player] {
          tokens_.apply(act, player);
          PieceInstance p;
          p.layers = {act.token};
          p.shade = 1.0 + rng_.normal(0, 0.06 * look_.pieces.shade_jitter);
          held_ = p;
          pinch_ = 1;
        });
        motions_.back().pinch = 1;
        break;
      }
      const PieceInstance& src = (*heap)[static_cast<size_t>(index)];
      cv::Point2d xy = src.xy;
      double top = src.base_mm + stack_height(src);
      queue_reach(above(xy, top + 40), 0.1, 0, 20);
      queue_reach(above(xy, top - h / 2), 0.0, 0, 0);
      queue_wait(0.18 / options_.pace, [this, act, player, heap, xy] {
        tokens_.apply(act, player);
        for (size_t i = heap->size(); i-- > 0;)
          if ((*heap)[i].top() == act.token && (*heap)[i].xy == xy) {
            held_ = (*heap)[i];
            held_->layers = {act.token};
            heap->erase(heap->begin() + static_cast<long>(i));
            break;
          }
        pinch_ = 1;
      });
      motions_.back().pinch = 1;
      queue_reach(above(xy, top + 45), 1, 0, 0);
      break;
    }
    case Action::Kind::Hover: {
      const calib::Site& s = model_.sites[static_cast<size_t>(rng_.below(static_cast<int>(model_.sites.size())))];
      queue_reach(above({s.centre.x + rng_.normal(0, 10), s.centre.y + rng_.normal(0, 10)}, rng_.uniform(50, 90)), 0.35,
                  0, 0);
      queue_wait(a.seconds / options_.pace);
      break;
    }
    case Action::Kind::Rest: {
      const auto& q = model_.playing_area_corners();
      double x = q[0].x + (q[1].x - q[0].x) * rng_.uniform(0.25, 0.75);
      // Fingers over the player's first row, lying on whatever stands there.
      double y = player == 0 ? q[0].y - 0.6 * model_.pitch_mm : q[3].y + 0.6 * model_.pitch_mm;
      double lying = -(look_.pieces.height_mm + 8);
      queue_reach({x, y, lying}, 0.2, 1, 0);
      queue_wait(a.seconds / options_.pace);
      queue_reach({x, y + (player == 0 ? 60 : -60), -60}, 0.3, 0, 0);
      break;
    }
    case Action::Kind::Nudge: {
      Camera c = *a.camera;
      Motion m;
      m.duration = 0.15;
      m.to = grip_;
      m.pinch = pinch_;
      m.rest = rest_;
      m.hand = hand_in_;
      m.shake_px = rng_.uniform(4, 10);
      m.at_end = [this, c] { camera_ = c; };
      pending_camera_ = c;
      motions_.push_back(std::move(m));
      break;
    }
    case Action::Kind::Light:
      pending_light_ = *a.light;
      look_.light = *a.light;
      queue_wait(0.05);
      break;
  }
}

void Simulation::finish_turn() {
  if (held_) throw std::logic_error("simulation: a turn ended with a piece still in hand");
  if (current_ && !current_->event.is_null()) {
    nlohmann::json e = current_->event;
    e["t_start"] = static_cast<int64_t>(std::lround(turn_start_ * 1000));
    e["t_end"] = static_cast<int64_t>(std::lround(t_ * 1000));
    pending_events_.push_back(e);
  }
  current_.reset();
}

bool Simulation::next(SimFrame& frame) {
  const double dt = 1.0 / options_.fps;
  double shake = 0;
  if (started_) {
    double left = dt;
    int guard = 0;
    while (left > 1e-12 && ++guard < 10000) {
      if (!active_) {
        if (!motions_.empty()) {
          active_ = std::move(motions_.front());
          motions_.pop_front();
          motion_t_ = 0;
          grip_start_ = grip_;
          pinch_start_ = pinch_;
          rest_start_ = rest_;
        } else if (current_ && next_action_ < current_->actions.size()) {
          begin_action(current_->actions[next_action_++]);
          continue;
        } else if (current_) {
          if (hand_in_) {
            queue_reach(off_board(hand_player_), 0.3, 0, 0, [this] { hand_in_ = false; });
            continue;
          }
          finish_turn();
          continue;
        } else if (!turns_.empty()) {
          start_turn();
          continue;
        } else {
          settle_left_ -= left;
          left = 0;
          break;
        }
      }
      Motion& m = *active_;
      double step = std::min(left, m.duration - motion_t_);
      motion_t_ += step;
      left -= step;
      t_ += step;
      double tau = m.duration > 0 ? motion_t_ / m.duration : 1.0;
      double s = min_jerk(tau);
      if (m.hand) {
        grip_ = grip_start_ + (m.to - grip_start_) * s;
        grip_[2] -= m.arc * std::sin(kPi * tau);
        pinch_ = pinch_start_ + (m.pinch - pinch_start_) * s;
        rest_ = rest_start_ + (m.rest - rest_start_) * s;
      }
      if (m.shake_px > 0) shake = std::max(shake, m.shake_px * (1 - tau));
      if (motion_t_ >= m.duration - 1e-12) {
        auto done = std::move(m.at_end);
        active_.reset();
        if (done) done();
      }
    }
    if (left > 1e-12) t_ += left;
    if (!current_ && turns_.empty() && !active_ && motions_.empty() && settle_left_ <= 0) return false;
  }

  frame = SimFrame{};
  frame.index = frame_;
  frame.t_ms = static_cast<int64_t>(std::llround(frame_ * 1000.0 / options_.fps));
  if (!started_) {
    started_ = true;
    frame.camera = camera_;
    frame.light = look_.light;
  }
  if (pending_camera_) frame.camera = std::exchange(pending_camera_, std::nullopt);
  if (pending_light_) frame.light = std::exchange(pending_light_, std::nullopt);
  frame.scene.pieces = board_pieces();
  // The shutter is open for about half a frame: the hand smears over half of what it moved since the last one.
  cv::Vec3d motion = hand_in_ && last_hand_in_ ? (grip_ - last_grip_) * 0.5 : cv::Vec3d(0, 0, 0);
  last_grip_ = grip_;
  last_hand_in_ = hand_in_;
  if (hand_in_) {
    HandPose hand;
    hand.player = hand_player_;
    hand.shoulder = shoulder_of(hand_player_, model_, look_.hands, 0);
    hand.grip = grip_;
    hand.pinch = pinch_;
    hand.rest = rest_;
    hand.motion = motion;
    if (held_) {
      PieceInstance p = *held_;
      p.xy = {grip_[0], grip_[1]};
      p.base_mm = -grip_[2] - stack_height(p) / 2;
      hand.held = p;
    }
    frame.scene.hands.push_back(hand);
  }
  frame.holding = held_.has_value();
  frame.extras.shake_px = shake;
  frame.extras.shake_angle_deg = rng_.uniform(0, 180);
  frame.events = std::move(pending_events_);
  pending_events_.clear();
  ++frame_;
  return true;
}

}  // namespace sb::vision
