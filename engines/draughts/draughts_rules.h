// The Rules of the draughts family (brazilian, international, english): one
// engine parameterised by the Variant (board size, rule flags) and the club's
// DraughtsOptions (draw rules, notation). RULES.md §1 is the specification.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/rules.h"
#include "engines/draughts/board.h"
#include "engines/draughts/draughts_options.h"
#include "engines/draughts/fen.h"
#include "engines/draughts/movegen.h"
#include "engines/draughts/variant.h"

namespace sb::draughts {

// The immutable position behind a State, with the history the draw rules need.
struct DraughtsPosition : PositionData {
  Board board;
  // Positions since the last capture or man move, oldest first, without the
  // current one: no earlier position can come back across such a move.
  std::vector<Board> earlier;
  int quiet_plies = 0;     // plies since the last capture or man move
  int material_plies = 0;  // plies since the pieces on the board last changed (capture or promotion)
  int ply = 0;             // plies played since the start or the FEN
  int first_move_number = 1;
  Score taken{0, 0};  // opposing pieces each side has captured
};

// One legal move with every capture path that makes it: two orders of taking
// the same pieces from the same start to the same end are one move.
struct DraughtsMove {
  RawMove raw;
  std::vector<std::vector<int>> paths;  // landing squares (0-based); paths[0] is the one written
  bool king = false;                    // the moving piece is a king
  bool promotes = false;
};

class DraughtsRules : public Rules {
 public:
  DraughtsRules(const Variant& variant, DraughtsOptions options);

  // --- Rules
  std::string id() const override { return variant().id; }
  Json options() const override { return options_to_json(options_); }
  int site_count() const override { return geometry().squares(); }
  std::string site_name(int site) const override;
  int site_index(std::string_view name) const override;
  std::string side_name(Side s) const override { return s == Side::First ? "white" : "black"; }
  char side_letter(Side s) const override { return s == Side::First ? 'W' : 'B'; }

  State start() const override;
  State from_fen(std::string_view fen) const override;
  std::string fen(const State& s) const override;
  Side side_to_move(const State& s) const override { return board(s).side; }
  std::string ascii(const State& s) const override;

  std::vector<Move> legal_moves(const State& s) const override;
  State apply(const State& s, const Move& m) const override;
  Move parse_move(const State& s, std::string_view text) const override;
  std::string why_illegal(const State& s, std::string_view text) const override;

  Outcome outcome(const State& s) const override;
  Score score(const State& s) const override { return position(s).taken; }

  Observation observe(const State& s) const override;
  bool valid_token(const Token& t) const override { return (t.side == 'W' || t.side == 'B') && t.kind == 0; }
  std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const override;

  uint64_t perft(const State& s, int depth, const PerftOptions& opt = {}) const override;
  std::vector<BenchCase> bench_cases() const override;

  // --- draughts only
  const Variant& variant() const { return generator_.variant(); }
  const DraughtsOptions& draughts_options() const { return options_; }
  const Geometry& geometry() const { return generator_.geometry(); }
  const MoveGenerator& generator() const { return generator_; }
  const DraughtsPosition& position(const State& s) const { return s.as<DraughtsPosition>(); }
  const Board& board(const State& s) const { return position(s).board; }

  // The position `board` with no history; counters from a FEN's H and F fields.
  State from_board(const Board& board, const FenCounters& counters = {}) const;
  // The legal moves of a board, grouped (draw rules not applied).
  std::vector<DraughtsMove> moves_of(const Board& board) const;
  // The canonical notation of each move of `moves` (full paths where two share start and end).
  std::vector<std::string> notations(const std::vector<DraughtsMove>& moves) const;
  Move to_move(const Board& board, const DraughtsMove& m, std::string notation) const;
  // A move of `s` as played in a game record: the DraughtsMove behind a Move.
  RawMove raw_move(const Move& m) const;

 private:
  std::string square_name(int square) const { return geometry().name(square, options_.algebraic); }
  std::string write_path(int from, const std::vector<int>& path, bool capture, bool full) const;
  std::string reason_for(const Board& b, int from, const std::vector<int>& landings, bool capture,
                         const std::vector<int>* removed, std::vector<int>* squares) const;
  std::vector<int> captured_in_order(int from, const std::vector<int>& path, uint64_t captured) const;

  DraughtsOptions options_;
  MoveGenerator generator_;
};

}  // namespace sb::draughts

namespace sb {
// The factory the registry calls (engines/registry.cpp).
std::unique_ptr<Rules> make_draughts_rules(std::string_view id, const Json& options);
}  // namespace sb
