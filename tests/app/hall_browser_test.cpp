// The hall overview in headless Chromium: `smartboard hall` with a round's
// pairings, three `smartboard referee … --mqtt` runs through one Mosquitto (a
// draughts game still going, a Cờ toán game with points, a game played to its
// end); the page must show one card per board with the diagram's pieces where
// the referees left them, the scores, the finished game's result, the
// standings, and on a click the board enlarged with the referee's own screen.
// Saves screenshots under build/test-output/.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "engines/registry.h"
#include "hall/broker_process.h"
#include "hall/observed_game.h"
#include "tests/support/run_command.h"
#include "tests/support/test_broker.h"
#include "tests/support/webdriver.h"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using sb::testing::run_smartboard;
using sb::testing::WebDriver;

struct PlayedBoard {
  int board;
  std::string game;
  std::shared_ptr<const sb::Rules> rules;
  sb::hall::ObservedGame truth;
  sb::State final_position;
};

// A random legal game of `game`; with `to_the_end`, the first seed whose game the rules end within `plies`.
PlayedBoard played(int board, const std::string& game, int plies, bool to_the_end) {
  PlayedBoard b{board, game, std::shared_ptr<const sb::Rules>(sb::make_rules(game)), {}, {}};
  for (uint64_t seed = 1; seed < 500; ++seed) {
    sb::hall::ObservedGameOptions o;
    o.max_plies = plies;
    o.seed = seed;
    b.truth = sb::hall::random_observed_game(*b.rules, o);
    if (!to_the_end || b.truth.over) break;
  }
  // Played through, not read from the final FEN: the score counts what was taken on the way.
  b.final_position = b.rules->start();
  for (const std::string& n : b.truth.notations)
    b.final_position = b.rules->apply(b.final_position, b.rules->parse_move(b.final_position, n));
  return b;
}

