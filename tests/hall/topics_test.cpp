#include <gtest/gtest.h>

#include "engines/common/errors.h"
#include "hall/topics.h"

namespace sb::hall {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kStream = "0000000001a-00000000000000ff";

TEST(HallTopics, BoardTopicsRoundTripAndForeignTopicsAreNotBoards) {
  EXPECT_EQ(board_topic("open2026", 17, TopicKind::Events), "smartboard/open2026/board/17/events");
  auto t = parse_board_topic("open2026", "smartboard/open2026/board/17/state");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->board, 17);
  EXPECT_EQ(t->kind, TopicKind::State);
  EXPECT_FALSE(parse_board_topic("open2026", "smartboard/other/board/17/state"));
  EXPECT_FALSE(parse_board_topic("open2026", "smartboard/open2026/board/017/state"));
  EXPECT_FALSE(parse_board_topic("open2026", "smartboard/open2026/board/0/state"));
  EXPECT_FALSE(parse_board_topic("open2026", "smartboard/open2026/board/99999/state"));
  EXPECT_FALSE(parse_board_topic("open2026", "smartboard/open2026/board/3/gossip"));
  EXPECT_EQ(all_boards_topic("e", TopicKind::Status), "smartboard/e/board/+/status");
}

TEST(HallTopics, EventIdsThatCannotBeOneTopicLevelAreRefused) {
  EXPECT_NO_THROW(check_event_id("club-2026.r1_a"));
  EXPECT_NE(error_of([] { check_event_id("a/b"); }).find("only letters"), std::string::npos);
  EXPECT_NE(error_of([] { check_event_id("#"); }).find("only letters"), std::string::npos);
  EXPECT_NE(error_of([] { check_event_id(""); }).find("1 to 64"), std::string::npos);
}

TEST(HallTopics, StreamsOrderByTheirStartTime) {
  std::string a = new_stream_id();
  EXPECT_TRUE(valid_stream_id(a)) << a;
  EXPECT_TRUE(stream_newer("0000000002a-0000000000000000", "00000000029-ffffffffffffffff"));
  EXPECT_FALSE(stream_newer("00000000029-ffffffffffffffff", "0000000002a-0000000000000000"));
  EXPECT_FALSE(valid_stream_id("xyz"));
  EXPECT_FALSE(valid_stream_id("12-"));
}

TEST(HallTopics, AnEventMessageRoundTrips) {
  nlohmann::json event = {{"type", "move"}, {"t", 1000}, {"ply", 1}, {"side", "white"}, {"notation", "c3-d4"},
                          {"captured", nlohmann::json::array()}, {"points", 0}, {"score", {{"white", 0}, {"black", 0}}}};
  EventMessage m = parse_event_message(event_message(4, kStream, 7, event, 123), 4);
  EXPECT_EQ(m.board, 4);
  EXPECT_EQ(m.stream, kStream);
  EXPECT_EQ(m.seq, 7);
  EXPECT_EQ(m.sent_us, 123);
  EXPECT_EQ(m.event["notation"], "c3-d4");
}

TEST(HallTopics, HostilePayloadsGiveClearErrors) {
  auto event_error = [](const std::string& payload) { return error_of([&] { parse_event_message(payload, 4); }); };
  EXPECT_NE(event_error("not json").find("board 4 event message: not JSON"), std::string::npos);
  EXPECT_NE(event_error("[1,2]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(event_error(R"({"board": 5, "stream": ")" + kStream + R"(", "seq": 1, "event": {"type": "info", "t": 0}})")
                .find("says board 5 on the topic of board 4"),
            std::string::npos);
  EXPECT_NE(event_error(R"({"board": 4, "stream": ")" + kStream + R"(", "event": {"type": "info", "t": 0}})")
                .find("\"seq\" is missing"),
            std::string::npos);
  EXPECT_NE(event_error(R"({"board": 4, "stream": ")" + kStream + R"(", "seq": -3, "event": {}})").find("out of"),
            std::string::npos);
  EXPECT_NE(event_error(R"({"board": 4, "stream": "../../etc", "seq": 1, "event": {}})").find("not a stream id"),
            std::string::npos);
  EXPECT_NE(event_error(R"({"board": 4, "stream": ")" + kStream + R"(", "seq": 1, "event": {"type": "explode", "t": 0}})")
                .find("unknown type"),
            std::string::npos);
  EXPECT_NE(event_error(R"({"board": 4, "stream": ")" + kStream + R"(", "seq": 1, "event": {"type": "move", "t": "soon"}})")
                .find("seq 1"),
            std::string::npos);
  EXPECT_NE(event_error(std::string(100, '[') + std::string(100, ']')).find("nested deeper"), std::string::npos);
  EXPECT_NE(event_error(std::string(kMaxEventBytes + 1, ' ')).find("more than"), std::string::npos);
  EXPECT_NE(error_of([] { parse_state_message(R"({"board": 4, "stream": "0000000001a-00000000000000ff", "seq": 0, "game": 7})", 4); })
                .find("\"game\" must be a game id"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_status_message(R"({"board": 4, "online": "yes"})", 4); }).find("true or false"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_record_message(R"({"board": 4, "stream": "0000000001a-00000000000000ff", "events": [{"seq": 2, "event": {"type": "info", "t": 0}}]})", 4); })
                .find("numbered 1, 2, 3"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_resend_request(R"({"stream": "0000000001a-00000000000000ff", "from": 0})"); })
                .find("out of"),
            std::string::npos);
}

}  // namespace
}  // namespace sb::hall
