// PDN 3.0: reading every part of a game file, writing it back, replaying games
// against the rules, and the errors for bad files.
#include "engines/draughts/pdn.h"

#include <gtest/gtest.h>

#include "tests/engines/draughts/draughts_test_util.h"

namespace sb::draughts {
namespace {

using testing::make;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A whole game played to its end, choosing moves by a fixed rule.
std::vector<Move> play_out(const DraughtsRules& rules, State s, int seed) {
  std::vector<Move> moves;
  for (int ply = 0; ply < 400; ++ply) {
    std::vector<Move> legal = rules.legal_moves(s);
    if (legal.empty()) break;
    // Prefer long captures and promotions now and then, so the record has full paths and kings.
    const Move& m = legal[(ply * 31 + seed) % legal.size()];
    s = rules.apply(s, m);
    moves.push_back(m);
  }
  return moves;
}

TEST(DraughtsPdn, WholeGamesRoundTripThroughWriteReadAndReplay) {
  for (const char* id : {"brazilian", "international", "english"}) {
    auto rules = make(id);
    const State start = rules->start();
    const std::vector<Move> moves = play_out(*rules, start, 5);
    State end = start;
    for (const Move& m : moves) end = rules->apply(end, m);
    ASSERT_TRUE(rules->outcome(end).over()) << id;
    const std::string result = rules->outcome(end).result();
    const PdnGame game = record_pdn(*rules, start, moves, result,
                                    {{"Event", "Round \"trip\""}, {"White", "A. White"}, {"Black", "B. Black"}});
    const std::string text = write_pdn(game);

    const std::vector<PdnGame> read = read_pdn(text, "game.pdn");
    ASSERT_EQ(read.size(), 1u) << id;
    EXPECT_EQ(read[0].tags, game.tags) << id;
    EXPECT_EQ(read[0].result, result) << id;
    EXPECT_EQ(pdn_game_id(read[0]), id);
    const PdnReplay replay = replay_pdn(read[0], pdn_game_id(read[0]));
    ASSERT_EQ(replay.moves.size(), moves.size()) << id;
    for (size_t i = 0; i < moves.size(); ++i) EXPECT_EQ(replay.moves[i].notation, moves[i].notation) << id << " " << i;
    EXPECT_EQ(replay.rules->fen(replay.states.back()), rules->fen(end)) << id;
    EXPECT_EQ(replay.rules->state_line(replay.states.back()), rules->state_line(end)) << id;
    EXPECT_EQ(write_pdn(read[0]), text) << id;
    // Lines stay within 80 columns.
    size_t start_of_line = 0;
    for (size_t i = 0; i <= text.size(); ++i)
      if (i == text.size() || text[i] == '\n') {
        EXPECT_LE(i - start_of_line, 80u) << id;
        start_of_line = i + 1;
      }
  }
}

TEST(DraughtsPdn, RecordOfAGameFromAPositionCarriesItsFenAndNumbering) {
  auto rules = make("english");
  const State start = rules->from_fen("W:W21-32:B1-12");  // White to move: the second half of move 1
  const State after = rules->play(start, "22-18 11-15 18x11");
  std::vector<Move> moves;
  State s = start;
  for (const char* m : {"22-18", "11-15", "18x11"}) {
    moves.push_back(rules->parse_move(s, m));
    s = rules->apply(s, moves.back());
  }
  const std::string text = write_pdn(record_pdn(*rules, start, moves));
  EXPECT_EQ(text,
            "[GameType \"21\"]\n"
            "[SetUp \"1\"]\n"
            "[FEN \"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\"]\n"
            "[Result \"*\"]\n"
            "\n"
            "1... 22-18 2. 11-15 18x11 *\n\n");
  const PdnReplay replay = replay_pdn(read_pdn(text)[0], "english");
  EXPECT_EQ(replay.rules->fen(replay.states.back()), rules->fen(after));
}

// PDN 3.0 reads a bare GameType as the game's usual notation (26: algebraic a1-h8,
// 20 and 21: numeric); a game written otherwise must say so for other programs.
TEST(DraughtsPdn, GameTypeTagNamesTheNotationTheMovesAreWrittenIn) {
  const Json algebraic = Json::parse(R"({"notation": "algebraic"})");
  // The GameType tag and the move of a record of one move from the start.
  const auto record_of = [](const DraughtsRules& rules, const char* move) {
    const PdnGame g = record_pdn(rules, rules.start(), {rules.parse_move(rules.start(), move)});
    return *g.tag("GameType") + " " + g.moves.front().text;
  };
  EXPECT_EQ(record_of(*make("brazilian"), "c3-d4"), "26,W,8,8,N2,0 22-18");
  EXPECT_EQ(record_of(*make("brazilian", algebraic), "22-18"), "26 c3-d4");
  EXPECT_EQ(record_of(*make("international"), "b4-a5"), "20 31-26");
  EXPECT_EQ(record_of(*make("international", algebraic), "31-26"), "20,W,10,10,A0,0 b4-a5");
  EXPECT_EQ(record_of(*make("english"), "d6-c5"), "21 10-14");  // Black starts, from the top
  EXPECT_EQ(record_of(*make("english", algebraic), "10-14"), "21,B,8,8,A3,0 d6-c5");
  // What it writes, it reads back as the same game with the same moves.
  for (const char* id : {"brazilian", "international", "english"})
    for (const Json& options : {Json::object(), algebraic}) {
      auto rules = make(id, options);
      const std::vector<Move> moves = play_out(*rules, rules->start(), 3);
      const std::string text = write_pdn(record_pdn(*rules, rules->start(), moves));
      const std::vector<PdnGame> back = read_pdn(text);
      ASSERT_EQ(pdn_game_id(back[0]), id) << text;
      EXPECT_EQ(replay_pdn(back[0], id, options).moves.size(), moves.size()) << text;
    }
}

TEST(DraughtsPdn, ReadsTagsCommentsVariationsAnnotationsAndSeveralGames) {
  const std::string text =
      "\xEF\xBB\xBF% an escaped line the reader skips\n"
      "[Event \"Club \\\"open\\\"\"]\n"
      "[GameType \"26\"]\n"
      "[Result \"2-0\"]\n"
      "{Brazilian opening} 1. 22-18 11-15 {the usual reply}\n"
      "2.18x11! 8x15 (2... 7x16? {not (possible)} (2... 7x14)) 3. 21-17 $5 9-13?! ; a line comment\n"
      "4. 17-14 10x17 2-0\n"
      "\n"
      "[GameType \"20,W,10,10,N2,0\"]\n"
      "[FEN \"B:W31-50:B1-20\"]\n"
      "1... 19-23 2. 32-28 *\n"
      "1. 32-28 1-0\n";
  const std::vector<PdnGame> games = read_pdn(text, "club.pdn");
  ASSERT_EQ(games.size(), 3u);

  const PdnGame& a = games[0];
  EXPECT_EQ(*a.tag("Event"), "Club \"open\"");
  EXPECT_EQ(a.intro, "Brazilian opening");
  std::vector<std::string> texts;
  for (const PdnMove& m : a.moves) texts.push_back(m.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"22-18", "11-15", "18x11", "8x15", "21-17", "9-13", "17-14", "10x17"}));
  EXPECT_EQ(a.moves[1].comment, "the usual reply");
  EXPECT_EQ(a.moves[5].comment, "a line comment");
  EXPECT_EQ(a.moves[2].line, 6);
  EXPECT_EQ(a.moves[2].column, 3);
  EXPECT_EQ(a.result, "2-0");
  EXPECT_EQ(normalized_result(a.result), "1-0");
  EXPECT_EQ(pdn_game_id(a), "brazilian");
  EXPECT_EQ(replay_pdn(a, "brazilian").moves.size(), 8u);

