#include "arbiter/referee.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

nlohmann::json to_nlohmann(const Json& j) {
  if (j.is_null()) return nullptr;
  return nlohmann::json::parse(j.dump());
}

std::string join(const std::vector<std::string>& parts, const char* sep = ",") {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

std::string illegal_key(const Event& e) { return e.reason + "|" + join(e.squares); }

std::string mismatch_key(const Event& e) {
  std::string key = join(e.squares);
  if (auto it = e.extra.find("problems"); it != e.extra.end()) key += "|" + it->dump();
  return key;
}

bool same_reading(const Verdict& a, const Verdict& b) {
  return a.kind == b.kind && a.moves == b.moves && a.takeback_to == b.takeback_to &&
         a.then_under_way == b.then_under_way;
}

std::string minutes(int64_t ms) {
  if (ms % 60000 == 0) return std::to_string(ms / 60000) + " min";
  return std::to_string(ms / 1000) + " s";
}

// How much worse than its first reading a frame may fit the readings a revision tries (and that a rewrite keeps
// for the record's own moves).
constexpr double kRevisionMargin = 1.0;

// The position reached from `p` by the moves of `path` (indices of successors).
Position* end_of(Position* p, const std::vector<int>& path) {
  for (int i : path) p = p->successor(static_cast<size_t>(i)).next.get();
  return p;
}

// The game is over at `p` or after any of the moves of `path` (indices of successors) played from it.
bool over_along(Position* p, const std::vector<int>& path) {
  bool over = p->over();
  for (int i : path) {
    p = p->successor(static_cast<size_t>(i)).next.get();
    over = over || p->over();
  }
  return over;
}

}  // namespace

// ---------------------------------------------------------------- options

const char* to_string(Phase p) {
  switch (p) {
    case Phase::Setup: return "setup";
    case Phase::Playing: return "playing";
    case Phase::GameOver: return "game_over";
    case Phase::MatchOver: return "match_over";
  }
  return "setup";
}

nlohmann::json to_json(const RefereeOptions& o) {
  return {{"start_fen", o.start_fen},
          {"free_setup", o.free_setup},
          {"allow_takebacks", o.allow_takebacks},
          {"settle_ms", o.settle_ms},
          {"unclear_after_ms", o.unclear_after_ms},
          {"setup_settle_ms", o.setup_settle_ms},
          {"max_draw_offers", o.max_draw_offers},
          {"match_games", o.match_games},
          {"clock", to_json(o.clock)},
          {"inference", to_json(o.inference)}};
}

RefereeOptions referee_options_from_json(const nlohmann::json& j) {
  RefereeOptions o;
  if (j.is_null()) return o;
  if (!j.is_object()) throw InputError("referee options: expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    auto boolean = [&](bool& field) {
      if (!value.is_boolean()) throw InputError("referee option \"" + key + "\": expected true or false");
      field = value.get<bool>();
    };
    auto whole = [&](auto& field, int64_t lo, int64_t hi) {
      if (!value.is_number_integer() || value.get<int64_t>() < lo || value.get<int64_t>() > hi)
        throw InputError("referee option \"" + key + "\": expected a whole number in " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ", got " + value.dump());
      field = static_cast<std::remove_reference_t<decltype(field)>>(value.get<int64_t>());
    };
    if (key == "start_fen") {
      if (!value.is_string()) throw InputError("referee option \"start_fen\": expected a string");
      o.start_fen = value.get<std::string>();
    } else if (key == "free_setup") boolean(o.free_setup);
    else if (key == "allow_takebacks") boolean(o.allow_takebacks);
    else if (key == "settle_ms") whole(o.settle_ms, 0, 3600000);
    else if (key == "unclear_after_ms") whole(o.unclear_after_ms, 0, 3600000);
    else if (key == "setup_settle_ms") whole(o.setup_settle_ms, 0, 3600000);
    else if (key == "max_draw_offers") whole(o.max_draw_offers, -1, 1000);
    else if (key == "match_games") whole(o.match_games, 1, 99);
    else if (key == "clock") o.clock = clock_options_from_json(value);
    else if (key == "inference") o.inference = inference_options_from_json(value);
    else throw InputError("unknown referee option \"" + key + "\"");
  }
  return o;
}

// ---------------------------------------------------------------- construction

Referee::Referee(std::shared_ptr<const Rules> rules, RefereeOptions options, Journal* journal)
    : rules_(std::move(rules)), options_(std::move(options)), journal_(journal), clock_(options_.clock) {
  if (!rules_) throw InputError("referee: no rules");
  // Where pieces stack, identities are what tells the readings of a frame apart (an
  // air force under one stack's top or another's): never overruled there.
  if (rules_->stacks()) options_.inference.kind_misread_cost = kInfeasible;
  const Json rule_options = rules_->options();
  const Json* mode = rule_options.is_object() ? rule_options.find("mode") : nullptr;
  options_.clock = options_.clock.resolved(rules_->id(), mode && mode->is_string() ? mode->as_string() : "");
  clock_ = GameClock(options_.clock);

  rules_->match_standing(options_.match_games, {});  // a match length the game refuses throws here
  games_.push_back(GameSummary{});
  begin_setup(options_.start_fen);
}

nlohmann::json Referee::journal_header(const Rules& rules, const RefereeOptions& options) {
  return {{"journal", "smartboard referee"},
          {"version", 1},
          {"game", rules.id()},
          {"rules", to_nlohmann(rules.options())},
          {"referee", to_json(options)}};
}

void Referee::begin_setup(const std::string& fen) {
  setup_state_ = fen.empty() ? rules_->start() : rules_->from_fen(fen);
  history_.clear();
  history_.push_back(std::make_shared<Position>(*rules_, setup_state_));
  phase_ = Phase::Setup;
  games_.back().start_fen = rules_->fen(setup_state_);
  illegal_key_.clear();
  unclear_key_.clear();
  mismatch_key_.clear();
  questions_.clear();
  question_lines_.clear();
  pending_.reset();
  unclear_seen_key_.clear();
  setup_seen_key_.clear();
  draw_offers_ = {0, 0};
  open_offer_.reset();
  clock_ = GameClock(options_.clock);
  ++generation_;
}

const State& Referee::state() const { return history_.back()->state(); }

// ---------------------------------------------------------------- helpers

Side Referee::side_of(const std::string& name, const char* what) const {
  for (Side s : {Side::First, Side::Second})
    if (name == rules_->side_name(s)) return s;
  throw InputError(std::string(what) + ": unknown side '" + name + "' (" + rules_->side_name(Side::First) + " or " +
                   rules_->side_name(Side::Second) + ")");
}

std::map<std::string, int> Referee::score_map(const Score& s) const {
  return {{rules_->side_name(Side::First), s[0]}, {rules_->side_name(Side::Second), s[1]}};
}

nlohmann::json Referee::clock_json(int64_t t) const {
  nlohmann::json j = nlohmann::json::object();
  if (clock_.options().per_side()) {
    auto r = clock_.remaining(t);
    j[rules_->side_name(Side::First)] = r[0];
    j[rules_->side_name(Side::Second)] = r[1];
  }
  if (clock_.options().game_limit_ms > 0)
    j["game_left"] = std::max<int64_t>(0, clock_.options().game_limit_ms - clock_.elapsed(t));
  auto running = clock_.running_side();
  j["running"] = running && clock_.running() ? nlohmann::json(rules_->side_name(*running)) : nlohmann::json(nullptr);
  return j;
}

int Referee::last_destination() const {
  if (games_.empty() || games_.back().moves.empty() || games_.back().moves.size() + 1 != history_.size()) return -1;
  return games_.back().moves.back().move.to;
}

std::vector<const Observation*> Referee::earlier_boards() const {
  std::vector<const Observation*> boards;
  for (size_t i = 0; i + 1 < history_.size(); ++i) boards.push_back(&history_[i]->seen());
  return boards;
}

bool Referee::takeback_under_way(const Observation& board) const {
  if (!options_.allow_takebacks || history_.size() < 2) return false;
  const Observation& now = history_.back()->seen();
  const Observation& before = history_[history_.size() - 2]->seen();
  bool as_moved = false, put_back = false;
  for (int i = 0; i < rules_->site_count(); ++i) {
    const bool is_now = board.sites[i] == now.sites[i], is_before = board.sites[i] == before.sites[i];
    if (!is_now && !is_before) return false;
    as_moved = as_moved || !is_before;
    put_back = put_back || !is_now;
  }
  return as_moved && put_back;
}

std::vector<std::string> Referee::names(const std::vector<int>& sites) const {
  std::vector<std::string> n;
  for (int s : sites)
    if (s >= 0) n.push_back(rules_->site_name(s));
  return n;
}

int Referee::draw_offer_limit() const {
  if (options_.max_draw_offers >= 0) return options_.max_draw_offers;
  return rules_->id() == "brazilian" ? 3 : 0;  // the Brazilian seed: at most three offers per player per game
}

Event Referee::game_event(EventType type, int64_t t) const {
  Event e;
  e.type = type;
  e.t = t;
  e.ply = ply();
  return e;
}

// ---------------------------------------------------------------- events

void Referee::emit(Event e, std::vector<Event>& out) {
  if (input_line_ >= 0 && e.type != EventType::Info) e.extra["line"] = input_line_;
  apply(e);
  out.push_back(std::move(e));
}

std::vector<Event> Referee::run_input(int64_t line, const std::function<void(std::vector<Event>&)>& body) {
  std::vector<Event> out;
  input_line_ = line;
  auto journal_batch = [&]() {
    input_line_ = -1;
    if (!journal_) return;
    std::vector<nlohmann::json> batch;
    for (const Event& e : out)
      if (journaled(e.type)) batch.push_back(to_json(e));
    if (batch.empty()) return;
    journal_->append(batch);
    if (line >= 0) journaled_line_ = std::max(journaled_line_, line);
  };
  try {
    body(out);
  } catch (...) {
    journal_batch();  // what was applied before the error is kept on disk as well
    throw;
  }
  journal_batch();
  return out;
}

Event Referee::move_event(int64_t t, Position& from, int index, const std::string& by, const Evidence* evidence,
                          int64_t played_t) const {
  Successor& s = from.successor(static_cast<size_t>(index));
  const Side mover = rules_->side_to_move(from.state());
  Event e = game_event(EventType::Move, t);
  e.ply = ply() + 1;
  e.side = rules_->side_name(mover);
  e.notation = s.move.notation;
  e.captured = names(s.move.captured);
  // What the move added to the mover's score: Cờ toán's and Cờ tư lệnh's points, the
  // pieces a draughts or Morris capture took (Move::points is only the former).
  const Score score_before = rules_->score(from.state()), score_after = rules_->score(s.next->state());
  e.points = score_after[index_of(mover)] - score_before[index_of(mover)];
  e.score = score_map(score_after);
  e.fen = rules_->fen(s.next->state());
  e.extra["from"] = s.move.from >= 0 ? nlohmann::json(rules_->site_name(s.move.from)) : nlohmann::json(nullptr);
  e.extra["to"] = s.move.to >= 0 ? nlohmann::json(rules_->site_name(s.move.to)) : nlohmann::json(nullptr);
  e.extra["path"] = names(s.move.path);
  e.extra["record"] = rules_->record_notation(from.state(), s.move);
  if (s.move.details.is_object()) e.extra["details"] = to_nlohmann(s.move.details);
  GameClock after = clock_;
  after.switch_after_move(t, mover);
  if (after.options().any()) {
    nlohmann::json c = nlohmann::json::object();
    auto r = after.remaining(t);
    if (after.options().per_side()) {
      c[rules_->side_name(Side::First)] = r[0];
      c[rules_->side_name(Side::Second)] = r[1];
    }
    if (after.options().game_limit_ms > 0)
      c["game_left"] = std::max<int64_t>(0, after.options().game_limit_ms - after.elapsed(t));
    e.extra["clock"] = c;
  }
  if (!by.empty()) e.extra["by"] = by;
  if (played_t >= 0) {
    e.extra["revised"] = true;
    e.extra["played_t"] = played_t;
  }
  if (evidence) {
    nlohmann::json reading;
    reading["plies"] = evidence->plies;
    reading["seen"] = board_json(*rules_, evidence->board);
    nlohmann::json doubtful = nlohmann::json::object();
    // Only doubtful readings weigh in a reading's cost; sure ones only have to agree.
    for (size_t i = 0; i < evidence->conf.size(); ++i)
      if (evidence->conf[i] < options_.inference.doubt_below)
        doubtful[rules_->site_name(static_cast<int>(i))] = std::round(evidence->conf[i] * 1000.0f) / 1000.0f;
    reading["conf"] = doubtful;
    reading["fit"] = evidence->fit;
    if (!evidence->alternatives.empty()) reading["alternatives"] = evidence->alternatives;
    e.extra["reading"] = reading;
  }
  return e;
}

