// Cờ toán Việt Nam behind the common Rules interface (RULES.md §3).
//
// Notation. A plain move is `N:from-to` (`3:c1-c4`). A capture is `N:from x target`
// written `8:e3xe7`: N is the rear piece, which moves onto the target; the pair is
// the rear piece and the piece next to it towards the target. The calculation is
// not part of the notation (one move may come from several: 8+5 and 8−5 both give
// 3); Move::details names the pair and one operation (the first of + − × ÷ that
// works) and lists every calculation that yields the move:
//   {"piece": 8, "pair": ["e3", "e4"], "op": "+", "calculation": "8+5=13→3",
//    "calculations": [{"op": "+", "text": "8+5=13→3", …}, {"op": "-", …}, {"op": "/", …}],
//    "captured_piece": 5}
// A plain move's details hold only {"piece": N}.
// Input also accepts the move without the number (`e3xe7`), either sign between
// the squares, upper-case files, and a calculation in brackets (`8:e3xe7(8+5)`,
// `8:e3xe7 (8−5=3)`), which must be one that yields the move.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/rules.h"
#include "engines/cotoan/calculation.h"
#include "engines/cotoan/movegen.h"
#include "engines/cotoan/options.h"
#include "engines/cotoan/position.h"

namespace sb::cotoan {

// The verdict on a piece carried from one square to another.
struct MoveCheck {
  bool legal = false;
  std::string reason;        // why not, in a player's words
  std::vector<int> squares;  // the squares the reason is about
};

class CotoanRules final : public Rules {
 public:
  explicit CotoanRules(const Options& options = {});

  const Options& rule_options() const { return gen_.options(); }

  std::string id() const override { return "cotoan"; }
  Json options() const override { return gen_.options().to_json(); }

  int site_count() const override { return kSquares; }
  std::string site_name(int site) const override;
  int site_index(std::string_view name) const override;
  std::string side_name(Side s) const override { return s == Side::First ? "red" : "blue"; }
  char side_letter(Side s) const override { return s == Side::First ? 'R' : 'B'; }

  State start() const override;
  State from_fen(std::string_view fen) const override;
  std::string fen(const State& s) const override;
  Side side_to_move(const State& s) const override { return s.as<Position>().to_move; }
  std::string ascii(const State& s) const override;

  std::vector<Move> legal_moves(const State& s) const override;
  State apply(const State& s, const Move& m) const override;
  Move parse_move(const State& s, std::string_view text) const override;
  std::string why_illegal(const State& s, std::string_view text) const override;

  Outcome outcome(const State& s) const override { return s.as<Position>().outcome; }
  Score score(const State& s) const override { return s.as<Position>().score; }
  bool keeps_score() const override { return true; }

  Observation observe(const State& s) const override;
  bool valid_token(const Token& t) const override;
  std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const override;
  // A capture with the calculation the notation names: `8:e3xe7 (8+5=13→3)`.
  std::string record_notation(const State& s, const Move& m) const override;

  // A match follows Match (match.h): every game is played unless a 0 is taken;
  // the loser of a game moves first in the next.
  bool decides_match(const State& s) const override { return zero_captured(s); }
  MatchStanding match_standing(int games, const std::vector<MatchGame>& played) const override;
  State start_with_first(Side first) const override;

  uint64_t perft(const State& s, int depth, const PerftOptions& opt = {}) const override;
  std::vector<BenchCase> bench_cases() const override;

  // --- Cờ toán specifics
  // Whether the game ended with a 0 taken (which also decides a whole match).
  bool zero_captured(const State& s) const;
  // Every calculation of the pair behind a capture that reaches its target.
  std::vector<Calculation> calculations_of(const State& s, const Move& m) const;
  // Why carrying the piece on `from` to `to` is or is not a legal move now.
  MoveCheck check_move(const State& s, int from, int to) const;

 private:
  State make_state(Board board, Side to_move, std::vector<uint64_t> history) const;
  Outcome evaluate(const Position& p) const;
  Move dress(const Position& p, const FastMove& fm) const;
  FastMove find(const Position& p, int from, int to, bool* found) const;

  bool has_move(const Position& p) const;

  MoveGenerator gen_;
};

}  // namespace sb::cotoan
