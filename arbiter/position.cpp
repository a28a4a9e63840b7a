#include "arbiter/position.h"

#include <algorithm>

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
    successors_.resize(moves_.size());
    listed_ = true;
  }
  return moves_;
}

const Outcome& Position::outcome() {
  if (!outcome_) outcome_ = listed_ && !moves_.empty() ? Outcome::ongoing() : rules_->outcome(state_);
  return *outcome_;
}

Successor& Position::successor(size_t i) {
  moves();
  std::unique_ptr<Successor>& slot = successors_.at(i);
  if (slot) return *slot;
  slot = std::make_unique<Successor>();
  Successor& s = *slot;
  s.move = moves_[i];
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
  moves_.clear();
  moves_.shrink_to_fit();
  successors_.clear();
  successors_.shrink_to_fit();
}

int Position::find(const std::string& notation) {
  const std::vector<Move>& ms = moves();
  for (size_t i = 0; i < ms.size(); ++i)
    if (ms[i].notation == notation) return static_cast<int>(i);
  return -1;
}

}  // namespace sb::arbiter
