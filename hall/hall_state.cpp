#include "hall/hall_state.h"

#include <algorithm>
#include <ctime>
#include <iostream>

#include "arbiter/frame.h"
#include "arbiter/record.h"
#include "engines/common/errors.h"
#include "engines/draughts/pdn.h"
#include "engines/registry.h"
#include "hall/json_bridge.h"

namespace sb::hall {

namespace {

bool is_draughts(const std::string& game) { return game == "brazilian" || game == "international" || game == "english"; }

std::string today() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

// Points for the first player of a finished game.
double first_points(const std::string& result) {
  if (result == "1-0") return 1;
  if (result == "0-1") return 0;
  return 0.5;
}

}  // namespace

HallState::HallState(HallOptions options, Pairings pairings)
    : options_(std::move(options)), pairings_(std::move(pairings)) {
  check_event_id(options_.event);
  for (const auto& [number, p] : pairings_.boards) {
    Board& b = board(number);
    set_game(b, p.game, p.options);
  }
}

void HallState::set_listener(std::function<void(const AcceptedEvent&)> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listener_ = std::move(listener);
}

HallState::Board& HallState::board(int number) {
  Board& b = boards_[number];
  b.number = number;
  return b;
}

void HallState::error(Board* b, const std::string& text) {
  if (b) {
    ++b->errors;
    b->last_error = text;
  }
  errors_.push_back(text);
  while (errors_.size() > options_.max_errors) errors_.pop_front();
  std::cerr << "hall: " << text << "\n";
}

void HallState::set_game(Board& b, const std::string& game, const nlohmann::json& rules) {
  if (b.fold && b.game == game && b.rules_options == rules) return;
  if (b.fold && !b.fold->games().empty() && b.next_seq > 1) {
    // The game of a stream is fixed; a state that names another one is wrong.
    if (b.game != game) error(&b, "board " + std::to_string(b.number) + ": the referee now says " + game + " after " + b.game);
    return;
  }
  try {
    b.fold = std::make_unique<GameFold>(std::shared_ptr<const Rules>(make_rules(game, from_nlohmann(rules))));
    b.game = game;
    b.rules_options = rules;
  } catch (const InputError& e) {
    error(&b, "board " + std::to_string(b.number) + ": cannot play '" + game + "': " + e.what());
  }
}

bool HallState::accept_stream(Board& b, const std::string& stream, std::vector<AcceptedEvent>*) {
  if (b.stream == stream) return true;
  if (!b.stream.empty() && !stream_newer(stream, b.stream)) {
    ++counters_.stale;
    return false;
  }
  // A newer run of this board's referee: it starts from nothing.
  const bool had = !b.stream.empty();
  b.stream = stream;
  b.next_seq = 1;
  b.known_seq = 0;
  b.waiting.clear();
  b.events.clear();
  b.gap_since_us = 0;
  b.next_request_us = 0;
  b.backoff = options_.gap_grace;
  b.state = nullptr;
  if (b.fold) {
    const std::string game = b.game;
    const nlohmann::json rules = b.rules_options;
    b.fold.reset();
    set_game(b, game, rules);
  }
  if (had && listener_) listener_({b.number, 0, nlohmann::json{{"type", "info"}, {"t", 0}, {"reason", "new stream"}}, true});
  return true;
}

void HallState::offer(Board& b, EventMessage m) {
  b.known_seq = std::max(b.known_seq, m.seq);
  if (m.seq < b.next_seq || b.waiting.count(m.seq)) {
    ++counters_.duplicates;
    return;
  }
  if (b.waiting.size() >= options_.max_waiting) {
    error(&b, "board " + std::to_string(b.number) + ": more than " + std::to_string(options_.max_waiting) +
                  " events wait for a gap; seq " + std::to_string(m.seq) + " dropped (it will be asked for again)");
    return;
  }
  b.waiting.emplace(m.seq, std::move(m));
}

void HallState::drain(Board& b, int64_t now_us) {
  if (!b.fold) return;  // the game is not known yet: the events wait
  for (auto it = b.waiting.begin(); it != b.waiting.end() && it->first == b.next_seq; it = b.waiting.erase(it)) {
    EventMessage& m = it->second;
    try {
      b.fold->apply(m.event);
    } catch (const std::exception& e) {
      ++counters_.refused;
      error(&b, "board " + std::to_string(b.number) + " seq " + std::to_string(m.seq) + ": refused: " + e.what());
    }
    nlohmann::json shown = m.event;
    shown["seq"] = m.seq;
    b.events.push_back(shown);
    ++counters_.accepted;
    if (m.sent_us > 0 && latencies_.size() < options_.max_latency_samples)
      latencies_.push_back(std::max<int64_t>(0, now_us - m.sent_us));
    if (listener_) listener_({b.number, m.seq, m.event, false});
    ++b.next_seq;
  }
  if (b.waiting.empty() && b.known_seq < b.next_seq) {
    b.gap_since_us = 0;
    b.backoff = options_.gap_grace;
  }
}

std::vector<Outgoing> HallState::on_message(const std::string& topic, const std::string& payload, int64_t now_us) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto where = parse_board_topic(options_.event, topic);
  if (!where) return {};
  if (where->kind == TopicKind::Resend) return {};  // another hall's request
  Board* b = nullptr;
  try {
    switch (where->kind) {
      case TopicKind::Events: {
        EventMessage m = parse_event_message(payload, where->board);
        b = &board(where->board);
        if (!accept_stream(*b, m.stream, nullptr)) break;
        offer(*b, std::move(m));
        drain(*b, now_us);
        break;
      }
      case TopicKind::State: {
        StateMessage m = parse_state_message(payload, where->board);
        b = &board(where->board);
        if (!accept_stream(*b, m.stream, nullptr)) break;
        b->state = m.state;
        b->known_seq = std::max(b->known_seq, m.seq);
        set_game(*b, m.state["game"].get<std::string>(), m.state.value("rules", nlohmann::json::object()));
        drain(*b, now_us);
        break;
      }
      case TopicKind::Status: {
        StatusMessage m = parse_status_message(payload, where->board);
        b = &board(where->board);
        if (!m.stream.empty() && !accept_stream(*b, m.stream, nullptr)) break;
        b->status_known = true;
        b->online = m.online;
        b->status_reason = m.reason;
        break;
      }
      case TopicKind::Record: {
        RecordMessage m = parse_record_message(payload, where->board);
        b = &board(where->board);
        if (!accept_stream(*b, m.stream, nullptr)) break;
        for (EventMessage& e : m.events) offer(*b, std::move(e));
        drain(*b, now_us);
        break;
      }
      case TopicKind::Resend:
        break;
    }
  } catch (const InputError& e) {
    ++counters_.bad_messages;
    error(b, std::string("ignored a message on '") + topic + "': " + e.what());
  } catch (const std::exception& e) {
    ++counters_.bad_messages;
    error(b, std::string("ignored a message on '") + topic + "': " + e.what());
  }
  return {};
}

