#include "engines/common/rules.h"

#include <sstream>

#include "engines/common/errors.h"

namespace sb {

Token parse_token(std::string_view text) {
  auto printable = [](char c) { return c > ' ' && c < 127; };
  if (text.empty() || text.size() > 2 || text[0] < 'A' || text[0] > 'Z' ||
      (text.size() == 2 && !printable(text[1])))
    throw InputError("bad piece token '" + std::string(text) + "' (expected a side letter and an optional identity)");
  Token t;
  t.side = text[0];
  if (text.size() == 2) t.kind = text[1];
  return t;
}

Move Rules::parse_move(const State& s, std::string_view text) const {
  if (text.empty()) throw InputError("empty move");
  for (Move& m : legal_moves(s))
    if (m.notation == text) return std::move(m);
  throw IllegalMoveError(std::string(text), why_illegal(s, text));
}

std::string Rules::why_illegal(const State&, std::string_view) const { return "not a legal move in this position"; }

std::optional<IllegalChange> Rules::explain_change(const State& s, const Observation& after) const {
  const Observation before = observe(s);
  if (after.sites.size() != before.sites.size()) return std::nullopt;
  const char mover = side_letter(side_to_move(s));
  std::vector<int> vacated_own, vacated_other, filled;
  for (int i = 0; i < static_cast<int>(before.sites.size()); ++i) {
    const Token& b = before.sites[i];
    const Token& a = after.sites[i];
    if (a == b) continue;
    if (!b.empty() && a.empty()) {
      (b.side == mover ? vacated_own : vacated_other).push_back(i);
    } else if (b.empty() && !a.empty()) {
      filled.push_back(i);
    } else {
      return std::nullopt;  // a token changed in place: not one physical move
    }
  }
  if (vacated_own.size() != 1 || filled.size() != 1) return std::nullopt;
  if (after.sites[filled[0]].side != mover) return std::nullopt;
  IllegalChange c;
  c.reason = site_name(vacated_own[0]) + "-" + site_name(filled[0]) + " is not a legal move";
  c.squares = {vacated_own[0], filled[0]};
  c.squares.insert(c.squares.end(), vacated_other.begin(), vacated_other.end());
  return c;
}

std::vector<int> Rules::waypoints(const State&, const Move& m) const {
  if (m.path.empty()) return {};
  return std::vector<int>(m.path.begin(), m.path.end() - 1);
}

std::string Rules::record_notation(const State&, const Move& m) const { return m.notation; }

bool Rules::decides_match(const State&) const { return false; }

MatchStanding Rules::match_standing(int games, const std::vector<MatchGame>& played) const {
  MatchStanding m;
  m.next_first = side_to_move(start());
  std::array<int, 2> wins{0, 0};
  for (const MatchGame& g : played) {
    if (g.decides_match && g.winner) {
      m.outcome = Outcome::win(*g.winner, side_name(opponent(*g.winner)) + " lost a game that decides the match");
      return m;
    }
    if (g.winner) ++wins[index_of(*g.winner)];
  }
  const std::string tally = std::to_string(wins[0]) + "-" + std::to_string(wins[1]);
  const int needed = games / 2 + 1;
  for (Side s : {Side::First, Side::Second})
    if (wins[index_of(s)] >= needed) {
      m.outcome = Outcome::win(s, "won " + std::to_string(wins[index_of(s)]) + " of " + std::to_string(games) +
                                      " games (" + tally + ")");
      return m;
    }
  if (static_cast<int>(played.size()) >= games) {
    if (wins[0] == wins[1]) m.outcome = Outcome::draw("games won " + tally);
    else m.outcome = Outcome::win(wins[0] > wins[1] ? Side::First : Side::Second, "won more games (" + tally + ")");
  }
  return m;
}

State Rules::start_with_first(Side first) const {
  State s = start();
  if (side_to_move(s) != first)
    throw InputError(id() + ": the start position has " + side_name(side_to_move(s)) + " to move, not " +
                     side_name(first));
  return s;
}

FreeSetup Rules::free_setup(const Observation&, Side) const {
  FreeSetup f;
  f.problems.push_back({id() + " has no free setup", {}});
  return f;
}

std::string Rules::state_line(const State& s) const {
  Outcome o = outcome(s);
  std::string line = o.result();
  if (o.over() && !o.reason.empty()) line += " " + o.reason;
  if (keeps_score()) {
    Score sc = score(s);
    line += "; score " + side_name(Side::First) + " " + std::to_string(sc[0]) + " " + side_name(Side::Second) + " " +
            std::to_string(sc[1]);
  }
  return line;
}

uint64_t Rules::perft(const State& s, int depth, const PerftOptions& opt) const {
  if (depth <= 0) return 1;
  std::vector<Move> moves = legal_moves(s);
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (const Move& m : moves) n += perft(apply(s, m), depth - 1, opt);
  return n;
}

State Rules::play(const State& s, std::string_view moves_text) const {
  State cur = s;
  std::istringstream in{std::string(moves_text)};
  std::string word;
  int ply = 0;
  while (in >> word) {
    ++ply;
    try {
      cur = apply(cur, parse_move(cur, word));
    } catch (const IllegalMoveError& e) {
      throw IllegalMoveError(word, "(ply " + std::to_string(ply) + ") " + e.reason());
    } catch (const InputError& e) {
      throw InputError("move " + std::to_string(ply) + " '" + word + "': " + e.what());
    }
  }
  return cur;
}

}  // namespace sb