Evidence Referee::evidence_of(const Frame& f, const Verdict& v) const {
  Evidence ev;
  ev.board = f.board;
  ev.conf = f.conf;
  ev.plies = static_cast<int>(v.moves.size());
  ev.fit = v.fit;
  Position& pos = *history_.back();
  for (const std::vector<int>& path : v.alternatives) {
    std::string names;
    Position* p = &pos;
    for (int i : path) {
      names += (names.empty() ? "" : " ") + p->successor(static_cast<size_t>(i)).move.notation;
      p = p->successor(static_cast<size_t>(i)).next.get();
    }
    ev.alternatives.push_back(names);
  }
  return ev;
}

void Referee::apply(const Event& e) {
  // Readings depend on the position and the game's earlier positions only.
  if (e.type == EventType::SetupOk || e.type == EventType::Move || e.type == EventType::Takeback ||
      e.type == EventType::NewGame)
    ++generation_;
  // What the referee was waiting to see confirmed starts afresh after every event,
  // so that a replay (which rereads the input after the last journaled event)
  // rebuilds it exactly.
  if (e.type != EventType::Info) {
    pending_.reset();
    unclear_seen_key_.clear();
    setup_seen_key_.clear();
    last_event_t_ = std::max(last_event_t_, e.t);
    if (auto it = e.extra.find("line"); it != e.extra.end() && it->is_number_integer())
      journaled_line_ = std::max(journaled_line_, it->get<int64_t>());
  }
  GameSummary& game = games_.back();
  switch (e.type) {
    case EventType::SetupOk: {
      State start = rules_->from_fen(e.fen);
      history_.clear();
      history_.push_back(std::make_shared<Position>(*rules_, start));
      phase_ = Phase::Playing;
      game.start_fen = rules_->fen(start);
      game.started_t = e.t;
      mismatch_key_.clear();
      clock_ = GameClock(options_.clock);
      clock_.start(e.t, rules_->side_to_move(start));
      break;
    }
    case EventType::SetupMismatch:
      mismatch_key_ = mismatch_key(e);
      break;
    case EventType::Move: {
      if (phase_ != Phase::Playing) throw InputError("move '" + e.notation + "' while no game is being played");
      Position& pos = *history_.back();
      int index = pos.find(e.notation);
      if (index < 0)
        throw InputError("move '" + e.notation + "' is not legal at ply " + std::to_string(ply() + 1) + " (" +
                         rules_->fen(pos.state()) + ")");
      Successor& s = pos.successor(static_cast<size_t>(index));
      const Side mover = rules_->side_to_move(pos.state());
      PlayedMove played;
      played.ply = ply() + 1;
      played.side = mover;
      played.move = s.move;
      played.record = rules_->record_notation(pos.state(), s.move);
      played.t = e.extra.value("played_t", e.t);
      played.by_operator = e.extra.value("by", "") == "operator";
      played.score = rules_->score(s.next->state());
      played.fen = rules_->fen(s.next->state());
      if (e.extra.value("revised", false)) clock_.run_for(e.t, opponent(mover));  // time was charged the first time
      else clock_.switch_after_move(e.t, mover);
      if (clock_.options().per_side()) played.clock = clock_.remaining(e.t);
      if (auto r = e.extra.find("reading"); r != e.extra.end() && r->is_object()) {
        Evidence ev;
        ev.board.sites.assign(static_cast<size_t>(rules_->site_count()), Token{});
        ev.conf.assign(static_cast<size_t>(rules_->site_count()), 1.0f);
        const nlohmann::json seen = r->value("seen", nlohmann::json::object());
        const nlohmann::json conf = r->value("conf", nlohmann::json::object());
        for (const auto& [square, token] : seen.items()) {
          int site = rules_->site_index(square);
          if (site < 0) throw InputError("move '" + e.notation + "': unknown square '" + square + "' in its reading");
          ev.board.sites[static_cast<size_t>(site)] = parse_token(token.get<std::string>());
        }
        for (const auto& [square, c] : conf.items()) {
          int site = rules_->site_index(square);
          if (site < 0) throw InputError("move '" + e.notation + "': unknown square '" + square + "' in its reading");
          ev.conf[static_cast<size_t>(site)] = c.get<float>();
        }
        ev.plies = r->value("plies", 1);
        ev.fit = r->value("fit", 0.0);
        ev.alternatives = r->value("alternatives", std::vector<std::string>{});
        played.evidence = std::move(ev);
      }
      std::shared_ptr<Position> next = s.next;
      pos.forget_successors();
      history_.push_back(std::move(next));
      game.moves.push_back(std::move(played));
      illegal_key_.clear();
      unclear_key_.clear();
      unclear_seen_key_.clear();
      pending_.reset();
      if (open_offer_ && *open_offer_ != mover) open_offer_.reset();  // a move answers the other side's offer
      break;
    }
    case EventType::Illegal:
      illegal_key_ = illegal_key(e);
      unclear_key_.clear();
      break;
    case EventType::Restored:
      illegal_key_.clear();
      unclear_key_.clear();
      break;
    case EventType::Unclear:
      if (e.extra.value("ask", false)) {
        Question q;
        q.ply = e.ply;
        q.base = e.extra.value("base", e.ply - 1);
        q.candidates = e.extra.value("candidates", std::vector<std::string>{});
        q.same_position = e.extra.value("same_position", false);
        for (const std::string& square : e.squares)
          if (int site = rules_->site_index(square); site >= 0) q.squares.push_back(site);
        questions_.push_back(std::move(q));
        question_lines_.emplace_back();
        break;
      }
      unclear_key_ = join(e.squares);
      break;
    case EventType::Answered:
      for (size_t q = 0; q < questions_.size(); ++q)
        if (questions_[q].ply == e.ply) {
          questions_.erase(questions_.begin() + static_cast<long>(q));
          question_lines_.erase(question_lines_.begin() + static_cast<long>(q));
          break;
        }
      break;
    case EventType::Takeback: {
      if (e.ply < 0 || e.ply >= static_cast<int>(history_.size()))
        throw InputError("takeback to ply " + std::to_string(e.ply) + " in a game of " + std::to_string(ply()) +
                         " plies");
      history_.resize(static_cast<size_t>(e.ply) + 1);
      game.moves.resize(static_cast<size_t>(e.ply));
      // A question about moves taken back is moot.
      for (size_t q = questions_.size(); q-- > 0;)
        if (questions_[q].ply > e.ply) {
          questions_.erase(questions_.begin() + static_cast<long>(q));
          question_lines_.erase(question_lines_.begin() + static_cast<long>(q));
        }
      if (phase_ == Phase::GameOver) {
        phase_ = Phase::Playing;
        game.over = false;
        game.result = "*";
        game.reason.clear();
        game.absolute = false;
        game.ended_t = -1;
      }
      clock_.run_for(e.t, rules_->side_to_move(state()));
      illegal_key_.clear();
      unclear_key_.clear();
      unclear_seen_key_.clear();
      pending_.reset();
      open_offer_.reset();
      break;
    }
    case EventType::GameOver:
      phase_ = Phase::GameOver;
      clock_.stop(e.t);
      game.over = true;
      game.result = e.result;
      game.reason = e.reason;
      game.score = {e.score.count(rules_->side_name(Side::First)) ? e.score.at(rules_->side_name(Side::First)) : 0,
                    e.score.count(rules_->side_name(Side::Second)) ? e.score.at(rules_->side_name(Side::Second)) : 0};
      game.absolute = e.extra.value("absolute", false);
      game.ended_t = e.t;
      pending_.reset();
      open_offer_.reset();
      break;
    case EventType::Clock: {
      const std::string action = e.extra.value("action", "");
      if (action == "pause") clock_.pause(e.t);
      else if (action == "resume") clock_.resume(e.t);
      else if (action == "set") {
        auto r = clock_.remaining(e.t);
        const nlohmann::json c = e.extra.value("clock", nlohmann::json::object());
        for (Side s : {Side::First, Side::Second})
          if (c.contains(rules_->side_name(s))) r[index_of(s)] = c[rules_->side_name(s)].get<int64_t>();
        clock_.set(e.t, r);
      } else {
        throw InputError("clock event with unknown action '" + action + "'");
      }
      break;
    }
    case EventType::DrawOffer: {
      Side s = side_of(e.side, "draw offer");
      ++draw_offers_[index_of(s)];
      open_offer_ = s;
      break;
    }
    case EventType::DrawDeclined:
      open_offer_.reset();
      break;
    case EventType::NewGame: {
      GameSummary next;
      next.game_no = e.extra.value("game_no", game.game_no + 1);
      if (phase_ == Phase::MatchOver) match_first_ = games_.size();
      games_.push_back(next);
      begin_setup(e.fen);
      break;
    }
    case EventType::MatchOver:
      phase_ = Phase::MatchOver;
      break;
    case EventType::Info:
    case EventType::Refused:
      break;
  }
}

// ---------------------------------------------------------------- resuming

std::vector<Event> Referee::resume() {
  if (!journal_) return {};
  return run_input(-1, [&](std::vector<Event>& out) { resume_input(out); });
}

void Referee::resume_input(std::vector<Event>& out) {
  int line = 1;
  for (const nlohmann::json& j : journal_->recorded()) {
    ++line;
    try {
      Event e = event_from_json(j);
      apply(e);
      last_t_ = std::max(last_t_, e.t);
    } catch (const InputError& ex) {
      throw InputError("journal '" + journal_->path() + "' line " + std::to_string(line) + ": " + ex.what());
    }
  }
  if (!journal_->repair_note().empty()) {
    Event note = game_event(EventType::Info, last_t_);
    note.reason = journal_->repair_note();
    out.push_back(note);
  }
  if (!journal_->recorded().empty()) {
    Event note = game_event(EventType::Info, last_t_);
    note.reason = "resumed from journal '" + journal_->path() + "': game " + std::to_string(game().game_no) + ", " +
                  to_string(phase_) + ", ply " + std::to_string(ply());
    note.fen = rules_->fen(state());
    out.push_back(note);
  }
  // Finish what the interruption may have cut short.
  if (phase_ == Phase::Playing) check_outcome(last_t_, out);
  follow_up(last_t_, out);
}

// ---------------------------------------------------------------- frames

std::vector<Event> Referee::on_frame(const Frame& f) {
  if (f.is_command()) {
    if (f.t < last_t_)
      throw InputError("operator command at t=" + std::to_string(f.t) + " is earlier than the previous input's " +
                       std::to_string(last_t_));
    // A referee in a hall must not stop over one operator command that does not fit.
    return run_input(f.line, [&](std::vector<Event>& out) {
      try {
        command_input(f.command, f.t, out);
      } catch (const InputError& e) {
        Event refused = game_event(EventType::Refused, f.t);
        refused.reason = e.what();
        refused.extra["command"] = f.command;
        if (f.line >= 0) refused.extra["line"] = f.line;
        out.push_back(std::move(refused));
      }
    });
  }
  if (f.t < last_t_)
    throw InputError("frame time " + std::to_string(f.t) + " is earlier than the previous input's " +
                     std::to_string(last_t_));
  return run_input(f.line, [&](std::vector<Event>& out) { frame_input(f, out); });
}

