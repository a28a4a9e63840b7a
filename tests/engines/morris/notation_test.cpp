// What the Morris engine reads and writes: point names and reading order, FEN,
// ASCII boards, move notation, the reasons it gives, the changes on the board it
// explains, and its rule options.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <typeinfo>

#include "engines/common/errors.h"
#include "engines/morris/morris_rules.h"
#include "engines/registry.h"
#include "tests/engines/morris/morris_test_support.h"
#include "tests/engines/morris/peer_data.h"

namespace sb {
namespace {

using morris_test::fen_of;
using morris_test::notations;

std::string names_in_order(const Rules& rules) {
  std::string out;
  for (int i = 0; i < rules.site_count(); ++i) {
    if (i) out += ' ';
    out += rules.site_name(i);
  }
  return out;
}

TEST(ReadingOrder, TopRankFirstLeftToRightOnEveryBoard) {
  EXPECT_EQ(names_in_order(*make_rules("morris9")),
            "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1");  // RULES.md §2
  EXPECT_EQ(names_in_order(*make_rules("morris12")), names_in_order(*make_rules("morris9")));
  EXPECT_EQ(names_in_order(*make_rules("morris6")), "a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1");
  EXPECT_EQ(names_in_order(*make_rules("morris3")), "a3 b3 c3 a2 b2 c2 a1 b1 c1");
}

TEST(Fen, StartPositions) {
  EXPECT_EQ(make_rules("morris9")->fen(make_rules("morris9")->start()), "........................ w 9 9");
  auto r12 = make_rules("morris12");
  EXPECT_EQ(r12->fen(r12->start()), "........................ w 12 12");
  auto r6 = make_rules("morris6");
  EXPECT_EQ(r6->fen(r6->start()), "................ w 6 6");
  auto r3 = make_rules("morris3");
  EXPECT_EQ(r3->fen(r3->start()), "......... w 3 3");
}

TEST(Fen, RoundTripsAlongThePeerGames) {
  for (const char* game : {"morris9", "morris12"}) {
    auto rules = make_rules(game);
    const morris_peer::PeerGames peer = morris_peer::load(game);
    for (const auto& t : peer.trajectories) {
      State s = rules->start();
      for (const std::string& move : morris_peer::joined_moves(t)) {
        if (rules->outcome(s).over()) break;
        const State back = rules->from_fen(rules->fen(s));
        ASSERT_EQ(rules->fen(back), rules->fen(s));
        ASSERT_EQ(notations(*rules, back), notations(*rules, s)) << rules->fen(s);
        s = rules->apply(s, rules->parse_move(s, move));
      }
    }
  }
}

std::string fen_error(const std::string& game, const std::string& fen) {
  try {
    make_rules(game)->from_fen(fen);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Fen, BadInputIsNamedWithItsColumn) {
  const std::string start = "........................";
  EXPECT_EQ(fen_error("morris9", ""), "FEN '': expected 4 fields '<board> <w|b> <white in hand> <black in hand>', got 0");
  EXPECT_EQ(fen_error("morris9", start + " w 9"),
            "FEN '" + start + " w 9': expected 4 fields '<board> <w|b> <white in hand> <black in hand>', got 3");
  EXPECT_EQ(fen_error("morris9", start + ". w 9 9"),
            "FEN '" + start + ". w 9 9': the board lists 25 points, morris9 has 24 at column 1");
  EXPECT_EQ(fen_error("morris9", "...X.................... w 9 9"),
            "FEN '...X.................... w 9 9': bad point 'X' (expected W, B or .) at column 4");
  EXPECT_EQ(fen_error("morris9", start + " x 9 9"), "FEN '" + start + " x 9 9': side to move 'x' is not w or b at column 26");
  EXPECT_EQ(fen_error("morris9", start + " w 09 9"),
            "FEN '" + start + " w 09 9': white's pieces in hand '09' is not a number at column 28");
  EXPECT_EQ(fen_error("morris9", start + " w 9 -1"),
            "FEN '" + start + " w 9 -1': black's pieces in hand '-1' is not a number at column 30");
  const std::string one_white = "W.......................";
  EXPECT_EQ(fen_error("morris9", one_white + " w 9 9"),
            "FEN '" + one_white +
                " w 9 9': white has 1 on the board and 9 in hand, more than the 9 pieces of morris9 at column 28");
  EXPECT_EQ(fen_error("morris6", start + " w 6 6"),
            "FEN '" + start + " w 6 6': the board lists 24 points, morris6 has 16 at column 1");
  EXPECT_EQ(fen_error("morris3", "WWWBBB... w 0 0"),
            "FEN 'WWWBBB... w 0 0': both sides have a mill, but the first mill ends a game of morris3 at column 1");
}

TEST(Ascii, Morris9Start) {
  auto rules = make_rules("morris9");
  EXPECT_EQ(rules->ascii(rules->start()),
            "7  .-----.-----.\n"
            "   |     |     |\n"
            "6  | .---.---. |\n"
            "   | |   |   | |\n"
            "5  | | .-.-. | |\n"
            "   | | |   | | |\n"
            "4  .-.-.   .-.-.\n"
            "   | | |   | | |\n"
            "3  | | .-.-. | |\n"
            "   | |   |   | |\n"
            "2  | .---.---. |\n"
            "   |     |     |\n"
            "1  .-----.-----.\n"
            "   a b c d e f g\n"
            "white to move; in hand: white 9, black 9\n");
}

TEST(Ascii, Morris12FullBoardShowsTheDiagonals) {
  auto rules = make_rules("morris12");
  EXPECT_EQ(rules->ascii(rules->from_fen("BWWBWBWBWWWBWBBWBBBWWBBW w 0 0")),
            "7  B-----W-----W\n"
            "   |\\    |    /|\n"
            "6  | B---W---B |\n"
            "   | |\\  |  /| |\n"
            "5  | | W-B-W | |\n"
            "   | | |   | | |\n"
            "4  W-W-B   W-B-B\n"
            "   | | |   | | |\n"
            "3  | | W-B-B | |\n"
            "   | |/  |  \\| |\n"
            "2  | B---W---W |\n"
            "   |/    |    \\|\n"
            "1  B-----B-----W\n"
            "   a b c d e f g\n"
            "white to move; in hand: white 0, black 0\n");
}

TEST(Ascii, Morris6AndMorris3) {
  auto r6 = make_rules("morris6");
  EXPECT_EQ(r6->ascii(r6->play(r6->start(), "a5 c4")),
            "5  W---.---.\n"
            "   |   |   |\n"
            "4  | .-B-. |\n"
            "   | |   | |\n"
            "3  .-.   .-.\n"
            "   | |   | |\n"
            "2  | .-.-. |\n"
            "   |   |   |\n"
            "1  .---.---.\n"
            "   a b c d e\n"
            "white to move; in hand: white 5, black 5\n");
  auto r3 = make_rules("morris3");
  EXPECT_EQ(r3->ascii(r3->play(r3->start(), "b2")),
            "3  .-.-.\n"
            "   |\\|/|\n"
            "2  .-W-.\n"
            "   |/|\\|\n"
            "1  .-.-.\n"
            "   a b c\n"
            "black to move; in hand: white 2, black 3\n");
}

// --- move notation

// The message of the InputError that reading `text` throws, which must not be an
// IllegalMoveError (the text is not a move at all).
std::string not_a_move(const Rules& rules, const State& s, const std::string& text) {
  try {
    rules.parse_move(s, text);
  } catch (const IllegalMoveError& e) {
    return std::string("(illegal move) ") + e.what();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Notation, TextThatIsNotAMoveIsAnInputError) {
  auto rules = make_rules("morris9");
  const State s = rules->start();
  EXPECT_EQ(not_a_move(*rules, s, ""), "empty move");
  EXPECT_EQ(not_a_move(*rules, s, "h9"), "'h9' is not a point of morris9");
  EXPECT_EQ(not_a_move(*rules, s, "d4"), "'d4' is not a point of morris9");  // the centre is no point
  EXPECT_EQ(not_a_move(*rules, s, "a07"), "'a07' is not a point of morris9");
  EXPECT_EQ(not_a_move(*rules, s, "A1"),
            "expected a point at character 1 of 'A1' (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  EXPECT_EQ(not_a_move(*rules, s, "a1-"),
            "expected the point moved to at character 4 of 'a1-' (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  EXPECT_EQ(not_a_move(*rules, s, "d7x"),
            "expected the point of the piece removed at character 4 of 'd7x' (moves are written d7, a1-a4, d7xa4, "
            "a1-a4xg7)");
  EXPECT_EQ(not_a_move(*rules, s, "a1:a4"),
            "unexpected ':' at character 3 of 'a1:a4' (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  EXPECT_EQ(not_a_move(*rules, s, "a1-a4-a7"),
            "unexpected '-' at character 6 of 'a1-a4-a7' (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  EXPECT_EQ(not_a_move(*rules, s, "a1 "),
            "unexpected ' ' at character 3 of 'a1 ' (moves are written d7, a1-a4, d7xa4, a1-a4xg7)");
  EXPECT_EQ(not_a_move(*make_rules("morris3"), make_rules("morris3")->start(), "d4"), "'d4' is not a point of morris3");
}

struct ReasonCase {
  const char* white;
  const char* black;
  char side;
  int white_hand, black_hand;
  const char* move;
  const char* reason;
};

TEST(Notation, IllegalMovesSayWhyInPlayersWords) {
  auto rules = make_rules("morris9");
  const std::vector<ReasonCase> cases = {
      {"a7 d7 g7 a1", "b6 d6 f6 b2", 'w', 0, 0, "c3", "white has no pieces left to place: move a piece along a line"},
      {"a7 d7 g7", "b6 d6 f6 b2", 'w', 0, 0, "c3",
       "white has no pieces left to place: move a piece (with 3 pieces it may fly to any empty point)"},
      {"a7", "d7", 'w', 8, 8, "d7", "d7 is already taken"},
      {"a7 d7 g7 a1", "b6 d6 f6 b2", 'w', 0, 0, "b2-b4", "b2 holds a black piece: white moves only its own"},
      {"a7 d7 g7 a1", "b6 d6 f6 b2", 'w', 0, 0, "a4-b4", "there is no piece on a4"},
      {"a7 d7 g7 a1", "b6 d6 f6 b2", 'w', 0, 0, "a7-d7", "d7 is already taken"},
      {"a7 d7 g7 a1", "b6 d6 f6 b2", 'w', 0, 0, "a1-a1", "a1-a1 does not move the piece"},
      {"a7 d7 g7 d1", "b6 d6 f6 b2", 'w', 0, 0, "d1-d3",
       "d1-d3 is not along a line to a neighbouring point, and white may not fly yet: only a player with exactly 3 "
       "pieces flies (white has 4)"},
      {"a7 d7", "b6 d6 f6", 'w', 3, 3, "g7xa7", "a7 is white's own piece: only a black piece may be removed"},
      {"a7 d7", "b6 d6 f6 b2", 'w', 3, 3, "g7xc3", "there is no piece on c3 to remove"},
      {"a7 d7", "b6 d6 f6 b2", 'w', 3, 3, "g7xb2xb2", "b2 is named twice"},
      {"a7 d7", "b6 d6 f6 b2", 'w', 3, 3, "g7xb6", "b6 is in a mill, and not every black piece is: it may not be removed"},
      {"a7 d7", "b6 d6 f6 b2", 'w', 3, 3, "g7xb2xc3", "there is no piece on c3 to remove"},
      {"a7 d7", "b6 d6 f6 b2 a1", 'w', 3, 3, "g7xb2xa1", "a mill removes one piece, no more"},
      {"a7 d7", "", 'w', 3, 9, "g7xb2", "there is no piece on b2 to remove"},
  };
  for (const ReasonCase& c : cases) {
    const State s = rules->from_fen(fen_of(*rules, c.white, c.black, c.side, c.white_hand, c.black_hand));
    try {
      rules->parse_move(s, c.move);
      ADD_FAILURE() << c.move << " was accepted";
    } catch (const IllegalMoveError& e) {
      EXPECT_EQ(e.reason(), c.reason) << c.move;
      EXPECT_EQ(e.move(), c.move);
    }
    EXPECT_EQ(rules->why_illegal(s, c.move), c.reason) << c.move;
  }
  EXPECT_EQ(rules->why_illegal(rules->start(), "zz"), "'zz' is not a point of morris9");
}

TEST(Notation, CanonicalMovesParseToThemselves) {
  for (const char* game : {"morris9", "morris12", "morris6", "morris3"}) {
    auto rules = make_rules(game);
    const State s = rules->start();
    for (const Move& m : rules->legal_moves(s)) {
      const Move back = rules->parse_move(s, m.notation);
      EXPECT_EQ(back.notation, m.notation);
      EXPECT_EQ(back.code, m.code);
    }
  }
}

// --- what the arbiter sees

Observation observation_of(const Rules& rules, const std::string& white, const std::string& black) {
  const State s = rules.from_fen(fen_of(rules, white, black, 'w', 0, 0));
  return rules.observe(s);
}

std::vector<std::string> site_names(const Rules& rules, const std::vector<int>& sites) {
  std::vector<std::string> out;
  for (int s : sites) out.push_back(rules.site_name(s));
  return out;
}

TEST(ExplainChange, ABrokenRuleIsNamedWithItsSquares) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7 c4", "b6 d6 f6 b2", 'w', 4, 3));
  // White places g7 (a mill) and takes b6, which stands in black's mill.
  auto c = rules->explain_change(s, observation_of(*rules, "a7 d7 g7 c4", "d6 f6 b2"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "b6 is in a mill, and not every black piece is: it may not be removed");
  EXPECT_EQ(site_names(*rules, c->squares), (std::vector<std::string>{"g7", "b6"}));
  // White places e4 and takes b2: no mill.
  c = rules->explain_change(s, observation_of(*rules, "a7 d7 c4 e4", "b6 d6 f6"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "no mill was formed, so nothing may be removed");
  // White slides while it still has pieces to place.
  c = rules->explain_change(s, observation_of(*rules, "a7 d7 c5", "b6 d6 f6 b2"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "white still has 4 pieces to place: no piece moves before all are placed");
  EXPECT_EQ(site_names(*rules, c->squares), (std::vector<std::string>{"c4", "c5"}));
  // Black places a piece although white is to move.
  c = rules->explain_change(s, observation_of(*rules, "a7 d7 c4", "b6 d6 f6 b2 g1"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason, "it is white's turn");
  EXPECT_EQ(site_names(*rules, c->squares), (std::vector<std::string>{"g1"}));
}

TEST(ExplainChange, FlyingTooEarlyIsNamed) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7 c4 a1", "b6 d6 f6 b2", 'w', 0, 0));
  auto c = rules->explain_change(s, observation_of(*rules, "a7 d7 c4 g1", "b6 d6 f6 b2"));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->reason,
            "a1-g1 is not along a line to a neighbouring point, and white may not fly yet: only a player with exactly "
            "3 pieces flies (white has 4)");
  EXPECT_EQ(site_names(*rules, c->squares), (std::vector<std::string>{"a1", "g1"}));
}

TEST(ExplainChange, LegalMovesAndUnfinishedMillsAreNotIllegal) {
  auto rules = make_rules("morris9");
  const State s = rules->from_fen(fen_of(*rules, "a7 d7 c4", "b6 d6 f6 b2", 'w', 4, 3));
  // A legal move, complete.
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 d7 g7 c4", "b6 d6 f6")).has_value());
  // The mill is closed and the removal is still to come: the arbiter waits.
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 d7 g7 c4", "b6 d6 f6 b2")).has_value());
  // Not one physical move: two white pieces appear, or a piece changes colour.
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 d7 c4 e4 e3", "b6 d6 f6 b2")).has_value());
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 d7 c4 b2", "b6 d6 f6")).has_value());
  // Nothing but an opposing piece gone: a knocked piece or a misread, not a move.
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 d7 c4", "b6 d6 f6")).has_value());
}

TEST(ExplainChange, TwoRemovalsAreAwaitedOneAtATime) {
  auto rules = make_rules("morris9", Json::parse(R"({"double_mill_removals": 2})"));
  const State s = rules->from_fen(fen_of(*rules, "a7 g7 d6 d5", "b2 f2 c3", 'w', 3, 4));
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 g7 d6 d5 d7", "f2 c3")).has_value());
  EXPECT_FALSE(rules->explain_change(s, observation_of(*rules, "a7 g7 d6 d5 d7", "c3")).has_value());
}

// --- options

TEST(Options, DefaultsAreCompleteAndRoundTrip) {
  EXPECT_EQ(make_rules("morris9")->options().dump(),
            R"({"double_mill_removals":1,"flying":true,"move_limit_plies":100,"remove_from_mill":"only_if_all_in_mills"})");
  EXPECT_EQ(make_rules("morris3")->options().dump(), R"({"flying":false,"move_limit_plies":100})");
  const Json custom = Json::parse(
      R"({"double_mill_removals":2,"flying":false,"move_limit_plies":40,"remove_from_mill":"always"})");
  for (const char* game : {"morris9", "morris6", "morris12"}) {
    auto rules = make_rules(game, custom);
    EXPECT_EQ(rules->options(), custom) << game;
    EXPECT_EQ(make_rules(game, rules->options())->options(), custom) << game;
    const morris::MorrisOptions o = morris::MorrisOptions::from_json(custom, morris::Variant::Nine);
    EXPECT_EQ(morris::MorrisOptions::from_json(o.to_json(morris::Variant::Nine), morris::Variant::Nine), o);
  }
}

std::string option_error(const std::string& game, const std::string& json) {
  try {
    make_rules(game, Json::parse(json));
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Options, BadOptionsAreNamed) {
  EXPECT_EQ(option_error("morris9", R"({"flyng": true})"), "morris9 rule options: unknown option 'flyng'");
  EXPECT_EQ(option_error("morris9", R"({"flying": "yes"})"), "morris9 rule option 'flying': expected true or false, got \"yes\"");
  EXPECT_EQ(option_error("morris9", R"({"remove_from_mill": "never"})"),
            "morris9 rule option 'remove_from_mill': expected one of \"only_if_all_in_mills\", \"always\", got \"never\"");
  EXPECT_EQ(option_error("morris12", R"({"double_mill_removals": 3})"),
            "morris12 rule option 'double_mill_removals': expected an integer from 1 to 2, got 3");
  EXPECT_EQ(option_error("morris6", R"({"move_limit_plies": -1})"),
            "morris6 rule option 'move_limit_plies': expected an integer from 0 to 10000, got -1");
  EXPECT_EQ(option_error("morris3", R"({"remove_from_mill": "always"})"),
            "morris3 rule options: unknown option 'remove_from_mill'");
  EXPECT_EQ(option_error("morris9", "[]"), "morris9 rule options: expected a JSON object, got []");
}

TEST(Options, ConfigFilesHoldTheDefaults) {
  for (const char* game : {"morris9", "morris3", "morris6", "morris12"}) {
    const std::string path = std::string(SMARTBOARD_SOURCE_DIR) + "/configs/" + game + ".json";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    const Json config = Json::parse(text.str(), path);
    EXPECT_EQ(config.at("game").as_string(), game);
    EXPECT_EQ(config.at("rules"), make_rules(game)->options()) << path;
  }
}

}  // namespace
}  // namespace sb
