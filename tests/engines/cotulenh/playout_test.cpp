// Random games from the start: whatever is played, the position stays one the rules
// allow, nothing is created or lost unaccounted, and every move reads back.
#include <random>

#include "engines/cotulenh/notation.h"
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

void expect_sound(const CotulenhRules& rules, const Position& p, const std::string& where) {
  const Options& o = rules.rule_options();
  std::array<std::array<int, kKindCount>, 2> count{};
  for (int s = 0; s < kSites; ++s) {
    const Stack& st = p.at[s];
    if (st.empty()) continue;
    ASSERT_TRUE(stack_allowed(st)) << where << " " << site_name(s);
    ASSERT_TRUE(may_stand(st.carrier().kind(), s, o.air_force_over_sea)) << where << " " << site_name(s);
    for (int i = 0; i < st.n; ++i) ++count[index_of(st.p[i].side())][st.p[i].kind()];
  }
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < kKindCount; ++k)
      ASSERT_EQ(count[side][k] + p.lost[side][k], kStartCount[k]) << where << " side " << side << " kind " << k;
  const std::string fen = write_fen(p);
  ASSERT_EQ(write_fen(parse_fen(fen)), fen) << where;
}

TEST(CotulenhPlayout, RandomGamesKeepEveryInvariant) {
  for (const char* options : {"{}", R"({"mode": "full", "commander_facing": "illegal", "zone_shape": "square"})",
                              R"({"commander_safety": "must_escape", "diagonal_fords": true})"}) {
    const CotulenhRules rules(Options::from_json(Json::parse(options)));
    std::mt19937 rng(20101116);
    int games_over = 0;
    for (int game = 0; game < 12; ++game) {
      Position p = CotulenhRules::position(rules.start());
      for (int ply = 0; ply < 160; ++ply) {
        const std::string where =
            std::string(options) + " game " + std::to_string(game) + " ply " + std::to_string(ply);
        const std::vector<Turn> turns = rules.legal_turns(p);
        if (turns.empty()) {
          EXPECT_TRUE(rules.outcome(rules.make_state(p)).over()) << where;
          ++games_over;
          break;
        }
        // Prefer captures now and then so that games reach their endings.
        const Turn* pick = &turns[rng() % turns.size()];
        if (rng() % 2)
          for (const Turn& t : turns)
            if (t.a[0].kind == ActionKind::Capture || t.a[0].kind == ActionKind::Strike) pick = &t;
        const std::string text = turn_notation(p, *pick);
        const Move m = rules.parse_move(rules.make_state(p), text);
        ASSERT_EQ(m.notation, text) << where;
        const Position next = CotulenhRules::position(rules.apply(rules.make_state(p), m));
        ASSERT_EQ(next, apply_turn(p, *pick, rules.rule_options())) << where;
        expect_sound(rules, next, where + " " + text);
        if (::testing::Test::HasFatalFailure()) return;
        EXPECT_GE(next.points[0], p.points[0]);
        EXPECT_GE(next.points[1], p.points[1]);
        p = next;
      }
    }
    EXPECT_GT(games_over, 0) << options;
  }
}

}  // namespace
}  // namespace sb::cotulenh
