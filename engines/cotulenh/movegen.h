// Move generation and execution for Cờ tư lệnh.
//
// A turn moves the pieces of one site. A lone piece makes one action. A stack may
// move as one, or its pieces may act separately on the same turn (the seed's
// "quân tổ hợp một nước đi có thể ăn quân đối phương trên vài ba hướng"): the pieces
// leave in groups, each group a stack the rules allow moving by its bottom piece's
// rules, and those left behind must still form a stack that may stand there. All
// actions of a turn start from the position before the turn (they are simultaneous)
// and no two of them end on, or take, the same site.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "engines/cotulenh/options.h"
#include "engines/cotulenh/position.h"

namespace sb::cotulenh {

enum class ActionKind : uint8_t {
  Move,      // to an empty site
  Board,     // onto own pieces, forming a stack
  Capture,   // takes the target and stands in its place
  Strike,    // takes the target and stays (navy guns inland, land guns at sea, bombing runs)
  ShotDown,  // an air force flies into an enemy air-defence zone and is destroyed there
  Trade,     // an air force takes a target inside an air-defence zone and is destroyed with it
};

struct Action {
  uint8_t group = 0;   // which pieces of the source stack act together (bit i = piece i, bottom first)
  uint8_t to = 0;      // where the group ends or is destroyed; the source site for a Strike
  uint8_t target = 0;  // the site whose pieces are taken (Capture, Strike, Trade)
  ActionKind kind = ActionKind::Move;

  // The site this action decides: no two actions of one turn share it.
  int effect_site() const { return kind == ActionKind::Strike || kind == ActionKind::Trade ? target : to; }
  bool operator==(const Action&) const = default;
};

struct Turn {
  uint8_t from = 0;
  uint8_t n = 0;
  std::array<Action, kMaxStack> a{};
  bool operator==(const Turn&) const = default;
};

// The reach of one piece: how far it moves and captures along files/ranks and
// along diagonals (0: not at all).
struct Reach {
  int move_orth = 0, move_diag = 0;
  int capture_orth = 0, capture_diag = 0;
  // Navy only: its sea-to-sea missiles (against navies) reach further than its gun.
  int missile = 0;
};
Reach reach_of(Piece p);

// Sites covered by `side`'s air defence.
SiteSet air_defence_zone(const Position& pos, Side side, const Options& o);

class Generator {
 public:
  // Moves for the side to move, or for `us` (threats of the side not to move).
  Generator(const Position& pos, const Options& o);
  Generator(const Position& pos, const Options& o, Side us);

  // Every turn the side to move may make, before the options that forbid moves by
  // their result (commanders facing when that is illegal, commander safety).
  void turns(std::vector<Turn>& out) const;
  // The turns of the stack on `from` only.
  void turns_from(int from, std::vector<Turn>& out) const;
  // What the group `mask` of the stack on `from` can do on its own, each action
  // once. Multi-piece groups never strike in place: their firing piece does that alone.
  void group_actions(int from, unsigned mask, std::vector<Action>& out) const;
  // Whether piece `index` of the stack on `from` could take the stack on `target`
  // (a threat: the hero rule and commander safety).
  bool attacks(int from, int index, int target) const;

 private:
  void ray_actions(int from, unsigned mask, const Stack& group, int dir, std::vector<Action>& out) const;
  bool commander_exposed(const Stack& st) const;

  const Position& pos_;
  const Options& o_;
  Side us_;
  SiteSet enemy_zone_;
};

// The position after `t` (which must come from Generator::turns of `pos`): pieces
// taken, points, losses, heroes promoted, bonus for a decisive ending, side to move.
// `promoted`, when given, receives the (site, stack index) of each piece the move
// made a hero.
Position apply_turn(const Position& pos, const Turn& t, const Options& o,
                    std::vector<std::pair<int, int>>* promoted = nullptr);

// Whether the turn is allowed by the options that judge a move by its result.
bool turn_allowed(const Position& pos, const Turn& t, const Options& o);
// The commanders of both sides face each other on an open file or rank.
bool commanders_facing(const Position& pos, const Options& o);
// Some piece of `by` could take a stack holding the other side's commander.
bool commander_attacked(const Position& pos, Side by, const Options& o);

// Ending from the losses alone: 0 none; else which side lost and why.
struct Ending {
  bool over = false;
  bool decided = false;  // false: both sides lost a battle on one move; the points decide
  Side loser = Side::First;
  const char* battle = "";  // "raid", "naval battle", "air battle", "land battle"
};
Ending battle_ending(const Position& pos, const Options& o);

// Perft with the fast generator: leaf nodes at `depth`.
uint64_t perft(const Position& pos, int depth, const Options& o);

}  // namespace sb::cotulenh
