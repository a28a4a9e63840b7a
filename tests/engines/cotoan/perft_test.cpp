// The fast generator and perft against a slow reference generator written here
// straight from the rules text (RULES.md §3), sharing no code with the engine: a
// grid of numbers, every ordered pair of neighbouring own pieces, every operation.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>

#include "tests/engines/cotoan/cotoan_test_support.h"

namespace sb::cotoan {
namespace {

using testing::full_fen;
using testing::make;

// ---------------------------------------------------------------- the reference

struct RefRules {
  bool zero_partner = false;
  bool any_blocks = true;
  bool division_both = false;
  int target = 10;
  bool compulsory = false;

  std::string json() const {
    std::ostringstream o;
    o << "{\"zero_partner\": " << (zero_partner ? "true" : "false") << ", \"block_by\": \""
      << (any_blocks ? "any" : "enemy") << "\", \"division\": \"" << (division_both ? "both" : "one")
      << "\", \"target_score\": " << target << ", \"compulsory_capture\": " << (compulsory ? "true" : "false") << "}";
    return o.str();
  }
};

// grid[rank][file]: 0 empty, n+1 for Red's n, -(n+1) for Blue's n.
struct RefPosition {
  int grid[11][9] = {};
  int turn = 1;  // +1 Red, -1 Blue
  int points[2] = {0, 0};
  std::array<int8_t, 100> key{};                       // the board and the turn
  std::vector<std::array<int8_t, 100>> since_capture;  // keys of the earlier positions since the last capture
  int winner = 0;                                      // +1 / -1 once decided by a 0 taken or the target
  bool repeated = false;
};

using RefKey = std::array<int8_t, 100>;  // the 99 squares and the turn

RefKey ref_board_key(const RefPosition& p) {
  RefKey k{};
  for (int r = 0; r < 11; ++r)
    for (int f = 0; f < 9; ++f) k[r * 9 + f] = static_cast<int8_t>(p.grid[r][f]);
  k[99] = static_cast<int8_t>(p.turn);
  return k;
}

RefPosition ref_from_fen(const std::string& fen) {
  RefPosition p;
  p.turn = fen[0] == 'R' ? 1 : -1;
  int present[2][10] = {};
  std::stringstream fields(fen.substr(2));
  std::string field;
  while (std::getline(fields, field, ':')) {
    const int sign = field[0] == 'R' ? 1 : -1;
    std::stringstream items(field.substr(1));
    std::string item;
    while (std::getline(items, item, ',')) {
      const int n = item[0] - '0', file = item[1] - 'a', rank = std::stoi(item.substr(2)) - 1;
      p.grid[rank][file] = sign * (n + 1);
      present[sign > 0 ? 0 : 1][n] = 1;
    }
  }
  for (int side = 0; side < 2; ++side)
    for (int n = 1; n <= 9; ++n)
      if (!present[side][n]) p.points[1 - side] += n;
  p.key = ref_board_key(p);
  return p;
}

struct RefMove {
  int from_rank, from_file, to_rank, to_file;
  int ways;  // calculations that give it (1 for a plain move)
  std::string name() const {
    return std::string(1, char('a' + from_file)) + std::to_string(from_rank + 1) + "-" +
           std::string(1, char('a' + to_file)) + std::to_string(to_rank + 1);
  }
};

bool inside(int rank, int file) {
  return rank >= 0 && rank < 11 && file >= 0 && file < 9;
}

std::vector<RefMove> ref_moves(const RefPosition& p, const RefRules& rules) {
  std::vector<RefMove> plain, caps;
  plain.reserve(128);
  if (p.winner != 0 || p.repeated) return {};
  const int dr[8] = {1, 1, 0, -1, -1, -1, 0, 1}, df[8] = {0, 1, 1, 1, 0, -1, -1, -1};
  for (int r = 0; r < 11; ++r)
    for (int f = 0; f < 9; ++f) {
      const int v = p.grid[r][f] * p.turn - 1;  // own piece number, or < 0
      if (v < 1) continue;                      // not ours, or the 0, which never moves
      for (int d = 0; d < 8; ++d) {
        for (int s = 1; s <= v; ++s) {
          const int tr = r + s * dr[d], tf = f + s * df[d];
          if (!inside(tr, tf) || p.grid[tr][tf] != 0) break;
          plain.push_back({r, f, tr, tf, 1});
        }
        const int fr = r + dr[d], ff = f + df[d];
        if (!inside(fr, ff)) continue;
        const int w = p.grid[fr][ff] * p.turn - 1;  // the partner's number
        if (w < 0 || (w == 0 && !rules.zero_partner)) continue;
        std::vector<int> results = {v + w, v * w};
        if (v - w > 0) results.push_back(v - w);
        if (w != 0) {
          if (rules.division_both) {
            results.push_back(v / w);
            results.push_back(v % w);
          } else {
            results.push_back(v % w != 0 ? v % w : v / w);
          }
        }
        for (int res : results) {
          const int k = res % 10;
          if (k == 0) continue;
          const int tr = fr + k * dr[d], tf = ff + k * df[d];
          if (!inside(tr, tf) || p.grid[tr][tf] * p.turn >= 0) continue;  // not an enemy piece
          bool blocked = false;
          for (int j = 1; j < k; ++j) {
            const int between = p.grid[fr + j * dr[d]][ff + j * df[d]];
            if (between != 0 && (rules.any_blocks || between * p.turn < 0)) blocked = true;
          }
          if (blocked) continue;
          bool again = false;  // another calculation already gave this move
          for (RefMove& c : caps)
            if (c.from_rank == r && c.from_file == f && c.to_rank == tr && c.to_file == tf) {
              ++c.ways;
              again = true;
            }
          if (!again) caps.push_back({r, f, tr, tf, 1});
        }
      }
    }
  if (rules.compulsory && !caps.empty()) return caps;
  caps.insert(caps.end(), plain.begin(), plain.end());
  return caps;
}

RefPosition ref_play(const RefPosition& p, const RefMove& m, const RefRules& rules) {
  RefPosition q = p;
  const int taken = p.grid[m.to_rank][m.to_file];
  q.grid[m.to_rank][m.to_file] = p.grid[m.from_rank][m.from_file];
  q.grid[m.from_rank][m.from_file] = 0;
  q.turn = -p.turn;
  const int mover = p.turn > 0 ? 0 : 1;
  if (taken != 0) {
    const int n = -taken * p.turn - 1;
    q.points[mover] += n;
    q.since_capture.clear();
    if (n == 0 || (rules.target > 0 && q.points[mover] >= rules.target)) q.winner = p.turn;
  } else {
    q.since_capture.push_back(p.key);
  }
  q.key = ref_board_key(q);
  int seen = 0;
  for (const RefKey& k : q.since_capture) seen += k == q.key;
  q.repeated = seen >= 2;
  return q;
}

// "1-0", "0-1", "1/2-1/2" or "ongoing", as the engine's Outcome::result().
std::string ref_result(const RefPosition& p, const RefRules& rules) {
  int w = p.winner;
  if (w == 0 && (p.repeated || ref_moves(p, rules).empty())) {
    if (p.points[0] == p.points[1]) return "1/2-1/2";
    w = p.points[0] > p.points[1] ? 1 : -1;
  }
  if (w == 0) return "ongoing";
  return w > 0 ? "1-0" : "0-1";
}

uint64_t ref_perft(const RefPosition& p, int depth, const RefRules& rules, bool count_calculations) {
  std::vector<RefMove> moves = ref_moves(p, rules);
  uint64_t n = 0;
  for (const RefMove& m : moves) {
    const uint64_t weight = count_calculations ? m.ways : 1;
    n += depth == 1 ? weight : weight * ref_perft(ref_play(p, m, rules), depth - 1, rules, count_calculations);
  }
  return n;
}

// ---------------------------------------------------------------- comparisons

std::set<std::string> engine_move_set(const Rules& rules, const State& s) {
  std::set<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.insert(rules.site_name(m.from) + "-" + rules.site_name(m.to));
  return out;
}

std::set<std::string> ref_move_set(const RefPosition& p, const RefRules& rules) {
  std::set<std::string> out;
  for (const RefMove& m : ref_moves(p, rules)) {
    EXPECT_TRUE(out.insert(m.name()).second) << "the reference lists " << m.name() << " twice";
  }
  return out;
}

void compare_tree(const Rules& rules, const State& s, const RefPosition& p, const RefRules& rr, int depth) {
  const std::set<std::string> mine = engine_move_set(rules, s), ref = ref_move_set(p, rr);
  ASSERT_EQ(mine, ref) << rules.fen(s);
  if (depth == 0) return;
  const std::vector<RefMove> rms = ref_moves(p, rr);
  for (const Move& m : rules.legal_moves(s)) {
    const RefMove* rm = nullptr;
    for (const RefMove& x : rms)
      if (x.name() == rules.site_name(m.from) + "-" + rules.site_name(m.to)) rm = &x;
    ASSERT_NE(rm, nullptr);
    compare_tree(rules, rules.apply(s, m), ref_play(p, *rm, rr), rr, depth - 1);
  }
}

const char* kStart = "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";

TEST(Perft, FromTheStartMatchesTheSlowReferenceToDepth4) {
  auto rules = make();
  const RefPosition ref = ref_from_fen(kStart);
  const RefRules rr;
  const uint64_t expected[] = {87, 7456, 701333, 65027428};
  for (int depth = 1; depth <= 4; ++depth) {
    const uint64_t mine = rules->perft(rules->start(), depth);
    EXPECT_EQ(mine, ref_perft(ref, depth, rr, false)) << "depth " << depth;
    EXPECT_EQ(mine, expected[depth - 1]) << "depth " << depth;
  }
}

TEST(Perft, MoveSetsMatchTheReferenceAtTheStartAndAfterEachFirstMove) {
  auto rules = make();
  compare_tree(*rules, rules->start(), ref_from_fen(kStart), RefRules{}, 1);
}

TEST(Perft, AMidgameTreeMatchesTheReferenceUnderEachOption) {
  // Pieces in contact: pairs in every direction, blockers of both sides, both 0s
  // within reach of some calculation.
  const std::string fen = "R:R0e2,1d4,2e4,3f5,4c6,5e6,6g3,7b2,8h5,9e7:B0e10,1d8,2f8,3e9,4c9,5g7,6b7,7h8,8a9,9i6";
  std::vector<RefRules> variants(6);
  variants[1].zero_partner = true;
  variants[2].any_blocks = false;
  variants[3].division_both = true;
  variants[4].compulsory = true;
  variants[5].target = 0;
  for (const RefRules& rr : variants) {
    auto rules = make(rr.json());
    State s = rules->from_fen(fen);
    const RefPosition ref = ref_from_fen(fen);
    EXPECT_FALSE(rules->outcome(s).over());
    compare_tree(*rules, s, ref, rr, 1);
    EXPECT_EQ(rules->perft(s, 3), ref_perft(ref, 3, rr, false)) << rr.json();
    PerftOptions keep;
    keep.keep_duplicates = true;
    EXPECT_EQ(rules->perft(s, 3, keep), ref_perft(ref, 3, rr, true)) << rr.json();
    // The fast perft and the walk through legal_moves/apply agree, game ends included.
    EXPECT_EQ(rules->perft(s, 2), rules->Rules::perft(s, 2)) << rr.json();
  }
}

TEST(Perft, RepetitionsInTheHistoryEndLinesInsidePerft) {
  RefRules rr;
  rr.target = 0;
  auto rules = make(rr.json());
  const std::string fen = "R:R0e2,1a1:B0e10,1i11";
  const char* shuffle[] = {"a1-a2", "i11-i10", "a2-a1", "i10-i11"};
  State s = rules->from_fen(fen);
  RefPosition p = ref_from_fen(fen);
  for (const char* m : shuffle) {
    s = rules->apply(s, rules->parse_move(s, m));
    for (const RefMove& rm : ref_moves(p, rr))
      if (rm.name() == m) {
        p = ref_play(p, rm, rr);
        break;
      }
  }
  // The start of the shuffle has now been seen twice: any line back to it ends there.
  for (int depth = 1; depth <= 6; ++depth) {
    EXPECT_EQ(rules->perft(s, depth), rules->Rules::perft(s, depth)) << depth;
    EXPECT_EQ(rules->perft(s, depth), ref_perft(p, depth, rr, false)) << depth;
  }
  EXPECT_LT(rules->perft(s, 6), rules->perft(rules->from_fen(fen), 6));
}

TEST(Perft, DuplicatesKeepCountsEachCalculationOfACapture) {
  auto rules = make();
  State s = rules->from_fen(full_fen('R', "8c5,5c6", "4c9"));
  PerftOptions keep;
  keep.keep_duplicates = true;
  // 8:c5xc9 comes from 8+5, 8−5 and 8÷5: one move, three calculations.
  EXPECT_EQ(rules->perft(s, 1, keep), rules->perft(s, 1) + 2);
}

TEST(Perft, RandomGamesMatchTheReferenceMoveByMoveUnderEveryOptionSet) {
  std::mt19937 rng(20240611);
  int games = 0, zero_wins = 0, target_wins = 0, repetitions = 0, captures_seen = 0;
  for (int variant = 0; variant < 16; ++variant) {
    RefRules rr;
    rr.zero_partner = variant & 1;
    rr.any_blocks = !(variant & 2);
    rr.division_both = variant & 4;
    rr.compulsory = variant & 8;
    auto rules = make(rr.json());
    for (int g = 0; g < 9; ++g, ++games) {
      const int targets[] = {10, 0, 25};
      rr.target = targets[g % 3];
      rules = make(rr.json());
      State s = rules->start();
      RefPosition p = ref_from_fen(kStart);
      RefMove last_move[2] = {};
      for (int ply = 0; ply < 300; ++ply) {
        const std::set<std::string> mine = engine_move_set(*rules, s);
        ASSERT_EQ(mine, ref_move_set(p, rr)) << rr.json() << " " << rules->fen(s);
        ASSERT_EQ(rules->outcome(s).result(), ref_result(p, rr)) << rr.json() << " " << rules->fen(s);
        ASSERT_EQ(rules->score(s), (Score{p.points[0], p.points[1]}));
        if (rules->outcome(s).over()) {
          const std::string& why = rules->outcome(s).reason;
          zero_wins += why == "captured the 0";
          target_wins += why.rfind("reached", 0) == 0;
          repetitions += why.rfind("threefold", 0) == 0;
          break;
        }
        // Prefer captures, so that games reach the 0 and the targets.
        std::vector<RefMove> rms = ref_moves(p, rr);
        std::vector<RefMove> caps;
        for (const RefMove& m : rms)
          if (p.grid[m.to_rank][m.to_file] != 0) caps.push_back(m);
        const bool take = !caps.empty() && rng() % 4 != 0;
        RefMove m = take ? caps[rng() % caps.size()] : rms[rng() % rms.size()];
        // In some games walk the last plain move back now and then, so that positions repeat.
        const RefMove& last = last_move[ply % 2];
        if (g >= 6 && !take && ply >= 2 && rng() % 3 == 0)
          for (const RefMove& x : rms)
            if (x.from_rank == last.to_rank && x.from_file == last.to_file && x.to_rank == last.from_rank &&
                x.to_file == last.from_file && p.grid[x.to_rank][x.to_file] == 0)
              m = x;
        last_move[ply % 2] = m;
        captures_seen += take;
        s = rules->apply(s, rules->parse_move(s, m.name()));
        p = ref_play(p, m, rr);
      }
    }
  }
  // The games did reach every kind of end the comparison is meant to cover.
  EXPECT_GT(zero_wins, 10);
  EXPECT_GT(target_wins, 10);
  EXPECT_GT(captures_seen, 500);
  EXPECT_GT(repetitions, 10);
  std::printf("random games: %d games, %d captures, %d zero wins, %d target wins, %d repetitions\n", games,
              captures_seen, zero_wins, target_wins, repetitions);
  RecordProperty("games", games);
  RecordProperty("repetitions", repetitions);
}

}  // namespace
}  // namespace sb::cotoan
