#include "display/game_view.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <sstream>

#include "engines/common/errors.h"

namespace sb::display {

namespace {

// A whole game is a few hundred events; this only stops a runaway producer from
// growing the record without bound.
constexpr size_t kMaxEvents = 20000;

std::string op_symbol(char op) {
  switch (op) {
    case '+': return "+";
    case '-': return "\u2212";
    case '*': return "\u00d7";
    case '/': return "\u00f7";
  }
  return std::string(1, op);
}

// Site names in `text` in order, with the character that came before each.
struct SiteToken {
  std::string site;
  char before = 0;
};

std::vector<SiteToken> site_tokens(const std::string& text, const std::set<std::string>& sites) {
  // Notations glue squares with letters ("d4xd6", "Tf4-f6"), so match the longest
  // site name at each place rather than splitting into words.
  size_t longest = 0;
  for (const std::string& s : sites) longest = std::max(longest, s.size());
  std::vector<SiteToken> out;
  size_t i = 0;
  while (i < text.size()) {
    const bool after_digit = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]));
    size_t matched = 0;
    if (!after_digit) {
      for (size_t len = std::min(longest, text.size() - i); len > 0; --len) {
        if (!sites.count(text.substr(i, len))) continue;
        if (i + len < text.size() && std::isdigit(static_cast<unsigned char>(text[i + len]))) continue;
        matched = len;
        break;
      }
    }
    if (matched) {
      out.push_back({text.substr(i, matched), i > 0 ? text[i - 1] : '\0'});
      i += matched;
    } else {
      ++i;
    }
  }
  return out;
}

int chebyshev(const std::string& a, const std::string& b) {
  if (a.size() < 2 || b.size() < 2) return -1;
  int fa = a[0] - 'a', fb = b[0] - 'a';
  int ra = std::atoi(a.c_str() + 1), rb = std::atoi(b.c_str() + 1);
  return std::max(std::abs(fa - fb), std::abs(ra - rb));
}

}  // namespace

std::string Calculation::text(const std::string& remainder_word) const {
  std::ostringstream s;
  s << a << ' ' << op_symbol(op) << ' ' << b << " = " << result;
  if (op == '/') {
    if (remainder != 0) s << ' ' << remainder_word << ' ' << remainder;
    if (remainder != 0 || value != result) s << " \u2192 " << value;
  } else if (value != result) {
    s << " \u2192 " << value;
  }
  return s.str();
}

std::optional<Calculation> cotoan_calculation(int a, int b, char op, int distance) {
  Calculation c;
  c.a = a;
  c.b = b;
  c.op = op;
  switch (op) {
    case '+': c.result = a + b; break;
    case '-': c.result = a - b; break;
    case '*': c.result = a * b; break;
    case '/':
      if (b == 0) return std::nullopt;
      c.result = a / b;
      c.remainder = a % b;
      break;
    default: return std::nullopt;
  }
  if (op == '/') {
    // The remainder counts when there is one; the "both" option lets the quotient serve too.
    c.value = c.remainder != 0 ? c.remainder : c.result;
    if (distance > 0 && distance != c.value && distance == c.result) c.value = c.result;
  } else {
    if (c.result <= 0) return std::nullopt;
    c.value = c.result % 10;
  }
  if (c.value == 0) return std::nullopt;
  if (distance > 0 && distance != c.value) return std::nullopt;
  return c;
}

GameView::GameView(std::string game, std::string start_fen, std::vector<std::string> sites_in_reading_order)
    : game_(std::move(game)),
      family_(game_family(game_)),
      start_fen_(std::move(start_fen)),
      order_(std::move(sites_in_reading_order)),
      sides_(side_names(game_)) {
  fen_ = start_fen_;
  position_ = position_view(game_, fen_, order_);
  score_ = nlohmann::json::object();
  for (const std::string& s : sides_) score_[s] = 0;
}

void GameView::set_position(const std::string& fen, nlohmann::json& out) {
  try {
    position_ = position_view(game_, fen, order_);
    fen_ = fen;
  } catch (const InputError& e) {
    out["position_error"] = e.what();
  }
}

