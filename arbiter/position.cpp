#include "arbiter/position.h"

#include <algorithm>

#include "engines/common/moves_touching.h"

namespace sb::arbiter {

namespace {

bool sorted_contains(const std::vector<int>& v, int x) { return std::binary_search(v.begin(), v.end(), x); }

}  // namespace

bool Successor::changes(int site) const { return sorted_contains(changed, site); }
bool Successor::is_waypoint(int site) const { return sorted_contains(waypoints, site); }

Position::Position(const Rules& rules, State state) : rules_(&rules), state_(std::move(state)) {
  seen_ = rules_->observe(state_);
}

Position::Position(const Rules& rules, State state, Observation seen)
    : rules_(&rules), state_(std::move(state)), seen_(std::move(seen)) {}

const std::vector<Move>& Position::moves() {
  if (!listed_) {
    moves_ = rules_->legal_moves(state_);
    count_ = moves_.size();
    successors_.resize(moves_.size());
    built_.clear();
    listed_ = true;
  }
  return moves_;
}

size_t Position::move_count() { return count_ ? *count_ : moves().size(); }

const Move& Position::move(size_t i) {
  if (!listed_ && i < built_.size() && built_[i]) return *built_[i];
  return moves().at(i);
}

std::vector<int> Position::moves_touching(const std::vector<int>& sites) {
  std::vector<int> out;
  auto in = [&](int site) { return site >= 0 && std::binary_search(sites.begin(), sites.end(), site); };
  if (listed_) {
    for (size_t i = 0; i < moves_.size(); ++i) {
      const Move& m = moves_[i];
      if ((m.from < 0 && m.to < 0 && m.path.empty() && m.captured.empty()) || in(m.from) || in(m.to) ||
          std::any_of(m.path.begin(), m.path.end(), in) || std::any_of(m.captured.begin(), m.captured.end(), in))
        out.push_back(static_cast<int>(i));
    }
    return out;
  }
  const auto* selective = dynamic_cast<const MovesTouching*>(rules_);
  if (!selective) {
    moves();
    return moves_touching(sites);
  }
  size_t count = 0;
  std::vector<std::pair<int, Move>> some = selective->legal_moves_touching(state_, sites, count);
  count_ = count;
  built_.resize(count);
  successors_.resize(count);
  for (auto& [index, m] : some) {
    if (index < 0 || static_cast<size_t>(index) >= count) continue;
    if (!built_[static_cast<size_t>(index)]) built_[static_cast<size_t>(index)] = std::make_unique<Move>(std::move(m));
    out.push_back(index);
  }
  return out;
}

const Outcome& Position::outcome() {
  if (!outcome_) outcome_ = count_ && *count_ > 0 ? Outcome::ongoing() : rules_->outcome(state_);
  return *outcome_;
}

Successor& Position::successor(size_t i) {
  const Move& m = move(i);
  std::unique_ptr<Successor>& slot = successors_.at(i);
  if (slot) return *slot;
  slot = std::make_unique<Successor>();
  Successor& s = *slot;
  s.move = m;
  s.next = std::make_shared<Position>(*rules_, rules_->apply(state_, s.move));
  const Observation& after = s.next->seen();
  const int n = static_cast<int>(seen_.sites.size());
  for (int site = 0; site < n; ++site)
    if (!(after.sites[site] == seen_.sites[site])) s.changed.push_back(site);
  for (int w : rules_->waypoints(state_, s.move))
    if (w >= 0 && w < n) s.waypoints.push_back(w);
  std::sort(s.waypoints.begin(), s.waypoints.end());
  s.waypoints.erase(std::unique(s.waypoints.begin(), s.waypoints.end()), s.waypoints.end());
  if (s.move.to >= 0 && s.move.to < n) s.mover = after.sites[s.move.to];
  auto touch = [&](int site) {
    if (site >= 0 && site < n) s.touched.push_back(site);
  };
  touch(s.move.from);
  touch(s.move.to);
  for (int p : s.move.path) touch(p);
  for (int c : s.move.captured) touch(c);
  std::sort(s.touched.begin(), s.touched.end());
  s.touched.erase(std::unique(s.touched.begin(), s.touched.end()), s.touched.end());
  return s;
}

void Position::forget_successors() {
  listed_ = false;
  count_.reset();
  built_.clear();
  built_.shrink_to_fit();
  moves_.clear();
  moves_.shrink_to_fit();
  successors_.clear();
  successors_.shrink_to_fit();
}

int Position::find(const std::string& notation) {
  // Notations are unique among the legal moves: a move built alone that bears it is the one.
  if (!listed_)
    for (size_t i = 0; i < built_.size(); ++i)
      if (built_[i] && built_[i]->notation == notation) return static_cast<int>(i);
  const std::vector<Move>& ms = moves();
  for (size_t i = 0; i < ms.size(); ++i)
    if (ms[i].notation == notation) return static_cast<int>(i);
  return -1;
}

}  // namespace sb::arbiter
