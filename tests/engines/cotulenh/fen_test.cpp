// FEN (RULES.md §4 extended with stacks, heroes, points and losses), the ASCII board,
// and the rule options' JSON round trip.
#include "tests/engines/cotulenh/test_support.h"

namespace sb::cotulenh {
namespace {

const CotulenhRules kRules;

TEST(CotulenhFen, TheStartIsRulesMdsFen) {
  EXPECT_EQ(kRules.fen(kRules.start()), std::string(kStartFen));
  EXPECT_EQ(kRules.side_to_move(kRules.start()), Side::First);
  const Position p = CotulenhRules::position(kRules.start());
  int red = 0, blue = 0;
  for (const Stack& st : p.at) (st.empty() ? red : st.side() == Side::First ? red : blue) += st.n;
  EXPECT_EQ(red, 19);
  EXPECT_EQ(blue, 19);
  // Blue mirrors Red on rank 13 - r.
  for (int s = 0; s < kSites; ++s) {
    const Stack& a = p.at[s];
    const Stack& b = p.at[site_of(file_of(s), kRanks - 1 - rank_of(s))];
    ASSERT_EQ(a.empty(), b.empty()) << site_name(s);
    if (!a.empty()) {
      EXPECT_EQ(a.top().kind(), b.top().kind()) << site_name(s);
    }
  }
}

TEST(CotulenhFen, StacksHeroesPointsAndLossesRoundTrip) {
  for (const char* fen : {
           "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2e1/10i/2(NTFI)1(EA)6/6M2EI/4G2+TG2/6S2A1/1N3(HC)1HF2/11 r",
           "11/7h3/3(fi)c6/1(nt)5+f3/5a1s3/2N8/9(EG)1/N1T4G3/11/4C1S4/11/11 b 120 40 Iin",
           "2c8/11/1n3g5/4t6/2N3+F4/5m5/11/3(T+C)7/11/11/6F4/11 r 0 10 -",
       }) {
    const State s = kRules.from_fen(fen);
    const std::string out = kRules.fen(s);
    EXPECT_EQ(kRules.fen(kRules.from_fen(out)), out);
    EXPECT_EQ(CotulenhRules::position(kRules.from_fen(out)), CotulenhRules::position(s)) << fen;
  }
  // The optional "-" and zero points are left out when writing.
  EXPECT_EQ(kRules.fen(kRules.from_fen("6c4/11/11/11/11/11/11/11/11/11/11/6C4 b 0 0 -")),
            "6c4/11/11/11/11/11/11/11/11/11/11/6C4 b");
  const Position p = CotulenhRules::position(kRules.from_fen("6c4/11/11/11/11/11/11/11/11/11/11/6C4 b 120 40 Iinn"));
  EXPECT_EQ(p.points[0], 120);
  EXPECT_EQ(p.points[1], 40);
  EXPECT_EQ(p.lost[0][kInfantry], 1);
  EXPECT_EQ(p.lost[1][kNavy], 2);
  // Stack letters may be given in any order; they are kept bottom to top.
  EXPECT_EQ(kRules.fen(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/2(IFTN)8 r")),
            "11/11/11/11/11/11/11/11/11/11/11/2(NTFI)8 r");
}

TEST(CotulenhFen, MorePiecesThanASetIsAnError) {
  EXPECT_THROW(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/2NNN6 r"), InputError);
  EXPECT_THROW(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/2NN7 r 0 0 N"), InputError);
  EXPECT_THROW(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/2(NN)8 r"), InputError);
  EXPECT_THROW(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/2(NTFIM)6 r"), InputError);
}

TEST(CotulenhFen, HugeCountsAreRefusedNotWrapped) {
  // A run of empty sites far beyond int, and 256 lost infantry (a byte's count would
  // wrap to none): both are errors that quote what was written.
  const std::string empty = "11/11/11/11/11/11/11/11/11/11/11/";
  try {
    kRules.from_fen(empty + "99999999999999999999C4 r");
    FAIL() << "a run of 10^20 empty sites was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1: bad run of empty sites 99999999999999999999"), std::string::npos)
        << e.what();
  }
  try {
    kRules.from_fen(empty + "6C4 r 0 0 " + std::string(256, 'I'));
    FAIL() << "256 lost infantry were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("red has lost more infantry than the 2 of a set"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(kRules.from_fen(empty + "6C4 r 0 0 nnn"), InputError);
  EXPECT_NO_THROW(kRules.from_fen(empty + "6C4 r 0 0 nnII"));
}

TEST(CotulenhFen, MalformedStacksAndHeroesAreNamed) {
  const std::string empty = "11/11/11/11/11/11/11/11/11/11/11/";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {empty + "2(T)8 r", "rank 1: a stack in parentheses needs at least two pieces"},
      {empty + "2(NTFIM)6 r", "rank 1: a stack holds at most 4 pieces"},
      {empty + "10(TI r", "rank 1: stack missing ')'"},
      {empty + "2(T4)8 r", "rank 1: unexpected character '4' inside a stack (missing ')'?)"},
      {empty + "10+ r", "rank 1: '+' must be followed by a piece letter"},
  };
  for (const auto& [fen, message] : cases) {
    try {
      kRules.from_fen(fen);
      ADD_FAILURE() << "accepted " << fen;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(CotulenhFen, AnAirForceOverTheSeaIsAnOption) {
  EXPECT_NO_THROW(kRules.from_fen("11/11/11/11/11/11/11/11/11/11/11/F10 r"));
  const CotulenhRules land(Options::from_json(Json::parse(R"({"air_force_over_sea": false})")));
  EXPECT_THROW(land.from_fen("11/11/11/11/11/11/11/11/11/11/11/F10 r"), InputError);
  EXPECT_NO_THROW(land.from_fen("11/11/11/11/11/11/11/11/11/11/11/(NF)10 r"));
  // Over the sea it may only land on a ship.
  const Position p = testing::board({{"c2", "F"}, {"a2", "N"}});
  EXPECT_FALSE(testing::has_move(land, p, "Fc2-b2"));
  EXPECT_TRUE(testing::has_move(land, p, "Fc2-a2"));
  EXPECT_TRUE(testing::has_move(kRules, p, "Fc2-b2"));
}

TEST(CotulenhFen, AsciiBoardOfTheStart) {
  EXPECT_EQ(kRules.ascii(kRules.start()),
            "12  ~  ~  .  .  .  .  c  .  .  .  .\n"
            "11  ~  n  .  .  f  h  .  h  f  .  .\n"
            "10  ~  ~  .  a  .  .  s  .  .  a  .\n"
            " 9  ~  ~  n  .  g  t  .  t  g  .  .\n"
            " 8  ~  ~  i  e  .  .  m  .  .  e  i\n"
            " 7  ~  ~  .  .  .  .  .  .  .  .  .\n"
            "  ~~~~~~~~~~~~~~~~~=~~~~~=~~~~~~~~~\n"
            " 6  ~  ~  .  .  .  .  .  .  .  .  .\n"
            " 5  ~  ~  I  E  .  .  M  .  .  E  I\n"
            " 4  ~  ~  N  .  G  T  .  T  G  .  .\n"
            " 3  ~  ~  .  A  .  .  S  .  .  A  .\n"
            " 2  ~  N  .  .  F  H  .  H  F  .  .\n"
            " 1  ~  ~  .  .  .  .  C  .  .  .  .\n"
            "    a  b  c  d  e  f  g  h  i  j  k\n");
}

TEST(CotulenhOptions, JsonRoundTripAndDefaults) {
  const Options d;
  EXPECT_EQ(Options::from_json(d.to_json()), d);
  EXPECT_EQ(Options::from_json(Json()), d);
  const Json all = Json::parse(R"({"mode": "full", "win_bonus": 50, "commander_facing": "illegal",
      "commander_safety": "must_escape", "hq_shelters_commander": false, "zone_shape": "square",
      "hero_extends_air_defence": false, "last_defender_hero": false, "diagonal_fords": true,
      "air_targets": "air_defence", "air_force_over_sea": false})");
  const Options o = Options::from_json(all);
  EXPECT_EQ(o.to_json(), all);
  EXPECT_EQ(Options::from_json(o.to_json()), o);
  EXPECT_THROW(Options::from_json(Json::parse(R"({"mode": "blitz"})")), InputError);
  EXPECT_THROW(Options::from_json(Json::parse(R"({"bonus": 1})")), InputError);
  // The rules report their complete options; the config file holds the defaults.
  EXPECT_EQ(kRules.options(), d.to_json());
}

TEST(CotulenhOptions, ConfigFileHoldsTheDefaults) {
  std::ifstream in(SMARTBOARD_SOURCE_DIR "/configs/cotulenh.json");
  ASSERT_TRUE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const Json config = Json::parse(ss.str());
  EXPECT_EQ(config.at("game").as_string(), "cotulenh");
  EXPECT_EQ(Options::from_json(config.at("rules")), Options{});
  EXPECT_EQ(config.at("rules"), Options{}.to_json());
}

TEST(CotulenhOptions, DiagonalFordsLetHeavyPiecesCrossDiagonallyBesideThem) {
  const CotulenhRules fords(Options::from_json(Json::parse(R"({"diagonal_fords": true})")));
  const Position p = testing::board({{"e6", "A"}});
  EXPECT_FALSE(testing::has_move(kRules, p, "Ae6-f7"));
  EXPECT_TRUE(testing::has_move(fords, p, "Ae6-f7"));
  EXPECT_FALSE(testing::has_move(fords, p, "Ae6-d7"));
}

}  // namespace
}  // namespace sb::cotulenh
