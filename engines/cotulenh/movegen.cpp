#include "engines/cotulenh/movegen.h"

#include <algorithm>
#include <cstdlib>

namespace sb::cotulenh {

Reach reach_of(Piece p) {
  const bool h = p.hero();
  Reach r;
  switch (p.kind()) {
    case kCommander:
      // Moves any distance along a clear file or rank, captures one step away.
      r.move_orth = kRanks;
      r.move_diag = h ? kRanks : 0;
      r.capture_orth = h ? 2 : 1;
      r.capture_diag = h ? 2 : 0;
      break;
    case kHeadquarters:
      break;
    case kInfantry:
    case kEngineer:
    case kAntiAir:
      r.move_orth = r.capture_orth = h ? 2 : 1;
      r.move_diag = r.capture_diag = h ? 2 : 0;
      break;
    case kMilitia:
      r.move_orth = r.capture_orth = r.move_diag = r.capture_diag = h ? 2 : 1;
      break;
    case kTank:
      r.move_orth = r.capture_orth = h ? 3 : 2;
      r.move_diag = r.capture_diag = h ? 3 : 0;
      break;
    case kArtillery:
      r.move_orth = r.capture_orth = r.move_diag = r.capture_diag = h ? 4 : 3;
      break;
    case kMissile:
      r.move_orth = r.capture_orth = h ? 3 : 2;
      r.move_diag = r.capture_diag = h ? 2 : 1;
      break;
    case kAirForce:
      r.move_orth = r.capture_orth = r.move_diag = r.capture_diag = h ? 5 : 4;
      break;
    case kNavy:
      r.move_orth = r.move_diag = h ? 5 : 4;
      r.capture_orth = r.capture_diag = h ? 4 : 3;  // the ship's gun, as land artillery
      r.missile = h ? 5 : 4;                        // sea-to-sea missiles, against navies
      break;
    default:
      break;
  }
  return r;
}

namespace {

int zone_radius(Piece p, const Options& o) {
  int r = 0;
  switch (p.kind()) {
    case kAntiAir:
      r = 1;
      break;
    case kMissile:
      r = 2;
      break;
    case kNavy:
      r = 1;
      break;
    default:
      return 0;
  }
  return r + (p.hero() && o.hero_extends_air_defence ? 1 : 0);
}

bool can_hit_air(Kind k) {
  return k == kAntiAir || k == kMissile || k == kNavy || k == kAirForce;
}

unsigned lowest_bit_index(unsigned m) {
  return static_cast<unsigned>(__builtin_ctz(m));
}

}  // namespace

SiteSet air_defence_zone(const Position& pos, Side side, const Options& o) {
  SiteSet z;
  for (int s = 0; s < kSites; ++s) {
    const Stack& st = pos.at[s];
    if (st.empty() || st.side() != side) continue;
    for (int i = 0; i < st.n; ++i) {
      const int r = zone_radius(st.p[i], o);
      if (!r) continue;
      const int f0 = file_of(s), r0 = rank_of(s);
      for (int df = -r; df <= r; ++df)
        for (int dr = -r; dr <= r; ++dr) {
          const int f = f0 + df, rr = r0 + dr;
          if (f < 0 || f >= kFiles || rr < 0 || rr >= kRanks) continue;
          if (o.zone_shape == Options::ZoneShape::Circle && df * df + dr * dr > r * r) continue;
          z.set(site_of(f, rr));
        }
    }
  }
  return z;
}

Generator::Generator(const Position& pos, const Options& o) : Generator(pos, o, pos.to_move) {}

Generator::Generator(const Position& pos, const Options& o, Side us)
    : pos_(pos), o_(o), us_(us), enemy_zone_(air_defence_zone(pos, opponent(us), o)) {}

bool Generator::commander_exposed(const Stack& st) const {
  if (st.n == 1) return st.p[0].kind() == kCommander;
  return !o_.hq_shelters_commander && st.n == 2 && st.p[0].kind() == kHeadquarters;
}

void Generator::ray_actions(int from, unsigned mask, const Stack& group, int dir, std::vector<Action>& out) const {
  const Geometry& g = Geometry::get();
  const Piece carrier = group.p[0];
  const Kind k = carrier.kind();
  const Reach r = reach_of(carrier);
  const bool diag = is_diagonal(dir);
  const int move_reach = diag ? r.move_diag : r.move_orth;
  const int capture_reach = diag ? r.capture_diag : r.capture_orth;
  const bool single = group.n == 1;
  // A lone commander facing the enemy commander may take it along the open line.
  const bool facing = k == kCommander && single && !diag && commander_exposed(pos_.at[from]);
  int limit = std::max({move_reach, capture_reach, r.missile});
  if (facing) limit = kRanks;
  const int len = std::min<int>(limit, g.ray_len[from][dir]);
  if (len == 0) return;

  const bool flies = k == kAirForce;
  const bool heavy = is_heavy(k);
  const bool ferry = k == kEngineer && group.n > 1;  // an engineer carries a heavy weapon across the river only
  const bool immune = flies && carrier.hero();
  const uint8_t m = static_cast<uint8_t>(mask);

  bool blocked = false;     // some piece stands between `from` and the current site
  bool off_ground = false;  // the path has left the ground the group travels over
  bool deep = false;        // the path has crossed deep water
  int prev = from;
  for (int step = 1; step <= len; ++step) {
    const int t = g.ray[from][dir][step - 1];
    if (crosses_river(prev, t) && !crosses_at_ford(prev, t, o_.diagonal_fords)) deep = true;
    const Stack& st = pos_.at[t];
    const uint8_t ts = static_cast<uint8_t>(t);

    if (flies && !immune && enemy_zone_[t]) {
      // Into the enemy's fire: a strike there is one-for-one, anything else is shot down.
      if (!st.empty() && st.side() != us_) {
        if (step <= capture_reach) out.push_back({m, ts, ts, ActionKind::Trade});
      } else if (step <= move_reach) {
        out.push_back({m, ts, 0, ActionKind::ShotDown});
      }
      return;
    }

    if (st.empty() || st.side() == us_) {
      bool ok = step <= move_reach && (flies || (!blocked && !off_ground));
      if (ok && heavy && deep) ok = false;
      if (ok && ferry) ok = step == 1 && crosses_river(from, t);
      if (ok) {
        if (st.empty()) {
          if (may_stand(k, t, o_.air_force_over_sea)) out.push_back({m, ts, 0, ActionKind::Move});
        } else {
          const Stack merged = st.merged(group);
          if (st.n + group.n <= kMaxStack && stack_allowed(merged) &&
              may_stand(merged.carrier().kind(), t, o_.air_force_over_sea))
            out.push_back({m, ts, 0, ActionKind::Board});
        }
      }
    } else {
      const Kind target = st.carrier().kind();
      bool reach = false;
      if (k == kHeadquarters) {
        reach = false;
      } else if (o_.air_targets == Options::AirTargets::AirDefence && target == kAirForce && !can_hit_air(k)) {
        reach = false;
      } else if (k == kNavy) {
        if (target == kNavy) {
          reach = step <= r.missile && !blocked;  // sea-to-sea missiles: navies only
        } else if (g.sea[t]) {
          // Neither gun (land targets) nor missile (navies): the ship's anti-aircraft gun.
          const Reach aa = reach_of(Piece::make(kAntiAir, us_, carrier.hero()));
          reach = step <= (diag ? aa.capture_diag : aa.capture_orth) && !blocked;
        } else {
          reach = step <= capture_reach;
        }
      } else if (k == kArtillery || flies) {
        reach = step <= capture_reach;
      } else {
        reach = step <= capture_reach && !blocked;
      }
      const bool facing_capture = facing && !blocked && commander_exposed(st);
      if (reach || facing_capture) {
        if (ferry) {
          if (step == 1 && crosses_river(from, t) && may_stand(k, t, o_.air_force_over_sea))
            out.push_back({m, ts, ts, ActionKind::Capture});
        } else {
          // Stand in the target's place where the capturer can stand there; a navy only
          // when no land lies between ("không qua đất liền").
          const bool replace = may_stand(k, t, o_.air_force_over_sea) && !(k == kNavy && off_ground);
          if (replace) out.push_back({m, ts, ts, ActionKind::Capture});
          // In place: where it cannot stand, and an air force's bombing run (but an
          // air force that takes an air force must take its place).
          const bool in_place = reach && single && (flies ? target != kAirForce : !replace);
          if (in_place) out.push_back({m, static_cast<uint8_t>(from), ts, ActionKind::Strike});
        }
      }
    }

    if (!st.empty()) {
      blocked = true;
      // Only fliers and the shooters over blockers (artillery, the navy's gun) look past a piece.
      if (!flies && k != kArtillery && k != kNavy) return;
    }
    if (!flies && !(k == kNavy ? g.navigable[t] : g.land[t])) off_ground = true;
    prev = t;
  }
}

void Generator::group_actions(int from, unsigned mask, std::vector<Action>& out) const {
  const Stack group = pos_.at[from].subset(mask);
  for (int d = 0; d < kDirections; ++d) ray_actions(from, mask, group, d, out);
}

bool Generator::attacks(int from, int index, int target) const {
  const Geometry::Line l = Geometry::line(from, target);
  if (l.dir < 0) return false;
  thread_local std::vector<Action> acts;
  acts.clear();
  const unsigned mask = 1u << index;
  ray_actions(from, mask, pos_.at[from].subset(mask), l.dir, acts);
  for (const Action& a : acts)
    if ((a.kind == ActionKind::Capture || a.kind == ActionKind::Strike || a.kind == ActionKind::Trade) &&
        a.target == target)
      return true;
  return false;
}

void Generator::turns_from(int from, std::vector<Turn>& out) const {
  const Stack& src = pos_.at[from];
  if (src.n == 1) {
    thread_local std::vector<Action> acts;
    acts.clear();
    group_actions(from, 1, acts);
    for (const Action& a : acts) {
      Turn t;
      t.from = static_cast<uint8_t>(from);
      t.n = 1;
      t.a[0] = a;
      out.push_back(t);
    }
    return;
  }
  const unsigned full = (1u << src.n) - 1;
  std::array<std::vector<Action>, 1u << kMaxStack> acts;
  for (unsigned mask = 1; mask <= full; ++mask)
    if (stack_allowed(src.subset(mask))) group_actions(from, mask, acts[mask]);

  Turn cur;
  cur.from = static_cast<uint8_t>(from);
  // Each piece, lowest first, either stays or acts in a group with higher pieces.
  auto rec = [&](auto&& self, unsigned assigned) -> void {
    if (assigned == full) {
      if (cur.n == 0) return;
      unsigned leaving = 0;
      for (int i = 0; i < cur.n; ++i)
        if (cur.a[i].kind != ActionKind::Strike) leaving |= cur.a[i].group;
      const Stack stay = src.subset(full & ~leaving);
      if (stay.n && (!stack_allowed(stay) || !may_stand(stay.carrier().kind(), from, o_.air_force_over_sea))) return;
      out.push_back(cur);
      return;
    }
    const unsigned free_bits = full & ~assigned;
    const unsigned low = 1u << lowest_bit_index(free_bits);
    self(self, assigned | low);
    for (unsigned mask = free_bits; mask; mask = (mask - 1) & free_bits) {
      if (!(mask & low)) continue;
      for (const Action& a : acts[mask]) {
        bool clash = false;
        for (int i = 0; i < cur.n; ++i)
          if (cur.a[i].effect_site() == a.effect_site()) clash = true;
        if (clash) continue;
        cur.a[cur.n++] = a;
        self(self, assigned | mask);
        --cur.n;
      }
    }
  };
  rec(rec, 0);
}

void Generator::turns(std::vector<Turn>& out) const {
  for (int s = 0; s < kSites; ++s) {
    const Stack& st = pos_.at[s];
    if (!st.empty() && st.side() == us_) turns_from(s, out);
  }
}

Ending battle_ending(const Position& pos, const Options& o) {
  auto lost_battle = [&](int side) -> const char* {
    const auto& l = pos.lost[side];
    if (l[kCommander] >= 1) return "raid";
    if (o.mode == Options::Mode::Full) return nullptr;
    if (l[kNavy] >= 2) return "naval battle";
    if (l[kAirForce] >= 2) return "air battle";
    if (l[kInfantry] >= 2 && l[kTank] >= 2 && l[kArtillery] >= 2) return "land battle";
    return nullptr;
  };
  const char* red = lost_battle(0);
  const char* blue = lost_battle(1);
  Ending e;
  if (!red && !blue) return e;
  e.over = true;
  e.decided = !(red && blue);
  e.loser = red ? Side::First : Side::Second;
  e.battle = red ? red : blue;
  return e;
}

namespace {

void promote_heroes(Position& pos, const Options& o, std::vector<std::pair<int, int>>* promoted) {
  std::vector<std::pair<int, int>> promote;  // (site, index)
  for (int side = 0; side < 2; ++side) {
    const Side x = side == 0 ? Side::First : Side::Second;
    int commander = -1;
    for (int s = 0; s < kSites && commander < 0; ++s)
      if (!pos.at[s].empty() && pos.at[s].side() != x && pos.at[s].has(kCommander)) commander = s;
    if (commander < 0) continue;
    // Most pieces are on no line with the commander, or too far: only the others need
    // the generator (and its air-defence zones).
    std::vector<std::pair<int, int>> near;
    for (int s = 0; s < kSites; ++s) {
      const Stack& st = pos.at[s];
      if (st.empty() || st.side() != x) continue;
      const Geometry::Line l = Geometry::line(s, commander);
      if (l.dir < 0) continue;
      for (int i = 0; i < st.n; ++i) {
        if (st.p[i].hero()) continue;
        const Reach r = reach_of(st.p[i]);
        const int reach = std::max({r.capture_orth, r.capture_diag, r.missile});
        if (l.dist <= reach || (st.p[i].kind() == kCommander && !is_diagonal(l.dir))) near.push_back({s, i});
      }
    }
    if (near.empty()) continue;
    const Generator gen(pos, o, x);
    for (auto [s, i] : near)
      if (gen.attacks(s, i, commander)) promote.push_back({s, i});
  }
  if (o.last_defender_hero) {
    for (int side = 0; side < 2; ++side) {
      int count = 0, site = -1, index = -1;
      for (int s = 0; s < kSites; ++s) {
        const Stack& st = pos.at[s];
        if (st.empty() || index_of(st.side()) != side) continue;
        for (int i = 0; i < st.n; ++i) {
          const Kind k = st.p[i].kind();
          if (k == kCommander || k == kHeadquarters) continue;
          ++count;
          site = s;
          index = i;
        }
      }
      if (count == 1 && !pos.at[site].p[index].hero()) promote.push_back({site, index});
    }
  }
  std::sort(promote.begin(), promote.end());
  promote.erase(std::unique(promote.begin(), promote.end()), promote.end());
  for (auto [s, i] : promote) pos.at[s].p[i] = pos.at[s].p[i].with_hero();
  if (promoted) *promoted = promote;
}

}  // namespace

Position apply_turn(const Position& pos, const Turn& t, const Options& o, std::vector<std::pair<int, int>>* promoted) {
  if (promoted) promoted->clear();
  Position next = pos;
  const Side us = pos.to_move, them = opponent(us);
  const int u = index_of(us), e = index_of(them);
  const Stack& src = pos.at[t.from];
  const unsigned full = (1u << src.n) - 1;
  unsigned leaving = 0;
  for (int i = 0; i < t.n; ++i)
    if (t.a[i].kind != ActionKind::Strike) leaving |= t.a[i].group;
  next.at[t.from] = src.subset(full & ~leaving);

  auto take = [&](int site) {
    const Stack& v = pos.at[site];
    next.points[u] += v.points();
    for (int i = 0; i < v.n; ++i) ++next.lost[e][v.p[i].kind()];
    next.at[site] = Stack{};
  };
  auto lose = [&](const Stack& g) {
    next.points[e] += g.points();
    for (int i = 0; i < g.n; ++i) ++next.lost[u][g.p[i].kind()];
  };
  for (int i = 0; i < t.n; ++i) {
    const Action& a = t.a[i];
    const Stack g = src.subset(a.group);
    switch (a.kind) {
      case ActionKind::Move:
        next.at[a.to] = g;
        break;
      case ActionKind::Board:
        next.at[a.to] = pos.at[a.to].merged(g);
        break;
      case ActionKind::Capture:
        take(a.target);
        next.at[a.to] = g;
        break;
      case ActionKind::Strike:
        take(a.target);
        break;
      case ActionKind::ShotDown:
        lose(g);
        break;
      case ActionKind::Trade:
        take(a.target);
        lose(g);
        break;
    }
  }
  const Ending before = battle_ending(pos, o);
  const Ending after = battle_ending(next, o);
  if (!before.over && after.over && after.decided) next.points[index_of(opponent(after.loser))] += o.win_bonus;
  if (!after.over) promote_heroes(next, o, promoted);
  next.to_move = them;
  return next;
}

bool commanders_facing(const Position& pos, const Options& o) {
  int c[2] = {-1, -1};
  for (int s = 0; s < kSites; ++s) {
    const Stack& st = pos.at[s];
    const bool exposed = (st.n == 1 && st.p[0].kind() == kCommander) ||
                         (!o.hq_shelters_commander && st.n == 2 && st.p[0].kind() == kHeadquarters);
    if (exposed) c[index_of(st.side())] = s;
  }
  if (c[0] < 0 || c[1] < 0) return false;
  const Geometry::Line l = Geometry::line(c[0], c[1]);
  if (l.dir < 0 || is_diagonal(l.dir)) return false;
  const Geometry& g = Geometry::get();
  for (int k = 0; k < l.dist - 1; ++k)
    if (!pos.at[g.ray[c[0]][l.dir][k]].empty()) return false;
  return true;
}

bool commander_attacked(const Position& pos, Side by, const Options& o) {
  int commander = -1;
  for (int s = 0; s < kSites && commander < 0; ++s)
    if (!pos.at[s].empty() && pos.at[s].side() != by && pos.at[s].has(kCommander)) commander = s;
  if (commander < 0) return false;
  const Generator gen(pos, o, by);
  for (int s = 0; s < kSites; ++s) {
    const Stack& st = pos.at[s];
    if (st.empty() || st.side() != by) continue;
    for (int i = 0; i < st.n; ++i)
      if (gen.attacks(s, i, commander)) return true;
  }
  return false;
}

bool turn_allowed(const Position& pos, const Turn& t, const Options& o) {
  if (o.facing != Options::Facing::Illegal && o.safety != Options::Safety::MustEscape) return true;
  const Position next = apply_turn(pos, t, o);
  if (battle_ending(next, o).over) return true;  // the game ends with this move
  if (o.facing == Options::Facing::Illegal && commanders_facing(next, o)) return false;
  if (o.safety == Options::Safety::MustEscape && commander_attacked(next, next.to_move, o)) return false;
  return true;
}

namespace {

uint64_t perft_rec(const Position& pos, int depth, const Options& o, std::vector<std::vector<Turn>>& pool) {
  if (battle_ending(pos, o).over) return 0;
  std::vector<Turn>& turns = pool[depth];
  turns.clear();
  Generator(pos, o).turns(turns);
  const bool filter = o.facing == Options::Facing::Illegal || o.safety == Options::Safety::MustEscape;
  if (depth == 1 && !filter) return turns.size();
  uint64_t n = 0;
  // Index loop: deeper levels use other vectors of the pool, so `turns` stays valid.
  for (size_t i = 0; i < turns.size(); ++i) {
    if (filter && !turn_allowed(pos, turns[i], o)) continue;
    n += depth == 1 ? 1 : perft_rec(apply_turn(pos, turns[i], o), depth - 1, o, pool);
  }
  return n;
}

}  // namespace

uint64_t perft(const Position& pos, int depth, const Options& o) {
  if (depth <= 0) return 1;
  std::vector<std::vector<Turn>> pool(depth + 1);
  return perft_rec(pos, depth, o, pool);
}

}  // namespace sb::cotulenh
