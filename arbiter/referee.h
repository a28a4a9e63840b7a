// The referee: turns frames (settled observations) and operator commands into
// announced events for one board, game after game of a match.
//
// Every state change happens by an event: the referee decides an event, appends
// it to the journal (on disk), applies it to its own state, then announces it
// (returns it). Replaying the journal's events through the same apply step
// rebuilds the state exactly, which is how a restart resumes.
//
// Phases: setup (the board must match the start position, or for a free setup
// hold a valid arrangement) → playing → game over → (in a match) the next game's
// setup … → match over.
//
// Operator commands (JSON objects, the same from the screen and from an
// observation file line {"t": …, "command": …}):
//   {"command": "new_game", "fen": F?}       abandon the game if unfinished; set up the next
//   {"command": "start"}                     start now, trusting the board (setup phase)
//   {"command": "confirm", "move": M?}       play M, or the move the referee waits on
//   {"command": "confirm", "move": M, "ply": N?}  answer an open question (below): M stands
//   {"command": "correct", "move": M}        the last move was M instead (or answers a question)
//   {"command": "undo"}                      take the last move back
//   {"command": "offer_draw", "side": S}     a player offers a draw (Brazilian: at most three per game)
//   {"command": "accept_draw", "side": S}    the other player accepts: drawn by agreement
//   {"command": "decline_draw", "side": S}
//   {"command": "resign", "side": S}
//   {"command": "flag", "side": S}           S's time ran out (a physical clock's flag, or the arbiter's word)
//   {"command": "declare", "result": R, "reason": W}   the arbiter's own ruling (R: 1-0, 0-1, 1/2-1/2)
//   {"command": "set_clock", "<side>": ms, "<side>": ms}
//   {"command": "pause"} / {"command": "resume"}        the clock
//
// Questions: a frame that two or more moves explain equally well, leading to
// positions the camera sees exactly alike (a Cờ tư lệnh air force shot down or
// gone under a friendly stack's top piece), is never silently guessed. The
// referee plays its pick (the reading that lets the game go on), announces an
// `unclear` event with "ask": true, the ply and the candidate moves, and keeps
// the question open until the operator answers it (confirm/correct naming one
// candidate) or later frames rule out every other candidate (an `answered` event
// either way). An end of game that only an unpicked candidate reaches is not
// declared meanwhile.
//
// A command that does not fit the moment (confirm with nothing to confirm, a
// fourth draw offer, …) throws InputError saying why; nothing changes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/clock.h"
#include "arbiter/event.h"
#include "arbiter/frame.h"
#include "arbiter/inference.h"
#include "arbiter/journal.h"
#include "arbiter/position.h"

