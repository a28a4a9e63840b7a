// End to end in headless Chromium: the screen opened while a short Cờ toán game
// is published move by move must show the moves, the pieces, an illegal-move
// banner, a capture with its calculation and the scores; the teaching mode must
// show every capture with its calculation. Then the whole demo (renderer → vision
// → referee → screen) on a Cờ toán game and on a Morris game. Chromium is driven by chromedriver
// over its HTTP/JSON (WebDriver) protocol (tests/support/webdriver.h). Saves screenshots under
// build/test-output/.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include <filesystem>
#include <fstream>
#include <thread>

#include "display/process.h"
#include "display/server.h"
#include "display_fixtures.h"
#include "net_client.h"
#include "tests/support/webdriver.h"

extern char** environ;

namespace sb::display {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

// chromedriver and one headless Chromium session (tests/support/webdriver.h).
using Browser = sb::testing::WebDriver;

TEST(Browser, ScreenShowsMovesIllegalBannerCaptureAndScores) {
  if (!on_path("chromium") || !on_path("chromedriver"))
    GTEST_SKIP() << "chromium or chromedriver is not installed (scripts/setup installs Debian's chromium and "
                    "chromium-driver); the browser test needs both";
  testing::FixtureHost host;
  ServerOptions o;
  o.port = 0;
  o.www_root = std::string(SMARTBOARD_SOURCE_DIR) + "/display/www";
  Server server(o, host);
  server.start();

  const fs::path out_dir = fs::path(SMARTBOARD_BINARY).parent_path() / "test-output";
  const fs::path profile = fs::path(::testing::TempDir()) / ("sb_chromium_" + std::to_string(::getpid()));
  fs::remove_all(profile);
  {
    Browser browser;
    ASSERT_TRUE(browser.started());
    browser.open_session(profile);
    browser.go(server.url());
    ASSERT_TRUE(browser.wait_for("document.body.dataset.ready === '1'", 30s)) << "the page did not load";
    // The board is drawn from the model: 99 sites, the 20 pieces of the start.
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .site-hit').length;"), 99);
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .pieces .piece').length;"), 20);
    for (int i = 0; i < 100 && server.viewer_count() < 1; ++i) std::this_thread::sleep_for(50ms);
    ASSERT_EQ(server.viewer_count(), 1u) << "the page did not open its WebSocket";

    const auto game = testing::cotoan_short_game();
    for (size_t i = 0; i < 3; ++i) server.publish(game[i]);
    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#moves li').length === 2"));
    EXPECT_EQ(browser.eval("return document.querySelector('#moves li').textContent;"), "4:d1-d5");
    EXPECT_TRUE(browser.wait_for("document.querySelector('#board .pieces [data-site=d5]')"));

    server.publish(game[3]);  // illegal
    EXPECT_TRUE(browser.wait_for("document.getElementById('banner').dataset.kind === 'illegal' && "
                                 "!document.getElementById('banner').classList.contains('hidden')"));
    EXPECT_EQ(browser.eval("return document.querySelector('#banner .banner-title').textContent;"), "Illegal move");
    EXPECT_EQ(browser.eval("return document.querySelector('#banner .banner-detail').textContent;"),
              "the 0 never moves  \u00b7  e2, e3");
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .hl-alert').length;"), 2);
    browser.screenshot(out_dir / "display-illegal.png");

    for (size_t i = 4; i < 7; ++i) server.publish(game[i]);
    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#moves li').length === 4"));
    // Teaching mode: every capture for the side to move, with the calculation that reaches it.
    browser.eval("document.getElementById('btn-teach').click(); document.getElementById('btn-captures').click();");
    EXPECT_TRUE(browser.wait_for("document.querySelector('#board .hint-text')"));
    EXPECT_EQ(browser.eval("return document.querySelector('#board .hint-text').textContent;"), "7 + 4 = 11 \u2192 1");
    EXPECT_EQ(browser.eval("return document.querySelector('#teach-list li').textContent;"), "7:d4xd6  (7 + 4 = 11 \u2192 1)");
    browser.screenshot(out_dir / "display-teaching.png");
    browser.eval("document.getElementById('btn-teach').click();");

    server.publish(game[7]);  // the capture
    EXPECT_TRUE(browser.wait_for("document.getElementById('banner').dataset.kind === 'capture'"));
    EXPECT_EQ(browser.eval("return document.querySelector('#banner .banner-detail').textContent;"),
              "takes d6  \u00b7  7 + 4 = 11 \u2192 1  \u00b7  +6 points");
    EXPECT_EQ(browser.eval("return document.querySelector('#sides [data-side=red] .score').textContent;"), "6");
    EXPECT_EQ(browser.eval("return document.querySelector('#sides [data-side=blue] .score').textContent;"), "0");
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#moves li').length;"), 5);
    EXPECT_EQ(browser.eval("return document.querySelector('#moves li.last').textContent;"), "7:d4xd6" "7 + 4 = 11 \u2192 1" "+6");
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .pieces .piece').length;"), 19);
    EXPECT_EQ(browser.eval("return document.querySelector('#board .pieces [data-site=d6]').getAttribute('data-label');"), "7");
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .hl-to').length;"), 1);

    // The operator's buttons for each side include the flag fall (the referee's "flag" command).
    EXPECT_EQ(browser.eval("return [...document.querySelectorAll('#op-side-row button')].map(b => b.textContent)"
                           ".filter(t => t === 'Red ran out of time' || t === 'Blue ran out of time').length;"),
              2);

    // Vietnamese, switched by the operator for every screen.
    server.publish(nlohmann::json{{"type", "info"}, {"t", 8000}, {"reason", "language"}, {"lang", "vi"}});
    EXPECT_TRUE(browser.wait_for("document.documentElement.lang === 'vi'"));
    EXPECT_EQ(browser.eval("return document.querySelector('#sides [data-side=red] .name').textContent;"), "Đỏ");
    server.publish(nlohmann::json{{"type", "game_over"}, {"t", 9000}, {"result", "1-0"}, {"reason", "resignation"},
                                  {"score", {{"red", 6}, {"blue", 0}}}});
    EXPECT_TRUE(browser.wait_for("document.getElementById('banner').dataset.kind === 'over'"));
    EXPECT_EQ(browser.eval("return document.querySelector('#banner .banner-detail').textContent;"),
              "Đỏ thắng \u2014 resignation");
    browser.screenshot(out_dir / "display-screen.png");
  }
  fs::remove_all(profile);
  std::cerr << "screenshots in " << out_dir << "\n";
}


// `smartboard demo` as a child process: its stdout (the URL, the announcements) read line by line.
class DemoProcess {
 public:
  explicit DemoProcess(const std::vector<std::string>& words, const fs::path& stderr_file) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    std::vector<std::string> argv = {SMARTBOARD_BINARY};
    argv.insert(argv.end(), words.begin(), words.end());
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addopen(&actions, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (::posix_spawn(&pid_, argv[0].c_str(), &actions, nullptr, args.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    out_ = ::fdopen(fds[0], "r");
  }
  ~DemoProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status;
      ::waitpid(pid_, &status, 0);
    }
    if (out_) ::fclose(out_);
  }
  // The next line of its stdout; empty at its end.
  std::string line() {
    char buf[4096];
    if (!out_ || !::fgets(buf, sizeof buf, out_)) return "";
    std::string l(buf);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    return l;
  }
  bool started() const { return pid_ > 0 && out_; }

