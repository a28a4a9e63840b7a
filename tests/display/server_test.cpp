// The server over real sockets on loopback: the page, the API, the WebSocket
// stream, commands with and without the token, and hostile clients.
#include <gtest/gtest.h>

#include <thread>

#include "display/server.h"
#include "display/shared_state.h"
#include "display_fixtures.h"
#include "net_client.h"

namespace sb::display {
namespace {

using namespace std::chrono_literals;
using testing::FixtureHost;

ServerOptions test_options() {
  ServerOptions o;
  o.port = 0;
  o.www_root = std::string(SMARTBOARD_SOURCE_DIR) + "/display/www";
  o.request_timeout = std::chrono::seconds(2);
  return o;
}

class ServerTest : public ::testing::Test {
 protected:
  void start(ServerOptions o = test_options()) {
    server = std::make_unique<Server>(o, host);
    server->start();
    port = server->port();
  }
  void SetUp() override { start(); }
  void publish_game() {
    for (const auto& e : testing::cotoan_short_game()) server->publish(e);
  }
  std::string bearer() const { return "Bearer " + server->token(); }

  FixtureHost host;
  std::unique_ptr<Server> server;
  unsigned short port = 0;
};

TEST_F(ServerTest, ListensOnLoopbackByDefault) {
  EXPECT_EQ(ServerOptions{}.address, "127.0.0.1");
  EXPECT_EQ(server->url(), "http://127.0.0.1:" + std::to_string(port) + "/");
  EXPECT_EQ(server->token().size(), 32u);
}

TEST_F(ServerTest, ServesTheScreenPage) {
  auto r = testing::get(port, "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_NE(r.body.find("screen.js"), std::string::npos);
  auto js = testing::get(port, "/screen.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "application/javascript; charset=utf-8");
  EXPECT_EQ(testing::get(port, "/no-such-file.js").status, 404);
}

TEST_F(ServerTest, StateHasGameFenScoreAndMoves) {
  auto before = nlohmann::json::parse(testing::get(port, "/api/state").body);
  EXPECT_EQ(before["game"], "cotoan");
  EXPECT_EQ(before["fen"], testing::kCotoanStart);
  EXPECT_EQ(before["moves"].size(), 0u);
  EXPECT_EQ(before["position"]["pieces"].size(), 20u);
  EXPECT_EQ(before["phase"], "playing");  // from the host, which cannot replace what events say

  publish_game();
  auto s = nlohmann::json::parse(testing::get(port, "/api/state").body);
  EXPECT_EQ(s["game"], "cotoan");
  EXPECT_EQ(s["fen"], testing::cotoan_short_game().back()["fen"]);
  EXPECT_EQ(s["score"]["red"], 6);
  EXPECT_EQ(s["score"]["blue"], 0);
  ASSERT_EQ(s["moves"].size(), 5u);
  EXPECT_EQ(s["moves"][4]["notation"], "7:d4xd6");
  EXPECT_EQ(s["moves"][4]["calculation"], "7 + 4 = 11 \u2192 1");
  EXPECT_EQ(s["last"]["from"], "d4");
  EXPECT_EQ(s["last"]["to"], "d6");
  EXPECT_EQ(s["position"]["pieces"].size(), 19u);
  EXPECT_EQ(s["seq"], 8);
}

TEST_F(ServerTest, BoardModelIsServed) {
  auto b = nlohmann::json::parse(testing::get(port, "/api/board").body);
  EXPECT_EQ(b["sites"].size(), 99u);
  EXPECT_EQ(b["sites"]["a1"], nlohmann::json({40, 440}));
}

TEST_F(ServerTest, WebSocketPushesEveryEventInOrder) {
  testing::Viewer a(port), b(port);
  for (int i = 0; i < 500 && server->viewer_count() < 2; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(server->viewer_count(), 2u);
  publish_game();
  const auto game = testing::cotoan_short_game();
  for (testing::Viewer* v : {&a, &b}) {
    for (size_t i = 0; i < game.size(); ++i) {
      auto m = nlohmann::json::parse(v->read());
      EXPECT_EQ(m["type"], game[i]["type"]) << i;
      EXPECT_EQ(m["t"], game[i]["t"]) << i;
      EXPECT_EQ(m["seq"], static_cast<int>(i) + 1);
    }
  }
}

TEST_F(ServerTest, PushedEventsCarryTheirAnnouncements) {
  testing::Viewer v(port);
  for (int i = 0; i < 500 && server->viewer_count() < 1; ++i) std::this_thread::sleep_for(10ms);
  publish_game();
  std::vector<nlohmann::json> got;
  for (size_t i = 0; i < testing::cotoan_short_game().size(); ++i) got.push_back(nlohmann::json::parse(v.read()));
  EXPECT_EQ(got[3]["announce"]["kind"], "illegal");
  EXPECT_EQ(got[3]["announce"]["en"]["title"], "Illegal move");
  EXPECT_EQ(got[3]["announce"]["vi"]["detail"], "quân 0 không bao giờ di chuyển  \u00b7  e2, e3");
  EXPECT_EQ(got[7]["announce"]["kind"], "capture");
  EXPECT_EQ(got[7]["announce"]["en"]["detail"], "takes d6  \u00b7  7 + 4 = 11 \u2192 1  \u00b7  +6 points");
  EXPECT_EQ(got[7]["calculation"], "7 + 4 = 11 \u2192 1");
}

TEST_F(ServerTest, CommandWithoutTokenIsRefused) {
  auto r = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"resign","side":"red"})");
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.raw[http::field::www_authenticate], "Bearer");
  auto wrong = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"resign"})", "Bearer 0123");
  EXPECT_EQ(wrong.status, 401);
  auto basic = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"resign"})", "Basic " + server->token());
  EXPECT_EQ(basic.status, 401);
  EXPECT_TRUE(host.commands.empty());
  EXPECT_EQ(testing::get(port, "/api/auth").status, 401);
}

