// Which colour is which side, when the start shows no piece of a side (Morris: every piece is in hand). A referee
// knows the order of play, so the first pieces to appear on the board name the colours: the first piece placed
// is the first side's (White), the next one the other side's. This class follows the settled readings after the
// start and says when one shows the next placement, and with what tokens the set is to be learnt from it; the
// referee (`referee --source`) and the dataset evaluation both use it, so the evaluation learns a set exactly as
// a referee would.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vision/observation.h"

namespace sb::vision {

// How much more surely (in log-odds, SiteReading::evidence) the placed piece must be a piece than any other new
// piece a reading shows: false pieces beside a placement read at log-odds 0.4–20, placed pieces at 35–58 (morris12
// tuning seed 7700212).
constexpr float kPlacementMargin = 10.f;

// Whether a settled reading looks enough like the start (`start`: per site, "" or its token) for the set to be
// learnt from it: at most a tenth of the sites, and at least one, disagree on whether a piece stands there. The
// learning itself then reads the start with the set it learnt and says whether it holds. On morris3's nine
// points a tenth is none, and a reader that knows no set yet saw a piece on the empty centre of a small board,
// where eight lines meet (seed 8713011: the start was never learnt, no ply recorded).
bool looks_like_start(const std::vector<std::string>& start, const std::vector<SiteReading>& sites);

class FirstPlacements {
 public:
  // `start`: per site of the board model, "" or the token the start shows; `sides`: the side letters in the
  // order they move (PieceVocabulary::sides).
  FirstPlacements(std::vector<std::string> start, std::string sides);

  // Whether any side's colours are still to be learnt this way (false when the start shows every side).
  bool pending() const { return next_ < sides_.size(); }

  // A settled reading of the board. When it shows the next placement — exactly the placements learnt so far
  // plus one new piece on a site the start left empty — returns the tokens of that board (the start, the
  // placements learnt so far, and the new piece as the next side's), to learn the set from. Of several new
  // pieces, the one more surely a piece than every other by kPlacementMargin is the placement (the others are
  // then learnt as empty sites). Otherwise nullopt: nothing new, or new pieces none of which stands out (two
  // placements seen at once cannot tell which came first) or a learnt placement gone; then the colours stay as
  // learnt so far.
  std::optional<std::vector<std::string>> board_to_learn(const std::vector<SiteReading>& sites) const;

  // The set was learnt from `board` (a result of board_to_learn()): its new piece is the side's from now on.
  void learnt(const std::vector<std::string>& board);

  // Per site, the start and the placements learnt so far.
  const std::vector<std::string>& placed() const { return placed_; }

  // No more learning this way (the game went on without it).
  void give_up() { next_ = sides_.size(); }

  // Whether a settled reading shows the game gone on past its first placements (more than four men on the board)
  // with colours still to learn: they can no longer be learnt one placement at a time.
  bool gone_past(const std::vector<SiteReading>& sites) const;

 private:
  std::vector<std::string> start_;
  std::string sides_;
  size_t next_ = 0;                  // index into sides_ of the next side to learn
  std::vector<std::string> placed_;  // per site, the placements learnt so far
};

}  // namespace sb::vision
