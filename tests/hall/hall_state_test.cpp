// The hall's board model without a broker: messages fed by hand.
#include <gtest/gtest.h>

#include "hall/board_publisher.h"
#include "hall/hall_state.h"
#include "hall/topics.h"
#include "hall_test_support.h"

namespace sb::hall {
namespace {

using testing::RefereedGame;

const std::string kOld = "0000000001a-00000000000000aa";
const std::string kNew = "0000000002b-00000000000000bb";

struct Feed {
  HallState hall;
  int64_t now = 1'000'000;
  explicit Feed(Pairings p = {}) : hall(options(), std::move(p)) {}
  static HallOptions options() {
    HallOptions o;
    o.event = "ev";
    o.gap_grace = std::chrono::milliseconds(100);
    return o;
  }
  void send(int board, TopicKind kind, const std::string& payload) { hall.on_message(board_topic("ev", board, kind), payload, now); }
  void state(int board, const std::string& stream, int64_t seq, const std::string& game = "brazilian") {
    send(board, TopicKind::State, nlohmann::json{{"board", board}, {"stream", stream}, {"seq", seq}, {"game", game}, {"rules", nlohmann::json::object()}}.dump());
  }
  void event(int board, const std::string& stream, int64_t seq, const nlohmann::json& e) {
    send(board, TopicKind::Events, event_message(board, stream, seq, e, 0));
  }
};

// A refereed game's journaled events.
std::vector<nlohmann::json> events_of(RefereedGame& g) {
  std::vector<nlohmann::json> out;
  for (size_t i = 0; i < g.frames.size(); ++i)
    for (const arbiter::Event& e : g.step(i))
      if (journaled(e)) out.push_back(arbiter::to_json(e));
  return out;
}

TEST(HallState, RepeatsAreDroppedAndEarlyEventsWaitForTheGap) {
  RefereedGame g("brazilian", 20, 5);
  std::vector<nlohmann::json> ev = events_of(g);
  ASSERT_GE(ev.size(), 10u);
  Feed f;
  f.state(1, kOld, 0);
  f.event(1, kOld, 1, ev[0]);
  f.event(1, kOld, 1, ev[0]);  // a repeat
  f.event(1, kOld, 3, ev[2]);  // ahead of 2
  EXPECT_EQ(f.hall.progress()[1], std::make_pair(int64_t{1}, int64_t{3}));
  EXPECT_TRUE(f.hall.tick(f.now).empty());  // the gap's grace starts
  f.now += 150'000;
  auto asks = f.hall.tick(f.now);
  ASSERT_EQ(asks.size(), 1u);
  EXPECT_EQ(asks[0].topic, "smartboard/ev/board/1/resend");
  EXPECT_EQ(parse_resend_request(asks[0].payload).from, 2);
  f.event(1, kOld, 2, ev[1]);
  EXPECT_EQ(f.hall.progress()[1].first, 3);
  for (size_t i = 0; i < ev.size(); ++i) f.event(1, kOld, static_cast<int64_t>(i + 1), ev[i]);  // all again
  EXPECT_EQ(f.hall.counters().accepted, static_cast<int64_t>(ev.size()));
  EXPECT_EQ(f.hall.counters().duplicates, 4);
  EXPECT_EQ(f.hall.boards_json()[0]["fen"], g.rules->fen(g.referee->state()));
  f.now += 10'000'000;
  EXPECT_TRUE(f.hall.tick(f.now).empty());  // nothing missing: nothing asked
}

TEST(HallState, EventsWaitUntilTheBoardsGameIsKnown) {
  RefereedGame g("morris9", 10, 6);
  std::vector<nlohmann::json> ev = events_of(g);
  Feed f;
  f.event(2, kOld, 1, ev[0]);
  f.event(2, kOld, 2, ev[1]);
  EXPECT_EQ(f.hall.progress()[2].first, 0);
  f.state(2, kOld, 2, "morris9");
  EXPECT_EQ(f.hall.progress()[2].first, 2);
}

TEST(HallState, ANewerStreamReplacesTheBoardAndAnOlderOneIsIgnored) {
  RefereedGame g("brazilian", 10, 7);
  std::vector<nlohmann::json> ev = events_of(g);
  Feed f;
  f.state(1, kNew, 0);
  f.event(1, kNew, 1, ev[0]);
  f.event(1, kOld, 1, ev[0]);
  f.event(1, kOld, 2, ev[1]);
  EXPECT_EQ(f.hall.counters().stale, 2);
  EXPECT_EQ(f.hall.progress()[1].first, 1);
  EXPECT_EQ(f.hall.boards_json()[0]["stream"], kNew);
}

TEST(HallState, StatusComesFromTheResultThenTheLastWill) {
  Pairings p;
  p.boards[4] = Pairing{4, "An", "Binh", "english", nlohmann::json::object()};
  Feed f(p);
  nlohmann::json row = f.hall.boards_json()[0];
  EXPECT_EQ(row["status"], "offline");  // paired, never heard of
  EXPECT_EQ(row["players"], nlohmann::json({"An", "Binh"}));
  EXPECT_EQ(row["fen"], make_rules("english")->fen(make_rules("english")->start()));
  f.send(4, TopicKind::Status, status_message(4, kOld, true, "online"));
  f.state(4, kOld, 0, "english");
  EXPECT_EQ(f.hall.boards_json()[0]["status"], "playing");
  f.send(4, TopicKind::Status, status_message(4, kOld, false, "connection lost"));
  EXPECT_EQ(f.hall.boards_json()[0]["status"], "offline");
  f.event(4, kOld, 1, {{"type", "setup_ok"}, {"t", 0}});
  f.event(4, kOld, 2, {{"type", "game_over"}, {"t", 5}, {"result", "0-1"}, {"reason", "resigned"}, {"score", {{"white", 0}, {"black", 0}}}});
  EXPECT_EQ(f.hall.boards_json()[0]["status"], "finished");
  EXPECT_EQ(f.hall.boards_json()[0]["result"], "0-1");
}

TEST(HallState, StandingsAndRecordsOfTheRound) {
  Pairings p;
  p.round = "2";
  p.boards[1] = Pairing{1, "An", "Binh", "brazilian", nlohmann::json::object()};
  p.boards[2] = Pairing{2, "Chi", "Dung", "cotoan", nlohmann::json::object()};
  Feed f(p);
  RefereedGame a("brazilian", 8, 8), b("cotoan", 6, 9);
  std::vector<nlohmann::json> ea = events_of(a), eb = events_of(b);
  f.state(1, kOld, 0, "brazilian");
  f.state(2, kOld, 0, "cotoan");
  for (size_t i = 0; i < ea.size(); ++i) f.event(1, kOld, static_cast<int64_t>(i + 1), ea[i]);
  for (size_t i = 0; i < eb.size(); ++i) f.event(2, kOld, static_cast<int64_t>(i + 1), eb[i]);
  f.event(1, kOld, static_cast<int64_t>(ea.size() + 1), {{"type", "game_over"}, {"t", 99000}, {"result", "1-0"}, {"reason", "black resigned"}, {"score", {{"white", 0}, {"black", 0}}}});
  f.event(2, kOld, static_cast<int64_t>(eb.size() + 1), {{"type", "game_over"}, {"t", 99000}, {"result", "1/2-1/2"}, {"reason", "agreed"}, {"score", {{"red", 0}, {"blue", 0}}}});
  nlohmann::json s = f.hall.standings_json()["standings"];
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0]["player"], "An");
  EXPECT_EQ(s[0]["points"], 1.0);
  EXPECT_EQ(s[1]["points"], 0.5);
  EXPECT_EQ(s[1]["rank"], 2);
  EXPECT_EQ(s[2]["rank"], 2);
  EXPECT_EQ(s[3]["player"], "Binh");

