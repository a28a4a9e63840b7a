// Free setup ("chơi nâng cao"): a setup read from the board is checked and becomes the
// start position (RULES.md §8).
#include "engines/cotulenh/setup.h"

#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

const CotulenhRules kRules;

Observation start_board() {
  return kRules.observe(kRules.start());
}

void put(Observation& o, const char* sq, const char* token) {
  o.sites[site_from_name(sq)] = token[0] ? parse_token(token) : Token{};
}

std::vector<std::string> reasons(const Observation& o) {
  std::vector<std::string> r;
  for (const IllegalChange& c : kRules.free_setup(o, Side::First).problems) r.push_back(c.reason);
  return r;
}

TEST(CotulenhSetup, TheStandardArrangementIsAValidSetup) {
  const FreeSetup f = kRules.free_setup(start_board(), Side::First);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(kRules.fen(f.state), std::string(kStartFen));
  const FreeSetup b = kRules.free_setup(start_board(), Side::Second);
  EXPECT_EQ(kRules.side_to_move(b.state), Side::Second);
}

TEST(CotulenhSetup, AnyArrangementInOwnHalfOnAllowedGroundIsValid) {
  Observation o = start_board();
  // Red swaps its missile and commander, sends a navy up the coast and an air force to sea.
  put(o, "g3", "RC");
  put(o, "g1", "RS");
  put(o, "c4", "");
  put(o, "c6", "RN");
  put(o, "e2", "");
  put(o, "a5", "RF");
  EXPECT_TRUE(reasons(o).empty());
  const State s = setup_state(kRules, o, Side::First);
  EXPECT_EQ(kRules.legal_moves(s).empty(), false);
}

TEST(CotulenhSetup, EachBrokenRuleIsNamedWithItsSites) {
  Observation o = start_board();
  put(o, "e2", "");    // a red air force missing
  put(o, "g5", "");    // the red militia ...
  put(o, "g8", "RM");  // ... in Blue's half (and g8 held Blue's militia: Blue now misses it)
  put(o, "c4", "");    // the red navy ...
  put(o, "e3", "RN");  // ... on land
  put(o, "e6", "RT");  // a third red tank
  put(o, "k6", "RX");  // no such piece
  const FreeSetup f = kRules.free_setup(o, Side::First);
  EXPECT_FALSE(f.ok());
  EXPECT_FALSE(f.state.valid());
  std::vector<std::string> r;
  for (const IllegalChange& c : f.problems) r.push_back(c.reason);
  const std::vector<std::string> want = {
      "the red navy on e3 cannot stand there (land)", "the red militia on g8 is outside red's half (ranks 1-6)",
      "k6: 'RX' is not a Cờ tư lệnh piece",           "red has 3 tanks, a side has 2",
      "red is missing 1 air force (a side has 2)",    "blue is missing 1 militia (a side has 1)",
  };
  for (const std::string& w : want) EXPECT_NE(std::find(r.begin(), r.end(), w), r.end()) << w;
  EXPECT_EQ(r.size(), want.size());
  for (const IllegalChange& c : f.problems) {
    if (c.reason == "red has 3 tanks, a side has 2") {
      EXPECT_EQ(c.squares.size(), 3u);
    }
    if (c.reason.find("missing") != std::string::npos) {
      EXPECT_TRUE(c.squares.empty());
    }
    if (c.reason.find("e3") != std::string::npos) {
      EXPECT_EQ(c.squares, std::vector<int>{site_from_name("e3")});
    }
  }
  EXPECT_THROW(setup_position(o, Side::First), InputError);
}

TEST(CotulenhSetup, ATankAtSeaIsNamed) {
  Observation o = start_board();
  put(o, "f4", "");
  put(o, "a3", "RT");
  EXPECT_EQ(reasons(o), std::vector<std::string>{"the red tank on a3 cannot stand there (open sea)"});
}

}  // namespace
}  // namespace sb::cotulenh
