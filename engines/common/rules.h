// The game-agnostic rules interface. The arbiter, the command line and the
// display drive every game through it and know nothing else of the games.
//
// Contract
// - A Rules object is one game with one set of rule options; it is immutable and
//   may be shared across threads.
// - A State is an immutable value: apply() returns a new State and leaves its
//   argument alone. A State carries the history the rules need (repetitions,
//   move counters), so outcome() needs nothing but the State.
// - A State may only be passed to the Rules object (or an equal one) that made it.
// - legal_moves() lists every legal move exactly once (moves that differ only in
//   the order of the pieces taken are one move, see perft duplicates); each has a
//   notation unique among them. apply() takes only a Move from legal_moves() of the
//   same State; anything else is a programming error.
// - Bad text (FEN, move) throws InputError naming the problem and where it is; a
//   well-formed move the rules forbid throws IllegalMoveError saying why.
// - outcome() reports every end that follows from the position and its history
//   (no move, material, repetition, move-count draws, target scores). Ends that
//   come from outside (resignation, agreement, time) belong to the arbiter.
// - observe() is what a camera looking down would see (see types.h Token).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/json.h"
#include "engines/common/types.h"

namespace sb {

// The engine's own immutable position type derives from this.
struct PositionData {
  virtual ~PositionData() = default;
};

class State {
 public:
  State() = default;
  explicit State(std::shared_ptr<const PositionData> data) : data_(std::move(data)) {}

  bool valid() const { return data_ != nullptr; }
  // For the engine that made the State only.
  template <class T>
  const T& as() const {
    return static_cast<const T&>(*data_);
  }

 private:
  std::shared_ptr<const PositionData> data_;
};

struct PerftOptions {
  // Count captures that take the same pieces from the same start to the same end
  // but in another order as separate moves ("keep") or as one ("drop", the default).
  bool keep_duplicates = false;
};

// A fixed position and depth for `smartboard bench engines`.
struct BenchCase {
  std::string name;
  std::string fen;  // empty: the start position
  int depth = 1;
};

// A freely arranged start position read from the board (Rules::free_setup).
struct FreeSetup {
  State state;                          // valid when problems is empty
  std::vector<IllegalChange> problems;  // the broken arrangement rules, each with its sites

  bool ok() const { return problems.empty() && state.valid(); }
};

// One finished game of a match, as the arbiter ended it (Rules::match_standing).
struct MatchGame {
  std::optional<Side> winner;   // nullopt: a draw (or a game left unfinished)
  Score score{0, 0};
  bool decides_match = false;   // an end that decides the whole match (Rules::decides_match)
  Side first = Side::First;     // who moved first in it
};

// Where a match stands: its outcome (ongoing while games remain) and who moves
// first in the next game.
struct MatchStanding {
  Outcome outcome;
  Side next_first = Side::First;
};

class Rules {
 public:
  virtual ~Rules() = default;

  // --- identity and options
  virtual std::string id() const = 0;  // "brazilian", "morris9", ...
  // The options in effect, complete (defaults filled in); make_rules(id(), options())
  // builds an equal Rules.
  virtual Json options() const = 0;

  // --- sites and sides
  virtual int site_count() const = 0;
  virtual std::string site_name(int site) const = 0;
  virtual int site_index(std::string_view name) const = 0;  // -1 when no such site
  virtual std::string side_name(Side s) const = 0;          // "white" / "red" ...
  virtual char side_letter(Side s) const = 0;               // 'W' / 'R' ...

  // --- positions
  virtual State start() const = 0;
  virtual State from_fen(std::string_view fen) const = 0;
  virtual std::string fen(const State& s) const = 0;
  virtual Side side_to_move(const State& s) const = 0;
  // A human-readable board, rows top to bottom, for tests and debugging.
  virtual std::string ascii(const State& s) const = 0;

