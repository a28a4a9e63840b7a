// FEN, move notation (numeric and algebraic), site names, rule options, and the
// errors for bad input, each naming the problem and where it is.
#include "engines/draughts/notation.h"

#include <gtest/gtest.h>

#include <functional>

#include "engines/draughts/fen.h"
#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;
using testing::move_list;
using testing::Strings;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(DraughtsFen, StartPositionsAreWrittenWithRanges) {
  EXPECT_EQ(make("brazilian")->fen(make("brazilian")->start()), "W:W21-32:B1-12");
  EXPECT_EQ(make("international")->fen(make("international")->start()), "W:W31-50:B1-20");
  EXPECT_EQ(make("english")->fen(make("english")->start()), "B:W21-32:B1-12");
}

TEST(DraughtsFen, KingsRangesAndListsReadAndWriteBack) {
  auto rules = make("brazilian");
  EXPECT_EQ(rules->fen(rules->from_fen("B:W18,K22,25-32:BK1,2,3,9")), "B:W18,K22,25-32:BK1,2,3,9");
  // Lists in any order, ranges of two, spaces around, a trailing dot, Black listed first.
  EXPECT_EQ(rules->fen(rules->from_fen(" W:B3,2,1:W31-32,K5. ")), "W:WK5,31,32:B1-3");
  // A range of kings, algebraic squares, and the H/F counters of some programs.
  const State s = rules->from_fen("W:WK1-3,c3:Bh8:H7:F12");
  EXPECT_EQ(rules->fen(s), "W:WK1,K2,K3,22:B4");
  EXPECT_EQ(rules->position(s).quiet_plies, 7);
  EXPECT_EQ(rules->position(s).first_move_number, 12);
  // A side with no pieces.
  EXPECT_EQ(rules->fen(rules->from_fen("B:W:B1")), "B:W:B1");
}

TEST(DraughtsFen, RoundTripsThroughRandomGames) {
  for (const char* id : {"brazilian", "international", "english"}) {
    auto rules = make(id);
    State s = rules->start();
    for (int ply = 0; ply < 120; ++ply) {
      std::vector<Move> moves = rules->legal_moves(s);
      if (moves.empty()) break;
      s = rules->apply(s, moves[(ply * 7 + 3) % moves.size()]);
      const State back = rules->from_fen(rules->fen(s));
      EXPECT_EQ(rules->board(back), rules->board(s)) << id << " " << rules->fen(s);
    }
  }
}

TEST(DraughtsFen, MalformedFenNamesTheProblemAndColumn) {
  auto rules = make("brazilian");
  const auto err = [&](const std::string& fen) { return error_of([&] { rules->from_fen(fen); }); };
  EXPECT_EQ(err("W:W21-3x:B1-12"), "FEN 'W:W21-3x:B1-12': bad square '3x' at column 7");
  EXPECT_EQ(err("X:W21-32:B1-12"), "FEN 'X:W21-32:B1-12': expected the side to move, 'W' or 'B', got 'X' at column 1");
  EXPECT_EQ(err("W:W21-32:B1-12,21"), "FEN 'W:W21-32:B1-12,21': square 21 is given twice at column 16");
  EXPECT_EQ(err("W:W33:B1"), "FEN 'W:W33:B1': bad square '33' at column 4");
  EXPECT_EQ(err("W:W5-3:B1"), "FEN 'W:W5-3:B1': range '5-3' runs backwards at column 4");
  EXPECT_EQ(err("W:W21,,22:B1"), "FEN 'W:W21,,22:B1': empty item in the square list at column 7");
  EXPECT_EQ(err("W:W21:W22"), "FEN 'W:W21:W22': the pieces of W are listed twice at column 7");
  EXPECT_EQ(err("W:W21:Q1"), "FEN 'W:W21:Q1': unknown field 'Q1' (expected W..., B..., H<n> or F<n>) at column 7");
  EXPECT_EQ(err("W"), "FEN 'W': expected the side to move and the pieces, as in W:W21-32:B1-12 at column 2");
  EXPECT_EQ(err(""), "FEN '': empty FEN at column 1");
  EXPECT_EQ(err("W:W21:B1:H-1"), "FEN 'W:W21:B1:H-1': bad number '-1' at column 11");
  EXPECT_EQ(err("W:W21-32:B1-12:"), "FEN 'W:W21-32:B1-12:': empty field at column 16");
  EXPECT_EQ(err("W:W0:B1"), "FEN 'W:W0:B1': bad square '0' at column 4");
  EXPECT_EQ(err("W:W01:B1"), "FEN 'W:W01:B1': bad square '01' at column 4");
  // International squares go to 50.
  EXPECT_NO_THROW(make("international")->from_fen("W:W50:B1"));
  EXPECT_EQ(error_of([] { make("international")->from_fen("W:W51:B1"); }),
            "FEN 'W:W51:B1': bad square '51' at column 4");
}