void GameView::annotate_move(nlohmann::json& event) const {
  // The arbiter may already say where the piece went; otherwise read the notation.
  const std::set<std::string> sites(order_.begin(), order_.end());
  std::string notation = event.value("notation", "");
  if (family_ == "cotoan") notation = notation.substr(0, notation.find('('));
  std::vector<SiteToken> tokens = site_tokens(notation, sites);
  nlohmann::json path = nlohmann::json::array();
  nlohmann::json from = nullptr, to = nullptr;
  if (family_ == "morris") {
    std::vector<std::string> moved;
    for (const SiteToken& t : tokens) {
      if (t.before == 'x') break;
      moved.push_back(t.site);
    }
    if (moved.size() == 1) to = moved[0];
    if (moved.size() >= 2) {
      from = moved[0];
      to = moved[1];
    }
    for (const std::string& s : moved) path.push_back(s);
  } else if (!tokens.empty()) {
    from = tokens.front().site;
    bool in_place = family_ == "cotulenh" && tokens.size() >= 2 && tokens[1].before == '@';
    to = in_place ? tokens.front().site : tokens.back().site;
    for (const SiteToken& t : tokens)
      if (!(in_place && t.before == '@')) path.push_back(t.site);
  }
  if (!event.contains("from")) event["from"] = from;
  if (!event.contains("to")) event["to"] = to;
  if (!event.contains("path")) event["path"] = path;

  // Cờ toán: write out the calculation from the numbers on the pair before the move.
  // The referee puts the engine's facts of the move under "details"; older producers put them on the event.
  const nlohmann::json& facts = event.contains("details") && event["details"].is_object() ? event["details"] : event;
  if (family_ == "cotoan" && !event.contains("calculation") && facts.contains("pair") && facts["pair"].is_array() &&
      facts["pair"].size() == 2 && facts.contains("op") && facts["op"].is_string() && event["from"].is_string() &&
      event["to"].is_string()) {
    std::string rear = event["from"], target = event["to"];
    std::string p0 = facts["pair"][0].is_string() ? facts["pair"][0].get<std::string>() : "";
    std::string p1 = facts["pair"][1].is_string() ? facts["pair"][1].get<std::string>() : "";
    std::string front = p0 == rear ? p1 : p0;
    auto value_on = [&](const std::string& site) -> int {
      for (const PieceView& p : position_.pieces)
        if (p.site == site && !p.label.empty() && std::isdigit(static_cast<unsigned char>(p.label[0])))
          return p.label[0] - '0';
      return -1;
    };
    int a = value_on(rear), b = value_on(front);
    std::string op = facts["op"];
    if (a >= 0 && b >= 0 && op.size() == 1) {
      if (auto c = cotoan_calculation(a, b, op[0], chebyshev(front, target))) {
        event["calc"] = {{"a", c->a}, {"b", c->b}, {"op", std::string(1, c->op)}, {"result", c->result},
                         {"remainder", c->remainder}, {"value", c->value}};
        event["calculation"] = c->text();
      }
    }
  }
}

void GameView::take_clock(const nlohmann::json& event) {
  // The referee's clock: {"<side>": ms left, ..., "game_left"?: ms, "running": side|null}, either as the
  // event's "clock" object (moves) or on the event itself (clock events).
  const nlohmann::json& c = event.contains("clock") && event["clock"].is_object() ? event["clock"] : event;
  nlohmann::json clock = {{"t", event.value("t", int64_t{0})}};
  bool any = false;
  for (const std::string& side : sides_)
    if (c.contains(side) && c[side].is_number()) {
      clock[side] = c[side];
      any = true;
    }
  if (c.contains("game_left") && c["game_left"].is_number()) {
    clock["game_left"] = c["game_left"];
    any = true;
  }
  if (!any) return;
  if (c.contains("running")) clock["running"] = c["running"];
  else clock["running"] = position_.to_move;  // after a move the other side's time runs
  clock_ = clock;
}

