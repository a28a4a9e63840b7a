#include "vision/first_placements.h"

#include <algorithm>

namespace sb::vision {

bool looks_like_start(const std::vector<std::string>& start, const std::vector<SiteReading>& sites) {
  if (start.size() != sites.size() || sites.empty()) return false;
  size_t disagree = 0;
  for (size_t i = 0; i < sites.size(); ++i) disagree += sites[i].token.empty() != start[i].empty();
  return disagree * 10 <= sites.size() || disagree <= 1;
}

FirstPlacements::FirstPlacements(std::vector<std::string> start, std::string sides)
    : start_(std::move(start)), sides_(std::move(sides)), placed_(start_) {
  // Only a start without any piece on the board is a placement game; a start that shows pieces teaches their
  // colours itself.
  const bool empty = std::all_of(start_.begin(), start_.end(), [](const std::string& t) { return t.empty(); });
  next_ = empty ? 0 : sides_.size();
}

std::optional<std::vector<std::string>> FirstPlacements::board_to_learn(const std::vector<SiteReading>& sites) const {
  if (!pending() || sites.size() != placed_.size()) return std::nullopt;
  std::optional<size_t> fresh, runner_up;
  for (size_t i = 0; i < sites.size(); ++i) {
    const bool occupied = !sites[i].token.empty();
    if (!placed_[i].empty()) {
      if (!occupied) return std::nullopt;  // a piece learnt so far is not seen: not the next placement
      continue;
    }
    if (!occupied) continue;
    if (!fresh || sites[i].evidence > sites[*fresh].evidence) {
      runner_up = fresh;
      fresh = i;
    } else if (!runner_up || sites[i].evidence > sites[*runner_up].evidence) {
      runner_up = i;
    }
  }
  if (!fresh) return std::nullopt;
  // One piece is placed at a time. A second new piece is either a false one beside it (a set learnt from the
  // empty start takes a fifth of a point's centre changed, by the placed piece's shadow or side, for a piece)
  // or a second placement: the placement is the new piece only when it is far more surely a piece than any other.
  if (runner_up && sites[*fresh].evidence < sites[*runner_up].evidence + kPlacementMargin) return std::nullopt;
  std::vector<std::string> board = placed_;
  board[*fresh] = std::string(1, sides_[next_]);
  return board;
}

void FirstPlacements::learnt(const std::vector<std::string>& board) {
  if (!pending() || board.size() != placed_.size()) return;
  placed_ = board;
  ++next_;
}

bool FirstPlacements::gone_past(const std::vector<SiteReading>& sites) const {
  const auto occupied =
      std::count_if(sites.begin(), sites.end(), [](const SiteReading& s) { return !s.token.empty(); });
  return pending() && occupied > 4;
}

}  // namespace sb::vision