std::vector<Outgoing> HallState::tick(int64_t now_us) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Outgoing> out;
  for (auto& [number, b] : boards_) {
    if (b.stream.empty()) continue;
    const bool missing = b.known_seq >= b.next_seq || !b.waiting.empty();
    if (!missing) {
      b.gap_since_us = 0;
      b.backoff = options_.gap_grace;
      continue;
    }
    // Nobody to ask while the referee is away: its retained record, if any, is all there is.
    if (b.status_known && !b.online) continue;
    if (b.gap_since_us == 0) {
      b.gap_since_us = now_us;
      b.next_request_us = now_us + std::chrono::duration_cast<std::chrono::microseconds>(options_.gap_grace).count();
      if (b.backoff.count() == 0) b.backoff = options_.gap_grace;
      continue;
    }
    if (now_us < b.next_request_us) continue;
    out.push_back({board_topic(options_.event, number, TopicKind::Resend), resend_request(b.stream, b.next_seq)});
    ++counters_.resend_requests;
    b.backoff = std::min(options_.resend_max, b.backoff * 2);
    b.next_request_us = now_us + std::chrono::duration_cast<std::chrono::microseconds>(b.backoff).count();
  }
  return out;
}

std::string HallState::status_of(const Board& b) const {
  if (b.fold && (b.fold->game().over || b.fold->match_over())) return "finished";
  if (b.fold && b.next_seq == 1 && b.state.is_object() && (b.state.value("phase", "") == "game_over" || b.state.value("phase", "") == "match_over"))
    return "finished";
  if (b.status_known && !b.online) return "offline";
  if (b.stream.empty()) return "offline";  // paired, never heard of
  return "playing";
}