TEST_F(ServerTest, CommandWithTokenReachesTheHost) {
  auto r = testing::request(port, http::verb::post, "/api/command", R"({"command":"resign","side":"red"})", bearer());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(nlohmann::json::parse(r.body)["result"], "0-1");
  ASSERT_EQ(host.commands.size(), 1u);
  EXPECT_EQ(host.commands[0]["side"], "red");
  auto unknown = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"dance"})", bearer());
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(testing::request(port, http::verb::get, "/api/auth", "", bearer()).status, 200);
}

TEST_F(ServerTest, LanguageCommandSwitchesTheScreenForEveryone) {
  testing::Viewer v(port);
  for (int i = 0; i < 500 && server->viewer_count() < 1; ++i) std::this_thread::sleep_for(10ms);
  auto r = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"language","lang":"vi"})", bearer());
  EXPECT_EQ(r.status, 200);
  auto pushed = nlohmann::json::parse(v.read());
  EXPECT_EQ(pushed["type"], "info");
  EXPECT_EQ(pushed["lang"], "vi");
  EXPECT_EQ(nlohmann::json::parse(testing::get(port, "/api/state").body)["language"], "vi");
  auto bad = testing::request(port, http::verb::post, "/api/command", R"({"cmd":"language","lang":"fr"})", bearer());
  EXPECT_EQ(bad.status, 400);
}

TEST_F(ServerTest, MalformedCommandBodiesAreRejected) {
  for (const char* body : {"not json", "[1,2]", "{\"command\": 5}", "{}", "{\"command\":\"resign\""}) {
    auto r = testing::request(port, http::verb::post, "/api/command", body, bearer());
    EXPECT_EQ(r.status, 400) << body;
    EXPECT_TRUE(nlohmann::json::parse(r.body).contains("error")) << body;
  }
  EXPECT_EQ(testing::request(port, http::verb::get, "/api/command").status, 405);
  EXPECT_EQ(testing::request(port, http::verb::delete_, "/api/state").status, 405);
}

