#include "engines/cotulenh/cotulenh_rules.h"

#include <algorithm>

#include "engines/common/errors.h"
#include "engines/cotulenh/notation.h"
#include "engines/cotulenh/record.h"
#include "engines/cotulenh/setup.h"

namespace sb::cotulenh {

namespace {

const char* action_kind_name(ActionKind k) {
  switch (k) {
    case ActionKind::Move:
      return "move";
    case ActionKind::Board:
      return "board";
    case ActionKind::Capture:
      return "capture";
    case ActionKind::Strike:
      return "capture_in_place";
    case ActionKind::ShotDown:
      return "shot_down";
    case ActionKind::Trade:
      return "one_for_one";
  }
  return "move";
}

bool needs_filter(const Options& o) {
  return o.facing == Options::Facing::Illegal || o.safety == Options::Safety::MustEscape;
}

std::string lost_word(const char* battle, const std::string& loser) {
  const std::string b = battle;
  if (b == "raid") return "raid: " + loser + " lost its commander";
  if (b == "naval battle") return "naval battle: " + loser + " lost both navies";
  if (b == "air battle") return "air battle: " + loser + " lost both air forces";
  return "land battle: " + loser + " lost both infantry, both tanks and both artillery";
}

}  // namespace

CotulenhRules::CotulenhRules(Options o) : o_(o) {}

std::string CotulenhRules::site_name(int site) const {
  if (site < 0 || site >= kSites) throw InputError("cotulenh: no site number " + std::to_string(site));
  return cotulenh::site_name(site);
}

int CotulenhRules::site_index(std::string_view name) const {
  return site_from_name(name);
}

State CotulenhRules::make_state(const Position& p) const {
  return State(std::make_shared<StoredPosition>(p));
}

State CotulenhRules::start() const {
  return make_state(parse_fen(kStartFen));
}

State CotulenhRules::from_fen(std::string_view fen) const {
  Position p = parse_fen(fen);
  if (!o_.air_force_over_sea)
    for (int s = 0; s < kSites; ++s)
      if (!p.at[s].empty() && !may_stand(p.at[s].carrier().kind(), s, false))
        throw InputError("FEN '" + std::string(fen) + "': an air force may not stand over the sea on " +
                         cotulenh::site_name(s) + " (option air_force_over_sea is off)");
  return make_state(p);
}

std::string CotulenhRules::fen(const State& s) const {
  return write_fen(position(s));
}

std::string CotulenhRules::ascii(const State& s) const {
  return ascii_board(position(s));
}

std::vector<Turn> CotulenhRules::legal_turns(const Position& p) const {
  std::vector<Turn> turns;
  if (battle_ending(p, o_).over) return turns;
  Generator(p, o_).turns(turns);
  if (needs_filter(o_))
    turns.erase(std::remove_if(turns.begin(), turns.end(), [&](const Turn& t) { return !turn_allowed(p, t, o_); }),
                turns.end());
  return turns;
}

Turn CotulenhRules::turn_of(const Move& m) {
  Turn t;
  if (m.code.size() < 2 || m.code.size() > 2 + kMaxStack)
    throw std::logic_error("cotulenh: move not made by this engine");
  t.from = static_cast<uint8_t>(m.code[0]);
  t.n = static_cast<uint8_t>(m.code[1]);
  if (t.n + 2u != m.code.size()) throw std::logic_error("cotulenh: move not made by this engine");
  for (int i = 0; i < t.n; ++i) {
    const uint32_t c = static_cast<uint32_t>(m.code[2 + i]);
    t.a[i] = {static_cast<uint8_t>(c & 255), static_cast<uint8_t>((c >> 8) & 255),
              static_cast<uint8_t>((c >> 16) & 255), static_cast<ActionKind>((c >> 24) & 255)};
  }
  return t;
}

Move CotulenhRules::to_move(const Position& p, const Turn& t) const {
  Move m;
  m.notation = turn_notation(p, t);
  m.from = t.from;
  m.code = {t.from, t.n};
  const Stack& src = p.at[t.from];
  Json actions = Json::array();
  Json shot = Json::array();
  bool trade = false;
  int main = -1;
  for (int i = 0; i < t.n; ++i) {
    const Action& a = t.a[i];
    m.code.push_back(static_cast<int32_t>(a.group | (a.to << 8) | (a.target << 16) | (static_cast<int>(a.kind) << 24)));
    const bool takes = a.kind == ActionKind::Capture || a.kind == ActionKind::Strike || a.kind == ActionKind::Trade;
    if (takes) m.captured.push_back(a.target);
    // A bombing run lands on the target and flies back.
    const bool bombing = a.kind == ActionKind::Strike && src.subset(a.group).carrier().kind() == kAirForce;
    if (bombing) m.path.push_back(a.target);
    m.path.push_back(a.kind == ActionKind::Strike ? t.from : a.to);
    if (a.kind == ActionKind::ShotDown) shot.push_back(cotulenh::site_name(a.to));
    if (a.kind == ActionKind::Trade) trade = true;
    if ((a.group & 1) || main < 0) main = i;
    Json j = Json::object();
    j["group"] = stack_letters(src.subset(a.group), false, false);
    j["kind"] = action_kind_name(a.kind);
    j["to"] = cotulenh::site_name(a.kind == ActionKind::Strike ? t.from : a.to);
    if (takes) j["target"] = cotulenh::site_name(a.target);
    actions.push_back(j);
  }
  const Action& ma = t.a[main];
  m.to = ma.kind == ActionKind::Strike ? t.from : ma.to;

  std::vector<std::pair<int, int>> promoted;
  const Position next = apply_turn(p, t, o_, &promoted);
  const int u = index_of(p.to_move), e = 1 - u;
  m.points = next.points[u] - p.points[u];
  Json d = Json::object();
  d["piece"] = stack_letters(src.subset(ma.group), false, false);
  d["kind"] = t.n == 1 ? action_kind_name(ma.kind) : "split";
  d["actions"] = actions;
  if (!shot.as_array().empty()) d["shot_down"] = shot;
  if (trade) d["one_for_one"] = true;
  if (next.points[e] != p.points[e]) d["opponent_points"] = next.points[e] - p.points[e];
  Json heroes = Json::array();
  for (auto [site, index] : promoted) {
    Json h = Json::object();
    h["site"] = cotulenh::site_name(site);
    h["piece"] = std::string(1, kKindLetter[next.at[site].p[index].kind()]);
    heroes.push_back(h);
  }
  if (!heroes.as_array().empty()) d["heroes"] = heroes;
  const Ending end = battle_ending(next, o_);
  if (end.over) d["ends"] = end.battle;
  d["record"] = record_turn(p, t, next, promoted, o_);
  m.details = d;
  return m;
}

std::vector<Move> CotulenhRules::legal_moves(const State& s) const {
  const Position& p = position(s);
  std::vector<Move> out;
  for (const Turn& t : legal_turns(p)) out.push_back(to_move(p, t));
  return out;
}

std::vector<std::pair<int, Move>> CotulenhRules::legal_moves_touching(const State& s, const std::vector<int>& sites,
                                                                      size_t& count) const {
  const Position& p = position(s);
  const std::vector<Turn> turns = legal_turns(p);
  count = turns.size();
  auto in = [&](int site) { return std::binary_search(sites.begin(), sites.end(), site); };
  std::vector<std::pair<int, Move>> out;
  for (size_t i = 0; i < turns.size(); ++i) {
    const Turn& t = turns[i];
    // A Move names the turn's source, each action's end and each target: no other site.
    bool touches = in(t.from);
    for (int k = 0; k < t.n && !touches; ++k) touches = in(t.a[k].to) || in(t.a[k].target);
    if (touches) out.emplace_back(static_cast<int>(i), to_move(p, t));
  }
  return out;
}

State CotulenhRules::apply(const State& s, const Move& m) const {
  return make_state(apply_turn(position(s), turn_of(m), o_));
}

Move CotulenhRules::parse_move(const State& s, std::string_view text) const {
  const std::vector<WrittenAction> written = read_notation(text);  // throws on text that is no move
  const std::string key = canonical_key(written);
  const Position& p = position(s);
  const std::vector<Turn> turns = legal_turns(p);
  for (const Turn& t : turns)
    if (turn_notation(p, t) == text) return to_move(p, t);
  // Lower-case letters, or the parts of a split in another order.
  for (const Turn& t : turns)
    if (t.from == written.front().from && canonical_key(read_notation(turn_notation(p, t))) == key)
      return to_move(p, t);
  throw IllegalMoveError(std::string(text), why_illegal(s, text));
}

Outcome CotulenhRules::outcome(const State& s) const {
  const Position& p = position(s);
  auto by_points = [&](const std::string& why) {
    if (p.points[0] == p.points[1]) return Outcome::draw(why + "; equal points");
    const Side w = p.points[0] > p.points[1] ? Side::First : Side::Second;
    return Outcome::win(w, why + "; " + side_name(w) + " has more points");
  };
  const Ending e = battle_ending(p, o_);
  if (e.over) {
    if (!e.decided) return by_points("both sides lost a battle on the same move");
    const std::string loser = side_name(e.loser);
    if (o_.mode == Options::Mode::Full)
      return Outcome::win(opponent(e.loser), "full battle: " + loser + " lost its commander");
    return Outcome::win(opponent(e.loser), lost_word(e.battle, loser));
  }
  if (legal_turns(p).empty()) {
    if (o_.safety == Options::Safety::MustEscape && commander_attacked(p, opponent(p.to_move), o_))
      return Outcome::win(opponent(p.to_move), side_name(p.to_move) + " cannot save its commander");
    return by_points(side_name(p.to_move) + " has no legal move");
  }
  return Outcome::ongoing();
}

std::string CotulenhRules::state_line(const State& s) const {
  const Position& p = position(s);
  std::string line = Rules::state_line(s);
  if (o_.mode == Options::Mode::Full) return line + "; full battle";
  line += "; battle mode, lost:";
  for (int side = 0; side < 2; ++side) {
    const auto& l = p.lost[side];
    const int land = std::min<int>(l[kInfantry], 2) + std::min<int>(l[kTank], 2) + std::min<int>(l[kArtillery], 2);
    line += std::string(side ? "," : "") + " " + side_name(side ? Side::Second : Side::First) + " navies " +
            std::to_string(std::min<int>(l[kNavy], 2)) + "/2 air forces " +
            std::to_string(std::min<int>(l[kAirForce], 2)) + "/2 land " + std::to_string(land) + "/6 commander " +
            std::to_string(std::min<int>(l[kCommander], 1)) + "/1";
  }
  return line;
}

Observation CotulenhRules::observe(const State& s) const {
  const Position& p = position(s);
  Observation o;
  o.sites.resize(kSites);
  for (int i = 0; i < kSites; ++i) {
    const Stack& st = p.at[i];
    if (st.empty()) continue;
    o.sites[i].side = side_letter(st.side());
    o.sites[i].kind = kKindLetter[st.top().kind()];
  }
  return o;
}

bool CotulenhRules::valid_token(const Token& t) const {
  return (t.side == 'R' || t.side == 'B') && t.kind != 0 && kind_of_letter(t.kind) >= 0 && t.kind >= 'A' &&
         t.kind <= 'Z';
}

std::vector<BenchCase> CotulenhRules::bench_cases() const {
  return {
      {"start", "", 3},
      {"stacks-ferry-heroes",
       "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2e1/10i/2(NF)1(EA)6/4(TI)1M2E1/4G2+TG2/6S2A1/1N3(HC)1HF2/11 r", 3},
      {"air-defence-facing", "11/7h3/3(fi)c6/1(nt)5+f3/5a1s3/2N8/9(EG)1/N1T4G3/11/4C1S4/11/11 b", 3},
      {"navy-guns-hero-flier", "2c8/11/1n3g5/4t6/2N3+F4/5m5/11/3(TC)7/11/11/6F4/11 r", 3},
  };
}

std::vector<int> CotulenhRules::waypoints(const State& s, const Move& m) const {
  const Position& p = position(s);
  const Turn t = turn_of(m);
  std::vector<int> out;
  for (int i = 0; i < t.n; ++i) {
    const Action& a = t.a[i];
    const bool flier = p.at[t.from].subset(a.group).carrier().kind() == kAirForce;
    if (a.kind == ActionKind::Strike && flier) out.push_back(a.target);
    if (a.kind == ActionKind::ShotDown) out.push_back(a.to);
    if (a.kind == ActionKind::Trade) out.push_back(a.target);
  }
  return out;
}

std::string CotulenhRules::record_notation(const State& s, const Move& m) const {
  return record_turn(position(s), turn_of(m), o_);
}

FreeSetup CotulenhRules::free_setup(const Observation& board, Side first) const {
  FreeSetup f;
  f.problems = check_free_setup(board, o_);
  if (f.problems.empty()) f.state = make_state(setup_position(board, first, o_));
  return f;
}

uint64_t CotulenhRules::perft(const State& s, int depth, const PerftOptions&) const {
  return cotulenh::perft(position(s), depth, o_);
}

}  // namespace sb::cotulenh

namespace sb {
std::unique_ptr<Rules> make_cotulenh_rules(const Json& options) {
  return std::make_unique<cotulenh::CotulenhRules>(cotulenh::Options::from_json(options));
}
}  // namespace sb