nlohmann::json HallState::summary(const Board& b) const {
  nlohmann::json j;
  j["board"] = b.number;
  j["game"] = b.game.empty() ? nlohmann::json(nullptr) : nlohmann::json(b.game);
  j["status"] = status_of(b);
  j["online"] = b.status_known ? nlohmann::json(b.online) : nlohmann::json(nullptr);
  if (const Pairing* p = pairings_.find(b.number)) j["players"] = {p->first, p->second};
  else j["players"] = nullptr;
  j["stream"] = b.stream;
  j["seq"] = b.next_seq - 1;
  j["known_seq"] = b.known_seq;
  j["errors"] = b.errors;
  if (!b.last_error.empty()) j["last_error"] = b.last_error;
  const bool from_events = b.fold && (b.next_seq > 1 || !b.state.is_object());
  if (b.fold && from_events) {
    const GameFold& f = *b.fold;
    j["fen"] = f.fen();
    j["score"] = f.score_map();
    j["moves"] = f.ply();
    j["game_no"] = f.game().game_no;
    j["result"] = f.game().over ? nlohmann::json(f.game().result) : nlohmann::json(nullptr);
    j["reason"] = f.game().reason;
    j["last"] = f.last_move();
    j["alert"] = f.alert();
    j["clock"] = f.clock();
    j["sides"] = {f.rules().side_name(Side::First), f.rules().side_name(Side::Second)};
    j["to_move"] = f.rules().side_name(f.rules().side_to_move(f.position()));
    j["sites"] = arbiter::board_json(f.rules(), f.rules().observe(f.position()));
  } else if (b.state.is_object()) {
    // Only the retained state so far (a late hall before its events arrive).
    const nlohmann::json& s = b.state;
    j["fen"] = s.value("fen", "");
    j["score"] = s.value("score", nlohmann::json::object());
    j["moves"] = s.value("ply", 0);
    j["game_no"] = s.value("game_no", 1);
    const std::string result = s.value("result", "*");
    j["result"] = result == "*" ? nlohmann::json(nullptr) : nlohmann::json(result);
    j["reason"] = s.value("reason", "");
    j["last"] = s.value("last", nlohmann::json(nullptr));
    j["alert"] = s.value("illegal", false) || s.value("unclear", false) ? nlohmann::json{{"type", "illegal"}} : nlohmann::json(nullptr);
    j["clock"] = s.value("clock", nlohmann::json(nullptr));
    if (b.fold) j["sides"] = {b.fold->rules().side_name(Side::First), b.fold->rules().side_name(Side::Second)};
    j["to_move"] = s.value("to_move", "");
    if (b.fold) {
      // The diagram from the retained FEN; a FEN the game cannot read leaves the board without one.
      try {
        j["sites"] = arbiter::board_json(b.fold->rules(), b.fold->rules().observe(b.fold->rules().from_fen(j["fen"].get<std::string>())));
      } catch (const std::exception&) {
      }
    }
  } else if (b.fold) {
    // Paired, not heard of yet: the start position of the paired game.
    j["fen"] = b.fold->fen();
    j["score"] = b.fold->score_map();
    j["moves"] = 0;
    j["result"] = nullptr;
    j["last"] = nullptr;
    j["alert"] = nullptr;
    j["clock"] = nullptr;
    j["sides"] = {b.fold->rules().side_name(Side::First), b.fold->rules().side_name(Side::Second)};
    j["sites"] = arbiter::board_json(b.fold->rules(), b.fold->rules().observe(b.fold->position()));
  } else {
    j["fen"] = "";
    j["score"] = nlohmann::json::object();
    j["moves"] = 0;
    j["result"] = nullptr;
  }
  return j;
}

nlohmann::json HallState::boards_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [number, b] : boards_) list.push_back(summary(b));
  return list;
}

nlohmann::json HallState::board_json(int number) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = boards_.find(number);
  if (it == boards_.end()) return nullptr;
  const Board& b = it->second;
  nlohmann::json j = summary(b);
  nlohmann::json moves = nlohmann::json::array();
  if (b.fold)
    for (const arbiter::PlayedMove& m : b.fold->game().moves)
      moves.push_back({{"ply", m.ply}, {"side", b.fold->rules().side_name(m.side)}, {"notation", m.move.notation},
                       {"record", m.record}});
  j["move_list"] = moves;
  j["start_fen"] = b.fold ? nlohmann::json(b.fold->game().start_fen) : nlohmann::json(nullptr);
  return j;
}

std::vector<nlohmann::json> HallState::board_events(int number) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = boards_.find(number);
  if (it == boards_.end()) return {};
  return it->second.events;
}

nlohmann::json HallState::board_game(int number) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = boards_.find(number);
  if (it == boards_.end() || !it->second.fold) return nullptr;
  const Board& b = it->second;
  return {{"game", b.game}, {"rules", b.rules_options}, {"start_fen", b.fold->games().front().start_fen}};
}