  const PdnGame& b = games[1];
  EXPECT_EQ(pdn_game_id(b), "international");
  EXPECT_TRUE(b.starts_with_second_half);
  const PdnReplay rb = replay_pdn(b, "international");
  EXPECT_EQ(rb.rules->fen(rb.states.back()), "B:W28,31,33-50:B1-18,20,23");

  // A game with no tags at all: PDN's default game type is international.
  EXPECT_TRUE(games[2].tags.empty());
  EXPECT_EQ(pdn_game_id(games[2]), "international");
  EXPECT_EQ(games[2].result, "1-0");
}

TEST(DraughtsPdn, AGameWithoutResultMarkerTakesItFromItsTag) {
  const std::vector<PdnGame> games = read_pdn("[Result \"0-1\"]\n1. 22-18 11-15\n[Result \"*\"]\n1. 22-17\n");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].result, "0-1");
  EXPECT_EQ(games[0].moves.size(), 2u);
  EXPECT_EQ(games[1].moves.size(), 1u);
}

TEST(DraughtsPdn, BadFilesAreReportedWithLineAndColumn) {
  const auto err = [](const std::string& text) { return error_of([&] { read_pdn(text, "bad.pdn"); }); };
  EXPECT_EQ(err("1. 22-18 {never closed\n11-15"), "bad.pdn:1:10: unterminated comment");
  EXPECT_EQ(err("[Event \"no end\n1. 22-18"), "bad.pdn:1:1: unterminated value of tag Event");
  EXPECT_EQ(err("[Event noquote]"), "bad.pdn:1:8: expected '\"' after the tag name Event");
  EXPECT_EQ(err("[\"x\"]"), "bad.pdn:1:2: expected a tag name after '['");
  EXPECT_EQ(err("[Event \"x\" junk]"), "bad.pdn:1:12: expected ']' to close tag Event");
  EXPECT_EQ(err("1. 22-18 (11-15 18-14"), "bad.pdn:1:10: unterminated variation");
  EXPECT_EQ(err("1. 22-18\n  e4 *"), "bad.pdn:2:3: expected a move, a move number or a result, got 'e4'");
  EXPECT_EQ(err("1. 22-18 } *"), "bad.pdn:1:10: unexpected '}'");
}