  auto pdn = f.hall.record("pdn");
  ASSERT_TRUE(pdn);
  EXPECT_NE(pdn->find("[White \"An\"]"), std::string::npos) << *pdn;
  EXPECT_NE(pdn->find("[Round \"2\"]"), std::string::npos);
  EXPECT_NE(pdn->find("[GameType \"26"), std::string::npos) << *pdn;
  EXPECT_NE(pdn->find(a.referee->game().moves.front().move.notation), std::string::npos);
  EXPECT_EQ(pdn->find("Chi"), std::string::npos);  // Cờ toán is not PDN
  auto txt = f.hall.record("txt");
  ASSERT_TRUE(txt);
  EXPECT_NE(txt->find("== board 2 =="), std::string::npos);
  EXPECT_EQ(txt->find("== board 1 =="), std::string::npos);
  auto json = nlohmann::json::parse(*f.hall.record("json"));
  ASSERT_EQ(json["boards"].size(), 1u);
  EXPECT_EQ(json["boards"][0]["board"], 2);
  EXPECT_EQ(json["boards"][0]["games"][0]["moves"].size(), b.referee->game().moves.size());
  EXPECT_FALSE(f.hall.record("pdn", 2));
  EXPECT_TRUE(f.hall.record("txt", 1));
}

}  // namespace
}  // namespace sb::hall
