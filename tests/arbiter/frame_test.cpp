// Observation lines: what is read, and the one-line errors for bad input.
#include <gtest/gtest.h>

#include "arbiter/clock.h"
#include "arbiter/event.h"
#include "arbiter/frame.h"
#include "engines/common/errors.h"
#include "tests/arbiter/toy_rules.h"

namespace sb::arbiter {
namespace {

using sb::testing::ToyRules;

std::string error_of(const Rules& rules, const std::string& line, std::optional<int64_t> previous = std::nullopt) {
  try {
    parse_frame(rules, line, "obs.jsonl line 7", previous);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(FrameTest, ReadsBoardConfidenceAndStability) {
  ToyRules rules;
  Frame f = parse_frame(rules, R"({"t": 1200, "board": {"c1": "W", "c12": "B"}, "conf": {"c12": 0.25}, "stable": false})",
                        "x");
  EXPECT_EQ(f.t, 1200);
  EXPECT_EQ(f.board.sites[0].side, 'W');
  EXPECT_EQ(f.board.sites[11].side, 'B');
  EXPECT_TRUE(f.board.sites[5].empty());
  EXPECT_FLOAT_EQ(f.conf[11], 0.25f);
  EXPECT_FLOAT_EQ(f.conf[0], 1.0f);
  EXPECT_FALSE(f.stable);
  EXPECT_FALSE(f.is_command());
  Frame again = parse_frame(rules, frame_json(rules, f).dump(), "x");
  EXPECT_EQ(again.board, f.board);
  EXPECT_EQ(again.conf, f.conf);
  EXPECT_EQ(again.stable, f.stable);
}

TEST(FrameTest, IgnoresFieldsItDoesNotKnow) {
  ToyRules rules;
  // As `smartboard simulate` writes truth lines: the board's corners beside the observation.
  Frame f = parse_frame(
      rules,
      R"({"t": 40, "board": {"c1": "W"}, "conf": {"c1": 0.5}, "stable": true, "corners": [[1, 2], [3, 4]], "hand": null})",
      "x");
  EXPECT_EQ(f.t, 40);
  EXPECT_EQ(f.board.sites[0].side, 'W');
  EXPECT_FLOAT_EQ(f.conf[0], 0.5f);
  EXPECT_TRUE(f.stable);
  EXPECT_FALSE(f.is_command());
}

TEST(FrameTest, ReadsOperatorCommandLines) {
  ToyRules rules;
  Frame f = parse_frame(rules, R"({"t": 5, "command": "resign", "side": "white"})", "x");
  ASSERT_TRUE(f.is_command());
  EXPECT_EQ(f.command["command"], "resign");
  EXPECT_EQ(f.command["side"], "white");
  EXPECT_FALSE(f.command.contains("t"));
}

TEST(FrameTest, BadLinesGiveOneClearErrorNamingTheLine) {
  ToyRules rules;
  EXPECT_NE(error_of(rules, "{\"t\": 1, \"board\": {").find("obs.jsonl line 7: not a JSON line"), std::string::npos);
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {"z9": "W"}})"),
            "obs.jsonl line 7: unknown square 'z9' in \"board\" (game toy)");
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {"c1": "R5"}})"),
            "obs.jsonl line 7: square c1: token 'R5' is not a piece of toy");
  EXPECT_NE(error_of(rules, R"({"t": 1, "board": {"c1": "w"}})").find("obs.jsonl line 7: square c1: bad piece token"),
            std::string::npos);
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {"c1": 3}})"),
            "obs.jsonl line 7: the token on c1 must be a string, got 3");
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {}, "conf": {"c1": 1.5}})"),
            "obs.jsonl line 7: conf of c1 must be in 0..1, got 1.5");
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {}, "conf": {"q1": 0.5}})"),
            "obs.jsonl line 7: unknown square 'q1' in \"conf\" (game toy)");
  EXPECT_EQ(error_of(rules, R"({"t": 100, "board": {}})", 200),
            "obs.jsonl line 7: time 100 is earlier than the previous line's 200");
  EXPECT_EQ(error_of(rules, R"({"board": {}})"), "obs.jsonl line 7: missing \"t\" (milliseconds)");
  EXPECT_EQ(error_of(rules, R"({"t": 1.5, "board": {}})"),
            "obs.jsonl line 7: \"t\" must be a whole number of milliseconds, got 1.5");
  EXPECT_EQ(error_of(rules, R"({"t": 1})"), "obs.jsonl line 7: expected either \"board\" or \"command\"");
  EXPECT_EQ(error_of(rules, R"({"t": 1, "board": {}, "stable": "yes"})"),
            "obs.jsonl line 7: \"stable\" must be true or false, got \"yes\"");
  EXPECT_EQ(error_of(rules, R"([1, 2])"), "obs.jsonl line 7: expected a JSON object");
}

TEST(EventTest, EveryTypeRoundTripsThroughJson) {
  for (EventType type : {EventType::SetupOk, EventType::SetupMismatch, EventType::Move, EventType::Illegal,
                         EventType::Restored, EventType::Takeback, EventType::GameOver, EventType::Unclear,
                         EventType::Clock, EventType::Info, EventType::DrawOffer, EventType::DrawDeclined,
                         EventType::NewGame, EventType::MatchOver, EventType::Answered, EventType::Refused}) {
    Event e;
    e.type = type;
    e.t = 42;
    e.ply = 3;
    e.side = "white";
    e.notation = "c3-c4";
    e.captured = {"c5"};
    e.squares = {"c1"};
    e.reason = "why";
    e.result = "1-0";
    e.points = 2;
    e.score = {{"white", 1}, {"black", 0}};
    nlohmann::json j = to_json(e);
    EXPECT_EQ(j["type"], to_string(type));
    EXPECT_EQ(to_json(event_from_json(j)), j) << to_string(type);
  }
  EXPECT_THROW(event_from_json({{"type", "nonsense"}, {"t", 1}}), InputError);
}

TEST(ClockTest, SuddenDeathIncrementPauseAndGameLimit) {
  ClockOptions o;
  o.base_ms = 60000;
  o.increment_ms = 2000;
  o.game_limit_ms = 100000;
  GameClock c(o);
  c.start(1000, Side::First);
  c.switch_after_move(11000, Side::First);  // White used 10 s, gains 2 s
  EXPECT_EQ(c.remaining(11000), (std::array<int64_t, 2>{52000, 60000}));
  c.pause(21000);
  EXPECT_EQ(c.remaining(90000)[1], 50000);
  c.resume(90000);
  EXPECT_EQ(c.elapsed(90000), 20000);
  EXPECT_FALSE(c.flag_fallen(139999));
  EXPECT_EQ(c.flag_fallen(140000), Side::Second);
  EXPECT_FALSE(c.game_limit_reached(169999));
  EXPECT_TRUE(c.game_limit_reached(170000));
  EXPECT_EQ(to_json(clock_options_from_json(to_json(o))), to_json(o));
}

}  // namespace
}  // namespace sb::arbiter