TEST(HallBrowser, TheOverviewShowsEveryBoardsDiagramScoreAndResultAndABoardEnlarged) {
  if (!WebDriver::available())
    GTEST_SKIP() << "chromium or chromedriver is not installed (scripts/setup installs Debian's chromium and "
                    "chromium-driver); the browser test needs both";
  const std::string dir = ::testing::TempDir() + "hall_browser_" + std::to_string(::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  const sb::testing::TestBroker broker = sb::testing::test_broker(dir + "/broker");
  const std::string event = sb::testing::unique_event("browser");

  std::vector<PlayedBoard> boards = {played(1, "brazilian", 9, false), played(2, "cotoan", 12, false),
                                     played(3, "morris6", 400, true)};
  ASSERT_TRUE(boards[2].truth.over) << "no random morris6 game ended within 400 plies";
  {
    std::ofstream csv(dir + "/pairings.csv");
    csv << "board,first,second,game\n1,An,Binh,brazilian\n2,Chi,Dung,cotoan\n3,Giang,Hoa,morris6\n";
  }
  const int http = sb::hall::BrokerProcess::free_port();
  std::vector<std::string> args = {SMARTBOARD_BINARY, "hall", "--mqtt", broker.address, "--event", event,
                                   "--http", std::to_string(http), "--pairings", dir + "/pairings.csv"};
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t hall = -1;
  ASSERT_EQ(posix_spawn(&hall, SMARTBOARD_BINARY, nullptr, nullptr, argv.data(), environ), 0);
  struct StopHall {
    pid_t pid;
    ~StopHall() {
      ::kill(pid, SIGTERM);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
  } stop_hall{hall};

  for (const PlayedBoard& b : boards) {
    const std::string observations = dir + "/board" + std::to_string(b.board) + ".jsonl";
    {
      std::ofstream out(observations);
      for (const std::string& line : b.truth.lines) out << line << "\n";
    }
    auto r = run_smartboard({"referee", b.game, "--observations", observations, "--mqtt", broker.address, "--board",
                             std::to_string(b.board), "--event", event, "--journal",
                             dir + "/board" + std::to_string(b.board) + ".journal"});
    ASSERT_EQ(r.status, 0) << r.err;
  }

  const fs::path out_dir = fs::path(SMARTBOARD_BINARY).parent_path() / "test-output";
  const fs::path profile = fs::path(::testing::TempDir()) / ("sb_chromium_hall_" + std::to_string(::getpid()));
  fs::remove_all(profile);
  {
    WebDriver browser;
    ASSERT_TRUE(browser.started());
    browser.open_session(profile);
    browser.go("http://127.0.0.1:" + std::to_string(http) + "/");
    ASSERT_TRUE(browser.wait_for("document.querySelectorAll('#boards .card').length === 3", 30s))
        << "the overview did not show three boards";
    for (const PlayedBoard& b : boards) {
      const std::string card = "document.querySelector('#boards .card[data-board=\"" + std::to_string(b.board) + "\"]')";
      // The diagram has every piece of the referee's final position (drawn once the board model has come).
      const sb::Observation seen = b.rules->observe(b.final_position);
      int pieces = 0;
      for (const auto& site : seen.sites) pieces += site.empty() ? 0 : 1;
      EXPECT_TRUE(browser.wait_for(card + ".querySelectorAll('svg.diagram circle[stroke=\"#555\"]').length === " +
                                   std::to_string(pieces), 20s))
          << "board " << b.board << ": "
          << browser.eval("return " + card + ".querySelectorAll('svg.diagram circle[stroke=\"#555\"]').length;")
          << " pieces drawn, " << pieces << " on the board";
      // The score: each side's pieces taken (draughts, Morris) or points (Cờ toán).
      const sb::Score score = b.rules->score(b.final_position);
      const std::string score_text = browser.eval("return " + card + ".querySelector('.score').textContent;");
      for (sb::Side side : {sb::Side::First, sb::Side::Second})
        EXPECT_NE(score_text.find(b.rules->side_name(side) + " " + std::to_string(score[static_cast<size_t>(side)])),
                  std::string::npos)
            << "board " << b.board << ": '" << score_text << "', the rules say " << b.rules->side_name(side) << " "
            << score[static_cast<size_t>(side)] << " at " << b.truth.final_fen;
      const std::string status = browser.eval("return " + card + ".querySelector('.status').textContent;");
      EXPECT_NE(status.find(std::to_string(b.truth.notations.size()) + " moves"), std::string::npos) << status;
      if (b.truth.over) {
        const std::string result = b.rules->outcome(b.final_position).result();
        EXPECT_EQ(status.rfind(result + " ", 0), 0u) << "board " << b.board << ": '" << status << "'";
        EXPECT_EQ(browser.eval("return " + card + ".classList.contains('finished');"), true);
      }
    }
    // The standings list the six players of the pairings.
    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#standings tbody tr').length === 6"));
    browser.screenshot(out_dir / "hall-overview.png");

    // A click on board 2: enlarged, with the referee's own screen for it in a frame.
    browser.eval("document.querySelector('#boards .card[data-board=\"2\"]').click();");
    ASSERT_TRUE(browser.wait_for("!document.getElementById('enlarged').hidden && "
                                 "document.querySelector('#enlarged-board iframe.screen')", 20s))
        << "the board did not open enlarged";
    EXPECT_NE(browser.eval("return document.querySelector('#enlarged-board h2').textContent;")
                  .get<std::string>()
                  .find("Board 2: cotoan"),
              std::string::npos);
    browser.enter_frame("#enlarged-board iframe.screen");
    EXPECT_TRUE(browser.wait_for("document.body && document.body.dataset.ready === '1'", 30s))
        << "the referee's screen did not load in the frame";
    EXPECT_TRUE(browser.wait_for("document.querySelectorAll('#moves li').length === " +
                                 std::to_string(boards[1].truth.notations.size()), 20s))
        << browser.eval("return document.querySelectorAll('#moves li').length;");
    EXPECT_EQ(browser.eval("return document.querySelector('#moves li').textContent;"), boards[1].truth.notations[0]);
    browser.leave_frame();
    browser.screenshot(out_dir / "hall-enlarged.png");
  }
  fs::remove_all(profile);
  std::cerr << "screenshots in " << out_dir << "\n";
}

}  // namespace