namespace sb::arbiter {

struct RefereeOptions {
  std::string start_fen;             // empty: the game's start position
  bool free_setup = false;           // the players arrange the pieces (Cờ tư lệnh advanced play)
  bool allow_takebacks = true;       // a return to an earlier position is a takeback (else illegal)
  int64_t settle_ms = 1500;          // an ambiguous board is decided once it stays this long
  int64_t unclear_after_ms = 1000;   // an unclear board is reported once it stays this long
  int64_t setup_settle_ms = 3000;    // a free setup starts once it stays valid this long
  int max_draw_offers = -1;          // per player per game; -1: the game's own (Brazilian 3), 0: no limit
  int match_games = 1;               // games in the match (1, 3, 5, 7, …)
  ClockOptions clock;
  InferenceOptions inference;
};
nlohmann::json to_json(const RefereeOptions& o);
// Missing keys keep their defaults; unknown keys or bad values throw InputError.
RefereeOptions referee_options_from_json(const nlohmann::json& j);

enum class Phase { Setup, Playing, GameOver, MatchOver };
const char* to_string(Phase p);

// What a reading of the board rested on: the frame, kept with the reading's last
// move (and in its event) so that the reading can be revised when later frames
// contradict it, also after a restart.
struct Evidence {
  Observation board;
  std::vector<float> conf;
  int plies = 1;                          // moves the frame was read as (1 or 2)
  double fit = 0;                         // doubtful readings the choice overruled
  // Readings of the frame as good as the one chosen, leading elsewhere: each the
  // moves' notations separated by spaces.
  std::vector<std::string> alternatives;
};

// One move as the game's record keeps it.
struct PlayedMove {
  int ply = 0;                // 1-based
  Side side = Side::First;
  Move move;
  std::string record;         // Rules::record_notation
  int64_t t = 0;
  // Each side's remaining time after the move; none in a game without per-side clocks.
  std::optional<std::array<int64_t, 2>> clock;
  Score score{0, 0};          // after the move
  std::string fen;            // after the move
  std::optional<Evidence> evidence;  // on the last move of a reading of the board
  bool by_operator = false;          // confirmed or corrected by the operator: never revised
};

// A question asked of the operator: which of several moves, alike to the camera, was played.
struct Question {
  int base = 0;                          // plies before the reading asked about
  int ply = 0;                           // the reading's last ply
  std::vector<std::string> candidates;   // each a path of notations separated by spaces; [0] is in the record
  std::vector<int> squares;              // sites the candidates touch
  // Every candidate reaches the same position (by moves through a position no frame
  // showed): only the record is in question, so no later frame answers it and it
  // casts no doubt on later readings.
  bool same_position = false;
};

// One game of the match, finished or not.
struct GameSummary {
  int game_no = 1;
  std::string start_fen;
  std::vector<PlayedMove> moves;
  bool over = false;
  std::string result = "*";   // "1-0", "0-1", "1/2-1/2", or "*" while unfinished / abandoned
  std::string reason;
  Score score{0, 0};
  bool absolute = false;      // Cờ toán: won by capturing the 0 (decides the whole match)
  int64_t started_t = -1, ended_t = -1;
};

// Where one of a question's other candidates leads after the frames seen since.
struct QuestionLine {
  std::shared_ptr<Position> position;
  std::string candidate;
  // The line has reached the record's own position: no later frame tells them apart.
  bool merged = false;
};

class Referee {
 public:
  // `journal` may be null (nothing kept on disk); the referee does not own it.
  Referee(std::shared_ptr<const Rules> rules, RefereeOptions options, Journal* journal = nullptr);

  // The journal header for these rules and options (Journal's constructor wants it).
  static nlohmann::json journal_header(const Rules& rules, const RefereeOptions& options);

  // Replays the journal's recorded events (a restart). Returns what to announce
  // about it (info events; not journaled). Throws InputError naming the journal
  // line when an event does not fit the game.
  std::vector<Event> resume();

  // One line of input: a board (decided if stable) or an operator command. A
  // command that does not fit the moment is announced as a `refused` event (not
  // journaled) instead of thrown; a time earlier than the previous input's throws.
  std::vector<Event> on_frame(const Frame& frame);
  // `line`: where the command stands in the input, if it comes from a file.
  std::vector<Event> on_command(const nlohmann::json& command, int64_t t, int64_t line = -1);
  // Time passes with no new board (flag fall, time limits).
  std::vector<Event> on_time(int64_t t);
  // Work ahead while no frame waits (between camera frames): lists the legal moves
  // of the current position and what each shows, so that the next board is
  // decided from them at once. Changes nothing the referee announces.
  void prepare();
  // The input ended at `t`: a board that stayed ambiguous is decided as it reads.
  std::vector<Event> finish(int64_t t);

  // --- for the screen and the records
  const Rules& rules() const { return *rules_; }
  const RefereeOptions& options() const { return options_; }
  Phase phase() const { return phase_; }
  const State& state() const;            // the current position (the start during setup)
  int ply() const { return static_cast<int>(game().moves.size()); }
  const GameSummary& game() const { return games_.back(); }
  const std::vector<GameSummary>& games() const { return games_; }
  const GameClock& clock() const { return clock_; }
  // Questions asked of the operator and not answered yet, oldest first.
  const std::vector<Question>& questions() const { return questions_; }
  int64_t last_t() const { return last_t_; }  // time of the latest input
  // The input line of the latest journaled event (-1 if none came from a line):
  // on a restart, reading resumes after it (each input's events are journaled
  // together, so an input is on disk whole or not at all).
  int64_t journaled_line() const { return journaled_line_; }
  // The screen's /api/state: game, fen, score, moves, phase, clock, match.
  nlohmann::json state_json() const;

