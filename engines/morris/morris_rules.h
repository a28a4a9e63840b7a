// The Morris family behind the common Rules interface: morris9, morris3, morris6
// and morris12 (RULES.md §2).
//
// Notation: a placement `d7`, a slide or fly `a1-a4`, and the removals of the
// mills the move closes after it, `d7xa4`, `a1-a4xg7` (two removals, when the
// options allow them, in name order: `a1-a4xb2xg7`). One move is the whole turn.
// A Move has `from` -1 for a placement, `to` the landing point, `captured` the
// removed points (name order) and details {"kind": "place|slide|fly", "mills": n}.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/rules.h"
#include "engines/morris/geometry.h"
#include "engines/morris/movegen.h"
#include "engines/morris/options.h"
#include "engines/morris/position.h"

namespace sb::morris {

// A move as written, before it is checked against the rules.
struct WrittenMove {
  int from = -1;  // -1: a placement
  int to = -1;
  std::vector<int> removed;  // as written, in order
};

class MorrisRules final : public Rules {
 public:
  MorrisRules(Variant v, const MorrisOptions& o);
  MorrisRules(const MorrisRules&) = delete;
  MorrisRules& operator=(const MorrisRules&) = delete;

  std::string id() const override { return g_.id; }
  Json options() const override { return o_.to_json(g_.variant); }

  int site_count() const override { return g_.point_count; }
  std::string site_name(int site) const override;
  int site_index(std::string_view name) const override { return g_.point(name); }
  std::string side_name(Side s) const override { return s == Side::First ? "white" : "black"; }
  char side_letter(Side s) const override { return s == Side::First ? 'W' : 'B'; }

  State start() const override;
  State from_fen(std::string_view fen) const override;
  std::string fen(const State& s) const override { return to_fen(g_, position(s)); }
  Side side_to_move(const State& s) const override { return position(s).to_move; }
  std::string ascii(const State& s) const override { return to_ascii(g_, position(s)); }

  std::vector<Move> legal_moves(const State& s) const override;
  State apply(const State& s, const Move& m) const override;
  Move parse_move(const State& s, std::string_view text) const override;
  std::string why_illegal(const State& s, std::string_view text) const override;

  Outcome outcome(const State& s) const override;
  Score score(const State& s) const override;

  Observation observe(const State& s) const override;
  bool valid_token(const Token& t) const override;
  std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const override;

  uint64_t perft(const State& s, int depth, const PerftOptions& opt = {}) const override;
  std::vector<BenchCase> bench_cases() const override;

  // --- Morris-specific access, for tests and tools
  const Geometry& board() const { return g_; }
  const MorrisOptions& morris_options() const { return o_; }
  const MoveGenerator& generator() const { return gen_; }
  static const Position& position(const State& s);
  // How often the position of `s` has stood on the board (repetition rule).
  static int occurrences(const State& s);
  std::string notation(const MorrisMove& m) const;
  // Reads the notation; throws InputError when `text` is not a move of this board.
  WrittenMove read_notation(std::string_view text) const;

 private:
  State make_state(const Position& p, const State* before) const;
  Move to_move(const Position& p, const MorrisMove& m) const;
  // Why `w` is not legal in `s`, or nullopt when it is.
  std::optional<std::string> objection(const State& s, const WrittenMove& w) const;
  std::optional<MorrisMove> find_legal(const State& s, const WrittenMove& w) const;

  const Geometry& g_;
  const MorrisOptions o_;
  const MoveGenerator gen_;
};

}  // namespace sb::morris

namespace sb {
// The registry's factory for "morris9", "morris3", "morris6" and "morris12".
std::unique_ptr<Rules> make_morris_rules(std::string_view id, const Json& options);
}  // namespace sb
