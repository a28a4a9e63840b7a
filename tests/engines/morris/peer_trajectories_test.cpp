// Acceptance: the 16 games Sanmill played (tests/data/peers/morris), replayed
// through the engine. At every ply the placements or slides we allow must be
// exactly Sanmill's legal actions, and after a move that closes a mill the
// removals we allow must be exactly Sanmill's next ply. Each game is followed to
// its end or to the ply where our rules end it, and the test says which rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engines/registry.h"
#include "tests/engines/morris/peer_data.h"

namespace sb {
namespace {

struct Expected {
  size_t plies;        // Sanmill plies replayed (a removal is one) before the game ends or the record stops
  const char* result;  // our outcome there
  const char* reason;
};

struct Replay {
  size_t plies = 0;
  Outcome outcome;
};

std::string head_of(const std::string& notation) { return notation.substr(0, notation.find('x')); }

Replay replay(const Rules& rules, const std::vector<morris_peer::Ply>& plies, const std::string& label) {
  State s = rules.start();
  size_t i = 0;
  while (i < plies.size() && !rules.outcome(s).over()) {
    const morris_peer::Ply& ply = plies[i];
    const std::string where = label + " ply " + std::to_string(i) + " (" + rules.fen(s) + ")";
    const std::vector<Move> legal = rules.legal_moves(s);
    std::set<std::string> heads;
    for (const Move& m : legal) heads.insert(head_of(m.notation));
    EXPECT_EQ(std::vector<std::string>(heads.begin(), heads.end()), ply.legal) << where;
    if (ply.picked.empty() || ply.picked[0] == 'x') {
      ADD_FAILURE() << where << ": a removal ply where a placement or slide was due";
      break;
    }
    // The moves that start with the peer's choice: one without removal, or one per
    // piece the mill may take.
    std::vector<std::string> removals;
    std::string plain;
    for (const Move& m : legal) {
      if (head_of(m.notation) != ply.picked) continue;
      if (m.captured.empty()) plain = m.notation;
      else removals.push_back(m.notation.substr(ply.picked.size()));
    }
    std::string move = plain;
    if (!removals.empty()) {
      std::sort(removals.begin(), removals.end());
      if (i + 1 >= plies.size()) {
        ADD_FAILURE() << where << ": " << ply.picked << " closes a mill but the record ends before the removal";
        break;
      }
      EXPECT_EQ(removals, plies[i + 1].legal) << where << " removals after " << ply.picked;
      move = ply.picked + plies[i + 1].picked;
      i += 2;
    } else {
      if (i + 1 < plies.size() && !plies[i + 1].picked.empty() && plies[i + 1].picked[0] == 'x')
        ADD_FAILURE() << where << ": the peer removes after " << ply.picked << " but we see no mill";
      i += 1;
    }
    if (::testing::Test::HasFailure()) break;
    s = rules.apply(s, rules.parse_move(s, move));
  }
  return {i, rules.outcome(s)};
}

void check_games(const char* game, const std::vector<Expected>& expected) {
  const morris_peer::PeerGames peer = morris_peer::load(game);
  ASSERT_EQ(peer.trajectories.size(), expected.size());
  auto rules = make_rules(game);
  for (size_t t = 0; t < expected.size(); ++t) {
    const std::string label = std::string(game) + " game " + std::to_string(t);
    const Replay r = replay(*rules, peer.trajectories[t], label);
    EXPECT_EQ(r.plies, expected[t].plies) << label << " of " << peer.trajectories[t].size() << " plies";
    EXPECT_EQ(r.outcome.result(), expected[t].result) << label;
    EXPECT_EQ(r.outcome.reason, expected[t].reason) << label;
  }
}

TEST(PeerTrajectories, Morris9AllEightGamesAgreeWithSanmill) {
  check_games("morris9", {
                             {89, "0-1", "white has only 2 pieces left"},
                             {94, "0-1", "white has only 2 pieces left"},
                             {200, "ongoing", ""},  // the record stops at 200 plies
                             {132, "0-1", "white has only 2 pieces left"},
                             {101, "0-1", "white has only 2 pieces left"},
                             {126, "0-1", "white has only 2 pieces left"},
                             {200, "ongoing", ""},
                             // After Sanmill ply 144 (b4-a4 … d3-e3 shuffled twice) the
                             // position stands for the third time with black to move:
                             // our threefold-repetition rule ends the game; Sanmill's
                             // record plays on to 200.
                             {144, "1/2-1/2", "threefold repetition"},
                         });
}

TEST(PeerTrajectories, Morris12AllEightGamesAgreeWithSanmill) {
  check_games("morris12", {
                              // After placing, white's last slide leaves it walled in.
                              {27, "0-1", "white has no legal move"},
                              {90, "0-1", "white has only 2 pieces left"},
                              {200, "ongoing", ""},
                              {163, "0-1", "white has only 2 pieces left"},
                              {79, "0-1", "white has only 2 pieces left"},
                              {79, "1-0", "black has only 2 pieces left"},
                              {71, "1-0", "black has only 2 pieces left"},
                              {97, "0-1", "white has only 2 pieces left"},
                          });
}

TEST(PeerTrajectories, TheRepetitionThatEndsMorris9Game7IsReal) {
  // The position after Sanmill ply 144 also stood after plies 132 and 136, with
  // the same side to move.
  const morris_peer::PeerGames peer = morris_peer::load("morris9");
  auto rules = make_rules("morris9");
  State s = rules->start();
  std::vector<std::string> fens;
  size_t ply = 0;
  std::vector<size_t> ply_after;
  for (const std::string& move : morris_peer::joined_moves(peer.trajectories[7])) {
    if (rules->outcome(s).over()) break;
    s = rules->apply(s, rules->parse_move(s, move));
    ply += move.find('x') == std::string::npos ? 1 : 2;
    fens.push_back(rules->fen(s));
    ply_after.push_back(ply);
  }
  ASSERT_EQ(ply_after.back(), 144u);
  std::vector<size_t> same;
  for (size_t i = 0; i < fens.size(); ++i)
    if (fens[i] == fens.back()) same.push_back(ply_after[i]);
  EXPECT_EQ(same, (std::vector<size_t>{132, 136, 144}));
}

}  // namespace
}  // namespace sb
