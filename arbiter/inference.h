// Move inference: what one settled frame means for the game.
//
// The referee compares the frame with what a camera would see after each legal
// move (Rules::observe), never with pixels. A reading at a site is *confident*
// when the reader's confidence is at least `doubt_below`; otherwise it is doubtful
// and may be overruled at a cost: the log-odds that it is right rather than a
// misread into that token (nothing when a misread is likelier). An explanation must
// agree with every confident reading, except that a confident piece of the right
// side may be held to another identity at `kind_misread_cost`; among explanations
// the cheapest wins, each kind carrying a small prior cost (a move half made, two
// moves at once and a takeback are each less likely than one finished move).
//
// Explanations, cheapest first in a tie:
//   no change      the frame shows the position as it is (misreads aside)
//   moves          one legal move, or two (both players moved between frames)
//   under way      a legal move half made: every site shows its token before or
//                  after the move, or the moving piece rests on a waypoint or is
//                  lifted (a mill made but no piece removed yet, jumped pieces not
//                  all removed, an air force over its target, a piece taken by
//                  replacement off the board before its capturer lands there);
//                  or the last move being taken back, a piece of it in hand (a
//                  stack lifted whole off the point it had moved to)
//   takeback       the board is back at an earlier position of the game
// A reading that plays a move the frame shows nowhere (every site it changes read
// as before it, in doubt, and no reply changing them back) comes after a takeback
// and a takeback under way whatever they cost: the doubtful readings would make
// the move by themselves.
// When none fits: `illegal` if one physical move of the side to move explains the
// change (Rules::explain_change), possibly after a legal move of the other side;
// otherwise `unclear`.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/frame.h"
#include "arbiter/position.h"

namespace sb::arbiter {

struct InferenceOptions {
  double doubt_below = 0.5;      // readings less sure than this may be overruled
  double under_way_prior = 0.5;  // cost of reading a move as half made
  double two_move_prior = 1.5;   // cost of reading two moves from one frame
  // Cost of reading a return to an earlier position: above two moves, because a
  // board two moves back is also both players moving back, which play does often.
  double takeback_prior = 2.0;
  bool two_moves = true;         // look for two moves between frames (fast play)
  // How many different readings a misread chooses among (empty, and the tokens it
  // is confused with), which tells how unlikely a misread into one particular
  // token is. 3 (empty and both sides) suits a reader whose misreads of dots and
  // symbols go to near neighbours; a reader calibrated over every token may say more.
  int token_kinds = 3;
  // Cost of overruling a confident reading that has the side right and only the
  // identity wrong (a count or symbol, the reader's weakest call: a ring of eight dots
  // read as nine, a lamp switched on turning a 9 into an 8). Such a misread stays as
  // long as the piece stands there, and with it held sure no later frame would read.
  // Above every prior, so that any reading that needs no such overrule wins;
  // infinite (null in JSON) holds identities as sure as the rest, as the referee
  // always does in a game whose pieces stack (Rules::stacks).
  double kind_misread_cost = 3.0;
};
nlohmann::json to_json(const InferenceOptions& o);
// Missing keys keep their defaults; unknown keys and bad values throw InputError.
InferenceOptions inference_options_from_json(const nlohmann::json& j);

enum class Reading { NoChange, UnderWay, Moves, Takeback, Illegal, Unclear };
const char* to_string(Reading r);

constexpr double kInfeasible = std::numeric_limits<double>::infinity();

struct Verdict {
  Reading kind = Reading::NoChange;
  double cost = 0;           // overruled doubtful readings plus the prior of the kind
  double fit = 0;            // the overruled doubtful readings alone (cost without the prior)
  // Moves: the moves to play, as indices: successor moves[0] of the position, then
  // successor moves[1] of the position after it. Illegal: a legal move of the other
  // side that came first (at most one).
  std::vector<int> moves;
  bool then_under_way = false;  // Moves: after them another move is already under way
  bool ambiguous = false;       // a half-made move reads as well: wait before deciding
  // Moves: the cheapest reading of the frame as one move from the position half made
  // (the doubtful readings it overrules, without the prior), infeasible if none.
  double under_way_fit = kInfeasible;
  int takeback_to = -1;         // Takeback: the ply whose position the board shows
  IllegalChange illegal;        // Illegal: reason and sites
  std::vector<int> squares;     // Unclear, UnderWay: the sites that confidently changed
  std::vector<std::string> suggestions;  // Unclear: legal moves that come closest
  // Moves: other readings (index paths like `moves`, of the same length) that read
  // the frame exactly as well but lead to another position (a camera cannot tell
  // them apart: an air force joining one stack or another under its top piece).
  // The referee may revise its choice when later frames tell.
  std::vector<std::vector<int>> alternatives;
  // Moves (two): other pairs that read the frame exactly as well and reach the same
  // position by another record through another position no frame showed (Morris:
  // which of two pieces a mill took, when the other then left its point). No later
  // frame can tell them apart: the referee asks the operator.
  std::vector<std::vector<int>> unseen_alternatives;
  // UnderWay: the best reading of the frame as two finished moves, if any (a mill
  // made, its removed piece put back by the reply's placement, reads as the mill
  // still waiting for its removal). The referee plays it only if the next board
  // reads on from it and reads as nothing from the position as it is.
  std::vector<int> fallback;
  double fallback_fit = kInfeasible;
};

// One reading of a frame as moves: an index path like Verdict::moves and the
// doubtful readings it overrules.
struct PathFit {
  std::vector<int> path;
  double fit = 0;
};

// Every reading of `frame` as one or two moves that fits at most `fit` (doubtful
// readings overruled), cheapest first. For revising an earlier reading; costly (it
// lists every reply of every move).
std::vector<PathFit> readings_within(Position& position, const Frame& frame, double fit,
                                     const InferenceOptions& options);

// The cost of reading `frame` as some stage of playing `path` (index path from
// `position`): the position before it, a move of it half made (with the prior of a
// move under way) or finished. Infeasible
// when the frame confidently shows what no stage of the path does (a settled frame
// that the path would have to skip: a piece seen on a point the path never uses).
double path_stage_cost(Position& position, const Frame& frame, const std::vector<int>& path,
                       const InferenceOptions& options);

// The doubtful readings overruled to read `frame` as exactly `board` (infeasible when
// a confident reading disagrees).
double board_fit(const Frame& frame, const Observation& board, const InferenceOptions& options);

// Reads `frame` in `position`. `earlier` are the boards of the game's earlier
// positions, ply 0 first (for takebacks; pass none to refuse them outright).
// `last_destination` is the site the last move landed on (Move::to), -1 if none or
// unknown: taking back a move that joined a stack, the stack is lifted whole there,
// though its top piece reads the same before and after the move.
Verdict read_frame(Position& position, const Frame& frame, const std::vector<const Observation*>& earlier,
                   const InferenceOptions& options, int last_destination = -1);

}  // namespace sb::arbiter