void Referee::frame_input(const Frame& f, std::vector<Event>& out) {
  last_t_ = f.t;
  if (phase_ == Phase::Playing) check_time(f.t, out);
  if (!f.stable) return;
  if (f.board.sites.size() != static_cast<size_t>(rules_->site_count()))
    throw InputError("frame at t=" + std::to_string(f.t) + " has " + std::to_string(f.board.sites.size()) +
                     " sites; " + rules_->id() + " has " + std::to_string(rules_->site_count()));
  last_board_ = f.board;
  last_conf_ = f.conf;
  if (phase_ == Phase::Setup) read_setup(f, out);
  else if (phase_ == Phase::Playing) read_playing(f, out);
}

std::vector<Event> Referee::on_time(int64_t t) {
  if (t < last_t_) return {};
  return run_input(-1, [&](std::vector<Event>& out) {
    last_t_ = t;
    if (phase_ == Phase::Playing) check_time(t, out);
  });
}

std::vector<Event> Referee::finish(int64_t t) {
  return run_input(-1, [&](std::vector<Event>& out) { finish_input(t, out); });
}

void Referee::prepare() {
  if (phase_ != Phase::Playing || history_.empty()) return;
  Position& p = *history_.back();
  for (size_t i = 0; i < p.move_count(); ++i) p.successor(i);
}

void Referee::finish_input(int64_t t, std::vector<Event>& out) {
  last_t_ = std::max(last_t_, t);
  if (phase_ != Phase::Playing) return;
  check_time(last_t_, out);
  if (phase_ != Phase::Playing) return;
  if (pending_) {
    Pending p = *pending_;
    pending_.reset();
    p.verdict.ambiguous = false;
    settle(p.verdict, std::max(p.since, last_event_t_), p.frame, out);
  } else if (last_verdict_.kind == Reading::Unclear && cached_generation_ == generation_ && illegal_key_.empty() &&
             join(names(last_verdict_.squares)) != unclear_key_) {
    announce_unclear(last_verdict_, last_t_, &cached_board_, out);
  }
}

void Referee::read_setup(const Frame& f, std::vector<Event>& out) {
  if (options_.free_setup) {
    FreeSetup arranged = rules_->free_setup(f.board, rules_->side_to_move(setup_state_));
    if (arranged.ok()) {
      const std::string key = board_key(f.board);
      if (key != setup_seen_key_) {
        setup_seen_key_ = key;
        setup_since_ = f.t;
      }
      if (f.t - setup_since_ >= options_.setup_settle_ms) {
        Event e = game_event(EventType::SetupOk, f.t);
        e.fen = rules_->fen(arranged.state);
        e.extra["free_setup"] = true;
        emit(e, out);
      }
      return;
    }
    setup_seen_key_.clear();
    Event e = game_event(EventType::SetupMismatch, f.t);
    std::vector<int> sites;
    nlohmann::json problems = nlohmann::json::array();
    for (const IllegalChange& p : arranged.problems) {
      sites.insert(sites.end(), p.squares.begin(), p.squares.end());
      problems.push_back({{"reason", p.reason}, {"squares", names(p.squares)}});
    }
    std::sort(sites.begin(), sites.end());
    sites.erase(std::unique(sites.begin(), sites.end()), sites.end());
    e.squares = names(sites);
    e.extra["problems"] = problems;
    if (mismatch_key(e) != mismatch_key_) emit(e, out);
    return;
  }
  const Observation& expected = history_.front()->seen();
  std::vector<int> wrong;
  for (int i = 0; i < rules_->site_count(); ++i)
    if (!(f.board.sites[i] == expected.sites[i]) && f.conf[i] >= options_.inference.doubt_below) wrong.push_back(i);
  if (wrong.empty()) {
    Event e = game_event(EventType::SetupOk, f.t);
    e.fen = rules_->fen(setup_state_);
    emit(e, out);
    return;
  }
  Event e = game_event(EventType::SetupMismatch, f.t);
  e.squares = names(wrong);
  nlohmann::json want = nlohmann::json::object();
  for (int i : wrong) want[rules_->site_name(i)] = expected.sites[i].str();
  e.extra["expected"] = want;
  if (mismatch_key(e) != mismatch_key_) emit(e, out);
}

void Referee::read_playing(const Frame& f, std::vector<Event>& out) {
  Verdict v;
  if (cached_generation_ == generation_ && f.board == cached_board_ && f.conf == cached_conf_) {
    v = last_verdict_;
  } else {
    v = read_frame(*history_.back(), f, earlier_boards(), options_.inference, last_destination());
    last_verdict_ = v;
    cached_board_ = f.board;
    cached_conf_ = f.conf;
    cached_generation_ = generation_;
  }
  if (v.kind == Reading::NoChange) {
    // Doubtful readings may hide a move even where they read as the board stands (a
    // piece placed, misread as the empty point it went to).
    const bool doubtful = std::any_of(f.conf.begin(), f.conf.end(),
                                      [&](float c) { return c < options_.inference.doubt_below; });
    if (doubted_generation_ != generation_) doubted_.clear();
    doubted_generation_ = generation_;
    if (doubtful || !(f.board == history_.back()->seen())) {
      // Few are kept: the same board read again replaces its reading (keeping its first time).
      constexpr size_t kDoubtedFrames = 4;
      if (!doubted_.empty() && doubted_.back().frame.board == f.board) doubted_.back() = Pending{v, doubted_.back().since, f};
      else doubted_.push_back(Pending{v, f.t, f});
      if (doubted_.size() > kDoubtedFrames) doubted_.erase(doubted_.begin());
    } else {
      doubted_.clear();  // the board stands as it was, surely: no move hid in the frames before
    }
  }
  // The board that stood behind the held reading is a position of the game: a fresh
  // reading of moves that never shows it (a placement elsewhere, where the held mill's
  // piece slid on) loses to reading on from the held moves.
  const bool skips_held = held_ && held_generation_ == generation_ && v.kind == Reading::Moves &&
                          path_stage_cost(*history_.back(), held_->frame, v.moves, options_.inference) == kInfeasible;
  if (held_ && held_generation_ == generation_ &&
      (v.kind == Reading::Unclear || v.kind == Reading::Illegal || skips_held)) {
    Position* after = end_of(history_.back().get(), held_->verdict.moves);
    Verdict onward = read_frame(*after, f, {}, options_.inference);
    if (onward.kind == Reading::Moves || (!skips_held && (onward.kind == Reading::NoChange || onward.kind == Reading::UnderWay))) {
      Pending p = *held_;
      held_.reset();
      pending_.reset();
      act_on(p.verdict, std::max(p.since, last_event_t_), &p.frame, out);
      if (phase_ != Phase::Playing || history_.back().get() != after) return;
      go_on_from(onward, f, out);
      return;
    }
  }
  if (v.kind == Reading::UnderWay && !v.fallback.empty()) hold_fallback(v, f);
  else if (v.kind != Reading::UnderWay) held_.reset();
  if (v.kind == Reading::UnderWay) {
    under_way_frame_ = f;
    under_way_generation_ = generation_;
  }
  if (pending_) {
    // A frame read as no change only by overruling doubtful readings, which reads as
    // the waiting moves at no more cost, is no evidence against them: the waiting
    // frames showed the change surely (an air force gone, its site misread as a piece
    // in a later frame of the same board).
    if (v.kind == Reading::NoChange && !(f.board == history_.back()->seen()) && pending_->verdict.kind == Reading::Moves) {
      Position* after = end_of(history_.back().get(), pending_->verdict.moves);
      if (board_fit(f, after->seen(), options_.inference) <= v.cost + 1e-9) v = pending_->verdict;
    }
    // A frame that reads as the waiting moves finished (misreads aside), read afresh
    // as other moves that the waiting frame shows only under way: the dearer reading of
    // both frames loses (an air force shot down, two frames showing it gone, then a
    // doubtful reading of it on a site it could have flown to).
    if (v.kind == Reading::Moves && pending_->verdict.kind == Reading::Moves && !same_reading(pending_->verdict, v)) {
      Position* after = end_of(history_.back().get(), pending_->verdict.moves);
      const Verdict still = read_frame(*after, f, {}, options_.inference);
      if (still.kind == Reading::NoChange &&
          pending_->verdict.cost + still.cost <
              v.cost + path_stage_cost(*history_.back(), pending_->frame, v.moves, options_.inference) - 1e-9)
        v = pending_->verdict;
    }
    if (same_reading(pending_->verdict, v)) {
      if (!v.ambiguous || f.t - pending_->since >= options_.settle_ms) {
        Pending p = *pending_;
        pending_.reset();
        settle(p.verdict, std::max(p.since, last_event_t_), p.frame, out);
      }
      return;
    }
    // A frame that reads as the board before the waiting moves: they were given up (a
    // piece put back, the waiting frame showing a move half made), or they were made and
    // the reply's picture undoes them (the piece that moved taken from range where it
    // landed). Both are weighed on both frames below.
    const bool back_as_before = v.kind == Reading::NoChange;
    if (pending_->verdict.kind == Reading::Moves) {
      // Perhaps the waiting reading was right and play went on from it.
      Position* after = end_of(history_.back().get(), pending_->verdict.moves);
      Verdict onward = read_frame(*after, f, {}, options_.inference);
      // The waiting reading picked one of readings a camera cannot tell apart (an air
      // force gone under one stack or another); play may go on only from another.
      if (onward.kind != Reading::Moves && !pending_->verdict.alternatives.empty()) {
        std::vector<std::vector<int>> reads_on;
        for (const std::vector<int>& other : pending_->verdict.alternatives) {
          Position* other_after = end_of(history_.back().get(), other);
          Verdict other_onward = read_frame(*other_after, f, {}, options_.inference);
          if (other_onward.kind != Reading::Moves) continue;
          if (reads_on.empty() || other_onward.cost < onward.cost - 1e-9) {
            if (!reads_on.empty()) reads_on.clear();
            after = other_after;
            onward = other_onward;
          } else if (other_onward.cost > onward.cost + 1e-9) {
            continue;
          }
          reads_on.push_back(other);
        }
        if (!reads_on.empty()) {
          pending_->verdict.moves = reads_on.front();
          pending_->verdict.alternatives.assign(reads_on.begin() + 1, reads_on.end());
        }
      }
      const bool lost = v.kind == Reading::Unclear || v.kind == Reading::Illegal;
      // Reading on from the waiting reading must explain the frame better than
      // reading it afresh, or as well with no more moves.
      const double onward_cost = pending_->verdict.cost + onward.cost;
      const size_t onward_plies = pending_->verdict.moves.size() + onward.moves.size();
      // A settled frame is a position that stood: a fresh reading whose moves never
      // show it (a Morris piece flown on twice, read as one flight from its first
      // point, which would put the wrong side to move) loses to reading on from it.
      const double fresh_waiting = v.kind == Reading::Moves
                                       ? path_stage_cost(*history_.back(), pending_->frame, v.moves, options_.inference)
                                       : kInfeasible;
      const bool skips_waiting = v.kind == Reading::Moves && fresh_waiting == kInfeasible;
      // A fresh reading that ends the game loses to reading on from the waiting one
      // that fits the frame as well and lets the game go on (an air force gone under a
      // stack, then the other side's move, read as one strike that loses the last air
      // force): a guess about hidden pieces never ends a game another reading continues.
      // Both readings explain the waiting frame too: the fresh one as a stage of its
      // moves, at the cost of the doubtful readings that overrules (misreads in the
      // waiting frame weigh on both alike).
      bool fresh_ends = false;
      if (v.kind == Reading::Moves && onward.kind == Reading::Moves && !skips_waiting &&
          onward_cost <= v.cost + fresh_waiting + 1e-9 && ends_game(v)) {
        fresh_ends = !over_along(after, onward.moves);
      }
      // Given up, the waiting frame is the board as it stood (misreads aside) or a move
      // half made, which is what kept it waiting.
      const double given_up =
          back_as_before ? v.cost + std::min(board_fit(pending_->frame, history_.back()->seen(), options_.inference),
                                             pending_->verdict.under_way_fit + options_.inference.under_way_prior)
                         : kInfeasible;
      const bool better = back_as_before ? onward_cost < given_up - 1e-9
                                         : v.kind != Reading::Moves || skips_waiting || fresh_ends ||
                                               onward_cost < v.cost - 1e-9 ||
                                               (onward_cost <= v.cost + 1e-9 && onward_plies <= v.moves.size());
      const bool goes_on = (onward.kind == Reading::Moves && better) || (lost && onward.kind != Reading::Unclear);
      // Play going on into an illegal move: perhaps the waiting frame reads another
      // way (a doubtful reading) from which play goes on legally.
      if (goes_on && onward.kind == Reading::Illegal) {
        Pending p = *pending_;
        if (read_through(p.frame, p.verdict.fit, std::max(p.since, last_event_t_), f, out)) return;
      }
      if (goes_on) {
        Pending p = *pending_;
        pending_.reset();
        // The waiting reading would end the game (an air force shot down, the other
        // one hidden under a stack by an earlier choice): as when settling it, an earlier
        // choice after which the game goes on is tried first; then the frame is read anew.
        if (ends_game(p.verdict) &&
            try_revision(p.frame, out, true, kInfeasible, p.verdict.moves.size())) {
          if (phase_ != Phase::Playing) return;
          wait_or_settle(read_frame(*history_.back(), f, earlier_boards(), options_.inference, last_destination()), f,
                         out);
          return;
        }
        act_on(p.verdict, std::max(p.since, last_event_t_), &p.frame, out);
        if (phase_ != Phase::Playing || history_.back().get() != after) return;
        go_on_from(onward, f, out);
        return;
      }
    }
    pending_.reset();
  }
  if (v.kind == Reading::Unclear || v.kind == Reading::Illegal) {
    // A frame read as no change only because its differences were doubtful may have
    // shown a move: read on from it.
    if (read_through_doubted(f, kInfeasible, out)) return;
    if (try_revision(f, out)) return;
    if (answer_by_frame(f, out)) return;
  }
  // Two moves (or one and another under way) read from one frame, where frames read
  // as no change for their doubtful sites, read as moves, leave fewer at once.
  if (v.kind == Reading::Moves && (v.moves.size() > 1 || v.then_under_way) && read_through_doubted(f, v.cost, out))
    return;
  // Two moves read from one frame, where the newest reading, read another way
  // (doubtful readings overruled), leaves one.
  if (v.kind == Reading::Moves && v.moves.size() == 2 && try_revision(f, out, false, v.cost)) return;
  // A move under way (alone or after a reply) where the newest reading, read another
  // way (a doubtful reading of a piece where none stands overruled), leaves the board as
  // it stands or a move: the piece the record put there is not being taken off, it never
  // went there (Cờ tư lệnh: an air force shot down, read as a flight to a site misread
  // as it).
  if (((v.kind == Reading::UnderWay && v.fallback.empty()) || (v.kind == Reading::Moves && v.then_under_way)) &&
      try_revision(f, out, false, v.cost))
    return;
  wait_or_settle(v, f, out);
}