nlohmann::json GameView::apply(nlohmann::json event) {
  if (!event.is_object()) throw InputError("event: expected a JSON object");
  event["seq"] = ++seq_;
  const std::string type = event.value("type", "");
  if (type == "move") {
    annotate_move(event);
    if (event.contains("fen") && event["fen"].is_string()) set_position(event["fen"], event);
    if (event.contains("score") && event["score"].is_object()) score_ = event["score"];
    take_clock(event);
    nlohmann::json entry = {{"ply", event.value("ply", static_cast<int>(moves_.size()) + 1)},
                            {"side", event.value("side", "")},
                            {"notation", event.value("notation", "")},
                            {"captured", event.value("captured", nlohmann::json::array())},
                            {"points", event.value("points", 0)},
                            {"from", event["from"]},
                            {"to", event["to"]}};
    if (event.contains("calculation")) entry["calculation"] = event["calculation"];
    // A move at ply n replaces whatever the list held from n on (after a takeback without its event).
    int ply = entry["ply"].is_number_integer() ? entry["ply"].get<int>() : static_cast<int>(moves_.size()) + 1;
    if (ply >= 1 && static_cast<size_t>(ply) <= moves_.size()) moves_.resize(ply - 1);
    moves_.push_back({entry, fen_});
    last_move_ = {{"from", event["from"]}, {"to", event["to"]}, {"path", event["path"]},
                  {"captured", entry["captured"]}};
    alert_ = nullptr;
    if (status_ != "over") status_ = "playing";
  } else if (type == "takeback") {
    int ply = event.value("ply", 0);
    if (ply < 0) ply = 0;
    if (static_cast<size_t>(ply) < moves_.size()) moves_.resize(ply);
    std::string fen = event.contains("fen") && event["fen"].is_string() ? event["fen"].get<std::string>()
                      : moves_.empty()                                  ? start_fen_
                                                                        : moves_.back().fen_after;
    set_position(fen, event);
    if (event.contains("score") && event["score"].is_object()) score_ = event["score"];
    last_move_ = moves_.empty() ? nlohmann::json(nullptr)
                                : nlohmann::json{{"from", moves_.back().json["from"]},
                                                 {"to", moves_.back().json["to"]},
                                                 {"path", nlohmann::json::array()},
                                                 {"captured", moves_.back().json["captured"]}};
    alert_ = nullptr;
    result_ = nullptr;
    status_ = "playing";
  } else if (type == "illegal" || type == "unclear" || type == "setup_mismatch") {
    alert_ = event;
    if (type == "illegal") status_ = "illegal";
  } else if (type == "restored") {
    alert_ = nullptr;
    if (status_ == "illegal") status_ = "playing";
  } else if (type == "setup_ok") {
    alert_ = nullptr;
    if (event.contains("fen") && event["fen"].is_string()) {
      set_position(event["fen"], event);
      if (moves_.empty()) start_fen_ = fen_;
    }
    if (moves_.empty()) status_ = "playing";
  } else if (type == "game_over") {
    result_ = {{"result", event.value("result", "")}, {"reason", event.value("reason", "")}};
    if (event.contains("score") && event["score"].is_object()) score_ = event["score"];
    status_ = "over";
    alert_ = nullptr;
  } else if (type == "clock") {
    take_clock(event);
  } else if (event.contains("fen") && event["fen"].is_string()) {
    set_position(event["fen"], event);
  }
  if (type == "info" && event.value("reason", "") == "new_game") {
    moves_.clear();
    result_ = nullptr;
    last_move_ = nullptr;
    alert_ = nullptr;
    status_ = "setup";
    for (const std::string& s : sides_) score_[s] = 0;
    if (event.contains("fen") && event["fen"].is_string()) start_fen_ = event["fen"];
  }
  event["position"] = to_json(position_);
  if (events_.size() < kMaxEvents) {
    nlohmann::json stored = event;
    stored.erase("position");
    events_.push_back(std::move(stored));
  }
  return event;
}

nlohmann::json GameView::state() const {
  nlohmann::json moves = nlohmann::json::array();
  for (const MoveEntry& m : moves_) moves.push_back(m.json);
  return {{"game", game_},
          {"family", family_},
          {"sides", sides_},
          {"fen", fen_},
          {"start_fen", start_fen_},
          {"score", score_},
          {"moves", moves},
          {"position", to_json(position_)},
          {"status", status_},
          {"result", result_},
          {"last", last_move_},
          {"alert", alert_},
          {"clock", clock_},
          {"seq", seq_}};
}

std::string GameView::text_record() const {
  std::ostringstream out;
  out << "Game: " << game_ << "\n";
  out << "Start: " << start_fen_ << "\n";
  if (!result_.is_null()) out << "Result: " << result_["result"].get<std::string>() << " (" << result_["reason"].get<std::string>() << ")\n";
  out << "\n";
  for (size_t i = 0; i < moves_.size(); ++i) {
    const nlohmann::json& m = moves_[i].json;
    if (i % 2 == 0) out << (i / 2 + 1) << ". ";
    out << m["notation"].get<std::string>();
    if (m.contains("calculation")) out << " (" << m["calculation"].get<std::string>() << ")";
    out << (i % 2 == 1 || i + 1 == moves_.size() ? "\n" : "  ");
  }
  if (!score_.empty()) {
    out << "\nScore:";
    for (const auto& [side, points] : score_.items()) out << " " << side << " " << points.dump();
    out << "\n";
  }
  return out.str();
}

nlohmann::json GameView::json_record() const {
  nlohmann::json moves = nlohmann::json::array();
  for (const MoveEntry& m : moves_) {
    nlohmann::json j = m.json;
    j["fen"] = m.fen_after;
    moves.push_back(j);
  }
  return {{"game", game_}, {"start_fen", start_fen_}, {"fen", fen_},     {"moves", moves},
          {"score", score_}, {"result", result_},     {"events", events_}};
}

}  // namespace sb::display
