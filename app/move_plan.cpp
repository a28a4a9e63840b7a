#include "app/move_plan.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "app/physical_board.h"

namespace sb::cli {

namespace {

int player_to_move(const Rules& rules, const State& s) { return rules.side_to_move(s) == Side::First ? 0 : 1; }

std::map<std::string, std::string> tops(const vision::BoardContents& b) {
  std::map<std::string, std::string> t;
  for (const auto& [site, layers] : b) t[site] = layers.back();
  return t;
}

}  // namespace

void MovePlanner::act(std::vector<vision::Action>& out, const vision::Action& a, int player) {
  phys_.apply(a, player);
  out.push_back(a);
}

void MovePlanner::reconcile(std::vector<vision::Action>& out, const vision::BoardContents& want, int player) {
  std::set<std::string> sites;
  for (const auto& [s, l] : want) sites.insert(s);
  for (const auto& [s, l] : phys_.board) sites.insert(s);
  // Pieces that should not be there go first, then pieces are added, so nothing is stacked by mistake.
  for (const std::string& site : sites) {
    auto have = phys_.board.find(site);
    auto need = want.find(site);
    if (have == phys_.board.end()) continue;
    const auto& cur = have->second;
    if (need != want.end() && need->second.size() >= cur.size() && std::equal(cur.begin(), cur.end(), need->second.begin()))
      continue;  // right, or right with pieces still to add on top
    act(out, vision::Action::pick(site), player);
    act(out, vision::Action::discard(), player);
  }
  for (const auto& [site, layers] : want) {
    size_t have = phys_.board.count(site) ? phys_.board[site].size() : 0;
    for (size_t i = have; i < layers.size(); ++i) {
      act(out, vision::Action::take_from_pile(layers[i]), player);
      act(out, vision::Action::put(site), player);
    }
  }
  if (phys_.board != want) throw std::logic_error("move planner: board not reconciled");
}

std::vector<vision::Action> MovePlanner::move(const State& s, const Move& m, const State& after_state) {
  std::vector<vision::Action> out;
  const int player = player_to_move(rules_, s);
  const vision::BoardContents after = board_contents(rules_, after_state);
  auto name = [&](int i) { return rules_.site_name(i); };
  const std::string from = m.from >= 0 ? name(m.from) : "", to = name(m.to);
  std::vector<std::string> captured;
  for (int c : m.captured) captured.push_back(name(c));
  auto is_captured = [&](const std::string& site) { return std::find(captured.begin(), captured.end(), site) != captured.end(); };

  if (!from.empty() && from != to) {
    // A capture by replacement: the taken piece leaves its square before the capturer lands there.
    if (phys_.board.count(to) && is_captured(to)) {
      act(out, vision::Action::pick(to), player);
      act(out, vision::Action::discard(), player);
    }
    int layers = 0;
    if (auto it = after.find(from); it != after.end() && phys_.board.count(from))
      layers = static_cast<int>(phys_.board[from].size()) - static_cast<int>(it->second.size());
    if (phys_.board.count(from)) {
      act(out, vision::Action::pick(from, std::max(layers, 0)), player);
      for (int w : rules_.waypoints(s, m))
        if (name(w) != from && name(w) != to) act(out, vision::Action::touch(name(w)), player);
      act(out, vision::Action::put(to), player);
    }
  } else if (from.empty()) {
    if (auto it = after.find(to); it != after.end() && !phys_.board.count(to)) {
      act(out, vision::Action::take_from_reserve(it->second.back()), player);
      act(out, vision::Action::put(to), player);
    }
  } else {
    // The piece acts without leaving its site (a shot, a bombing run that returns): it visits its waypoints.
    std::vector<int> path = rules_.waypoints(s, m);
    bool travels = std::any_of(path.begin(), path.end(), [&](int w) { return name(w) != from; });
    if (travels && phys_.board.count(from)) {
      act(out, vision::Action::pick(from), player);
      for (int w : path)
        if (name(w) != from) act(out, vision::Action::touch(name(w)), player);
      act(out, vision::Action::put(from), player);
    }
  }
  for (const std::string& c : captured)
    if (c != to && c != from && phys_.board.count(c)) {
      act(out, vision::Action::pick(c), player);
      act(out, vision::Action::discard(), player);
    }
  reconcile(out, after, player);
  return out;
}

std::vector<vision::Action> MovePlanner::shift(int player, const std::string& from, const std::string& to) {
  std::vector<vision::Action> out;
  act(out, vision::Action::pick(from), player);
  act(out, vision::Action::put(to), player);
  return out;
}

std::vector<vision::Action> MovePlanner::restore(int player, const State& target, const Move& undone) {
  std::vector<vision::Action> out;
  const vision::BoardContents want = board_contents(rules_, target);
  if (undone.from >= 0 && undone.from != undone.to) {
    std::string from = rules_.site_name(undone.from), to = rules_.site_name(undone.to);
    if (phys_.board.count(to) && !phys_.board.count(from)) {
      act(out, vision::Action::pick(to), player);
      act(out, vision::Action::put(from), player);
    }
  }
  reconcile(out, want, player);
  return out;
}

std::optional<std::pair<std::string, std::string>> illegal_shift(const Rules& rules, const State& s,
                                                                 const calib::BoardModel& model, vision::Rng& rng) {
  if (rules.outcome(s).over()) return std::nullopt;
  const char mine = rules.side_letter(rules.side_to_move(s));
  const auto now = tops(board_contents(rules, s));
  std::set<std::map<std::string, std::string>> legal;
  for (const Move& m : rules.legal_moves(s)) legal.insert(tops(board_contents(rules, rules.apply(s, m))));
  std::vector<std::pair<std::string, std::string>> candidates;
  for (const auto& [from, token] : now) {
    if (token.empty() || token[0] != mine) continue;
    const calib::Site& a = model.site(from);
    for (const calib::Site& b : model.sites) {
      if (now.count(b.name)) continue;
      double d = std::hypot(a.centre.x - b.centre.x, a.centre.y - b.centre.y) / model.pitch_mm;
      if (d > 2.3) continue;
      auto after = now;
      after.erase(from);
      after[b.name] = token;
      if (!legal.count(after)) candidates.emplace_back(from, b.name);
    }
  }
  if (candidates.empty()) return std::nullopt;
  return candidates[static_cast<size_t>(rng.below(static_cast<int>(candidates.size())))];
}

}  // namespace sb::cli