void Referee::wait_or_settle(const Verdict& v, const Frame& f, std::vector<Event>& out) {
  if (v.ambiguous && (v.kind == Reading::Moves || v.kind == Reading::Takeback)) pending_ = Pending{v, f.t, f};
  else settle(v, f.t, f, out);
}

void Referee::go_on_from(const Verdict& onward, const Frame& f, std::vector<Event>& out) {
  if (onward.ambiguous && onward.kind == Reading::Moves) pending_ = Pending{onward, f.t, f};
  else settle(onward, f.t, f, out);
  if (onward.kind == Reading::UnderWay && !onward.fallback.empty()) hold_fallback(onward, f);
}

void Referee::hold_fallback(const Verdict& v, const Frame& f) {
  Verdict moves;
  moves.kind = Reading::Moves;
  moves.moves = v.fallback;
  moves.cost = v.fallback_fit + options_.inference.two_move_prior;
  moves.fit = v.fallback_fit;
  held_ = Pending{moves, f.t, f};
  held_generation_ = generation_;
}

Verdict Referee::shown_on_its_way(const Verdict& v) {
  if (v.alternatives.empty() || !under_way_frame_ || under_way_generation_ != generation_) return v;
  Position& pos = *history_.back();
  auto on_its_way = [&](const std::vector<int>& path) {
    return path_stage_cost(pos, *under_way_frame_, path, options_.inference) < kInfeasible;
  };
  if (on_its_way(v.moves)) return v;
  for (size_t k = 0; k < v.alternatives.size(); ++k) {
    if (!on_its_way(v.alternatives[k])) continue;
    Verdict picked = v;
    picked.moves = v.alternatives[k];
    picked.alternatives.erase(picked.alternatives.begin() + static_cast<std::ptrdiff_t>(k));
    picked.alternatives.insert(picked.alternatives.begin(), v.moves);
    picked.unseen_alternatives.clear();  // they reach the position not picked
    return picked;
  }
  return v;
}

void Referee::settle(const Verdict& v, int64_t t, const Frame& f, std::vector<Event>& out) {
  if (ends_game(v) && try_revision(f, out, true, kInfeasible, v.moves.size())) return;
  act_on(v, t, &f, out);
}

bool Referee::read_through(const Frame& earlier, double fit, int64_t earlier_t, const Frame& f,
                           std::vector<Event>& out) {
  constexpr double kMargin = 1.0;  // how much worse than its first reading the earlier frame may be read
  Position& pos = *history_.back();
  std::vector<PathFit> readings = readings_within(pos, earlier, fit + kMargin, options_.inference);
  const PathFit* best = nullptr;
  Verdict best_onward;
  double best_cost = kInfeasible;
  for (const PathFit& r : readings) {
    Position* after = &pos;
    bool over = false;
    for (int i : r.path) {
      over = over || after->over();
      after = after->successor(static_cast<size_t>(i)).next.get();
    }
    if (over) continue;
    Verdict onward = read_frame(*after, f, {}, options_.inference);
    if (onward.kind != Reading::Moves && onward.kind != Reading::NoChange && onward.kind != Reading::UnderWay)
      continue;
    const double cost = r.fit + (r.path.size() > 1 ? options_.inference.two_move_prior : 0) + onward.cost;
    if (cost < best_cost) {
      best_cost = cost;
      best = &r;
      best_onward = onward;
    }
  }
  if (!best) return false;
  Verdict first;
  first.kind = Reading::Moves;
  first.moves = best->path;
  first.fit = best->fit;
  first.cost = best->fit + (best->path.size() > 1 ? options_.inference.two_move_prior : 0);
  Position* after = end_of(&pos, first.moves);
  act_on(first, earlier_t, &earlier, out);
  if (phase_ != Phase::Playing || history_.back().get() != after) return true;
  go_on_from(best_onward, f, out);
  return true;
}

bool Referee::read_through_doubted(const Frame& f, double beat, std::vector<Event>& out) {
  if (doubted_.empty() || doubted_generation_ != generation_) return false;
  constexpr double kMargin = 1.0;  // how much worse than its first reading a doubted frame may be read
  constexpr int kBudget = 2000;    // frames read at most (a bound on the search, never reached in play)
  const InferenceOptions& io = options_.inference;
  const std::vector<Pending> frames = doubted_;  // acting on the chain clears doubted_
  double bound = beat;
  for (const Pending& d : frames) bound += d.verdict.cost;
  struct Step {
    std::vector<int> path;  // empty: the frame read as the board stood
    double fit = 0;
  };
  std::vector<Step> steps(frames.size()), best_steps;
  Verdict best_onward;
  double best = bound - 1e-9;
  bool found = false;
  int budget = kBudget;
  std::function<void(size_t, Position*, double, bool)> visit = [&](size_t k, Position* p, double cost, bool moved) {
    if (cost >= best || budget <= 0) return;
    if (k == frames.size()) {
      if (!moved) return;
      --budget;
      Verdict onward = read_frame(*p, f, {}, io);
      if (onward.kind != Reading::Moves && onward.kind != Reading::NoChange && onward.kind != Reading::UnderWay) return;
      if (cost + onward.cost < best) {
        best = cost + onward.cost;
        best_steps = steps;
        best_onward = onward;
        found = true;
      }
      return;
    }
    const Frame& d = frames[k].frame;
    if (double still = path_stage_cost(*p, d, {}, io); still < kInfeasible) {
      steps[k] = Step{};
      visit(k + 1, p, cost + still, moved);
    }
    if (p->over()) return;
    --budget;
    for (const PathFit& r : readings_within(*p, d, frames[k].verdict.cost + kMargin, io)) {
      const double c = r.fit + (r.path.size() > 1 ? io.two_move_prior : 0);
      if (cost + c >= best) continue;
      Position* q = p;
      bool over = false;
      for (int i : r.path) {
        over = over || q->over();
        q = q->successor(static_cast<size_t>(i)).next.get();
      }
      if (over) continue;
      steps[k] = Step{r.path, r.fit};
      visit(k + 1, q, cost + c, true);
    }
  };
  visit(0, history_.back().get(), 0, false);
  if (!found) return false;
  for (size_t k = 0; k < frames.size(); ++k) {
    const Step& step = best_steps[k];
    if (step.path.empty()) continue;
    Verdict moves;
    moves.kind = Reading::Moves;
    moves.moves = step.path;
    moves.fit = step.fit;
    moves.cost = step.fit + (step.path.size() > 1 ? io.two_move_prior : 0);
    // Readings that fit this frame as well may look exactly alike (a Cờ tư lệnh air
    // force gone under one stack or another): they go with the pick, to be asked.
    for (const PathFit& r : readings_within(*history_.back(), frames[k].frame, step.fit + 1e-9, io))
      if (r.path != step.path) moves.alternatives.push_back(r.path);
    Position* after = end_of(history_.back().get(), step.path);
    act_on(moves, std::max(frames[k].since, last_event_t_), &frames[k].frame, out);
    if (phase_ != Phase::Playing || history_.back().get() != after) return true;
  }
  go_on_from(best_onward, f, out);
  return true;
}

bool Referee::in_doubt(const Frame& f) const {
  const double below = options_.inference.doubt_below;
  auto doubtful = [&](const std::vector<float>& conf) {
    return std::any_of(conf.begin(), conf.end(), [&](float c) { return c < below; });
  };
  if (doubtful(f.conf)) return true;
  if (!doubted_.empty() && doubted_generation_ == generation_) return true;
  int readings = 0;
  const std::vector<PlayedMove>& moves = game().moves;
  for (auto m = moves.rbegin(); m != moves.rend() && readings < 2; ++m) {
    if (!m->evidence) continue;
    ++readings;
    if (doubtful(m->evidence->conf) || !m->evidence->alternatives.empty()) return true;
  }
  return std::any_of(questions_.begin(), questions_.end(), [](const Question& q) { return !q.same_position; });
}

void Referee::announce_unclear(const Verdict& v, int64_t t, const Observation* board, std::vector<Event>& out) {
  Event e = game_event(EventType::Unclear, t);
  e.squares = names(v.squares);
  e.extra["suggestions"] = v.suggestions;
  if (board) e.extra["board"] = board_json(*rules_, *board);
  emit(e, out);
}