TEST(DraughtsPdn, IllegalOrBadMovesInAGameNameTheMoveAndWhere) {
  const std::vector<PdnGame> games = read_pdn("[GameType \"26\"]\n1. 22-18 11-15\n2. 21-17 *\n", "g.pdn");
  try {
    replay_pdn(games[0], "brazilian", Json::object(), "g.pdn");
    FAIL() << "21-17 ignores a compulsory capture";
  } catch (const IllegalMoveError& e) {
    EXPECT_EQ(std::string(e.what()), "illegal move '21-17': at g.pdn:3:4 (move 2.): a capture is mandatory: 18x11");
  }
  EXPECT_EQ(error_of([] { replay_pdn(read_pdn("1. 22-40 *")[0], "brazilian", Json::object(), "g.pdn"); }),
            "g.pdn:1:4 (move 1.): move '22-40': '40' is not a square of this board (1-32) at column 4");
  EXPECT_EQ(error_of([] { replay_pdn(read_pdn("[FEN \"W:W99\"]\n*")[0], "brazilian", Json::object(), "g.pdn"); }),
            "g.pdn:1: FEN tag: FEN 'W:W99': bad square '99' at column 4");
  EXPECT_EQ(
      error_of([] { pdn_game_id(read_pdn("[GameType \"25\"]\n*")[0]); }),
      "PDN game at line 1: GameType 25 is not a game this engine plays (26 brazilian, 20 international, 21 english)");
  EXPECT_EQ(error_of([] { pdn_game_id(read_pdn("[GameType \"x\"]\n*")[0]); }),
            "PDN game at line 1: bad GameType \"x\"");
}

TEST(DraughtsPdn, WriterEscapesTagsAndComments) {
  PdnGame g;
  g.tags = {{"Event", "a \"b\" \\ c"}};
  g.intro = "braces } inside";
  g.moves = {{"22-18", "good", 0, 0}, {"11-15", "", 0, 0}};
  g.result = "1/2-1/2";
  EXPECT_EQ(write_pdn(g),
            "[Event \"a \\\"b\\\" \\\\ c\"]\n[Result \"1/2-1/2\"]\n\n{braces ) inside} 1. 22-18 {good} 1... 11-15 "
            "1/2-1/2\n\n");
  const std::vector<PdnGame> back = read_pdn(write_pdn(g));
  EXPECT_EQ(*back[0].tag("Event"), "a \"b\" \\ c");
  EXPECT_EQ(back[0].moves[0].comment, "good");
}

}  // namespace
}  // namespace sb::draughts
