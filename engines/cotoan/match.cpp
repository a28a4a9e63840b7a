#include "engines/cotoan/match.h"

#include "engines/common/errors.h"
#include "engines/common/options.h"
#include "engines/cotoan/rules.h"

namespace sb::cotoan {

namespace {

const char* side_id(Side s) {
  return s == Side::First ? "red" : "blue";
}

Side side_from(const Json& j, const std::string& what) {
  if (j.is_string() && j.as_string() == "red") return Side::First;
  if (j.is_string() && j.as_string() == "blue") return Side::Second;
  throw InputError(what + ": expected \"red\" or \"blue\", got " + j.dump());
}

const char* next_first_id(NextFirst n) {
  switch (n) {
    case NextFirst::Loser:
      return "loser";
    case NextFirst::Alternate:
      return "alternate";
    case NextFirst::Same:
      return "same";
  }
  return "loser";
}

}  // namespace

// --- MatchOptions

Json MatchOptions::to_json() const {
  Json j = Json::object();
  j["games"] = games;
  j["next_first"] = next_first_id(next_first);
  j["first"] = side_id(first);
  return j;
}

MatchOptions MatchOptions::from_json(const Json& j) {
  OptionReader r(j, "cotoan match");
  MatchOptions o;
  o.games = r.get_int("games", o.games, 1, 7);
  if (o.games % 2 == 0)
    throw InputError("cotoan match option 'games': expected 1, 3, 5 or 7, got " + std::to_string(o.games));
  const std::string next = r.get_choice("next_first", "loser", {"loser", "alternate", "same"});
  o.next_first = next == "loser" ? NextFirst::Loser : next == "alternate" ? NextFirst::Alternate : NextFirst::Same;
  o.first = r.get_choice("first", "red", {"red", "blue"}) == "red" ? Side::First : Side::Second;
  r.finish();
  return o;
}

// --- GameResult

GameResult GameResult::of_game(const CotoanRules& rules, const State& final_state) {
  const Outcome o = rules.outcome(final_state);
  if (!o.over()) throw InputError("cotoan match: the game is still going on");
  GameResult g;
  if (o.status == Outcome::Status::Win) g.winner = o.winner;
  g.score = rules.score(final_state);
  g.zero_captured = rules.zero_captured(final_state);
  g.reason = o.reason;
  return g;
}

Json GameResult::to_json() const {
  Json j = Json::object();
  j["winner"] = winner ? Json(side_id(*winner)) : Json(nullptr);
  Json sc = Json::object();
  sc["red"] = score[0];
  sc["blue"] = score[1];
  j["score"] = sc;
  j["zero_captured"] = zero_captured;
  j["reason"] = reason;
  return j;
}

GameResult GameResult::from_json(const Json& j) {
  if (!j.is_object()) throw InputError("cotoan match game: expected a JSON object, got " + j.dump());
  GameResult g;
  const Json* w = j.find("winner");
  if (w && !w->is_null()) g.winner = side_from(*w, "cotoan match game 'winner'");
  if (const Json* sc = j.find("score")) {
    if (!sc->is_object()) throw InputError("cotoan match game 'score': expected {\"red\": n, \"blue\": n}");
    for (Side s : {Side::First, Side::Second})
      if (const Json* v = sc->find(side_id(s))) g.score[index_of(s)] = v->as_int();
  }
  if (const Json* z = j.find("zero_captured")) g.zero_captured = z->as_bool();
  if (const Json* r = j.find("reason")) g.reason = r->as_string();
  return g;
}

// --- Match

Match::Match(MatchOptions options) : options_(options) {
  if (options_.games < 1 || options_.games > 7 || options_.games % 2 == 0)
    throw InputError("cotoan match: expected 1, 3, 5 or 7 games, got " + std::to_string(options_.games));
}

std::array<int, 2> Match::wins() const {
  std::array<int, 2> w{0, 0};
  for (const GameResult& g : games_)
    if (g.winner) ++w[index_of(*g.winner)];
  return w;
}

bool Match::over() const {
  if (!games_.empty() && games_.back().zero_captured) return true;
  return static_cast<int>(games_.size()) >= options_.games;
}

Outcome Match::result() const {
  if (!over()) return Outcome::ongoing();
  const GameResult& last = games_.back();
  if (last.zero_captured) return Outcome::win(*last.winner, "captured the 0 in game " + std::to_string(games_.size()));
  const auto w = wins();
  const std::string tally = " (" + std::to_string(w[0]) + "-" + std::to_string(w[1]) + ")";
  if (w[0] == w[1]) return Outcome::draw("equal games won" + tally);
  return Outcome::win(w[0] > w[1] ? Side::First : Side::Second, "more games won" + tally);
}

Side Match::next_first() const {
  if (over()) throw InputError("cotoan match: the match is over");
  if (games_.empty()) return options_.first;
  const Side last = starters_.back();
  switch (options_.next_first) {
    case NextFirst::Same:
      return options_.first;
    case NextFirst::Alternate:
      return opponent(last);
    case NextFirst::Loser: {
      const GameResult& g = games_.back();
      return g.winner ? opponent(*g.winner) : opponent(last);
    }
  }
  return options_.first;
}

Options Match::rules_for_next_game(Options base) const {
  base.first = next_first();
  return base;
}

Match Match::after(const GameResult& game) const {
  if (over()) throw InputError("cotoan match: the match is over; no further game counts");
  if (game.zero_captured && !game.winner)
    throw InputError("cotoan match: a game in which a 0 was captured has a winner, not a draw");
  Match next = *this;
  next.starters_.push_back(next_first());
  next.games_.push_back(game);
  return next;
}

Json Match::to_json() const {
  Json j = Json::object();
  j["options"] = options_.to_json();
  Json list = Json::array();
  for (size_t i = 0; i < games_.size(); ++i) {
    Json g = games_[i].to_json();
    g["first"] = side_id(starters_[i]);
    list.push_back(g);
  }
  j["games"] = list;
  const auto w = wins();
  Json wj = Json::object();
  wj["red"] = w[0];
  wj["blue"] = w[1];
  j["wins"] = wj;
  const Outcome r = result();
  j["result"] = r.result();
  j["reason"] = r.reason;
  return j;
}

Match Match::from_json(const Json& j) {
  if (!j.is_object()) throw InputError("cotoan match: expected a JSON object, got " + j.dump());
  Match m(MatchOptions::from_json(j.find("options") ? j.at("options") : Json::object()));
  if (const Json* list = j.find("games")) {
    if (!list->is_array()) throw InputError("cotoan match 'games': expected an array");
    for (const Json& g : list->as_array()) m = m.after(GameResult::from_json(g));
  }
  return m;
}

}  // namespace sb::cotoan