 private:
  struct Pending {
    Verdict verdict;
    int64_t since = 0;
    Frame frame;  // the frame the verdict read
  };

  // Inputs: each runs with its events collected, then journaled in one write.
  std::vector<Event> run_input(int64_t line, const std::function<void(std::vector<Event>&)>& body);
  void frame_input(const Frame& f, std::vector<Event>& out);
  void command_input(const nlohmann::json& command, int64_t t, std::vector<Event>& out);
  void finish_input(int64_t t, std::vector<Event>& out);
  void resume_input(std::vector<Event>& out);

  // Deciding
  void read_playing(const Frame& f, std::vector<Event>& out);
  void read_setup(const Frame& f, std::vector<Event>& out);
  // `frame`: what the camera showed (for the announcement and the record), may be null.
  void act_on(const Verdict& v, int64_t t, const Frame* frame, std::vector<Event>& out);
  // act_on for a reading of `f`, unless the reading would end the game and another
  // reading of earlier frames lets it go on.
  void settle(const Verdict& v, int64_t t, const Frame& f, std::vector<Event>& out);
  // `v` with its moves the first of its readings that under_way_frame_ shows on its way, when
  // its own pick is not (the others kept as alternatives).
  Verdict shown_on_its_way(const Verdict& v);
  // Holds the two moves an under-way reading `v` of `f` falls back on (held_), also
  // when `f` was read on from a waiting reading: a mill may follow a mill.
  void hold_fallback(const Verdict& v, const Frame& f);
  // After earlier moves were played from a waiting frame: `f` read as `onward` waits
  // (ambiguous), or settles, holding its fallback when a move is under way.
  void go_on_from(const Verdict& onward, const Frame& f, std::vector<Event>& out);
  // `v`, the reading of `f`, waits for the next frame when ambiguous (moves or a
  // takeback), else settles.
  void wait_or_settle(const Verdict& v, const Frame& f, std::vector<Event>& out);
  void announce_unclear(const Verdict& v, int64_t t, const Observation* board, std::vector<Event>& out);
  // Reads `earlier` (a frame of the current position, read at `fit`) as moves again,
  // choosing among its readings within a margin the one from which `f` reads as moves
  // or no change; plays both and returns true, or changes nothing and returns false.
  bool read_through(const Frame& earlier, double fit, int64_t earlier_t, const Frame& f, std::vector<Event>& out);
  // Reads the frames held in doubted_ (each as the board stood, or as one or two moves
  // within a margin of its first reading) and then `f`, choosing the cheapest chain
  // in which at least one of them shows a move (a placement misread as the empty
  // point it went to, and the next placement misread too, so that `f` needs three
  // moves). Plays it and returns true if it costs less than `beat` plus the frames'
  // readings as no change (`beat`: what `f` costs read on its own; infinite when it
  // reads as nothing legal); else changes nothing and returns false.
  bool read_through_doubted(const Frame& f, double beat, std::vector<Event>& out);
  // Whether a doubtful reading is near: in `f`, in the board's latest readings, or a
  // frame read as no change only because its differences were doubtful. An illegal
  // move is then announced only when the next frame shows it again.
  bool in_doubt(const Frame& f) const;
  void follow_up(int64_t t, std::vector<Event>& out);
  // Plays `path` (indices from the current position). `evidence` goes with the last
  // move; `played_t` (revisions) keeps the moves' first time in the record.
  void commit_moves(const std::vector<int>& path, int64_t t, const std::string& by, std::vector<Event>& out,
                    const Evidence* evidence = nullptr, int64_t played_t = -1);
  Evidence evidence_of(const Frame& f, const Verdict& v) const;
  // A frame no move explains: perhaps an earlier reading that could have gone
  // another way did. Revises the record (takeback, then the other moves) and
  // returns true when another choice makes this frame a legal move.
  // With `avoid_end`, the frame does read as moves but they would end the game:
  // revise only to a choice after which the frame reads and the game goes on (a
  // guess about hidden pieces must not end a game that other choices continue),
  // and with no more moves than the record and the frame's own reading of
  // `frame_plies` moves (an end is no reason to read more moves than were seen).
  // With `beat` finite, the frame does read as moves at that cost: revise only the
  // newest reading, and only if the other choice plus the frame's reading from it
  // costs less (two moves read from one frame where a doubtful earlier reading, read
  // another way, leaves one).
  bool try_revision(const Frame& f, std::vector<Event>& out, bool avoid_end = false, double beat = kInfeasible,
                    size_t frame_plies = 0);
  // Plays `other` (index path from ply `base`) instead of the moves from `base` to
  // `last`, then the later moves read again from their own frames (or, for moves
  // without one, by notation). Returns false, changing nothing, if a later frame does
  // not read from the other choice. With `then`, the rewritten record must also read
  // that frame (as moves, no change or a move under way).
  bool rewrite(int base, int last, const std::vector<int>& other, int64_t t, const std::string& by,
               std::vector<Event>& out, const Frame* then = nullptr);
  // A frame that does not read from the record but from the line of an open question's
  // other candidate (followed through every frame since): that candidate was played,
  // however long ago. Rewrites the record to it (an `answered` event, by the board),
  // asks again if several other candidates read the frame, and reads the frame from
  // the rewritten record. False, changing nothing, if no candidate's line reads it.
  bool answer_by_frame(const Frame& f, std::vector<Event>& out);
  // After a reading of `f` was committed: the questions' other candidates follow
  // the frame, and a question whose candidates all fail it is answered by the board.
  void follow_questions(const Frame& f, std::vector<Event>& out);
  // Asks about the reading `pick` played from ply `base`, if some of its
  // `alternatives` (index paths from the same ply) look exactly like it to the camera
  // and still read every frame seen since, or if `unseen` (paths reaching the very
  // position `pick` reaches, through one no frame showed) is not empty.
  void ask_if_hidden(int base, const std::vector<int>& pick, const std::vector<std::vector<int>>& alternatives,
                     std::vector<Event>& out, const std::vector<std::vector<int>>& unseen = {});
  // Whether a candidate of `q` other than the record's reaches the record's position.
  bool record_alone_in_question(const Question& q) const;
  // Moves a question's other lines on through frame `f`: each becomes every reading of
  // `f` from it (none when `f` does not read from it).
  void follow_lines(std::vector<QuestionLine>& lines, const Frame& f) const;