  // --- moves
  virtual std::vector<Move> legal_moves(const State& s) const = 0;
  virtual State apply(const State& s, const Move& m) const = 0;
  // Finds the legal move that `text` names (the canonical notation, or any other
  // form the game accepts). Throws InputError when `text` is not a move at all and
  // IllegalMoveError (with the reason) when it names a move the rules forbid.
  virtual Move parse_move(const State& s, std::string_view text) const;
  // Why the move written `text` is not legal here, in words a player understands.
  // Called only when no legal move matches. The default says it is not legal.
  virtual std::string why_illegal(const State& s, std::string_view text) const;

  // --- the end of the game and points
  virtual Outcome outcome(const State& s) const = 0;
  virtual Score score(const State& s) const = 0;
  // Whether points decide games (Cờ toán, Cờ tư lệnh). For the others score()
  // counts the opposing pieces each side has taken.
  virtual bool keeps_score() const { return false; }
  // Pieces stack (Cờ tư lệnh): a site's visible identity changes by moves while the
  // same side holds it, so a camera's reading of identities tells moves apart.
  virtual bool stacks() const { return false; }
  // The second line of `smartboard fen`: "ongoing" or the result and its reason,
  // then, for games that keep score, "score <side> <n> <side> <n>".
  virtual std::string state_line(const State& s) const;

  // --- what a camera sees
  virtual Observation observe(const State& s) const = 0;
  // Whether `t` can appear on a board of this game (side letter and identity).
  virtual bool valid_token(const Token& t) const = 0;
  // The board `after` differs from observe(s) in a way no legal move explains.
  // If one physical move of the side to move explains it (a piece lifted from one
  // site and put on another, possibly with opposing pieces removed), returns the
  // rule that move breaks; otherwise nullopt (a misread or a knocked piece). The
  // default recognises a single piece moved from one site to another and says
  // "<move> is not a legal move"; games override it with their own reasons.
  virtual std::optional<IllegalChange> explain_change(const State& s, const Observation& after) const;

  // --- for the referee (the defaults fit most games; the arbiter relies on them)
  // Sites where the moving piece may be seen resting while a player makes `m` by
  // hand, before it settles on m.to: each landing of a multi-capture, or the target
  // an air force flies onto before it returns to its square (list such a move's
  // path as target then start). The arbiter also accepts every board on which each
  // site shows its token before or after the move, so only these detours need
  // naming. Default: m.path without its last site.
  virtual std::vector<int> waypoints(const State& s, const Move& m) const;
  // `m` (legal in `s`) as a game record writes it: Cờ toán adds the capture's
  // calculation, Cờ tư lệnh uses the seed's symbols. Default: m.notation.
  virtual std::string record_notation(const State& s, const Move& m) const;
  // A start position the players arranged themselves (Cờ tư lệnh advanced play),
  // read from the board, with `first` to move. Each broken arrangement rule is one
  // problem with its sites (none for a missing piece); the state is valid only
  // when there is no problem. Default: one problem, "<game> has no free setup".
  virtual FreeSetup free_setup(const Observation& board, Side first) const;

  // --- matches of several games (the arbiter)
  // Whether `s`, a position the rules ended, decides the whole match by itself
  // (Cờ toán: a 0 captured). Default: no.
  virtual bool decides_match(const State& s) const;
  // A match of `games` games after `played` (in order). Default: the side with
  // more than half the games wins at once, else after the last game the side with
  // more wins (equal: a draw); every game starts like the first.
  virtual MatchStanding match_standing(int games, const std::vector<MatchGame>& played) const;
  // The start position with `first` to move (a match's later games). Default:
  // start(), which must have `first` to move; other games throw InputError.
  virtual State start_with_first(Side first) const;
  // --- counting
  // Leaf nodes at `depth`. The default walks legal_moves/apply; engines override
  // it with their fast generator.
  virtual uint64_t perft(const State& s, int depth, const PerftOptions& opt = {}) const;
  virtual std::vector<BenchCase> bench_cases() const = 0;

  // --- helpers built on the above
  State play(const State& s, std::string_view moves_text) const;  // space-separated moves
  std::string token_string(const Token& t) const { return t.str(); }
};

}  // namespace sb