 private:
  pid_t pid_ = -1;
  FILE* out_ = nullptr;
};

// Every banner the page shows, as it shows it (an illegal move is on screen only until it is put back), into
// window.__banners as [kind, title, detail].
void record_banners(Browser& browser) {
  browser.eval(
      "window.__banners = []; const b = document.getElementById('banner');"
      "new MutationObserver(() => { if (!b.classList.contains('hidden')) window.__banners.push("
      "[b.dataset.kind, b.querySelector('.banner-title').textContent, b.querySelector('.banner-detail').textContent]);"
      "}).observe(b, {attributes: true, childList: true, subtree: true, characterData: true});");
}

nlohmann::json first_banner(const nlohmann::json& banners, const std::string& kind) {
  for (const auto& b : banners)
    if (b[0] == kind) return b;
  return nlohmann::json();
}

bool said(const std::vector<std::string>& announced, const std::string& words) {
  for (const std::string& l : announced)
    if (l.find(words) != std::string::npos) return true;
  return false;
}

std::vector<nlohmann::json> read_events(const fs::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  std::string l;
  while (std::getline(in, l))
    if (!l.empty()) out.push_back(nlohmann::json::parse(l));
  return out;
}

// The whole product in one go: the renderer's hands play a short Cờ toán game (seed 3: two captures, the game
// decided after six moves; an illegal move of the player to move before the second move, put back), the frames
// go through the vision pipeline and the referee, and the screen in Chromium must show what the referee
// decided: the moves, a capture banner, the scores and the red illegal-move banner.
TEST(Browser, DemoGameThroughVisionShowsMovesCaptureScoresAndIllegalBanner) {
  if (!on_path("chromium") || !on_path("chromedriver"))
    GTEST_SKIP() << "chromium or chromedriver is not installed (scripts/setup installs Debian's chromium and "
                    "chromium-driver); the browser test needs both";
  const fs::path work = fs::path(::testing::TempDir()) / ("sb_demo_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path events_file = work / "events.jsonl";
  DemoProcess demo({"demo", "--port", "0", "--seed", "3", "--games", "1", "--moves", "10", "--illegal-ply", "1",
                    "--fps", "10", "--pace", "2", "--speed", "0", "--wait-for-viewer", "--events",
                    events_file.string(), "--www", std::string(SMARTBOARD_SOURCE_DIR) + "/display/www"},
                   work / "demo.stderr");
  ASSERT_TRUE(demo.started());
  std::string url = demo.line();
  ASSERT_EQ(url.rfind("screen http://127.0.0.1:", 0), 0u) << url;
  url = url.substr(7);
  ASSERT_EQ(demo.line().rfind("token ", 0), 0u);

  const fs::path out_dir = fs::path(SMARTBOARD_BINARY).parent_path() / "test-output";
  {
    Browser browser;
    ASSERT_TRUE(browser.started());
    browser.open_session(work / "profile");
    browser.go(url);
    ASSERT_TRUE(browser.wait_for("document.body.dataset.ready === '1'", 30s)) << "the page did not load";
    record_banners(browser);
    // The demo prints every announcement, up to the end of the game.
    std::vector<std::string> announced;
    for (std::string l = demo.line(); !l.empty(); l = demo.line()) {
      announced.push_back(l);
      if (l.find("Game over") != std::string::npos) break;
    }
    const std::vector<nlohmann::json> events = read_events(events_file);
    std::vector<std::string> moves;
    nlohmann::json score;
    for (const auto& e : events)
      if (e["type"] == "move") {
        moves.push_back(e["notation"]);
        score = e["score"];
      }
    // What the referee saw through the camera is what the hands played.
    EXPECT_EQ(moves, (std::vector<std::string>{"1:a1-a2", "3:g11-f10", "8:h1-h8", "5:e11xh8", "6:f1-f3", "4:f11xf3"}));
    ASSERT_FALSE(score.is_null());

    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#moves li').length === " + std::to_string(moves.size())));
    EXPECT_EQ(browser.eval("return document.querySelector('#moves li').textContent;"), "1:a1-a2");
    EXPECT_EQ(browser.eval("return document.querySelector('#sides [data-side=red] .score').textContent;"),
              std::to_string(score["red"].get<int>()));
    EXPECT_EQ(browser.eval("return document.querySelector('#sides [data-side=blue] .score').textContent;"),
              std::to_string(score["blue"].get<int>()));
    EXPECT_NE(score["red"].get<int>() + score["blue"].get<int>(), 0);
    const nlohmann::json banners = browser.eval("return window.__banners;");
    auto seen = [&](const std::string& kind) { return first_banner(banners, kind); };
    ASSERT_FALSE(seen("illegal").is_null()) << banners.dump();
    EXPECT_EQ(seen("illegal")[1], "Illegal move");
    ASSERT_FALSE(seen("capture").is_null()) << banners.dump();
    EXPECT_NE(seen("capture")[2].get<std::string>().find(" = "), std::string::npos) << "the calculation is written out";
    EXPECT_TRUE(said(announced, "Illegal move"));
    browser.screenshot(out_dir / "display-demo.png");
  }
  fs::remove_all(work);
}

// The same through a Morris game, whose start shows no piece on the board: the renderer's hands place
// (morris3, seed 1: a2 c3 b1 b3 a3 c2, and before the third placement White shifts a2 to a1, which no rule
// allows while pieces are still in hand, and puts it back). The screen must show every placement, the pieces
// still in hand, the red banner and the position restored.
TEST(Browser, MorrisDemoThroughVisionShowsPlacementsPiecesInHandAndIllegalBanner) {
  if (!on_path("chromium") || !on_path("chromedriver"))
    GTEST_SKIP() << "chromium or chromedriver is not installed (scripts/setup installs Debian's chromium and "
                    "chromium-driver); the browser test needs both";
  const fs::path work = fs::path(::testing::TempDir()) / ("sb_morris_demo_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path events_file = work / "events.jsonl";
  DemoProcess demo({"demo", "--game", "morris3", "--port", "0", "--seed", "1", "--games", "1", "--moves", "6",
                    "--speed", "0", "--wait-for-viewer", "--exit-when-done", "--events", events_file.string(),
                    "--www", std::string(SMARTBOARD_SOURCE_DIR) + "/display/www"},
                   work / "demo.stderr");
  ASSERT_TRUE(demo.started());
  std::string url = demo.line();
  ASSERT_EQ(url.rfind("screen http://127.0.0.1:", 0), 0u) << url;
  url = url.substr(7);
  ASSERT_EQ(demo.line().rfind("token ", 0), 0u);

  const fs::path out_dir = fs::path(SMARTBOARD_BINARY).parent_path() / "test-output";
  {
    Browser browser;
    ASSERT_TRUE(browser.started());
    browser.open_session(work / "profile");
    browser.go(url);
    ASSERT_TRUE(browser.wait_for("document.body.dataset.ready === '1'", 30s)) << "the page did not load";
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .site-hit').length;"), 9);
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .pieces .piece').length;"), 0);
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#sides .hand .piece').length;"), 6);
    record_banners(browser);
    // --exit-when-done: the demo's output ends with the game; the page keeps what it was shown.
    std::vector<std::string> announced;
    for (std::string l = demo.line(); !l.empty(); l = demo.line()) announced.push_back(l);
    std::vector<std::string> moves;
    for (const auto& e : read_events(events_file))
      if (e["type"] == "move") moves.push_back(e["notation"]);
    EXPECT_EQ(moves, (std::vector<std::string>{"a2", "c3", "b1", "b3", "a3", "c2"}));

    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#moves li').length === 6"));
    EXPECT_EQ(browser.eval("return document.querySelector('#moves li').textContent;"), "a2");
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#board .pieces .piece').length;"), 6);
    EXPECT_EQ(browser.eval("return document.querySelectorAll('#sides .hand .piece').length;"), 0);
    const nlohmann::json banners = browser.eval("return window.__banners;");
    auto seen = [&](const std::string& kind) { return first_banner(banners, kind); };
    ASSERT_FALSE(seen("illegal").is_null()) << banners.dump();
    EXPECT_EQ(seen("illegal")[1], "Illegal move");
    EXPECT_NE(seen("illegal")[2].get<std::string>().find("a2, a1"), std::string::npos) << seen("illegal").dump();
    EXPECT_FALSE(seen("restored").is_null()) << banners.dump();
    EXPECT_TRUE(said(announced, "Illegal move"));
    browser.screenshot(out_dir / "display-demo-morris3.png");
  }
  fs::remove_all(work);
}

}  // namespace
}  // namespace sb::display