  void answer_question(size_t q, const std::string& path, int64_t t, std::vector<Event>& out);
  // The open question a confirm/correct command answers: the one at its "ply", else
  // the newest naming its "move" among the candidates, else (a bare confirm with no
  // reading waiting) the newest.
  std::optional<size_t> question_for(const nlohmann::json& command) const;
  // `path` (notations separated by spaces) as indices from the question's ply, if it
  // is one of its candidates or reaches the same position as one.
  std::optional<std::vector<int>> question_path(const Question& q, const std::string& path) const;
  // Whether playing the reading `v` from the current position ends the game.
  bool ends_game(const Verdict& v);
  void check_time(int64_t t, std::vector<Event>& out);
  void check_outcome(int64_t t, std::vector<Event>& out);
  void end_game(int64_t t, const Outcome& o, std::vector<Event>& out);
  Outcome points_decide(const std::string& why) const;
  // `fallen`'s time ran out: points decide where the game keeps score, else the other side wins.
  Outcome time_out(Side fallen, const std::string& why) const;

  // Events: decided → journaled → applied → announced
  void emit(Event e, std::vector<Event>& out);
  void apply(const Event& e);
  Event move_event(int64_t t, Position& from, int index, const std::string& by, const Evidence* evidence,
                   int64_t played_t) const;
  Event game_event(EventType type, int64_t t) const;