void Referee::act_on(const Verdict& v, int64_t t, const Frame* frame, std::vector<Event>& out) {
  const Observation* board = frame ? &frame->board : nullptr;
  if (v.kind != Reading::Illegal) halfway_key_.clear();
  switch (v.kind) {
    case Reading::NoChange:
      unclear_seen_key_.clear();
      if (!illegal_key_.empty() || !unclear_key_.empty()) {
        Event e = game_event(EventType::Restored, t);
        e.fen = rules_->fen(state());
        if (illegal_key_.empty()) e.extra["after"] = "unclear";
        emit(e, out);
      }
      return;
    case Reading::UnderWay:
      unclear_seen_key_.clear();
      return;
    case Reading::Moves: {
      const Verdict picked = shown_on_its_way(v);
      Evidence ev;
      if (frame) ev = evidence_of(*frame, picked);
      const int base = ply();
      if (frame) follow_questions(*frame, out);
      commit_moves(picked.moves, t, "", out, frame ? &ev : nullptr);
      ask_if_hidden(base, picked.moves, picked.alternatives, out, picked.unseen_alternatives);
      return;
    }
    case Reading::Takeback: {
      if (!options_.allow_takebacks) {
        Event e = game_event(EventType::Illegal, t);
        e.reason = "takebacks are not allowed in this game";
        const Observation& now = history_.back()->seen();
        const Observation& back = *earlier_boards()[static_cast<size_t>(v.takeback_to)];
        std::vector<int> sites;
        for (int i = 0; i < rules_->site_count(); ++i)
          if (!(now.sites[i] == back.sites[i])) sites.push_back(i);
        e.squares = names(sites);
        if (illegal_key(e) != illegal_key_) emit(e, out);
        return;
      }
      Event e = game_event(EventType::Takeback, t);
      e.ply = v.takeback_to;
      e.score = score_map(rules_->score(history_[static_cast<size_t>(v.takeback_to)]->state()));
      e.fen = rules_->fen(history_[static_cast<size_t>(v.takeback_to)]->state());
      emit(e, out);
      return;
    }
    case Reading::Illegal: {
      if (frame && in_doubt(*frame)) {
        // Not on a doubtful reading's word alone: the next frame must show it again.
        std::string key = v.illegal.reason + "|" + join(names(v.illegal.squares));
        for (int i : v.moves) key += "|" + std::to_string(i);
        if (key != unconfirmed_illegal_ || unconfirmed_generation_ != generation_) {
          unconfirmed_illegal_ = key;
          unconfirmed_generation_ = generation_;
          return;
        }
      }
      if (v.moves.empty() && board && takeback_under_way(*board)) {
        // A takeback made in two motions settles between them (international 8722102: the capturing man back, the
        // captured man not yet): a move out of turn only if it stays as long as an unclear board must.
        const std::string key = board_key(*board);
        if (key != halfway_key_) {
          halfway_key_ = key;
          halfway_since_ = t;
        }
        if (t - halfway_since_ < options_.unclear_after_ms) return;
      }
      if (!v.moves.empty()) {
        commit_moves({v.moves[0]}, t, "", out);
        if (phase_ != Phase::Playing) return;
      }
      Event e = game_event(EventType::Illegal, t);
      e.reason = v.illegal.reason;
      e.squares = names(v.illegal.squares);
      e.side = rules_->side_name(rules_->side_to_move(state()));
      if (board) e.extra["board"] = board_json(*rules_, *board);
      if (illegal_key(e) != illegal_key_) emit(e, out);
      return;
    }
    case Reading::Unclear: {
      if (!illegal_key_.empty()) return;  // the board is being put back after an illegal move
      const std::string key = join(names(v.squares));
      if (key == unclear_key_) return;
      if (key != unclear_seen_key_) {
        unclear_seen_key_ = key;
        unclear_since_ = t;
      }
      if (t - unclear_since_ >= options_.unclear_after_ms) announce_unclear(v, t, board, out);
      return;
    }
  }
}

void Referee::commit_moves(const std::vector<int>& path, int64_t t, const std::string& by, std::vector<Event>& out,
                           const Evidence* evidence, int64_t played_t) {
  for (size_t k = 0; k < path.size(); ++k) {
    if (phase_ != Phase::Playing) return;
    const bool last = k + 1 == path.size();
    std::optional<Evidence> ev;
    if (last && evidence) {
      // The frame reads every move since the last one that has its own reading.
      ev = *evidence;
      ev->plies = 1;
      for (auto m = game().moves.rbegin(); m != game().moves.rend() && !m->evidence && !m->by_operator; ++m) ++ev->plies;
    }
    emit(move_event(t, *history_.back(), path[k], by, ev ? &*ev : nullptr, played_t), out);
    check_outcome(t, out);
  }
}

namespace {

std::string path_names(Position& from, const std::vector<int>& path) {
  std::string names;
  Position* p = &from;
  for (int i : path) {
    names += (names.empty() ? "" : " ") + p->successor(static_cast<size_t>(i)).move.notation;
    p = p->successor(static_cast<size_t>(i)).next.get();
  }
  return names;
}

}  // namespace

bool Referee::ends_game(const Verdict& v) {
  if (v.kind != Reading::Moves) return false;
  Position* p = history_.back().get();
  for (int i : v.moves) {
    p = p->successor(static_cast<size_t>(i)).next.get();
    if (p->over()) return true;
  }
  return false;
}

bool Referee::try_revision(const Frame& f, std::vector<Event>& out, bool avoid_end, double beat, size_t frame_plies) {
  const bool beating = beat < kInfeasible;
  const std::string key = board_key(f.board) + "@" + std::to_string(generation_) + (avoid_end ? "|end" : "") +
                          (beating ? "|beat" : "");
  if (key == revision_failed_key_) return false;
  constexpr size_t kDepth = 40;            // readings looked back over
  struct Back {
    int base;          // ply before the reading
    size_t last;       // index of its last move
  };
  const std::vector<PlayedMove>& moves = game().moves;
  std::vector<Back> readings;  // newest first
  for (int k = static_cast<int>(moves.size()) - 1; k >= 0 && readings.size() < kDepth;) {
    const PlayedMove& m = moves[static_cast<size_t>(k)];
    if (!m.evidence || m.evidence->plies < 1 || k + 1 - m.evidence->plies < 0) break;
    readings.push_back({k + 1 - m.evidence->plies, static_cast<size_t>(k)});
    k -= m.evidence->plies;
  }
  auto frame_of = [&](const Evidence& ev) {
    Frame g;
    g.t = f.t;
    g.board = ev.board;
    g.conf = ev.conf;
    return g;
  };
  // Beating a reading of the frame as it stands (two moves where the newest reading,
  // read another way, leaves one): only the newest reading, and only if its frame
  // had doubtful readings (else no other reading fits it as well but its equal
  // alternatives, which look alike and so read the frame now seen alike).
  if (beating) {
    if (readings.empty()) return false;
    const Evidence& ev = *moves[readings[0].last].evidence;
    const bool doubtful = std::any_of(ev.conf.begin(), ev.conf.end(),
                                      [&](float c) { return c < options_.inference.doubt_below; });
    if (!doubtful) return false;
    readings.resize(1);
  }
  // A reading of one move where two fit as well (or two where one does), a few
  // readings back: only the side to move tells them apart, which later frames show
  // (a Morris mill took the piece the other side then moved onto, or one in its way).
  constexpr size_t kTurnDepth = 6;
  for (size_t r = 0; r < readings.size(); ++r) {
    const Evidence& ev = *moves[readings[r].last].evidence;
    const bool turn = r > 0 && r <= kTurnDepth && !avoid_end && options_.inference.two_moves;
    if (r > 0 && ev.alternatives.empty() && !turn) continue;
    Position& base = *history_[static_cast<size_t>(readings[r].base)];
    std::vector<PathFit> others;
    if (r == 0) {
      // The newest reading may also have been a close second: the frame now seen
      // outweighs a doubtful reading or two.
      others = readings_within(base, frame_of(ev), ev.fit + kRevisionMargin, options_.inference);
    } else {
      for (const std::string& names : ev.alternatives) {
        std::vector<int> path;
        Position* p = &base;
        std::istringstream words(names);
        for (std::string n; words >> n && p;) {
          int i = p->find(n);
          if (i < 0) {
            p = nullptr;
            break;
          }
          path.push_back(i);
          p = p->successor(static_cast<size_t>(i)).next.get();
        }
        if (p && !path.empty()) others.push_back({path, ev.fit});
      }
      if (turn)
        for (PathFit& o : readings_within(base, frame_of(ev), ev.fit, options_.inference))
          if (static_cast<int>(o.path.size()) != ev.plies) others.push_back(std::move(o));
    }
    std::vector<std::string> original;
    for (int k = readings[r].base; k <= static_cast<int>(readings[r].last); ++k)
      original.push_back(moves[static_cast<size_t>(k)].move.notation);
    // Choices that fit the reading's frame alike may read the later frames and this
    // one at different costs (an air force under a stack or on a square misread as
    // another piece: from under the stack the frame now seen is two moves, from the
    // square one): the cheapest whole reading is tried first.
    if (others.size() > 1) {
      const InferenceOptions& io = options_.inference;
      auto whole_cost = [&](const PathFit& choice) {
        Position* p = &base;
        double cost = choice.fit + (choice.path.size() > 1 ? io.two_move_prior : 0);
        p = end_of(p, choice.path);
        for (size_t q = r; q-- > 0;) {
          Verdict v = read_frame(*p, frame_of(*moves[readings[q].last].evidence), {}, io);
          if (v.kind != Reading::Moves || v.then_under_way) return kInfeasible;
          cost += v.cost;
          p = end_of(p, v.moves);
        }
        Verdict now = read_frame(*p, f, {}, io);
        if (now.kind != Reading::Moves && now.kind != Reading::NoChange) return kInfeasible;
        return cost + now.cost;
      };
      std::vector<std::pair<double, size_t>> order;
      for (size_t k = 0; k < others.size(); ++k) order.push_back({whole_cost(others[k]), k});
      std::stable_sort(order.begin(), order.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first - 1e-9; });
      std::vector<PathFit> sorted;
      for (const auto& o : order) sorted.push_back(others[o.second]);
      others = std::move(sorted);
    }
    for (const PathFit& choice : others) {
      const std::vector<int>& other = choice.path;
      std::vector<std::string> names;
      Position* p = &base;
      bool ends = false;
      for (int i : other) {
        names.push_back(p->successor(static_cast<size_t>(i)).move.notation);
        p = p->successor(static_cast<size_t>(i)).next.get();
        ends = ends || (avoid_end && p->over());
      }
      if (ends || names == original) continue;
      // The later readings, read again from the other choice.
      std::vector<std::vector<int>> later;
      std::vector<std::vector<std::string>> later_alternatives;
      std::vector<std::vector<std::vector<int>>> later_alike;  // as index paths, to ask again
      bool holds = true;
      for (size_t q = r; q-- > 0 && holds;) {
        Verdict v = read_frame(*p, frame_of(*moves[readings[q].last].evidence), {}, options_.inference);
        holds = v.kind == Reading::Moves && !v.then_under_way;
        if (!holds) break;
        later.push_back(v.moves);
        std::vector<std::string> alts;
        for (const std::vector<int>& a : v.alternatives) alts.push_back(path_names(*p, a));
        later_alternatives.push_back(alts);
        later_alike.push_back(v.alternatives);
        for (int i : v.moves) {
          p = p->successor(static_cast<size_t>(i)).next.get();
          if (avoid_end && p->over()) holds = false;
        }
      }
      if (!holds) continue;
      Verdict now = read_frame(*p, f, {}, options_.inference);
      if (now.kind != Reading::Moves && now.kind != Reading::NoChange) continue;
      if (beating && (now.then_under_way || std::max(0.0, choice.fit - ev.fit) + now.cost >= beat - 1e-9)) continue;
      if (avoid_end) {
        // Not more moves than the record and the frame's own reading: a shot-down air
        // force and a final capture (two moves, two frames) are not to be read as four
        // moves (a flight, a strike on it, another flight and a step) to avoid the end.
        size_t revised_plies = other.size() + now.moves.size();
        for (const std::vector<int>& l : later) revised_plies += l.size();
        if (revised_plies > moves.size() - static_cast<size_t>(readings[r].base) + frame_plies) continue;
        if (over_along(p, now.moves)) continue;
      }
      // Revise: back to the reading's start, then the other choice and the later readings.
      std::vector<Evidence> kept;
      std::vector<int64_t> times;
      for (size_t q = r + 1; q-- > 0;) {
        Evidence e = *moves[readings[q].last].evidence;
        kept.push_back(std::move(e));
        times.push_back(moves[readings[q].last].t);
      }
      // The revised reading keeps the other candidates (the first choice among them).
      kept[0].alternatives.clear();
      for (const PathFit& o : others)
        if (o.path != other && o.fit <= choice.fit + 1e-9) kept[0].alternatives.push_back(path_names(base, o.path));
      std::string first_choice;
      for (const std::string& n : original) first_choice += (first_choice.empty() ? "" : " ") + n;
      kept[0].alternatives.push_back(first_choice);
      for (size_t q = 1; q < kept.size(); ++q) kept[q].alternatives = later_alternatives[q - 1];
      kept[0].plies = static_cast<int>(other.size());
      for (size_t q = 1; q < kept.size(); ++q) kept[q].plies = static_cast<int>(later[q - 1].size());
      if (now.kind == Reading::NoChange) {
        // The frame shows the position the revised record stands at: where it reads surer
        // than the newest reading's own frame, it is the better evidence of that position
        // (a later rewrite reads it again: an answer to an older question must not bring
        // back the misread this frame refuted).
        Evidence& newest = kept.back();
        for (size_t i = 0; i < newest.conf.size() && i < f.conf.size(); ++i)
          if (f.conf[i] > newest.conf[i]) {
            newest.board.sites[i] = f.board.sites[i];
            newest.conf[i] = f.conf[i];
          }
      }
      Event back = game_event(EventType::Takeback, f.t);
      back.ply = readings[r].base;
      back.score = score_map(rules_->score(base.state()));
      back.fen = rules_->fen(base.state());
      back.extra["revised"] = true;
      emit(back, out);
      commit_moves(other, f.t, "", out, &kept[0], times[0]);
      for (size_t q = 0; q < later.size() && phase_ == Phase::Playing; ++q)
        commit_moves(later[q], f.t, "", out, &kept[q + 1], times[q + 1]);
      {
        // The revised reading's other candidates the camera cannot tell from it (the
        // first choice too, when it was revised only because it would end the game).
        std::vector<std::vector<int>> alike;
        for (const PathFit& o : others)
          if (o.path != other && o.fit <= choice.fit + 1e-9) alike.push_back(o.path);
        if (avoid_end) {
          std::vector<int> first;
          Position* b = &base;
          for (const std::string& n : original) {
            int i = b ? b->find(n) : -1;
            if (i < 0) break;
            first.push_back(i);
            b = b->successor(static_cast<size_t>(i)).next.get();
          }
          if (first.size() == original.size()) alike.push_back(first);
        }
        ask_if_hidden(readings[r].base, other, alike, out);
        // The takeback closed the questions about the later readings too: those their
        // other readings still explain are asked again.
        int later_base = readings[r].base + static_cast<int>(other.size());
        for (size_t q = 0; q < later.size(); ++q) {
          ask_if_hidden(later_base, later[q], later_alike[q], out);
          later_base += static_cast<int>(later[q].size());
        }
      }
      if (phase_ == Phase::Playing && history_.back().get() == p) act_on(now, f.t, &f, out);
      return true;
    }
  }
  revision_failed_key_ = key;
  return false;
}

