// Perft of the engine's fast generator against the slow reference of
// reference_morris.h, from the start of each variant and from positions along the
// peer games; the reference's Sanmill-style ply count against the peer's table.
#include <gtest/gtest.h>

#include <algorithm>

#include "engines/morris/morris_rules.h"
#include "engines/registry.h"
#include "tests/engines/morris/peer_data.h"
#include "tests/engines/morris/reference_morris.h"

namespace sb {
namespace {

namespace ref = morris_reference;

struct StartCase {
  const char* game;
  int depth;  // deepest depth compared with the reference
};

void PrintTo(const StartCase& c, std::ostream* os) { *os << c.game << " to depth " << c.depth; }

class PerftFromStart : public ::testing::TestWithParam<StartCase> {};

TEST_P(PerftFromStart, EqualsTheSlowReferenceAtEveryDepth) {
  const StartCase c = GetParam();
  auto rules = make_rules(c.game);
  const ref::Board board = ref::board_of(c.game);
  const ref::Pos start = ref::start(board);
  ref::Options o;
  o.flying = std::string(c.game) != "morris3";
  for (int d = 1; d <= c.depth; ++d)
    EXPECT_EQ(rules->perft(rules->start(), d), ref::perft(board, start, d, o)) << c.game << " depth " << d;
}

INSTANTIATE_TEST_SUITE_P(Morris, PerftFromStart,
                         ::testing::Values(StartCase{"morris9", 4}, StartCase{"morris12", 4}, StartCase{"morris6", 5},
                                           StartCase{"morris3", 8}),
                         [](const auto& info) { return std::string(info.param.game); });

TEST(PerftFromStart, Morris9CountsEachRemovalAsItsOwnMove) {
  // At depth 5 white's third placement can close a mill and take either of
  // black's two pieces. Sanmill's count (the peer table) stops at the placement:
  // 24·23·22·21·20 leaves; ours counts each removal choice as a leaf of its own.
  auto rules = make_rules("morris9");
  const ref::Board board = ref::board_of("morris9");
  const uint64_t placements = 24ull * 23 * 22 * 21 * 20;
  EXPECT_EQ(ref::perft_plies(board, ref::start(board), 5, {}), placements);
  const uint64_t ours = rules->perft(rules->start(), 5);
  EXPECT_EQ(ours, ref::perft(board, ref::start(board), 5, {}));
  EXPECT_GT(ours, placements);
}

TEST(PerftFromStart, ReferencePlyCountMatchesThePeerTable) {
  // The peer counts a removal as a ply of its own; the reference counts the same
  // way here, which checks the reference itself against another engine.
  for (const char* game : {"morris9", "morris12"}) {
    const morris_peer::PeerGames peer = morris_peer::load(game);
    const ref::Board board = ref::board_of(game);
    for (const auto& [depth, nodes] : peer.perft_plies)
      EXPECT_EQ(ref::perft_plies(board, ref::start(board), depth, {}), nodes) << game << " depth " << depth;
  }
}

TEST(PerftFromStart, FastPerftEqualsTheGenericWalk) {
  for (const char* game : {"morris9", "morris12", "morris6", "morris3"}) {
    auto rules = make_rules(game);
    for (int d = 1; d <= 3; ++d)
      EXPECT_EQ(rules->perft(rules->start(), d), rules->Rules::perft(rules->start(), d)) << game << " " << d;
  }
}

std::vector<std::string> sorted_notations(const Rules& rules, const State& s) {
  std::vector<std::string> out;
  for (const Move& m : rules.legal_moves(s)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> sorted_notations(const ref::Board& b, const ref::Pos& p, const ref::Options& o) {
  std::vector<std::string> out;
  for (const ref::RefMove& m : ref::moves(b, p, o)) out.push_back(m.notation);
  std::sort(out.begin(), out.end());
  return out;
}

struct OptionCase {
  const char* name;
  const char* json;
  ref::Options ref;
};

// Along every peer game: the full move list at every position, and perft(3) at
// every tenth, under the default options and the optional rules.
TEST(PerftAlongPeerGames, MoveListsAndPerftEqualTheReference) {
  const std::vector<OptionCase> cases = {
      {"defaults", "{}", {}},
      {"no flying", R"({"flying": false})", {false, false, 1}},
      {"remove always", R"({"remove_from_mill": "always"})", {true, true, 1}},
      {"two removals", R"({"double_mill_removals": 2})", {true, false, 2}},
  };
  for (const char* game : {"morris9", "morris12"}) {
    const morris_peer::PeerGames peer = morris_peer::load(game);
    const ref::Board board = ref::board_of(game);
    for (const OptionCase& oc : cases) {
      auto rules = make_rules(game, Json::parse(oc.json));
      int compared = 0;
      for (size_t t = 0; t < peer.trajectories.size(); ++t) {
        // The games follow the default rules; under other options a peer move may
        // be illegal, so a game is followed while its moves stay legal.
        State s = rules->start();
        ref::Pos p = ref::start(board);
        int ply = 0;
        for (const std::string& move : morris_peer::joined_moves(peer.trajectories[t])) {
          if (rules->outcome(s).over()) break;
          ASSERT_EQ(sorted_notations(*rules, s), sorted_notations(board, p, oc.ref))
              << game << " " << oc.name << " game " << t << " before move " << ply << " " << rules->fen(s);
          if (ply % 10 == 5) {
            // The reference knows no history: compare from the FEN (no earlier
            // positions), and the State itself with the generic walk.
            ASSERT_EQ(rules->perft(rules->from_fen(rules->fen(s)), 3), ref::perft(board, p, 3, oc.ref))
                << game << " " << oc.name << " game " << t << " " << rules->fen(s);
            ASSERT_EQ(rules->perft(s, 3), rules->Rules::perft(s, 3)) << game << " game " << t << " " << rules->fen(s);
          }
          ++compared;
          const std::vector<Move> legal = rules->legal_moves(s);
          auto it = std::find_if(legal.begin(), legal.end(), [&](const Move& m) { return m.notation == move; });
          if (it == legal.end()) break;
          s = rules->apply(s, *it);
          p = ref::play(board, p, move, oc.ref);
          ++ply;
        }
      }
      EXPECT_GT(compared, 300) << game << " " << oc.name;
    }
  }
}

TEST(PerftAlongPeerGames, FastPerftKeepsTheHistoryOfTheState) {
  // Perft from a State reached by play must see the positions before it: a
  // position that has stood twice ends the game when it comes back a third time.
  auto rules = make_rules("morris9");
  const State s = rules->from_fen("W.W...B.B......B.B...W.W w 0 0");  // four corners each, no mill in reach
  const State again = rules->play(s, "a7-a4 c5-c4 a4-a7 c4-c5");
  ASSERT_EQ(rules->fen(again), rules->fen(s));
  EXPECT_EQ(morris::MorrisRules::occurrences(again), 2);
  for (int d = 1; d <= 5; ++d) EXPECT_EQ(rules->perft(again, d), rules->Rules::perft(again, d)) << d;
  // The same four plies again reach the third occurrence, which has no moves.
  EXPECT_EQ(rules->perft(again, 4), rules->perft(s, 4));
  EXPECT_LT(rules->perft(again, 5), rules->perft(s, 5));
}

}  // namespace
}  // namespace sb