  // Helpers
  Side side_of(const std::string& name, const char* what) const;
  std::map<std::string, int> score_map(const Score& s) const;
  nlohmann::json clock_json(int64_t t) const;
  std::vector<const Observation*> earlier_boards() const;
  // The site the last move landed on, -1 if none (read_frame).
  int last_destination() const;
  // Whether `board` lies between the position and the one before the last move, with sites of both: the last move
  // taken back in more than one motion (a capture: the capturing piece back, the captured one not yet).
  bool takeback_under_way(const Observation& board) const;
  std::string board_key(const Observation& board) const;
  std::vector<std::string> names(const std::vector<int>& sites) const;
  int draw_offer_limit() const;
  void begin_setup(const std::string& fen);

  std::shared_ptr<const Rules> rules_;
  RefereeOptions options_;
  Journal* journal_;

  Phase phase_ = Phase::Setup;
  std::vector<GameSummary> games_;
  std::vector<std::shared_ptr<Position>> history_;  // positions of the current game, ply 0 first
  State setup_state_;                               // what the board must show in setup
  size_t match_first_ = 0;                          // index in games_ of the current match's first game
  Observation last_board_;                          // the latest stable board
  std::vector<float> last_conf_;                    // its reader's confidence per site
  GameClock clock_;
  std::array<int, 2> draw_offers_{0, 0};
  std::optional<Side> open_offer_;

  // Announced conditions (rebuilt by replay)
  std::string illegal_key_;    // board of the illegal move announced and not yet restored
  std::string unclear_key_;    // board reported unclear and not yet cleared
  std::string mismatch_key_;   // squares of the last setup mismatch

  // Not journaled: rebuilt from the frames after a restart
  std::optional<Pending> pending_;
  // A two-move reading held behind a move half made (Verdict::fallback), valid
  // while nothing is applied (held_generation_ == generation_).
  std::optional<Pending> held_;
  uint64_t held_generation_ = 0;
  // The latest frames read as no change although they had doubtful sites (a move may
  // hide behind misreads), oldest first, valid while nothing is applied. A frame that
  // reads the board as it stands with no doubt at all clears them.
  std::vector<Pending> doubted_;
  uint64_t doubted_generation_ = 0;
  // The latest frame read as a move under way, valid while nothing is applied: of readings a
  // camera cannot tell apart once finished (an air force gone under a stack or shot down), the
  // move it showed on its way is the one played.
  std::optional<Frame> under_way_frame_;
  uint64_t under_way_generation_ = 0;
  // An illegal move read once with a doubtful reading near, not announced yet: its
  // key and the generation it was read in.
  std::string unconfirmed_illegal_;
  uint64_t unconfirmed_generation_ = 0;
  std::string unclear_seen_key_;
  int64_t unclear_since_ = 0;
  std::string halfway_key_;  // a board read as illegal that may be a takeback under way, and since when
  int64_t halfway_since_ = 0;
  std::string setup_seen_key_;
  int64_t setup_since_ = 0;
  // The latest reading, kept while the same board keeps coming and nothing changed.
  uint64_t generation_ = 0;  // bumped by every applied event
  uint64_t cached_generation_ = UINT64_MAX;
  Observation cached_board_;
  std::vector<float> cached_conf_;
  Verdict last_verdict_;
  std::vector<Question> questions_;  // open questions (rebuilt by replay)
  // Per open question, the positions its other candidates lead to after the frames
  // seen since (not journaled: after a restart a question waits for the operator).
  std::vector<std::vector<QuestionLine>> question_lines_;
  std::string revision_failed_key_;  // the board (and position) a revision was last tried for in vain

  int64_t last_t_ = 0;
  int64_t last_event_t_ = 0;
  int64_t journaled_line_ = -1;
  int64_t input_line_ = -1;  // the input being read, while it is
};

}  // namespace sb::arbiter