// ---------------------------------------------------------------- questions

void Referee::follow_lines(std::vector<QuestionLine>& lines, const Frame& f) const {
  constexpr size_t kMaxLines = 16;  // readings kept per question; the camera tells most apart within a move or two
  std::vector<QuestionLine> next;
  std::vector<std::string> fens;
  auto keep = [&](std::shared_ptr<Position> p, const std::string& candidate) {
    std::string fen = rules_->fen(p->state());
    if (next.size() >= kMaxLines || std::find(fens.begin(), fens.end(), fen) != fens.end()) return;
    fens.push_back(std::move(fen));
    next.push_back({std::move(p), candidate});
  };
  for (QuestionLine& line : lines) {
    Verdict v = read_frame(*line.position, f, {}, options_.inference);
    if (v.kind == Reading::NoChange || v.kind == Reading::UnderWay) {
      keep(line.position, line.candidate);
      continue;
    }
    if (v.kind != Reading::Moves || v.then_under_way) continue;
    // Every reading of the frame from this line (the hidden choices branch again).
    std::vector<std::vector<int>> readings = v.alternatives;
    readings.insert(readings.begin(), v.moves);
    for (const std::vector<int>& path : readings) {
      std::shared_ptr<Position> p = line.position;
      for (int i : path) p = p->successor(static_cast<size_t>(i)).next;
      keep(p, line.candidate);
    }
    line.position->forget_successors();
  }
  lines = std::move(next);
}

void Referee::ask_if_hidden(int base, const std::vector<int>& pick, const std::vector<std::vector<int>>& alternatives,
                            std::vector<Event>& out, const std::vector<std::vector<int>>& unseen) {
  if ((alternatives.empty() && unseen.empty()) || base < 0 || pick.empty()) return;
  const size_t end_ply = static_cast<size_t>(base) + pick.size();
  if (end_ply >= history_.size()) return;  // the reading did not play through
  Position& from = *history_[static_cast<size_t>(base)];
  const Observation& looks = history_[end_ply]->seen();
  Question q;
  q.base = base;
  q.ply = static_cast<int>(end_ply);
  q.candidates.push_back(path_names(from, pick));
  std::vector<QuestionLine> lines;
  std::vector<int> squares;
  auto touch = [&](const std::vector<int>& path) {
    Position* p = &from;
    for (int i : path) {
      const Successor& s = p->successor(static_cast<size_t>(i));
      for (int site : {s.move.from, s.move.to})
        if (site >= 0) squares.push_back(site);
      p = s.next.get();
    }
  };
  touch(pick);
  const std::string reached = rules_->fen(history_[end_ply]->state());
  size_t same = 0;  // candidates reaching the very position the record does
  for (const std::vector<int>& alt : alternatives) {
    // Keep the other line's position alive (the record's positions forget their successors).
    Position* p = &from;
    std::shared_ptr<Position> end;
    for (int i : alt) {
      end = p->successor(static_cast<size_t>(i)).next;
      p = end.get();
    }
    if (!end || !(end->seen() == looks)) continue;  // a frame shows the difference at once
    const std::string candidate = path_names(from, alt);
    if (std::find(q.candidates.begin(), q.candidates.end(), candidate) != q.candidates.end()) continue;
    if (rules_->fen(end->state()) == reached) {
      q.candidates.push_back(candidate);
      touch(alt);
      ++same;
      continue;
    }
    // The frames read since the reading (a question asked on revising it), along every
    // reading of each (a hidden choice after a hidden choice).
    std::vector<QuestionLine> followed{{end, candidate}};
    for (size_t k = end_ply; k < game().moves.size() && !followed.empty(); ++k)
      if (const auto& ev = game().moves[k].evidence) {
        Frame g;
        g.t = last_t_;
        g.board = ev->board;
        g.conf = ev->conf;
        follow_lines(followed, g);
      }
    if (followed.empty()) continue;
    q.candidates.push_back(candidate);
    touch(alt);
    lines.insert(lines.end(), followed.begin(), followed.end());
  }
  // Moves reaching the same position: every later frame reads from them as from the
  // record, so they need no line of their own.
  for (const std::vector<int>& alt : unseen) {
    Position* p = end_of(&from, alt);
    const std::string candidate = path_names(from, alt);
    if (rules_->fen(p->state()) != reached ||
        std::find(q.candidates.begin(), q.candidates.end(), candidate) != q.candidates.end())
      continue;
    q.candidates.push_back(candidate);
    touch(alt);
    ++same;
  }
  if (lines.empty() && same == 0) return;
  std::sort(squares.begin(), squares.end());
  squares.erase(std::unique(squares.begin(), squares.end()), squares.end());
  Event e = game_event(EventType::Unclear, out.empty() ? last_t_ : out.back().t);
  e.ply = q.ply;
  e.squares = names(squares);
  e.reason = lines.empty() ? "no frame showed the position between these moves, which reach the same position: " +
                                 join(q.candidates, " / ") + " (confirm the ones played)"
                           : "the camera cannot tell these moves apart: " + join(q.candidates, " / ") +
                                 " (confirm the one played)";
  e.extra["ask"] = true;
  if (lines.empty()) e.extra["same_position"] = true;
  e.extra["base"] = q.base;
  e.extra["candidates"] = q.candidates;
  emit(e, out);
  question_lines_.back() = std::move(lines);
}

void Referee::follow_questions(const Frame& f, std::vector<Event>& out) {
  const std::string record_fen = rules_->fen(state());
  for (size_t q = questions_.size(); q-- > 0;) {
    std::vector<QuestionLine>& lines = question_lines_[q];
    if (lines.empty()) continue;  // resumed from the journal: the operator answers
    // A line that has come back to the record's own position (an air force landed
    // elsewhere, then on the square the record has it fly to) sees every later frame
    // as the record does: it is no longer followed, and once the other lines are told
    // apart the question stays for the operator (no frame will tell), never answered
    // by the board with the record's pick.
    std::vector<QuestionLine> kept, merged;
    for (QuestionLine& line : lines) {
      if (!line.merged && rules_->fen(line.position->state()) == record_fen) line.merged = true;
      (line.merged ? merged : kept).push_back(line);
    }
    follow_lines(kept, f);
    if (!kept.empty()) {
      kept.insert(kept.end(), merged.begin(), merged.end());
      lines = std::move(kept);
      continue;
    }
    if (!merged.empty() || record_alone_in_question(questions_[q])) {
      // The lines told apart, the record's own position stands; which moves reached it
      // no frame tells.
      lines.clear();
      questions_[q].same_position = true;
      continue;
    }
    Event e = game_event(EventType::Answered, f.t);
    e.ply = questions_[q].ply;
    e.notation = questions_[q].candidates.front();
    e.extra["by"] = "board";
    emit(e, out);
  }
}

bool Referee::answer_by_frame(const Frame& f, std::vector<Event>& out) {
  for (size_t q = 0; q < questions_.size(); ++q) {
    const Question question = questions_[q];
    std::vector<std::string> reading;  // other candidates whose line reads the frame
    for (const QuestionLine& line : question_lines_[q]) {
      if (line.merged || line.candidate == question.candidates.front() ||
          std::find(reading.begin(), reading.end(), line.candidate) != reading.end())
        continue;
      const Reading r = read_frame(*line.position, f, {}, options_.inference).kind;
      if (r == Reading::Moves || r == Reading::NoChange || r == Reading::UnderWay) reading.push_back(line.candidate);
    }
    for (const std::string& candidate : reading) {
      const std::optional<std::vector<int>> path = question_path(question, candidate);
      if (!path || !rewrite(question.base, question.ply - 1, *path, f.t, "", out, &f)) continue;
      Event e = game_event(EventType::Answered, f.t);
      e.ply = question.ply;
      e.notation = candidate;
      e.extra["by"] = "board";
      emit(e, out);
      // The other candidates are still a question if every frame since reads from them
      // (a line may have been dropped to keep their number down); the frame itself
      // follows when it is played. The record's own candidate too: the frame refuted it
      // only along the record's first readings of the later frames, and another hidden
      // choice of theirs (a newer question's) may read on from it.
      std::vector<std::vector<int>> alike;
      for (size_t c = 0; c < question.candidates.size(); ++c)
        if (question.candidates[c] != candidate)
          if (auto other = question_path(question, question.candidates[c])) alike.push_back(*other);
      ask_if_hidden(question.base, *path, alike, out);
      if (phase_ != Phase::Playing) return true;
      wait_or_settle(read_frame(*history_.back(), f, earlier_boards(), options_.inference, last_destination()), f, out);
      return true;
    }
  }
  return false;
}

void Referee::answer_question(size_t q, const std::string& path, int64_t t, std::vector<Event>& out) {
  const Question question = questions_[q];
  if (path != question.candidates.front()) {
    std::optional<std::vector<int>> other = question_path(question, path);
    if (!other)
      throw InputError("confirm: '" + path + "' is not one of the moves asked about at ply " +
                       std::to_string(question.ply) + " (" + join(question.candidates, " / ") + ")");
    if (!rewrite(question.base, question.ply - 1, *other, t, "operator", out))
      throw InputError("confirm: the boards seen since ply " + std::to_string(question.ply) + " do not follow from '" +
                       path + "'");
  }
  Event e = game_event(EventType::Answered, t);
  e.ply = question.ply;
  e.notation = path;
  e.extra["by"] = "operator";
  emit(e, out);
}