TEST(DraughtsNotation, SiteNamesAreNumbersOrAlgebraic) {
  auto numeric = make("brazilian");
  auto algebraic = make("brazilian", Json::parse(R"({"notation": "algebraic"})"));
  EXPECT_EQ(numeric->site_count(), 32);
  EXPECT_EQ(numeric->site_name(0), "1");
  EXPECT_EQ(algebraic->site_name(0), "b8");
  EXPECT_EQ(algebraic->site_name(28), "a1");  // square 29
  EXPECT_EQ(algebraic->site_name(31), "g1");  // square 32
  EXPECT_EQ(algebraic->site_name(3), "h8");   // square 4
  EXPECT_EQ(numeric->site_index("22"), 21);
  EXPECT_EQ(numeric->site_index("c3"), 21);  // both forms are read whatever the option
  EXPECT_EQ(numeric->site_index("b1"), -1);  // a light square
  EXPECT_EQ(numeric->site_index("33"), -1);
  auto intl = make("international", Json::parse(R"({"notation": "algebraic"})"));
  EXPECT_EQ(intl->site_count(), 50);
  EXPECT_EQ(intl->site_name(0), "b10");
  EXPECT_EQ(intl->site_name(45), "a1");
  EXPECT_EQ(intl->site_name(49), "i1");
}

TEST(DraughtsNotation, BrazilianAlgebraicOutput) {
  auto rules = make("brazilian", Json::parse(R"({"notation": "algebraic"})"));
  EXPECT_EQ(move_list(*rules, rules->start()),
            (Strings{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}));
  // Captures, and moves written either way on input.
  const State s = rules->play(rules->start(), "c3-d4 f6-e5 d4xf6");
  EXPECT_EQ(rules->fen(s), "B:W11,21,23-32:B1-10,12");
  EXPECT_EQ(rules->parse_move(rules->start(), "22-18").notation, "c3-d4");
  EXPECT_EQ(move_list(*rules, "W:WK31:B11,17,19,27"), (Strings{"e1xg3xd6xa3", "e1xg7", "e1xh4xe7xa3", "e1xh8"}));
}

TEST(DraughtsNotation, MalformedMovesNameTheProblemAndColumn) {
  auto rules = make("brazilian");
  const State s = rules->start();
  const auto err = [&](const std::string& m) { return error_of([&] { rules->parse_move(s, m); }); };
  EXPECT_EQ(err("22-"), "move '22-': expected a square at column 4");
  EXPECT_EQ(err("22"), "move '22': expected two squares such as 22-18 or 22x13 at column 3");
  EXPECT_EQ(err("22-99"), "move '22-99': '99' is not a square of this board (1-32) at column 4");
  EXPECT_EQ(err("22-18x14"), "move '22-18x14': mixes '-' and 'x' at column 6");
  EXPECT_EQ(err("22-18-14"), "move '22-18-14': a step has two squares; write a capture with 'x' at column 1");
  EXPECT_EQ(err("hello"), "move 'hello': 'hello' is not a square of this board (1-32) at column 1");
  EXPECT_EQ(err(""), "empty move");
}

TEST(DraughtsOptions, JsonRoundTripWithDefaultsFilledIn) {
  auto b = make("brazilian");
  EXPECT_EQ(b->options().dump(), R"({"draw_rules":"seed","notation":"numeric"})");
  EXPECT_EQ(make("international")->options().dump(), R"({"draw_rules":"fmjd","notation":"numeric"})");
  EXPECT_EQ(make("english")->options().dump(), R"({"draw_rules":"seed","notation":"numeric"})");
  const Json custom = Json::parse(R"({"draw_rules":"fmjd64","notation":"algebraic"})");
  auto c = make("brazilian", custom);
  EXPECT_EQ(c->options(), custom);
  EXPECT_EQ(make("brazilian", c->options())->draughts_options(), c->draughts_options());
}

TEST(DraughtsOptions, BadOptionsAreNamed) {
  EXPECT_EQ(error_of([] { make("brazilian", Json::parse(R"({"flying": false})")); }),
            "brazilian rule options: unknown option 'flying'");
  EXPECT_EQ(error_of([] { make("brazilian", Json::parse(R"({"draw_rules": "fide"})")); }),
            "brazilian rule option 'draw_rules': expected one of \"seed\", \"fmjd64\", \"fmjd\", got \"fide\"");
  EXPECT_EQ(error_of([] { make("english", Json::parse(R"({"notation": 3})")); }),
            "english rule option 'notation': expected one of \"numeric\", \"algebraic\", got 3");
  EXPECT_EQ(error_of([] { make("brazilian", Json::parse("[1]")); }),
            "brazilian rule options: expected a JSON object, got [1]");
}

TEST(DraughtsObservation, TheCameraSeesSidesButNotKings) {
  auto rules = make("brazilian");
  const State s = rules->from_fen("W:WK1,21:B5,K32");
  const Observation o = rules->observe(s);
  ASSERT_EQ(o.sites.size(), 32u);
  EXPECT_EQ(o.sites[0].str(), "W");
  EXPECT_EQ(o.sites[20].str(), "W");
  EXPECT_EQ(o.sites[4].str(), "B");
  EXPECT_EQ(o.sites[31].str(), "B");
  EXPECT_TRUE(o.sites[1].empty());
  EXPECT_TRUE(rules->valid_token(parse_token("W")));
  EXPECT_TRUE(rules->valid_token(parse_token("B")));
  EXPECT_FALSE(rules->valid_token(parse_token("WK")));
  EXPECT_FALSE(rules->valid_token(parse_token("R")));
}

TEST(DraughtsNotation, MoveJsonDetails) {
  auto rules = make("brazilian");
  const Move m = rules->parse_move(rules->from_fen("W:W10:B7,23"), "10x3");
  EXPECT_EQ(m.details.dump(), R"({"king":false,"promotes":true})");
  EXPECT_EQ(m.captured, (std::vector<int>{6}));
}

}  // namespace
}  // namespace sb::draughts
