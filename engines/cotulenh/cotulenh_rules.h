// Cờ tư lệnh behind the common Rules interface (engines/common/rules.h). The game's
// own decisions are in engines/cotulenh/RULES.md.
#pragma once

#include <memory>

#include "engines/common/moves_touching.h"
#include "engines/common/rules.h"
#include "engines/cotulenh/movegen.h"
#include "engines/cotulenh/options.h"

namespace sb::cotulenh {

class CotulenhRules : public Rules, public MovesTouching {
 public:
  explicit CotulenhRules(Options o = {});

  std::string id() const override { return "cotulenh"; }
  Json options() const override { return o_.to_json(); }
  const Options& rule_options() const { return o_; }

  int site_count() const override { return kSites; }
  std::string site_name(int site) const override;
  int site_index(std::string_view name) const override;
  std::string side_name(Side s) const override { return s == Side::First ? "red" : "blue"; }
  char side_letter(Side s) const override { return s == Side::First ? 'R' : 'B'; }

  State start() const override;
  State from_fen(std::string_view fen) const override;
  std::string fen(const State& s) const override;
  Side side_to_move(const State& s) const override { return position(s).to_move; }
  std::string ascii(const State& s) const override;

  std::vector<Move> legal_moves(const State& s) const override;
  // MovesTouching: builds only the moves whose turn names one of `sites` (building a
  // Move, with its record and details, costs far more than generating its turn).
  std::vector<std::pair<int, Move>> legal_moves_touching(const State& s, const std::vector<int>& sites,
                                                         size_t& count) const override;
  State apply(const State& s, const Move& m) const override;
  Move parse_move(const State& s, std::string_view text) const override;
  std::string why_illegal(const State& s, std::string_view text) const override;

  Outcome outcome(const State& s) const override;
  Score score(const State& s) const override { return position(s).points; }
  bool keeps_score() const override { return true; }
  bool stacks() const override { return true; }
  std::string state_line(const State& s) const override;

  Observation observe(const State& s) const override;
  bool valid_token(const Token& t) const override;
  std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const override;

  // An air force's detours: the target of a bombing run (it returns), the site where
  // it is shot down, the target of a one-for-one.
  std::vector<int> waypoints(const State& s, const Move& m) const override;
  // The seed's record symbols (record.h).
  std::string record_notation(const State& s, const Move& m) const override;
  // "Chơi nâng cao": all 19 pieces each, each where it may stand, in its own half (setup.h).
  FreeSetup free_setup(const Observation& board, Side first) const override;

  uint64_t perft(const State& s, int depth, const PerftOptions& opt = {}) const override;
  std::vector<BenchCase> bench_cases() const override;

  // --- Cờ tư lệnh only
  static const Position& position(const State& s) { return s.as<StoredPosition>().pos; }
  State make_state(const Position& p) const;
  // The turns allowed in `p` (the game over: none).
  std::vector<Turn> legal_turns(const Position& p) const;
  Move to_move(const Position& p, const Turn& t) const;
  static Turn turn_of(const Move& m);

 private:
  Options o_;
};

}  // namespace sb::cotulenh
