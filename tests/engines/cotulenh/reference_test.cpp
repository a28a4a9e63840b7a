// The fast generator against a slow reference written here from the rules (default
// options): for every piece and group, every site of the board is tried in turn and
// judged by plain predicates, instead of walking rays. Both must list the same moves
// at every node and count the same perft.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engines/cotulenh/cotulenh_rules.h"
#include "engines/cotulenh/notation.h"
#include "engines/cotulenh/position.h"

namespace sb::cotulenh {
namespace {

// ---------------------------------------------------------------- the reference

enum RK { C, H, I, E, T, A, G, S, F, N, M };
const char* const kLetters = "CHIETAGSFNM";

struct RP {
  int kind = 0;
  int side = 0;
  bool hero = false;
};
using RStack = std::vector<RP>;

struct RPos {
  std::vector<RStack> sq = std::vector<RStack>(132);
  int stm = 0;
  int points[2] = {0, 0};
  int lost[2][11] = {};
};

int fl(int s) {
  return s % 11;
}
int rk(int s) {
  return s / 11;
}
bool land(int s) {
  return fl(s) >= 2;
}
bool navigable(int s) {
  return fl(s) <= 2 || ((fl(s) == 3 || fl(s) == 4) && (rk(s) == 5 || rk(s) == 6));
}
bool foot(int k) {
  return k == C || k == I || k == M;
}
bool heavy(int k) {
  return k == A || k == G || k == S;
}
int layer(int k) {
  return k == N || k == E || k == H ? 0 : k == T ? 1 : k == F ? 2 : 3;
}
std::string sq_name(int s) {
  std::string n(1, static_cast<char>('a' + fl(s)));
  return n.append(std::to_string(rk(s) + 1));
}

void canon(RStack& st) {
  std::stable_sort(st.begin(), st.end(), [](const RP& a, const RP& b) { return layer(a.kind) < layer(b.kind); });
}

bool rides(int carrier, int rider) {
  switch (carrier) {
    case T:
    case F:
      return foot(rider);
    case E:
      return heavy(rider);
    case H:
      return rider == C;
    case N:
      return rider == T || rider == F || foot(rider);
    default:
      return false;
  }
}

bool stack_ok(const RStack& st) {
  if (st.size() <= 1) return true;
  for (const RP& p : st)
    if (p.side != st[0].side) return false;
  for (size_t c = 0; c < st.size(); ++c) {
    bool all = true;
    int t = 0, f = 0, ft = 0;
    for (size_t o = 0; o < st.size(); ++o) {
      if (o == c) continue;
      all = all && rides(st[c].kind, st[o].kind);
      t += st[o].kind == T;
      f += st[o].kind == F;
      ft += foot(st[o].kind);
    }
    if (!all) continue;
    if (st[c].kind == N) return st.size() <= 4 && t <= 1 && f <= 1 && ft <= 1;
    return st.size() == 2;
  }
  return false;
}

bool stands(int carrier, int s) {
  return carrier == N ? navigable(s) : carrier == F ? true : land(s);
}

struct RReach {
  int mo, md, co, cd, missile;
};
RReach reach(const RP& p) {
  static const RReach base[11] = {{99, 0, 1, 0, 0}, {0, 0, 0, 0, 0}, {1, 0, 1, 0, 0}, {1, 0, 1, 0, 0},
                                  {2, 0, 2, 0, 0},  {3, 3, 3, 3, 0}, {1, 0, 1, 0, 0}, {2, 1, 2, 1, 0},
                                  {4, 4, 4, 4, 0},  {4, 4, 3, 3, 4}, {1, 1, 1, 1, 0}};
  RReach r = base[p.kind];
  if (p.kind == H || !p.hero) return r;
  auto up = [](int o, int d) { return d > 0 ? d + 1 : o + 1; };
  r.md = p.kind == C ? 99 : up(r.mo, r.md);
  r.cd = up(r.co, r.cd);
  if (r.mo != 99) r.mo += 1;
  r.co += 1;
  if (r.missile) r.missile += 1;
  return r;
}

std::vector<bool> zone_of(const RPos& p, int side) {
  std::vector<bool> z(132, false);
  for (int s = 0; s < 132; ++s)
    for (const RP& q : p.sq[s]) {
      if (q.side != side) continue;
      int r = q.kind == G ? 1 : q.kind == S ? 2 : q.kind == N ? 1 : 0;
      if (!r) continue;
      if (q.hero) ++r;
      for (int t = 0; t < 132; ++t) {
        const int dx = fl(t) - fl(s), dy = rk(t) - rk(s);
        if (dx * dx + dy * dy <= r * r) z[t] = true;
      }
    }
  return z;
}

bool exposed(const RStack& st) {
  return st.size() == 1 && st[0].kind == C;
}

enum RA { kGo, kJoin, kTake, kHit, kBurn, kSwap };
struct RAct {
  int kind, to, target;  // to: where the group ends or dies; target: site taken
  int effect() const { return kind == kHit || kind == kSwap ? target : to; }
};

// Everything `group` (from the stack on `from`, all of side `us`) may do toward `t`.
std::vector<RAct> act_toward(const RPos& p, int us, int from, const RStack& group, int t,
                             const std::vector<bool>& zone) {
  std::vector<RAct> out;
  const int df = fl(t) - fl(from), dr = rk(t) - rk(from);
  if (t == from || !(df == 0 || dr == 0 || std::abs(df) == std::abs(dr))) return out;
  const int dist = std::max(std::abs(df), std::abs(dr));
  const bool diag = df != 0 && dr != 0;
  const int sx = (df > 0) - (df < 0), sy = (dr > 0) - (dr < 0);
  std::vector<int> between;
  for (int k = 1; k < dist; ++k) between.push_back((rk(from) + sy * k) * 11 + fl(from) + sx * k);
  const RP c = group[0];
  const RReach r = reach(c);
  const int mreach = diag ? r.md : r.mo, creach = diag ? r.cd : r.co;
  const RStack& dest = p.sq[t];
  const bool enemy = !dest.empty() && dest[0].side != us;
  const bool single = group.size() == 1;
  bool clear = true, ground = true;
  for (int s : between) {
    clear = clear && p.sq[s].empty();
    ground = ground && (c.kind == N ? navigable(s) : land(s));
  }

  if (c.kind == F && !c.hero) {
    for (int s : between)
      if (zone[s]) return out;
    if (zone[t]) {
      if (enemy && dist <= creach) out.push_back({kSwap, t, t});
      if (!enemy && dist <= mreach) out.push_back({kBurn, t, -1});
      return out;
    }
  }
  if (!enemy) {
    bool ok = dist <= mreach && (c.kind == F || (clear && ground));
    if (ok && heavy(c.kind) && single) {
      int prev = from;
      std::vector<int> path = between;
      path.push_back(t);
      for (int s : path) {
        const bool cross = (rk(prev) <= 5) != (rk(s) <= 5);
        const bool ford = fl(prev) == fl(s) && (fl(s) == 5 || fl(s) == 7);
        if (cross && !ford) ok = false;
        prev = s;
      }
    }
    if (ok && c.kind == E && !single) ok = dist == 1 && (rk(from) <= 5) != (rk(t) <= 5);
    if (!ok) return out;
    if (dest.empty()) {
      if (stands(c.kind, t)) out.push_back({kGo, t, -1});
    } else {
      RStack merged = dest;
      merged.insert(merged.end(), group.begin(), group.end());
      canon(merged);
      if (merged.size() <= 4 && stack_ok(merged) && stands(merged[0].kind, t)) out.push_back({kJoin, t, -1});
    }
    return out;
  }
  if (c.kind == H) return out;
  const int tk = dest[0].kind;
  bool ok;
  if (c.kind == N && tk != N && fl(t) <= 1) {
    const RReach aa = reach(RP{G, us, c.hero});
    ok = dist <= (diag ? aa.cd : aa.co) && clear;
  } else if (c.kind == N) {
    ok = tk == N ? dist <= r.missile && clear : dist <= creach;
  } else if (c.kind == A || c.kind == F)
    ok = dist <= creach;
  else
    ok = dist <= creach && clear;
  const bool facing = c.kind == C && single && !diag && clear && exposed(p.sq[from]) && exposed(dest);
  if (!ok && !facing) return out;
  if (c.kind == E && !single) {
    if (dist == 1 && (rk(from) <= 5) != (rk(t) <= 5) && stands(E, t)) out.push_back({kTake, t, t});
    return out;
  }
  bool land_between = false;
  for (int s : between) land_between = land_between || !navigable(s);
  const bool replace = stands(c.kind, t) && !(c.kind == N && land_between);
  if (replace) out.push_back({kTake, t, t});
  if (ok && single && (c.kind == F ? tk != F : !replace)) out.push_back({kHit, from, t});
  return out;
}

std::vector<RAct> group_acts(const RPos& p, int us, int from, const RStack& group, const std::vector<bool>& zone) {
  std::vector<RAct> out;
  for (int t = 0; t < 132; ++t)
    for (const RAct& a : act_toward(p, us, from, group, t, zone))
      if (group.size() == 1 || a.kind != kHit) out.push_back(a);
  return out;
}

struct RTurn {
  int from;
  std::vector<std::pair<unsigned, RAct>> acts;  // (group mask, action)
};

std::string letters(const RStack& g) {
  std::string s;
  for (const RP& p : g) s += kLetters[p.kind];
  return g.size() > 1 ? "(" + s + ")" : s;
}

RStack subset(const RStack& st, unsigned mask) {
  RStack g;
  for (size_t i = 0; i < st.size(); ++i)
    if (mask & (1u << i)) g.push_back(st[i]);
  return g;
}

std::string notation(const RPos& p, const RTurn& t) {
  std::string out;
  for (size_t i = 0; i < t.acts.size(); ++i) {
    const auto& [mask, a] = t.acts[i];
    if (i) out += "/";
    out += letters(subset(p.sq[t.from], mask)) + sq_name(t.from);
    out += a.kind == kTake || a.kind == kSwap ? 'x' : a.kind == kHit ? '@' : '-';
    out += sq_name(a.kind == kTake || a.kind == kSwap || a.kind == kHit ? a.target : a.to);
  }
  return out;
}

bool game_over(const RPos& p) {
  for (int s = 0; s < 2; ++s) {
    const int* l = p.lost[s];
    if (l[C] >= 1 || l[N] >= 2 || l[F] >= 2 || (l[I] >= 2 && l[T] >= 2 && l[A] >= 2)) return true;
  }
  return false;
}

std::vector<RTurn> ref_turns(const RPos& p) {
  std::vector<RTurn> out;
  if (game_over(p)) return out;
  const std::vector<bool> zone = zone_of(p, 1 - p.stm);
  for (int from = 0; from < 132; ++from) {
    const RStack& st = p.sq[from];
    if (st.empty() || st[0].side != p.stm) continue;
    const unsigned n = static_cast<unsigned>(st.size()), full = (1u << n) - 1;
    std::vector<std::vector<RAct>> acts(full + 1);
    for (unsigned m = 1; m <= full; ++m)
      if (stack_ok(subset(st, m))) acts[m] = group_acts(p, p.stm, from, subset(st, m), zone);
    RTurn cur{from, {}};
    std::function<void(unsigned)> rec = [&](unsigned assigned) {
      if (assigned == full) {
        if (cur.acts.empty()) return;
        unsigned gone = 0;
        for (auto& [m, a] : cur.acts)
          if (a.kind != kHit) gone |= m;
        const RStack stay = subset(st, full & ~gone);
        if (!stay.empty() && (!stack_ok(stay) || !stands(stay[0].kind, from))) return;
        out.push_back(cur);
        return;
      }
      unsigned low = 0;
      while (assigned & (1u << low)) ++low;
      rec(assigned | (1u << low));
      for (unsigned m = 1; m <= full; ++m) {
        if (!(m & (1u << low)) || (m & assigned)) continue;
        for (const RAct& a : acts[m]) {
          bool clash = false;
          for (auto& [m2, b] : cur.acts) clash = clash || b.effect() == a.effect();
          if (clash) continue;
          cur.acts.push_back({m, a});
          rec(assigned | m);
          cur.acts.pop_back();
        }
      }
    };
    rec(0);
  }
  return out;
}

int value(const RP& p) {
  static const int v[11] = {0, 0, 10, 10, 20, 30, 10, 20, 40, 80, 10};
  return v[p.kind] + (p.hero ? 10 : 0);
}

RPos ref_apply(const RPos& p, const RTurn& t) {
  RPos q = p;
  const int us = p.stm, them = 1 - us;
  const RStack& src = p.sq[t.from];
  const unsigned full = (1u << src.size()) - 1;
  unsigned gone = 0;
  for (auto& [m, a] : t.acts)
    if (a.kind != kHit) gone |= m;
  q.sq[t.from] = subset(src, full & ~gone);
  auto take = [&](int s) {
    for (const RP& x : p.sq[s]) {
      q.points[us] += value(x);
      ++q.lost[them][x.kind];
    }
    q.sq[s].clear();
  };
  auto die = [&](const RStack& g) {
    for (const RP& x : g) {
      q.points[them] += value(x);
      ++q.lost[us][x.kind];
    }
  };
  for (auto& [m, a] : t.acts) {
    const RStack g = subset(src, m);
    if (a.kind == kGo) q.sq[a.to] = g;
    if (a.kind == kJoin) {
      q.sq[a.to] = p.sq[a.to];
      q.sq[a.to].insert(q.sq[a.to].end(), g.begin(), g.end());
      canon(q.sq[a.to]);
    }
    if (a.kind == kTake) {
      take(a.target);
      q.sq[a.to] = g;
    }
    if (a.kind == kHit) take(a.target);
    if (a.kind == kBurn) die(g);
    if (a.kind == kSwap) {
      take(a.target);
      die(g);
    }
  }
  auto lost_side = [&](const RPos& x, int s) {
    const int* l = x.lost[s];
    return l[C] >= 1 || l[N] >= 2 || l[F] >= 2 || (l[I] >= 2 && l[T] >= 2 && l[A] >= 2);
  };
  const bool was = lost_side(p, 0) || lost_side(p, 1);
  const bool r = lost_side(q, 0), b = lost_side(q, 1);
  if (!was && r != b) q.points[r ? 1 : 0] += 100;
  if (!r && !b) {
    std::vector<std::pair<int, int>> promote;
    for (int side = 0; side < 2; ++side) {
      int cs = -1;
      for (int s = 0; s < 132; ++s)
        for (const RP& x : q.sq[s])
          if (x.kind == C && x.side != side) cs = s;
      if (cs < 0) continue;
      const std::vector<bool> zone = zone_of(q, 1 - side);
      for (int s = 0; s < 132; ++s)
        for (size_t i = 0; i < q.sq[s].size(); ++i) {
          if (q.sq[s][i].side != side || q.sq[s][i].hero) continue;
          for (const RAct& a : act_toward(q, side, s, {q.sq[s][i]}, cs, zone))
            if (a.kind == kTake || a.kind == kHit || a.kind == kSwap) promote.push_back({s, static_cast<int>(i)});
        }
    }
    for (int side = 0; side < 2; ++side) {
      std::vector<std::pair<int, int>> rest;
      for (int s = 0; s < 132; ++s)
        for (size_t i = 0; i < q.sq[s].size(); ++i)
          if (q.sq[s][i].side == side && q.sq[s][i].kind != C && q.sq[s][i].kind != H)
            rest.push_back({s, static_cast<int>(i)});
      if (rest.size() == 1) promote.push_back(rest[0]);
    }
    for (auto [s, i] : promote) q.sq[s][i].hero = true;
  }
  q.stm = them;
  return q;
}

uint64_t ref_perft(const RPos& p, int depth) {
  const std::vector<RTurn> turns = ref_turns(p);
  if (depth == 1) return turns.size();
  uint64_t n = 0;
  for (const RTurn& t : turns) n += ref_perft(ref_apply(p, t), depth - 1);
  return n;
}

RPos from_engine(const Position& e) {
  RPos p;
  for (int s = 0; s < 132; ++s)
    for (int i = 0; i < e.at[s].n; ++i) {
      const Piece x = e.at[s].p[i];
      p.sq[s].push_back({static_cast<int>(x.kind()), index_of(x.side()), x.hero()});
    }
  p.stm = index_of(e.to_move);
  p.points[0] = e.points[0];
  p.points[1] = e.points[1];
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 11; ++k) p.lost[s][k] = e.lost[s][k];
  return p;
}

std::vector<std::string> ref_moves(const RPos& p) {
  std::vector<std::string> out;
  for (const RTurn& t : ref_turns(p)) out.push_back(notation(p, t));
  std::sort(out.begin(), out.end());
  return out;
}

// ---------------------------------------------------------------- the comparisons

std::vector<std::string> engine_moves(const CotulenhRules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

// The generator's turns in notation, without building full Move objects.
std::vector<std::string> generated_moves(const CotulenhRules& rules, const Position& p) {
  std::vector<std::string> out;
  for (const Turn& t : rules.legal_turns(p)) out.push_back(turn_notation(p, t));
  std::sort(out.begin(), out.end());
  return out;
}

// Same move lists at the root and after every `stride`-th move of the root; same
// perft to `depth`.
void expect_agreement(const std::string& fen, int depth, size_t stride = 1) {
  const CotulenhRules rules;
  const State root = rules.from_fen(fen);
  const Position& proot = CotulenhRules::position(root);
  const RPos rroot = from_engine(proot);
  ASSERT_EQ(engine_moves(rules, root), ref_moves(rroot)) << fen;
  const std::vector<RTurn> rturns = ref_turns(rroot);
  const std::vector<Turn> turns = rules.legal_turns(proot);
  ASSERT_EQ(turns.size(), rturns.size());
  for (size_t i = 0; i < turns.size(); i += stride) {
    const std::string name = turn_notation(proot, turns[i]);
    const Position child = apply_turn(proot, turns[i], rules.rule_options());
    RPos rchild;
    bool found = false;
    for (const RTurn& t : rturns)
      if (notation(rroot, t) == name) {
        rchild = ref_apply(rroot, t);
        found = true;
      }
    ASSERT_TRUE(found) << name;
    EXPECT_EQ(child.points[0], rchild.points[0]) << name;
    EXPECT_EQ(child.points[1], rchild.points[1]) << name;
    EXPECT_EQ(write_fen(parse_fen(write_fen(child))), write_fen(child)) << "FEN round trip after " << name;
    ASSERT_EQ(generated_moves(rules, child), ref_moves(rchild)) << fen << " after " << name;
  }
  for (int d = 1; d <= depth; ++d) EXPECT_EQ(rules.perft(root, d), ref_perft(rroot, d)) << fen << " depth " << d;
}

TEST(CotulenhReference, StartPositionAgreesToDepthThree) {
  expect_agreement(std::string(kStartFen), 3);
  // Published nowhere: the counts both generators agree on, kept in RULES.md §10 and
  // here so that a change of rules shows.
  const CotulenhRules rules;
  EXPECT_EQ(rules.perft(rules.start(), 1), 117u);
  EXPECT_EQ(rules.perft(rules.start(), 2), 13692u);
  EXPECT_EQ(rules.perft(rules.start(), 3), 1678489u);
}

TEST(CotulenhReference, StacksFerryAndHeroesAgree) {
  // A navy carrying a tank, an air force and an infantry splits in 12 thousand ways:
  // every move of the root is compared, the positions after one in 97.
  expect_agreement("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2e1/10i/2(NTFI)1(EA)6/6M2EI/4G2+TG2/6S2A1/1N3(HC)1HF2/11 r", 1,
                   97);
  // Smaller stacks, fully to depth 2.
  expect_agreement("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2e1/10i/2(NF)1(EA)6/4(TI)1M2E1/4G2+TG2/6S2A1/1N3(HC)1HF2/11 r",
                   2);
}

TEST(CotulenhReference, AirDefenceFacingAndCarriersAgree) {
  expect_agreement("11/7h3/3(fi)c6/1(nt)5+f3/5a1s3/2N8/9(EG)1/N1T4G3/11/4C1S4/11/11 b", 2);
}

TEST(CotulenhReference, NavyGunsHeroFlierAndCarriedCommanderAgree) {
  expect_agreement("2c8/11/1n3g5/4t6/2N3+F4/5m5/11/3(TC)7/11/11/6F4/11 r", 2);
}

}  // namespace
}  // namespace sb::cotulenh