bool Referee::record_alone_in_question(const Question& q) const {
  if (q.ply >= static_cast<int>(history_.size())) return false;
  const std::string reached = rules_->fen(history_[static_cast<size_t>(q.ply)]->state());
  for (size_t c = 1; c < q.candidates.size(); ++c) {
    Position* p = history_[static_cast<size_t>(q.base)].get();
    std::istringstream words(q.candidates[c]);
    for (std::string n; words >> n && p;) {
      int i = p->find(n);
      p = i < 0 ? nullptr : p->successor(static_cast<size_t>(i)).next.get();
    }
    if (p && rules_->fen(p->state()) == reached) return true;
  }
  return false;
}

std::optional<std::vector<int>> Referee::question_path(const Question& q, const std::string& path) const {
  if (path.empty()) return std::nullopt;
  Position* p = history_[static_cast<size_t>(q.base)].get();
  std::vector<int> indices;
  std::istringstream words(path);
  for (std::string n; words >> n;) {
    int i = p->find(n);
    if (i < 0) return std::nullopt;
    indices.push_back(i);
    p = p->successor(static_cast<size_t>(i)).next.get();
  }
  if (indices.empty()) return std::nullopt;
  // A candidate, or a move the camera cannot tell from one that leads to the same position.
  const std::string fen = rules_->fen(p->state());
  for (const std::string& candidate : q.candidates) {
    if (candidate == path) return indices;
    Position* c = history_[static_cast<size_t>(q.base)].get();
    std::istringstream cw(candidate);
    for (std::string n; cw >> n && c;) {
      int i = c->find(n);
      c = i < 0 ? nullptr : c->successor(static_cast<size_t>(i)).next.get();
    }
    if (c && rules_->fen(c->state()) == fen) return indices;
  }
  return std::nullopt;
}

std::optional<size_t> Referee::question_for(const nlohmann::json& command) const {
  if (questions_.empty()) return std::nullopt;
  const std::string name = command.value("command", "");
  const auto move_it = command.find("move");
  const std::string move = move_it != command.end() && move_it->is_string() ? move_it->get<std::string>() : "";
  if (auto p = command.find("ply"); p != command.end()) {
    if (!p->is_number_integer()) throw InputError(name + ": \"ply\" must be a whole number");
    for (size_t q = 0; q < questions_.size(); ++q)
      if (questions_[q].ply == p->get<int>()) {
        if (!move.empty() && !question_path(questions_[q], move))
          throw InputError(name + ": '" + move + "' is not one of the moves asked about at ply " +
                           std::to_string(questions_[q].ply) + " (" + join(questions_[q].candidates, " / ") + ")");
        return q;
      }
    throw InputError(name + ": no open question at ply " + std::to_string(p->get<int>()));
  }
  for (size_t q = questions_.size(); q-- > 0;)
    if (question_path(questions_[q], move)) return q;
  if (move.empty() && name == "confirm" && !pending_) return questions_.size() - 1;
  return std::nullopt;
}

bool Referee::rewrite(int base, int last, const std::vector<int>& other, int64_t t, const std::string& by,
                      std::vector<Event>& out, const Frame* then) {
  const std::vector<PlayedMove>& moves = game().moves;
  struct Step {
    size_t first, last;  // moves of the record the step stands for
    const Evidence* reading;  // null: replay the move by its notation
  };
  std::vector<Step> steps;
  for (size_t i = static_cast<size_t>(last) + 1; i < moves.size();) {
    size_t j = i;
    while (j < moves.size() && !moves[j].evidence) ++j;
    if (j < moves.size() && j + 1 == i + static_cast<size_t>(moves[j].evidence->plies)) {
      steps.push_back({i, j, &*moves[j].evidence});
      i = j + 1;
    } else {
      steps.push_back({i, i, nullptr});
      ++i;
    }
  }
  Position* start = end_of(history_[static_cast<size_t>(base)].get(), other);
  // Each later step read again from the other choice: among the readings of its
  // frame (every one that fits as well, the hidden choices included), one after
  // which every later frame still reads, searched depth first. The record's own
  // moves for a step come first where they still read (an earlier answer, a
  // right guess), and an operator's move stands if it is legal.
  std::vector<std::vector<int>> paths(steps.size());
  std::vector<std::vector<std::vector<int>>> readings(steps.size());  // every fitting reading of each step
  // Positions tried, at most: a wrong hidden choice shows within a few frames, and
  // every position tried keeps its successors until the record moves on.
  int budget = 2 * static_cast<int>(steps.size()) + 32;
  std::function<bool(size_t, Position*)> search = [&](size_t k, Position* p) -> bool {
    if (k == steps.size()) {
      if (!then) return true;
      const Reading r = read_frame(*p, *then, {}, options_.inference).kind;
      return r == Reading::Moves || r == Reading::NoChange || r == Reading::UnderWay;
    }
    if (--budget < 0) return false;
    const Step& step = steps[k];
    std::vector<int> recorded;
    Position* q = p;
    for (size_t m = step.first; m <= step.last && q; ++m) {
      int i = q->find(moves[m].move.notation);
      if (i < 0) {
        q = nullptr;
        break;
      }
      recorded.push_back(i);
      q = q->successor(static_cast<size_t>(i)).next.get();
    }
    std::vector<std::vector<int>> options;
    if (step.reading) {
      Frame g;
      g.t = t;
      g.board = step.reading->board;
      g.conf = step.reading->conf;
      Verdict v = read_frame(*p, g, {}, options_.inference);
      std::vector<std::vector<int>> all;
      if (v.kind == Reading::Moves && !v.then_under_way) {
        all.push_back(v.moves);
        all.insert(all.end(), v.alternatives.begin(), v.alternatives.end());
      }
      readings[k] = all;
      const bool operator_move = moves[step.first].by_operator;
      // A move the camera cannot see (a navy leaving the rider it carried for a stack
      // whose rider stays on top) reads as no change; the recorded move stands if the
      // frame shows the board as it leaves it.
      const bool unseen_move =
          q && v.kind == Reading::NoChange && read_frame(*q, g, {}, options_.inference).kind == Reading::NoChange;
      // The record's moves also stand where a revision read the frame as a close
      // second (a later frame told): their board still reads the frame as well.
      const bool record_reads =
          q && (std::find(all.begin(), all.end(), recorded) != all.end() ||
                board_fit(g, q->seen(), options_.inference) <= step.reading->fit + kRevisionMargin);
      if (q && (operator_move || unseen_move || record_reads)) options.push_back(recorded);
      for (const std::vector<int>& a : all)
        if (!(q && a == recorded)) options.push_back(a);
    } else if (q) {
      options.push_back(recorded);
    }
    for (const std::vector<int>& option : options) {
      Position* r = p;
      bool ok = true;
      for (int i : option) {
        if (r->over()) {
          ok = false;
          break;
        }
        r = r->successor(static_cast<size_t>(i)).next.get();
      }
      if (!ok) continue;
      paths[k] = option;
      if (search(k + 1, r)) return true;
    }
    return false;
  };
  if (!search(0, start)) return false;
  std::vector<std::optional<Evidence>> evidence;
  std::vector<int64_t> times;
  std::vector<std::string> bys;
  std::vector<int> step_base;  // the ply before each step in the rewritten record
  int ply_before = base + static_cast<int>(other.size());
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& step = steps[k];
    evidence.push_back(step.reading ? std::optional<Evidence>(*step.reading) : std::nullopt);
    times.push_back(moves[step.first].t);
    bys.push_back(moves[step.first].by_operator ? "operator" : "");
    step_base.push_back(ply_before);
    ply_before += static_cast<int>(paths[k].size());
  }
  std::optional<Evidence> first = moves[static_cast<size_t>(last)].evidence;
  const int64_t first_t = moves[static_cast<size_t>(base)].t;
  Position& from = *history_[static_cast<size_t>(base)];
  Event back = game_event(EventType::Takeback, t);
  back.ply = base;
  back.score = score_map(rules_->score(from.state()));
  back.fen = rules_->fen(from.state());
  back.extra["revised"] = true;
  if (!by.empty()) back.extra["by"] = by;
  emit(back, out);
  if (first) {
    first->alternatives.clear();
    first->plies = static_cast<int>(other.size());
  }
  commit_moves(other, t, by, out, first ? &*first : nullptr, first_t);
  for (size_t k = 0; k < steps.size() && phase_ == Phase::Playing; ++k) {
    if (evidence[k]) {
      evidence[k]->alternatives.clear();
      Position& at = *history_.back();
      for (const std::vector<int>& a : readings[k])
        if (a != paths[k]) evidence[k]->alternatives.push_back(path_names(at, a));
      evidence[k]->plies = static_cast<int>(paths[k].size());
    }
    commit_moves(paths[k], t, bys[k], out, evidence[k] ? &*evidence[k] : nullptr, times[k]);
  }
  // Later readings that other hidden choices still explain are asked again (also when
  // the rewritten record ends the game: the end may hang on them).
  for (size_t k = 0; k < steps.size(); ++k) {
    if (!evidence[k] || bys[k] == "operator") continue;
    std::vector<std::vector<int>> alike;
    for (const std::vector<int>& a : readings[k])
      if (a != paths[k]) alike.push_back(a);
    ask_if_hidden(step_base[k], paths[k], alike, out);
  }
  return true;
}

// ---------------------------------------------------------------- ends

void Referee::check_outcome(int64_t t, std::vector<Event>& out) {
  if (phase_ != Phase::Playing) return;
  if (history_.back()->over()) end_game(t, history_.back()->outcome(), out);
}

Outcome Referee::points_decide(const std::string& why) const {
  Score s = rules_->score(state());
  std::string detail = why + ": points decide (" + std::to_string(s[0]) + "-" + std::to_string(s[1]) + ")";
  if (s[0] == s[1]) return Outcome::draw(detail);
  return Outcome::win(s[0] > s[1] ? Side::First : Side::Second, detail);
}

Outcome Referee::time_out(Side fallen, const std::string& why) const {
  return rules_->keeps_score() ? points_decide(why) : Outcome::win(opponent(fallen), why);
}

void Referee::check_time(int64_t t, std::vector<Event>& out) {
  if (phase_ != Phase::Playing || !clock_.started()) return;
  const std::optional<int64_t> up = clock_.time_up_at();
  if (!up || *up > t) return;
  // The game ended when time ran out, however late the input that tells it comes;
  // nothing read since counts.
  const int64_t when = std::max(*up, last_event_t_);
  if (clock_.game_limit_reached(when)) {
    end_game(when, points_decide("the game's " + minutes(clock_.options().game_limit_ms) + " are up"), out);
    return;
  }
  if (auto fallen = clock_.flag_fallen(when))
    end_game(when, time_out(*fallen, rules_->side_name(*fallen) + "'s time ran out"), out);
}

void Referee::end_game(int64_t t, const Outcome& o, std::vector<Event>& out) {
  Event e = game_event(EventType::GameOver, t);
  e.result = o.over() ? o.result() : "*";
  e.reason = o.reason;
  e.score = score_map(rules_->score(state()));
  e.fen = rules_->fen(state());
  e.extra["game_no"] = game().game_no;
  e.extra["winner"] = o.status == Outcome::Status::Win ? nlohmann::json(rules_->side_name(o.winner)) : nullptr;
  // An end that decides the whole match (Cờ toán: a 0 captured), told by the rules.
  if (o.status == Outcome::Status::Win && history_.back()->over() && rules_->decides_match(state()))
    e.extra["absolute"] = true;
  if (clock_.options().any()) e.extra["clock"] = clock_json(t);
  emit(e, out);
  follow_up(t, out);
}