TEST_F(ServerTest, MalformedRequestsGetACleanError) {
  EXPECT_EQ(testing::raw_exchange(port, "GARBAGE\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(testing::raw_exchange(port, "GET / HTTP/9.9\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(testing::raw_exchange(port, "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  EXPECT_EQ(testing::raw_exchange(port, "GET relative HTTP/1.1\r\nHost: x\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  std::string binary(300, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 37);
  std::string answer = testing::raw_exchange(port, binary);
  EXPECT_TRUE(answer.empty() || answer.rfind("HTTP/1.1 400", 0) == 0);
  // The server is still there.
  EXPECT_EQ(testing::get(port, "/api/state").status, 200);
}

TEST_F(ServerTest, OversizedRequestsAreRefused) {
  std::string huge_header = "GET / HTTP/1.1\r\nHost: x\r\nX-Filler: " + std::string(20000, 'a') + "\r\n\r\n";
  EXPECT_EQ(testing::raw_exchange(port, huge_header).rfind("HTTP/1.1 431", 0), 0u);
  std::string big_body(200 * 1024, 'x');
  auto r = testing::raw_exchange(port, "POST /api/command HTTP/1.1\r\nHost: x\r\nAuthorization: " + bearer() +
                                           "\r\nContent-Length: " + std::to_string(big_body.size()) + "\r\n\r\n" + big_body);
  EXPECT_EQ(r.rfind("HTTP/1.1 413", 0), 0u);
  auto lying = testing::raw_exchange(port, "POST /api/command HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n");
  EXPECT_EQ(lying.rfind("HTTP/1.1 413", 0), 0u);
  EXPECT_TRUE(host.commands.empty());
}

TEST_F(ServerTest, PathTraversalNeverLeavesTheWebRoot) {
  for (const char* target : {"/../CMakeLists.txt", "/%2e%2e/%2e%2e/CMakeLists.txt", "/..%2f..%2fCMakeLists.txt",
                             "/../../../../etc/passwd", "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/.hidden",
                             "/..\\..\\CMakeLists.txt", "//etc/passwd", "/%00index.html"}) {
    std::string answer =
        testing::raw_exchange(port, std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(answer.find("HTTP/1.1 200"), std::string::npos) << target;
    EXPECT_EQ(answer.find("root:"), std::string::npos) << target;
    EXPECT_EQ(answer.find("cmake_minimum_required"), std::string::npos) << target;
  }
}

TEST_F(ServerTest, SlowClientIsCutOffAfterTheRequestTimeout) {
  net::io_context ioc;
  tcp::socket s = testing::connect_to(ioc, port);
  net::write(s, net::buffer(std::string("GET / HTTP/1.1\r\nHost: x\r\n")));  // never finishes its headers
  auto t0 = std::chrono::steady_clock::now();
  char buf[256];
  beast::error_code ec;
  while (!ec) s.read_some(net::buffer(buf), ec);
  auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_TRUE(ec == net::error::eof || ec == net::error::connection_reset) << ec.message();
  EXPECT_LT(waited, 8s);
  EXPECT_EQ(testing::get(port, "/api/state").status, 200);
}

TEST_F(ServerTest, ViewerDisconnectingMidStreamLeavesTheOthersServed) {
  auto quitter = std::make_unique<testing::Viewer>(port);
  testing::Viewer stayer(port);
  for (int i = 0; i < 500 && server->viewer_count() < 2; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(server->viewer_count(), 2u);
  const auto game = testing::cotoan_short_game();
  server->publish(game[0]);
  quitter->read();
  // Gone without a close frame, in the middle of the game.
  beast::error_code ignored;
  quitter->socket().close(ignored);
  quitter.reset();
  for (size_t i = 1; i < game.size(); ++i) server->publish(game[i]);
  for (size_t i = 0; i < game.size(); ++i) EXPECT_EQ(nlohmann::json::parse(stayer.read())["seq"], static_cast<int>(i) + 1);
  for (int i = 0; i < 200 && server->viewer_count() > 1; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(server->viewer_count(), 1u);
  EXPECT_EQ(testing::get(port, "/api/state").status, 200);
}

TEST(ServerLimits, AViewerThatStopsReadingIsDroppedNotBuffered) {
  FixtureHost host;
  ServerOptions o = test_options();
  o.max_viewer_backlog_bytes = 256 * 1024;
  Server server(o, host);
  server.start();
  testing::Viewer stuck(server.port());  // never reads
  for (int i = 0; i < 500 && server.viewer_count() < 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(server.viewer_count(), 1u);
  // About 1 KiB per event: publish until the socket buffers (a few MB) and then the backlog are
  // full and the viewer is dropped; bounded in count and time.
  nlohmann::json info = {{"type", "info"}, {"t", 0}, {"reason", "camera_state"}, {"detail", std::string(1000, 'x')}};
  const auto give_up = std::chrono::steady_clock::now() + 60s;
  int published = 0;
  while (published < 100000 && server.viewer_count() == 1 && std::chrono::steady_clock::now() < give_up) {
    server.publish(info);
    if (++published % 200 == 0) std::this_thread::sleep_for(1ms);
  }
  for (int i = 0; i < 1000 && server.viewer_count() == 1; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(server.viewer_count(), 0u) << "after " << published << " events";
  // The server goes on serving: a new viewer gets the next event.
  testing::Viewer fresh(server.port());
  for (int i = 0; i < 500 && server.viewer_count() < 1; ++i) std::this_thread::sleep_for(10ms);
  server.publish(info);
  EXPECT_EQ(nlohmann::json::parse(fresh.read())["seq"], published + 1);
  EXPECT_EQ(testing::get(server.port(), "/api/state").status, 200);
}

TEST(ServerLimits, ConnectionsPastTheBudgetAreClosed) {
  FixtureHost host;
  ServerOptions o = test_options();
  o.max_connections = 3;
  Server server(o, host);
  server.start();
  net::io_context ioc;
  std::vector<tcp::socket> held;
  for (int i = 0; i < 3; ++i) held.push_back(testing::connect_to(ioc, server.port()));
  std::this_thread::sleep_for(100ms);
  std::string refused = testing::raw_exchange(server.port(), "GET /api/state HTTP/1.1\r\nHost: x\r\n\r\n", 3s);
  EXPECT_EQ(refused, "");
  held.clear();
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(testing::get(server.port(), "/api/state").status, 200);
}

TEST_F(ServerTest, LegalMovesComeFromTheHost) {
  auto from = nlohmann::json::parse(testing::get(port, "/api/moves?from=d4").body);
  ASSERT_EQ(from["moves"].size(), 1u);
  EXPECT_EQ(from["moves"][0]["captured"], nlohmann::json({"d6"}));
  EXPECT_EQ(from["fen"], testing::kCotoanStart);
  auto captures = nlohmann::json::parse(testing::get(port, "/api/moves?captures=1").body);
  EXPECT_EQ(captures["moves"].size(), 1u);
  EXPECT_EQ(testing::get(port, "/api/moves?fen=").status, 400);
}

TEST_F(ServerTest, RecordsDownload) {
  publish_game();
  auto txt = testing::get(port, "/api/record.txt");
  EXPECT_EQ(txt.status, 200);
  EXPECT_NE(txt.body.find("3. 7:d4xd6 (7 + 4 = 11 \u2192 1)"), std::string::npos) << txt.body;
  EXPECT_EQ(txt.raw[http::field::content_disposition], "attachment; filename=\"cotoan.txt\"");
  auto json = nlohmann::json::parse(testing::get(port, "/api/record?format=json").body);
  EXPECT_EQ(json["moves"].size(), 5u);
  EXPECT_EQ(json["events"].size(), 8u);
  EXPECT_EQ(testing::get(port, "/api/record.pdn").status, 404);
  EXPECT_EQ(testing::get(port, "/api/record?format=doc").status, 400);
  auto since = nlohmann::json::parse(testing::get(port, "/api/events?since=6").body);
  EXPECT_EQ(since["events"].size(), 2u);
}

TEST_F(ServerTest, CameraFramesAreServedAndStreamed) {
  EXPECT_EQ(testing::get(port, "/api/camera.jpg").status, 404);
  const std::string frame1 = "\xff\xd8 first frame \xff\xd9", frame2 = "\xff\xd8 second frame \xff\xd9";
  server->set_camera_jpeg(frame1);
  auto still = testing::get(port, "/api/camera.jpg");
  EXPECT_EQ(still.status, 200);
  EXPECT_EQ(still.content_type, "image/jpeg");
  EXPECT_EQ(still.body, frame1);

  net::io_context ioc;
  tcp::socket s = testing::connect_to(ioc, port);
  net::write(s, net::buffer(std::string("GET /api/camera.mjpeg HTTP/1.1\r\nHost: x\r\n\r\n")));
  std::string got;
  char buf[4096];
  auto read_until = [&](const std::string& what) {
    beast::error_code ec;
    while (got.find(what) == std::string::npos && !ec) got.append(buf, s.read_some(net::buffer(buf), ec));
  };
  read_until(frame1);
  EXPECT_NE(got.find("multipart/x-mixed-replace"), std::string::npos);
  server->set_camera_jpeg(frame2);
  read_until(frame2);
  EXPECT_NE(got.find(frame2), std::string::npos);
  // The watcher leaves mid-stream; frames keep coming for nobody, and the server stays up.
  s.close();
  for (int i = 0; i < 20; ++i) server->set_camera_jpeg(frame1);
  EXPECT_EQ(testing::get(port, "/api/camera.jpg").status, 200);
}

TEST_F(ServerTest, SpeechIsRenderedForTheNewestAnnouncementOnly) {
  publish_game();
  // seq 4 is the illegal move, overtaken by later announcements.
  EXPECT_EQ(testing::get(port, "/api/speech?seq=4&lang=en").status, 410);
  EXPECT_EQ(testing::get(port, "/api/speech?seq=x&lang=en").status, 400);
  EXPECT_EQ(testing::get(port, "/api/speech?seq=8&lang=fr").status, 400);
  auto wav = testing::get(port, "/api/speech?seq=8&lang=vi");
  if (wav.status == 503) GTEST_SKIP() << "espeak-ng is not installed (scripts/setup installs it): " << wav.body;
  EXPECT_EQ(wav.status, 200);
  EXPECT_EQ(wav.content_type, "audio/wav");
  EXPECT_EQ(wav.body.substr(0, 4), "RIFF");
  EXPECT_GT(wav.body.size(), 10000u);
}

}  // namespace
}  // namespace sb::display
