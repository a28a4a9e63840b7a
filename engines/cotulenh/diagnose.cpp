// Why a written move is illegal, in a player's words, and which rule a physical
// change on the board breaks. Called only when no legal move matches, so the checks
// run in the order a player would think of them and the first that fails is told.
#include <algorithm>

#include "engines/common/errors.h"
#include "engines/cotulenh/cotulenh_rules.h"
#include "engines/cotulenh/notation.h"

namespace sb::cotulenh {

namespace {

// "a tank", "an engineer"; the uncountable ones "the infantry".
std::string a_(Kind k) {
  const std::string n = kind_name(k);
  if (k == kInfantry || k == kMilitia || k == kArtillery) return "the " + n;
  const bool vowel = n[0] == 'a' || n[0] == 'e' || n[0] == 'i' || n[0] == 'o';
  return (vowel ? "an " : "a ") + n;
}

bool carries_anything(Kind k) {
  return k == kTank || k == kAirForce || k == kNavy || k == kEngineer || k == kHeadquarters;
}
std::string steps(int n) {
  return std::to_string(n) + (n == 1 ? " step" : " steps");
}

std::string side_word(Side s) {
  return s == Side::First ? "red" : "blue";
}

std::string what_carries(Kind carrier) {
  switch (carrier) {
    case kTank:
      return "a tank carries only a commander, an infantry or a militia";
    case kAirForce:
      return "an air force carries only a commander, an infantry or a militia";
    case kEngineer:
      return "an engineer carries only one heavy weapon (artillery, anti-aircraft gun or missile)";
    case kNavy:
      return "a navy carries at most one tank, one air force and one commander, infantry or militia";
    case kHeadquarters:
      return "only its commander may enter a headquarters";
    default:
      return a_(carrier) + " carries nothing";
  }
}

std::string terrain_word(int site) {
  const Geometry& g = Geometry::get();
  if (g.sea[site]) return site_name(site) + " is open sea";
  return site_name(site) + " is land";
}

// The first reason the one action `w` of the group `mask` breaks, or "" when the
// action on its own is allowed.
std::string diagnose_action(const Position& p, const Options& o, int from, unsigned mask, const WrittenAction& w) {
  const Geometry& g = Geometry::get();
  const Side us = p.to_move;
  const Stack group = p.at[from].subset(mask);
  const Piece carrier = group.p[0];
  const Kind k = carrier.kind();
  const std::string name = group.n > 1 ? "a stack carried by " + a_(k) : a_(k);
  const int to = w.to;
  if (k == kHeadquarters) return "the headquarters never moves";
  if (to == from) return "a piece must leave its site";
  const Geometry::Line l = Geometry::line(from, to);
  if (l.dir < 0) return "pieces move and capture only along files, ranks and diagonals (no knight's jumps)";
  const bool diag = is_diagonal(l.dir);
  const Reach r = reach_of(carrier);
  const Stack& dest = p.at[to];
  const bool enemy = !dest.empty() && dest.side() != us;
  const bool flies = k == kAirForce;

  if (enemy && w.sep == '-')
    return site_name(to) + " holds " + side_word(dest.side()) + "'s " + kind_name(dest.carrier().kind()) +
           ": a capture is written with x (taking its place) or @ (in place)";
  if (!enemy && w.sep != '-')
    return dest.empty() ? "there is nothing to capture on " + site_name(to)
                        : "you cannot capture your own " + std::string(kind_name(dest.carrier().kind()));

  // Air defence along the way (an air force flying into a zone is shot down at its edge).
  if (flies && !carrier.hero()) {
    const SiteSet zone = air_defence_zone(p, opponent(us), o);
    for (int i = 0; i < l.dist - 1; ++i) {
      const int s = g.ray[from][l.dir][i];
      if (zone[s])
        return "the air force would be shot down entering " + side_word(opponent(us)) + "'s air defence at " +
               site_name(s) + " (write Fx-" + site_name(s) + " to fly into it)";
    }
  }

  if (!enemy) {
    const int reach = diag ? r.move_diag : r.move_orth;
    if (diag && reach == 0)
      return k == kCommander ? "the commander never moves diagonally (only a hero commander does)"
                             : std::string(a_(k)) + " moves diagonally only as a hero";
    if (l.dist > reach)
      return name + " moves at most " + steps(reach) + (carrier.hero() ? " (a hero)" : "") + ", not " +
             std::to_string(l.dist);
    if (!flies) {
      for (int i = 0; i < l.dist - 1; ++i) {
        const int s = g.ray[from][l.dir][i];
        if (!p.at[s].empty())
          return "the way from " + site_name(from) + " to " + site_name(to) + " is blocked on " + site_name(s) +
                 " (only an air force flies over pieces)";
        if (k == kNavy ? !g.navigable[s] : !g.land[s])
          return k == kNavy ? "a navy sails only on the sea, the coast and the river mouth (d6 e6 d7 e7)"
                            : name + " cannot cross the open sea";
      }
    }
    if (is_heavy(k) && group.n == 1) {
      int prev = from;
      for (int i = 0; i < l.dist; ++i) {
        const int s = g.ray[from][l.dir][i];
        if (crosses_river(prev, s) && !crosses_at_ford(prev, s, o.diagonal_fords))
          return "heavy pieces cross deep water only at a ford (files f and h) or carried by an engineer";
        prev = s;
      }
    }
    if (k == kEngineer && group.n > 1 && !(l.dist == 1 && crosses_river(from, to)))
      return "an engineer carries a heavy weapon only across the river, from one bank to the other";
    if (dest.empty()) {
      if (!may_stand(k, to, o.air_force_over_sea))
        return k == kNavy ? "a navy sails only on the sea, the coast and the river mouth (d6 e6 d7 e7)"
                          : name + " cannot stand on " + site_name(to) + " (" + terrain_word(to) + ")";
    } else {
      const Stack merged = dest.merged(group);
      if (dest.n + group.n > kMaxStack || !stack_allowed(merged)) {
        if (!may_stand(k, to, o.air_force_over_sea))
          return k == kNavy ? "a navy sails only on the sea, the coast and the river mouth (d6 e6 d7 e7)"
                            : name + " cannot stand on " + site_name(to) + " (" + terrain_word(to) + ")";
        if (dest.has(kHeadquarters)) return "only its commander may enter a headquarters";
        const Kind dc = dest.carrier().kind();
        if (carries_anything(dc)) return what_carries(dc);
        if (carries_anything(k)) return what_carries(k);
        return name + " and " + a_(dc) + " cannot share a site";
      }
      if (!may_stand(merged.carrier().kind(), to, o.air_force_over_sea))
        return "that stack cannot stand on " + site_name(to) + " (" + terrain_word(to) + ")";
    }
    return "";
  }

  // A capture.
  const Kind target = dest.carrier().kind();
  if (o.air_targets == Options::AirTargets::AirDefence && target == kAirForce && k != kAntiAir && k != kMissile &&
      k != kNavy && k != kAirForce)
    return "only anti-aircraft guns, missiles, navies and air forces can take an air force";
  if (diag && (k == kNavy ? false : r.capture_diag == 0))
    return k == kCommander ? "the commander never captures diagonally (only a hero commander does)"
                           : std::string(a_(k)) + " captures diagonally only as a hero";
  bool over_blockers = flies || k == kArtillery;
  int reach = diag ? r.capture_diag : r.capture_orth;
  bool navy_aa = false;
  if (k == kNavy) {
    if (target == kNavy) {
      reach = r.missile;
    } else if (g.sea[to]) {
      const Reach aa = reach_of(Piece::make(kAntiAir, us, carrier.hero()));
      reach = diag ? aa.capture_diag : aa.capture_orth;
      navy_aa = true;
    } else {
      over_blockers = true;
    }
  }
  bool facing = false;
  if (k == kCommander && !diag && group.n == 1 && dest.n >= 1 && dest.has(kCommander)) {
    bool clear = true;
    for (int i = 0; i < l.dist - 1; ++i) clear = clear && p.at[g.ray[from][l.dir][i]].empty();
    facing = clear;
  }
  if (l.dist > reach && !facing) {
    if (k == kCommander)
      return carrier.hero() ? "a hero commander captures at most two steps away"
                            : "the commander captures only one step away";
    if (k == kNavy)
      return target == kNavy ? "a navy's sea-to-sea missiles reach " + steps(reach)
             : navy_aa       ? "at sea a navy hits anything but a navy only with its anti-aircraft gun, " +
                             steps(std::max(reach, 1)) + " along a file or rank"
                       : "a navy's guns reach " + steps(reach);
    return name + " captures at most " + steps(reach) + " away" + (carrier.hero() ? " (a hero)" : "");
  }
  if (!over_blockers) {
    for (int i = 0; i < l.dist - 1; ++i) {
      const int s = g.ray[from][l.dir][i];
      if (!p.at[s].empty())
        return std::string(a_(k)) + " fires straight: " + site_name(s) +
               " is in the way (only artillery and a navy's guns shoot over pieces)";
    }
  }
  const bool can_stand = may_stand(k, to, o.air_force_over_sea);
  bool land_between = false;
  for (int i = 0; i < l.dist - 1; ++i) land_between = land_between || !g.navigable[g.ray[from][l.dir][i]];
  const bool replace = can_stand && !(k == kNavy && land_between);
  if (k == kEngineer && group.n > 1 && !(l.dist == 1 && crosses_river(from, to)))
    return "an engineer carries a heavy weapon only across the river, from one bank to the other";
  if (w.sep == 'x' && !replace) {
    if (k == kNavy && can_stand) return "land lies between: the navy takes " + site_name(to) + " in place (write @)";
    return name + " cannot stand on " + site_name(to) + ": it captures in place (write @)";
  }
  if (w.sep == '@') {
    if (group.n > 1) return "a stack captures in place with one piece: write that piece alone";
    if (flies && target == kAirForce) return "an air force that takes an air force must take its place (write x)";
    if (!flies && replace)
      return k == kNavy ? "a navy taking a target on the coast must take its place (write x)"
                        : name +
                              " takes the place of what it captures here (write x); only targets at sea, or "
                              "inland for a navy's guns, are taken in place";
  }
  return "";
}

}  // namespace

std::string CotulenhRules::why_illegal(const State& s, std::string_view text) const {
  const Position& p = position(s);
  const std::vector<WrittenAction> acts = read_notation(text);
  if (battle_ending(p, o_).over) return "the game is over";
  const int from = acts[0].from;
  const Stack& src = p.at[from];
  if (src.empty()) return "there is no piece on " + cotulenh::site_name(from);
  if (src.side() != p.to_move)
    return "the piece on " + cotulenh::site_name(from) + " is " + side_word(src.side()) + "'s; it is " +
           side_word(p.to_move) + "'s turn";
  unsigned used = 0;
  std::vector<unsigned> masks;
  for (const WrittenAction& w : acts) {
    unsigned mask = 0;
    for (Kind k : w.pieces) {
      int found = -1;
      for (int i = 0; i < src.n && found < 0; ++i)
        if (src.p[i].kind() == k && !(mask & (1u << i))) found = i;
      if (found < 0) return "there is no " + std::string(kind_name(k)) + " on " + cotulenh::site_name(from);
      mask |= 1u << found;
    }
    if (used & mask) return "each piece of a stack acts at most once in a turn";
    used |= mask;
    masks.push_back(mask);
    const Stack group = src.subset(mask);
    if (!stack_allowed(group)) return what_carries(group.carrier().kind());
    const std::string why = diagnose_action(p, o_, from, mask, w);
    if (!why.empty()) return why;
  }
  // Each action is possible alone: the turn as a whole breaks a rule.
  for (size_t i = 0; i < acts.size(); ++i)
    for (size_t j = i + 1; j < acts.size(); ++j)
      if (acts[i].to == acts[j].to) return "two pieces of a stack cannot end on or take the same site";
  unsigned leaving = 0;
  for (size_t i = 0; i < acts.size(); ++i)
    if (acts[i].sep != '@') leaving |= masks[i];
  const Stack stay = src.subset(((1u << src.n) - 1) & ~leaving);
  if (stay.n && !stack_allowed(stay))
    return what_carries(stay.carrier().kind()) + ": those left behind cannot stay together";
  if (stay.n && !may_stand(stay.carrier().kind(), from, o_.air_force_over_sea))
    return std::string("the ") + kind_name(stay.carrier().kind()) + " cannot be left on " + cotulenh::site_name(from) +
           " (" + terrain_word(from) + ")";
  // Allowed by the pieces' rules: the options that judge a move by its result refuse it.
  std::vector<Turn> all;
  Generator(p, o_).turns_from(from, all);
  const std::string key = canonical_key(acts);
  for (const Turn& t : all) {
    if (canonical_key(read_notation(turn_notation(p, t))) != key) continue;
    const Position next = apply_turn(p, t, o_);
    if (o_.facing == Options::Facing::Illegal && commanders_facing(next, o_))
      return "the commanders would face each other on an open line";
    if (o_.safety == Options::Safety::MustEscape && commander_attacked(next, next.to_move, o_))
      return "your commander would be left where it can be taken";
  }
  return "not a legal move in this position";
}

std::optional<IllegalChange> CotulenhRules::explain_change(const State& s, const Observation& after) const {
  const Observation before = observe(s);
  if (after.sites.size() != before.sites.size()) return std::nullopt;
  const Position& p = position(s);
  const char mover = side_letter(p.to_move);
  std::vector<int> vacated, filled, removed;
  for (int i = 0; i < kSites; ++i) {
    const Token& b = before.sites[i];
    const Token& a = after.sites[i];
    if (a == b) continue;
    if (b.side == mover) {
      const int k = a.empty() ? -1 : kind_of_letter(a.kind);
      if (a.empty() || (a.side == mover && k >= 0 && p.at[i].n > 1 && p.at[i].has(static_cast<Kind>(k))))
        vacated.push_back(i);  // lifted off, perhaps uncovering a piece that rode below
      else if (a.side == mover)
        filled.push_back(i);  // something boarded and now shows on top
      else
        return std::nullopt;
    } else if (a.side == mover) {
      filled.push_back(i);
    } else if (!b.empty() && a.empty()) {
      removed.push_back(i);
    } else {
      return std::nullopt;
    }
  }
  if (vacated.empty() && filled.empty() && removed.size() == 1) {
    // An enemy piece taken off with nothing of ours moved: a capture in place (or a
    // bombing run) no piece of ours can make.
    const int target = removed[0];
    for (const Turn& t : legal_turns(p))
      for (int i = 0; i < t.n; ++i)
        if (t.a[i].target == target && (t.a[i].kind == ActionKind::Strike || t.a[i].kind == ActionKind::Trade))
          return std::nullopt;
    IllegalChange c;
    c.reason = std::string("no ") + side_word(p.to_move) + " piece can take the " +
               kind_name(p.at[target].carrier().kind()) + " on " + cotulenh::site_name(target) +
               " from where it stands";
    c.squares = {target};
    return c;
  }
  if (vacated.size() != 1 || filled.size() != 1) return std::nullopt;
  const int from = vacated[0], to = filled[0];
  const Stack& src = p.at[from];
  char letter = after.sites[to].kind;
  if (letter == 0 || !src.has(static_cast<Kind>(std::max(0, kind_of_letter(letter)))))
    letter = kKindLetter[src.top().kind()];
  const bool onto_enemy = !before.sites[to].empty() && before.sites[to].side != mover;
  const std::string text =
      std::string(1, letter) + cotulenh::site_name(from) + (onto_enemy ? "x" : "-") + cotulenh::site_name(to);
  for (const Turn& t : legal_turns(p))
    if (turn_notation(p, t) == text) return std::nullopt;  // a legal move; something else differs
  IllegalChange c;
  try {
    c.reason = text + ": " + why_illegal(s, text);
  } catch (const InputError&) {
    return std::nullopt;
  }
  c.squares = {from, to};
  c.squares.insert(c.squares.end(), removed.begin(), removed.end());
  return c;
}

}  // namespace sb::cotulenh