nlohmann::json HallState::standings_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  struct Row {
    std::string player;
    double points = 0;
    int played = 0, wins = 0, draws = 0, losses = 0;
    std::vector<int> boards;
  };
  std::map<std::string, Row> rows;
  for (const auto& [number, b] : boards_) {
    const Pairing* p = pairings_.find(number);
    const std::string first = p ? p->first : "board " + std::to_string(number) + " first";
    const std::string second = p ? p->second : "board " + std::to_string(number) + " second";
    for (const std::string* name : {&first, &second}) {
      Row& r = rows[*name];
      r.player = *name;
      r.boards.push_back(number);
    }
    if (!b.fold) continue;
    for (const arbiter::GameSummary& g : b.fold->games()) {
      if (!g.over) continue;
      const double a = first_points(g.result);
      for (auto [name, pts] : {std::pair<const std::string*, double>{&first, a}, {&second, 1 - a}}) {
        Row& r = rows[*name];
        r.points += pts;
        ++r.played;
        if (pts == 1) ++r.wins;
        else if (pts == 0) ++r.losses;
        else ++r.draws;
      }
    }
  }
  std::vector<Row> sorted;
  for (auto& [name, r] : rows) sorted.push_back(r);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Row& a, const Row& b) {
    if (a.points != b.points) return a.points > b.points;
    return a.player < b.player;
  });
  nlohmann::json list = nlohmann::json::array();
  int rank = 0;
  double last = -1;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const Row& r = sorted[i];
    if (r.points != last) rank = static_cast<int>(i) + 1;
    last = r.points;
    list.push_back({{"rank", rank}, {"player", r.player}, {"points", r.points}, {"played", r.played},
                    {"wins", r.wins}, {"draws", r.draws}, {"losses", r.losses}, {"boards", r.boards}});
  }
  return {{"event", pairings_.event.empty() ? options_.event : pairings_.event}, {"round", pairings_.round},
          {"standings", list}};
}

arbiter::RecordTags HallState::tags_of(const Board& b) const {
  arbiter::RecordTags tags;
  tags.event = pairings_.event.empty() ? options_.event : pairings_.event;
  if (!pairings_.round.empty()) tags.event += ", round " + pairings_.round;
  tags.event += ", board " + std::to_string(b.number);
  tags.date = today();
  if (const Pairing* p = pairings_.find(b.number)) {
    tags.first_player = p->first;
    tags.second_player = p->second;
  }
  return tags;
}

std::optional<std::string> HallState::record(const std::string& format, int only) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  nlohmann::json boards = nlohmann::json::array();
  bool any = false;
  for (const auto& [number, b] : boards_) {
    if (only > 0 && number != only) continue;
    if (!b.fold || b.stream.empty()) continue;
    const bool draughts = is_draughts(b.game);
    const arbiter::RecordTags tags = tags_of(b);
    if (format == "pdn") {
      if (!draughts) continue;
      const auto* rules = dynamic_cast<const draughts::DraughtsRules*>(&b.fold->rules());
      if (!rules) continue;
      for (const arbiter::GameSummary& g : b.fold->games()) {
        if (g.moves.empty() && !g.over) continue;
        std::vector<Move> moves;
        for (const arbiter::PlayedMove& m : g.moves) moves.push_back(m.move);
        std::vector<draughts::PdnTag> pdn_tags = {{"Event", tags.event}, {"Site", tags.site}, {"Date", tags.date},
                                                  {"Round", pairings_.round.empty() ? "?" : pairings_.round},
                                                  {"White", tags.first_player}, {"Black", tags.second_player},
                                                  {"Board", std::to_string(number)}};
        out += draughts::write_pdn(draughts::record_pdn(*rules, rules->from_fen(g.start_fen), moves, g.result, pdn_tags));
        any = true;
      }
    } else if (format == "txt") {
      if (draughts && only == 0) continue;
      out += "== board " + std::to_string(number) + " ==\n";
      out += arbiter::text_record(b.fold->rules(), b.fold->games(), tags);
      any = true;
    } else if (format == "json") {
      if (draughts && only == 0) continue;
      nlohmann::json r = arbiter::json_record(b.fold->rules(), b.fold->games(), tags);
      r["board"] = number;
      boards.push_back(std::move(r));
      any = true;
    }
  }
  if (!any) return std::nullopt;
  if (format == "json") {
    nlohmann::json j = {{"event", pairings_.event.empty() ? options_.event : pairings_.event},
                        {"round", pairings_.round},
                        {"boards", boards}};
    return j.dump(2) + "\n";
  }
  return out;
}

nlohmann::json HallState::errors_json() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return nlohmann::json(std::vector<std::string>(errors_.begin(), errors_.end()));
}

HallState::Counters HallState::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counters_;
}

std::vector<int64_t> HallState::latencies_us() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latencies_;
}

std::map<int, std::pair<int64_t, int64_t>> HallState::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::map<int, std::pair<int64_t, int64_t>> p;
  for (const auto& [number, b] : boards_) p[number] = {b.next_seq - 1, b.known_seq};
  return p;
}

}  // namespace sb::hall