void Referee::follow_up(int64_t t, std::vector<Event>& out) {
  if (phase_ != Phase::GameOver || options_.match_games <= 1) return;
  // The rules say how the match stands (Cờ toán: every game is played unless a 0
  // is taken, the loser moves first next); the referee only keeps the games.
  std::vector<MatchGame> played;
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = match_first_; i < games_.size(); ++i) {
    const GameSummary& g = games_[i];
    if (!g.over) continue;
    MatchGame m;
    if (g.result == "1-0") m.winner = Side::First;
    if (g.result == "0-1") m.winner = Side::Second;
    m.score = g.score;
    m.decides_match = g.absolute && m.winner.has_value();
    m.first = rules_->side_to_move(rules_->from_fen(g.start_fen));
    played.push_back(m);
    list.push_back({{"game_no", g.game_no}, {"result", g.result}, {"reason", g.reason}, {"score", score_map(g.score)},
                    {"absolute", g.absolute}, {"first", rules_->side_name(m.first)}});
  }
  const MatchStanding standing = rules_->match_standing(options_.match_games, played);
  if (standing.outcome.over()) {
    std::array<int, 2> wins{0, 0};
    for (const MatchGame& m : played)
      if (m.winner) ++wins[index_of(*m.winner)];
    Event e = game_event(EventType::MatchOver, t);
    e.result = standing.outcome.result();
    e.reason = standing.outcome.reason;
    e.score = score_map({wins[0], wins[1]});
    e.extra["games"] = list;
    emit(e, out);
    return;
  }
  Event e = game_event(EventType::NewGame, t);
  if (!options_.start_fen.empty()) e.fen = options_.start_fen;
  else if (standing.next_first != rules_->side_to_move(rules_->start()))
    e.fen = rules_->fen(rules_->start_with_first(standing.next_first));
  e.extra["game_no"] = game().game_no + 1;
  e.extra["first"] = rules_->side_name(standing.next_first);
  emit(e, out);
}

// ---------------------------------------------------------------- operator commands

std::vector<Event> Referee::on_command(const nlohmann::json& command, int64_t t, int64_t line) {
  return run_input(line, [&](std::vector<Event>& out) { command_input(command, t, out); });
}

void Referee::command_input(const nlohmann::json& command, int64_t t, std::vector<Event>& out) {
  if (!command.is_object() || !command.contains("command") || !command["command"].is_string())
    throw InputError("operator command: expected {\"command\": name, ...}");
  if (t < last_t_)
    throw InputError("operator command at t=" + std::to_string(t) + " is earlier than the previous input's " +
                     std::to_string(last_t_));
  const std::string name = command["command"].get<std::string>();
  auto text = [&](const char* key, bool required) -> std::string {
    auto it = command.find(key);
    if (it == command.end() || it->is_null()) {
      if (required) throw InputError(name + ": \"" + key + "\" is required");
      return "";
    }
    if (!it->is_string()) throw InputError(name + ": \"" + key + "\" must be a string");
    return it->get<std::string>();
  };
  auto playing = [&]() {
    if (phase_ != Phase::Playing) throw InputError(name + ": no game is being played (" + to_string(phase_) + ")");
  };
  last_t_ = t;
  if (phase_ == Phase::Playing) check_time(t, out);

  if (name == "new_game") {
    std::string fen = text("fen", false);
    if (!fen.empty()) rules_->from_fen(fen);  // throws for a bad FEN before anything changes
    if (phase_ == Phase::Playing) end_game(t, Outcome{Outcome::Status::Ongoing, Side::First, "abandoned by the operator"}, out);
    if (phase_ == Phase::Setup || phase_ == Phase::GameOver || phase_ == Phase::MatchOver) {
      Event e = game_event(EventType::NewGame, t);
      e.fen = fen.empty() ? options_.start_fen : fen;
      e.extra["game_no"] = game().game_no + 1;
      e.extra["by"] = "operator";
      emit(e, out);
    }
  } else if (name == "start") {
    if (phase_ != Phase::Setup) throw InputError("start: the game has already started (" + std::string(to_string(phase_)) + ")");
    Event e = game_event(EventType::SetupOk, t);
    if (options_.free_setup) {
      FreeSetup arranged = rules_->free_setup(last_board_, rules_->side_to_move(setup_state_));
      if (!arranged.ok()) {
        std::string why;
        for (const IllegalChange& p : arranged.problems) why += (why.empty() ? "" : "; ") + p.reason;
        throw InputError("start: the arrangement on the board is not a valid setup: " + why);
      }
      e.fen = rules_->fen(arranged.state);
      e.extra["free_setup"] = true;
    } else {
      e.fen = rules_->fen(setup_state_);
    }
    e.extra["by"] = "operator";
    emit(e, out);
  } else if ((name == "confirm" || name == "correct") && !questions_.empty() && question_for(command)) {
    const size_t q = *question_for(command);
    std::string move = text("move", false);
    if (move.empty()) move = questions_[q].candidates.front();
    const uint64_t before = generation_;
    answer_question(q, move, t, out);
    // The answer rewrote the record: the board as it stands now is read from it (it
    // may show a move that only the answered candidate explains, and the camera sends
    // no new frame while the board stands still).
    if (generation_ != before && phase_ == Phase::Playing &&
        last_board_.sites.size() == static_cast<size_t>(rules_->site_count()) &&
        last_conf_.size() == last_board_.sites.size()) {
      Frame now;
      now.t = t;
      now.board = last_board_;
      now.conf = last_conf_;
      read_playing(now, out);
    }
  } else if (name == "confirm") {
    playing();
    const std::string move = text("move", false);
    if (!move.empty()) {
      Position& pos = *history_.back();
      Move m = rules_->parse_move(pos.state(), move);  // InputError / IllegalMoveError say why
      int index = pos.find(m.notation);
      if (index < 0) throw InputError("confirm: '" + move + "' is not a legal move here");
      pending_.reset();
      commit_moves({index}, t, "operator", out);
    } else if (pending_) {
      Pending p = *pending_;
      pending_.reset();
      act_on(p.verdict, std::max(p.since, last_event_t_), &p.frame, out);
    } else if (!unclear_key_.empty() && cached_generation_ == generation_ && !last_verdict_.suggestions.empty()) {
      int index = history_.back()->find(last_verdict_.suggestions.front());
      commit_moves({index}, t, "operator", out);
    } else {
      throw InputError("confirm: the referee is not waiting on a move; name the move to play");
    }
  } else if (name == "correct") {
    if (phase_ != Phase::Playing && phase_ != Phase::GameOver) playing();
    if (ply() == 0) throw InputError("correct: no move has been played yet");
    const std::string move = text("move", true);
    Position& before = *history_[history_.size() - 2];
    Move m = rules_->parse_move(before.state(), move);
    int index = before.find(m.notation);
    if (index < 0) throw InputError("correct: '" + move + "' is not a legal move before the last one");
    Event back = game_event(EventType::Takeback, t);
    back.ply = ply() - 1;
    back.score = score_map(rules_->score(before.state()));
    back.fen = rules_->fen(before.state());
    back.extra["by"] = "operator";
    emit(back, out);
    commit_moves({history_.back()->find(m.notation)}, t, "operator", out);
  } else if (name == "undo") {
    if (phase_ != Phase::Playing && phase_ != Phase::GameOver) playing();
    if (ply() == 0) throw InputError("undo: no move has been played yet");
    Event back = game_event(EventType::Takeback, t);
    back.ply = ply() - 1;
    back.score = score_map(rules_->score(history_[history_.size() - 2]->state()));
    back.fen = rules_->fen(history_[history_.size() - 2]->state());
    back.extra["by"] = "operator";
    emit(back, out);
  } else if (name == "offer_draw") {
    playing();
    Side s = side_of(text("side", true), "offer_draw");
    const int limit = draw_offer_limit();
    if (open_offer_ && *open_offer_ == s) throw InputError("offer_draw: " + rules_->side_name(s) + "'s offer is still open");
    if (limit > 0 && draw_offers_[index_of(s)] >= limit)
      throw InputError("offer_draw: " + rules_->side_name(s) + " has made its " + std::to_string(limit) +
                       " draw offers this game");
    Event e = game_event(EventType::DrawOffer, t);
    e.side = rules_->side_name(s);
    e.extra["offers_left"] = limit > 0 ? limit - draw_offers_[index_of(s)] - 1 : -1;
    emit(e, out);
  } else if (name == "accept_draw" || name == "decline_draw") {
    playing();
    Side s = side_of(text("side", true), name.c_str());
    if (!open_offer_ || *open_offer_ != opponent(s))
      throw InputError(name + ": " + rules_->side_name(opponent(s)) + " has no draw offer open");
    if (name == "accept_draw") {
      end_game(t, Outcome::draw("agreed draw"), out);
    } else {
      Event e = game_event(EventType::DrawDeclined, t);
      e.side = rules_->side_name(s);
      emit(e, out);
    }
  } else if (name == "resign") {
    playing();
    Side s = side_of(text("side", true), "resign");
    end_game(t, Outcome::win(opponent(s), rules_->side_name(s) + " resigned"), out);
  } else if (name == "flag") {
    // A hall on a physical clock, or the arbiter's own ruling: ends the game as the
    // referee's clock would.
    playing();
    Side s = side_of(text("side", true), "flag");
    end_game(t, time_out(s, rules_->side_name(s) + "'s time ran out (flag fall declared by the operator)"), out);
  } else if (name == "declare") {
    playing();
    const std::string result = text("result", true);
    const std::string reason = text("reason", true);
    Outcome o;
    if (result == "1-0") o = Outcome::win(Side::First, reason);
    else if (result == "0-1") o = Outcome::win(Side::Second, reason);
    else if (result == "1/2-1/2") o = Outcome::draw(reason);
    else throw InputError("declare: result must be 1-0, 0-1 or 1/2-1/2, got '" + result + "'");
    end_game(t, o, out);
  } else if (name == "set_clock") {
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [key, value] : command.items()) {
      if (key == "command") continue;
      side_of(key, "set_clock");
      if (!value.is_number_integer() || value.get<int64_t>() < 0)
        throw InputError("set_clock: " + key + " must be milliseconds (a whole number >= 0), got " + value.dump());
      values[key] = value;
    }
    if (values.empty()) throw InputError("set_clock: give each side's milliseconds, e.g. {\"" +
                                         rules_->side_name(Side::First) + "\": 300000}");
    Event e = game_event(EventType::Clock, t);
    e.extra["action"] = "set";
    e.extra["clock"] = values;
    emit(e, out);
  } else if (name == "pause" || name == "resume") {
    playing();
    if ((name == "pause") == clock_.paused())
      throw InputError(name + ": the clock is already " + (clock_.paused() ? "paused" : "running"));
    Event e = game_event(EventType::Clock, t);
    e.extra["action"] = name;
    emit(e, out);
  } else {
    throw InputError("unknown operator command '" + name +
                     "' (new_game, start, confirm, correct, undo, offer_draw, accept_draw, decline_draw, resign, "
                     "flag, declare, set_clock, pause, resume)");
  }
}

// ---------------------------------------------------------------- the screen

std::string Referee::board_key(const Observation& board) const {
  std::string key;
  for (const Token& t : board.sites) {
    key += t.side ? t.side : '.';
    key += t.kind ? t.kind : '.';
  }
  return key;
}

nlohmann::json Referee::state_json() const {
  nlohmann::json j;
  j["game"] = rules_->id();
  j["fen"] = rules_->fen(state());
  j["score"] = score_map(rules_->score(state()));
  nlohmann::json moves = nlohmann::json::array();
  for (const PlayedMove& m : game().moves) moves.push_back(m.move.notation);
  j["moves"] = moves;
  j["ply"] = ply();
  j["phase"] = to_string(phase_);
  j["to_move"] = rules_->side_name(rules_->side_to_move(state()));
  j["game_no"] = game().game_no;
  j["result"] = game().result;
  j["reason"] = game().reason;
  j["clock"] = clock_json(last_t_);
  j["draw_offers"] = score_map({draw_offers_[0], draw_offers_[1]});
  j["open_offer"] = open_offer_ ? nlohmann::json(rules_->side_name(*open_offer_)) : nlohmann::json(nullptr);
  j["illegal"] = !illegal_key_.empty();
  j["unclear"] = !unclear_key_.empty();
  nlohmann::json questions = nlohmann::json::array();
  for (const Question& q : questions_) questions.push_back({{"ply", q.ply}, {"candidates", q.candidates}});
  j["questions"] = questions;
  nlohmann::json games = nlohmann::json::array();
  for (const GameSummary& g : games_)
    games.push_back({{"game_no", g.game_no}, {"result", g.result}, {"reason", g.reason}, {"score", score_map(g.score)},
                     {"plies", g.moves.size()}});
  j["games"] = games;
  return j;
}

}  // namespace sb::arbiter
