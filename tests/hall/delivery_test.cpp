// The hall and the referees through a real Mosquitto on loopback.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "hall/board_publisher.h"
#include "hall/hall_client.h"
#include "hall/hall_state.h"
#include "hall/topics.h"
#include "hall_test_support.h"

namespace sb::hall {
namespace {

using testing::BrokerTest;
using testing::eventually;
using testing::RefereedGame;

// The event of the test process (unique on a shared broker).
const std::string kEvent = "test-open-" + testing::run_token();

struct Board {
  int number;
  RefereedGame game;
  std::unique_ptr<BoardPublisher> publisher;
  std::vector<nlohmann::json> published;  // what the referee announced and journaled, in order
  size_t next_frame = 0;

  Board(int n, const std::string& game_id, int plies, uint64_t seed, MqttOptions mqtt)
      : number(n), game(game_id, plies, seed) {
    PublisherOptions o;
    o.event = kEvent;
    o.board = n;
    mqtt.client_id = (mqtt.client_id.empty() ? "test-" + testing::run_token() : mqtt.client_id) + "-board-" + std::to_string(n);
    publisher = std::make_unique<BoardPublisher>(mqtt, o, std::vector<nlohmann::json>{});
    publisher->start(board_state(*game.referee, n, publisher->stream(), 0));
  }
  // Feeds frames up to (not including) `end`.
  void play_until(size_t end) {
    for (; next_frame < end && next_frame < game.frames.size(); ++next_frame) {
      std::vector<arbiter::Event> events = game.step(next_frame);
      for (const arbiter::Event& e : events)
        if (journaled(e)) published.push_back(arbiter::to_json(e));
      publisher->publish(events, board_state(*game.referee, number, publisher->stream(), 0));
    }
  }
  void play_all() { play_until(game.frames.size()); }
};

// The hall's copy of a board's events, without the hall's "seq".
std::vector<nlohmann::json> hall_copy(const HallState& hall, int board) {
  std::vector<nlohmann::json> out;
  for (nlohmann::json e : hall.board_events(board)) {
    e.erase("seq");
    out.push_back(e);
  }
  return out;
}

HallOptions hall_options() {
  HallOptions o;
  o.event = kEvent;
  o.gap_grace = std::chrono::milliseconds(100);
  o.resend_max = std::chrono::milliseconds(500);
  return o;
}

class HallDelivery : public BrokerTest {};

TEST_F(HallDelivery, EventsReachTheHallExactlyOnceAndInOrder) {
  HallState hall(hall_options());
  HallClient client(mqtt("test-hall"), hall);
  client.start();
  ASSERT_TRUE(eventually([&] { return client.connected(); }));
  Board a(1, "brazilian", 40, 11, mqtt());
  Board b(2, "cotoan", 30, 12, mqtt());
  ASSERT_TRUE(eventually([&] { return a.publisher->connected() && b.publisher->connected(); }));
  a.play_all();
  b.play_all();
  ASSERT_TRUE(a.publisher->wait_confirmed(std::chrono::seconds(10)));
  ASSERT_TRUE(b.publisher->wait_confirmed(std::chrono::seconds(10)));
  ASSERT_TRUE(eventually([&] {
    auto p = hall.progress();
    return p[1].first == static_cast<int64_t>(a.published.size()) && p[2].first == static_cast<int64_t>(b.published.size());
  }));
  EXPECT_EQ(hall_copy(hall, 1), a.published);
  EXPECT_EQ(hall_copy(hall, 2), b.published);
  EXPECT_EQ(hall.counters().accepted, static_cast<int64_t>(a.published.size() + b.published.size()));
  EXPECT_EQ(hall.counters().refused, 0);
  nlohmann::json boards = hall.boards_json();
  ASSERT_EQ(boards.size(), 2u);
  EXPECT_EQ(boards[0]["fen"], a.game.rules->fen(a.game.referee->state()));
  EXPECT_EQ(boards[0]["moves"], a.game.referee->ply());
  EXPECT_EQ(boards[1]["fen"], b.game.rules->fen(b.game.referee->state()));
  EXPECT_EQ(boards[0]["game"], "brazilian");
  EXPECT_EQ(boards[1]["status"], b.game.referee->game().over ? "finished" : "playing");
  EXPECT_TRUE(hall.errors_json().empty()) << hall.errors_json().dump();
}

TEST_F(HallDelivery, ALateHallSeesTheRetainedStateAtOnceThenEveryEvent) {
  Board a(7, "morris9", 30, 21, mqtt());
  ASSERT_TRUE(eventually([&] { return a.publisher->connected(); }));
  a.play_all();
  ASSERT_TRUE(a.publisher->wait_confirmed(std::chrono::seconds(10)));

  HallOptions slow = hall_options();
  slow.gap_grace = std::chrono::seconds(30);  // no resend yet: only what the broker retained
  HallState hall(slow);
  HallClient client(mqtt("late-hall"), hall);
  client.start();
  // The retained state and the retained status arrive one after the other: wait for both.
  const std::string final_fen = a.game.rules->fen(a.game.referee->state());
  ASSERT_TRUE(eventually([&] {
    nlohmann::json rows = hall.boards_json();
    return rows.size() == 1 && rows[0]["fen"] == final_fen && rows[0]["online"] == true;
  })) << hall.boards_json().dump();
  EXPECT_EQ(hall.boards_json()[0]["moves"], a.game.referee->ply());
  client.stop();

  // With resends allowed, the late hall gets the whole stream, once.
  HallState hall2(hall_options());
  HallClient client2(mqtt("late-hall-2"), hall2);
  client2.start();
  ASSERT_TRUE(eventually([&] { return hall2.progress()[7].first == static_cast<int64_t>(a.published.size()); }));
  EXPECT_EQ(hall_copy(hall2, 7), a.published);
  EXPECT_GE(hall2.counters().resend_requests, 1);
}

TEST_F(HallDelivery, TheLastWillSaysOfflineWhenARefereeVanishes) {
  HallState hall(hall_options());
  HallClient client(mqtt("will-hall"), hall);
  client.start();
  Board a(3, "english", 10, 31, mqtt());
  a.play_until(4);
  ASSERT_TRUE(eventually([&] { return !hall.boards_json().empty() && hall.boards_json()[0]["online"] == true; }));
  EXPECT_EQ(hall.boards_json()[0]["status"], "playing");
  a.publisher->abandon();
  ASSERT_TRUE(eventually([&] { return hall.boards_json()[0]["online"] == false; }, std::chrono::seconds(10)));
  EXPECT_EQ(hall.boards_json()[0]["status"], "offline");
}

// Kills its broker: never the shared one.
class HallBrokerRestart : public BrokerTest {
 protected:
  bool own_broker() const override { return true; }
};

TEST_F(HallBrokerRestart, ABrokerKilledAndRestartedMidStreamLosesAndDoublesNothing) {
  HallState hall(hall_options());
  HallClient client(mqtt("restart-hall"), hall);
  client.start();
  std::vector<std::unique_ptr<Board>> boards;
  for (int n = 1; n <= 4; ++n) boards.push_back(std::make_unique<Board>(n, n % 2 ? "brazilian" : "cotulenh", 40, 40 + n, mqtt()));
  ASSERT_TRUE(eventually([&] {
    for (auto& b : boards)
      if (!b->publisher->connected()) return false;
    return client.connected();
  }));
  for (auto& b : boards) b->play_until(b->game.frames.size() / 3);
  broker_->kill(SIGKILL);  // mid-stream: what it had not delivered is gone
  for (auto& b : boards) b->play_until(2 * b->game.frames.size() / 3);  // announced while the broker is down
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  broker_->start();
  for (auto& b : boards) b->play_all();
  for (auto& b : boards) ASSERT_TRUE(b->publisher->wait_confirmed(std::chrono::seconds(20)));
  ASSERT_TRUE(eventually([&] {
    auto p = hall.progress();
    for (auto& b : boards)
      if (p[b->number].first != static_cast<int64_t>(b->published.size())) return false;
    return true;
  }, std::chrono::seconds(20))) << [&] {
    std::string s;
    auto p = hall.progress();
    for (auto& b : boards)
      s += "board " + std::to_string(b->number) + ": published " + std::to_string(b->published.size()) + ", hall has " +
           std::to_string(p[b->number].first) + " of " + std::to_string(p[b->number].second) + " known; ";
    std::ifstream log(broker_->log_path());
    std::string broker_log((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    return s + "resend requests " + std::to_string(hall.counters().resend_requests) + "; broker log:\n" + broker_log;
  }();
  int64_t total = 0;
  for (auto& b : boards) {
    EXPECT_EQ(hall_copy(hall, b->number), b->published) << "board " << b->number;
    total += static_cast<int64_t>(b->published.size());
  }
  EXPECT_EQ(hall.counters().accepted, total);
  EXPECT_EQ(hall.counters().refused, 0);
  for (const nlohmann::json& row : hall.boards_json()) {
    const RefereedGame& g = boards[static_cast<size_t>(row["board"].get<int>() - 1)]->game;
    EXPECT_EQ(row["fen"], g.rules->fen(g.referee->state()));
  }
  EXPECT_GE(client.connects(), 2u);
}

TEST_F(HallDelivery, HostilePayloadsBecomeClearErrorsAndTheHallCarriesOn) {
  HallState hall(hall_options());
  HallClient client(mqtt("hostile-hall"), hall);
  client.start();
  ASSERT_TRUE(eventually([&] { return client.connected(); }));
  MqttClient rogue(mqtt("rogue"), {});
  rogue.start();
  ASSERT_TRUE(eventually([&] { return rogue.connected(); }));
  const std::string stream = "0000000001a-00000000000000ff";
  auto send = [&](int board, TopicKind k, const std::string& payload) {
    ASSERT_TRUE(rogue.publish(board_topic(kEvent, board, k), payload, 1, false));
  };
  send(5, TopicKind::Events, "\xff\xfe garbage");
  send(5, TopicKind::State, R"({"board": 5, "stream": ")" + stream + R"(", "seq": 1, "game": "chess"})");
  send(6, TopicKind::Status, R"({"board": 9, "online": true})");
  send(5, TopicKind::Record, std::string(64, '['));
  // A well-formed stream whose second move is not legal.
  send(8, TopicKind::State, R"({"board": 8, "stream": ")" + stream + R"(", "seq": 0, "game": "brazilian", "rules": {}})");
  send(8, TopicKind::Events, event_message(8, stream, 1, {{"type", "setup_ok"}, {"t", 0}}, 0));
  send(8, TopicKind::Events, event_message(8, stream, 2, {{"type", "move"}, {"t", 1}, {"ply", 1}, {"side", "white"}, {"notation", "a1-h8"}}, 0));
  ASSERT_TRUE(eventually([&] { return hall.errors_json().size() >= 5; })) << hall.errors_json().dump(1);
  const std::string all = hall.errors_json().dump();
  EXPECT_NE(all.find("board 5 event message: not JSON"), std::string::npos) << all;
  EXPECT_NE(all.find("cannot play 'chess'"), std::string::npos) << all;
  EXPECT_NE(all.find("says board 9 on the topic of board 6"), std::string::npos) << all;
  EXPECT_NE(all.find("nested deeper than 32 levels"), std::string::npos) << all;
  EXPECT_NE(all.find("board 8 seq 2: refused: move 'a1-h8' is not legal at ply 1"), std::string::npos) << all;

  // A real board still gets through.
  Board a(1, "international", 12, 51, mqtt());
  a.play_all();
  ASSERT_TRUE(eventually([&] { return hall.progress()[1].first == static_cast<int64_t>(a.published.size()); }));
  EXPECT_EQ(hall_copy(hall, 1), a.published);
  rogue.stop();
}

class HallWithPasswords : public BrokerTest {
 protected:
  bool own_broker() const override { return true; }
  std::vector<std::string> extra_config() override {
    const std::string dir = testing::fresh_dir("passwords");
    password_file_ = dir + "/passwd";
    std::ofstream(password_file_) << "";
    const std::string cmd = "mosquitto_passwd -b '" + password_file_ + "' arbiter 's3cret' >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "mosquitto_passwd failed";
    ::chmod(dir.c_str(), 0755);
    ::chmod(password_file_.c_str(), 0644);
    return {"password_file " + password_file_, "allow_anonymous false"};
  }
  std::string password_file_;
};

TEST_F(HallWithPasswords, OnlyTheRightUsernameAndPasswordGetThrough) {
  MqttOptions good = mqtt("hall-with-password");
  good.username = "arbiter";
  good.password = "s3cret";
  HallState hall(hall_options());
  HallClient client(good, hall);
  client.start();
  ASSERT_TRUE(eventually([&] { return client.connected(); }));

  MqttOptions bad = mqtt("intruder");
  bad.username = "arbiter";
  bad.password = "guess";
  std::vector<std::string> said;
  std::mutex said_mutex;
  MqttClient::Callbacks callbacks;
  callbacks.log = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(said_mutex);
    said.push_back(line);
  };
  MqttClient intruder(bad, callbacks);
  intruder.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(intruder.connected());
  EXPECT_EQ(intruder.connects(), 0u);
  {
    std::lock_guard<std::mutex> lock(said_mutex);
    ASSERT_FALSE(said.empty());
    EXPECT_NE(said.front().find("refused"), std::string::npos) << said.front();
  }
  intruder.stop();

  MqttOptions board_mqtt = good;
  Board a(2, "morris6", 10, 61, board_mqtt);
  a.play_all();
  ASSERT_TRUE(eventually([&] { return hall.progress()[2].first == static_cast<int64_t>(a.published.size()); }));
}

// Certificates made here with the openssl tool: a CA, and a broker certificate it signed for 127.0.0.1.
class HallOverTls : public BrokerTest {
 protected:
  bool own_broker() const override { return true; }
  std::vector<std::string> extra_config() override {
    const std::string dir = testing::fresh_dir("tls");
    ca_file_ = dir + "/ca.crt";
    std::ofstream(dir + "/san.ext") << "subjectAltName=IP:127.0.0.1\n";
    const std::string quiet = " >/dev/null 2>&1";
    const std::string key = " -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    const std::vector<std::string> steps = {
        "openssl req -x509" + key + " -keyout '" + dir + "/ca.key' -out '" + ca_file_ +
            "' -days 2 -subj '/CN=smartboard test CA'",
        "openssl req" + key + " -keyout '" + dir + "/broker.key' -out '" + dir + "/broker.csr' -subj '/CN=127.0.0.1'",
        "openssl x509 -req -in '" + dir + "/broker.csr' -CA '" + ca_file_ + "' -CAkey '" + dir +
            "/ca.key' -CAcreateserial -out '" + dir + "/broker.crt' -days 2 -extfile '" + dir + "/san.ext'"};
    for (const std::string& step : steps)
      if (std::system((step + quiet).c_str()) != 0) ADD_FAILURE() << "failed: " << step;
    ::chmod(dir.c_str(), 0755);
    ::chmod((dir + "/broker.key").c_str(), 0644);
    return {"cafile " + ca_file_, "certfile " + dir + "/broker.crt", "keyfile " + dir + "/broker.key"};
  }
  std::string ca_file_;
};

TEST_F(HallOverTls, BoardsAndTheHallTalkThroughTlsAndAPlainClientIsNotLetIn) {
  MqttOptions tls = mqtt("hall-over-tls");
  tls.ca_file = ca_file_;
  HallState hall(hall_options());
  HallClient client(tls, hall);
  client.start();
  ASSERT_TRUE(eventually([&] { return client.connected(); }));

  MqttOptions board_mqtt = tls;
  Board a(4, "english", 14, 71, board_mqtt);
  a.play_all();
  ASSERT_TRUE(eventually([&] { return hall.progress()[4].first == static_cast<int64_t>(a.published.size()); }));
  EXPECT_EQ(hall_copy(hall, 4), a.published);

  // Without TLS the broker's listener does not answer MQTT.
  MqttClient plain(mqtt("plain-text"), MqttClient::Callbacks{});
  plain.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(plain.connected());
  EXPECT_EQ(plain.connects(), 0u);
  plain.stop();
}

}  // namespace
}  // namespace sb::hall
