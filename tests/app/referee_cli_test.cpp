// `smartboard referee GAME --observations FILE.jsonl` at its edges: lines carrying
// fields the referee does not use, operator commands that do not fit, malformed
// lines (nothing refereed before them is lost), options refused before the run,
// and clock readings in the records only when a clock ran.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engines/registry.h"
#include "tests/support/run_command.h"

namespace sb {
namespace {

using testing::lines_of;
using testing::run_smartboard;

std::string temp(const std::string& name) {
  return ::testing::TempDir() + "referee_cli_" + name;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string write_lines(const std::string& name, const std::vector<std::string>& lines) {
  const std::string path = temp(name);
  std::ofstream out(path, std::ios::trunc);
  for (const std::string& l : lines) out << l << "\n";
  return path;
}

// Observation lines of a Brazilian game from the start: the start, then each of
// `moves` a second after the one before, each board with `extra` fields merged in.
std::vector<std::string> brazilian_lines(const std::vector<std::string>& moves,
                                         const nlohmann::json& extra = nlohmann::json::object()) {
  std::shared_ptr<const Rules> rules = make_rules("brazilian");
  State s = rules->start();
  int64_t t = 1000;
  std::vector<std::string> lines;
  auto add = [&] {
    nlohmann::json line = extra;
    nlohmann::json board = nlohmann::json::object();
    const Observation seen = rules->observe(s);
    for (int i = 0; i < rules->site_count(); ++i)
      if (!seen.sites[static_cast<size_t>(i)].empty())
        board[rules->site_name(i)] = seen.sites[static_cast<size_t>(i)].str();
    line["t"] = t;
    line["board"] = board;
    lines.push_back(line.dump());
  };
  add();
  for (const std::string& m : moves) {
    s = rules->play(s, m);
    t += 1000;
    add();
  }
  return lines;
}

std::vector<nlohmann::json> events_of(const std::string& text) {
  std::vector<nlohmann::json> events;
  for (const std::string& l : lines_of(text)) events.push_back(nlohmann::json::parse(l));
  return events;
}

std::vector<std::string> moves_in(const std::vector<nlohmann::json>& events) {
  std::vector<std::string> moves;
  for (const nlohmann::json& e : events)
    if (e.at("type") == "move") moves.push_back(e.at("notation"));
  return moves;
}

TEST(RefereeCli, LinesWithFieldsTheRefereeDoesNotUseAreRefereed) {
  // As `smartboard simulate` writes its truth.jsonl: each line with the board's corners.
  const std::string obs = write_lines(
      "corners.jsonl",
      brazilian_lines({"22-18", "11-15"}, {{"stable", true}, {"corners", {{10, 20}, {30, 20}, {30, 40}, {10, 40}}}}));
  auto r = run_smartboard({"referee", "brazilian", "--observations", obs});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(moves_in(events_of(r.out)), (std::vector<std::string>{"22-18", "11-15"}));
}

TEST(RefereeCli, ACommandThatDoesNotFitIsRefusedAndTheRunGoesOnToTheRecord) {
  std::vector<std::string> lines = brazilian_lines({"22-18", "11-15"});
  const nlohmann::json confirm = {{"command", "confirm"}};                  // nothing to confirm
  const nlohmann::json green = {{"command", "resign"}, {"side", "green"}};  // no such side
  lines.insert(lines.begin() + 2, nlohmann::json{{"t", 2500}, {"command", "confirm"}}.dump());
  lines.insert(lines.begin() + 3, nlohmann::json{{"t", 2600}, {"command", "resign"}, {"side", "green"}}.dump());
  const std::string obs = write_lines("refused.jsonl", lines), record = temp("refused.json");
  auto r = run_smartboard({"referee", "brazilian", "--observations", obs, "--record", record});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<nlohmann::json> events = events_of(r.out);
  std::vector<nlohmann::json> refused;
  for (const nlohmann::json& e : events)
    if (e.at("type") == "refused") refused.push_back(e);
  ASSERT_EQ(refused.size(), 2u) << r.out;
  EXPECT_EQ(refused[0].at("t"), 2500);
  EXPECT_EQ(refused[0].at("command"), confirm);
  EXPECT_FALSE(refused[0].at("reason").get<std::string>().empty());
  EXPECT_EQ(refused[1].at("t"), 2600);
  EXPECT_EQ(refused[1].at("command"), green);
  EXPECT_NE(refused[1].at("reason").get<std::string>().find("green"), std::string::npos) << refused[1];
  EXPECT_EQ(moves_in(events), (std::vector<std::string>{"22-18", "11-15"}));
  const nlohmann::json j = nlohmann::json::parse(slurp(record));
  EXPECT_EQ(j.at("games")[0].at("moves").size(), 2u);
}

TEST(RefereeCli, AMalformedLineExitsTwoButTheEventsAndTheRecordSoFarAreWritten) {
  const std::vector<std::string> good = brazilian_lines({"22-18", "11-15"});
  const std::vector<std::string> bad_lines = {"{\"t\": 9000, \"board\": ",             // not JSON
                                              R"({"t": 9000, "board": {"z9": "W"}})",  // no such square
                                              R"({"t": 10, "board": {}})"};            // time going backwards
  for (size_t k = 0; k < bad_lines.size(); ++k) {
    std::vector<std::string> lines = good;
    lines.push_back(bad_lines[k]);
    lines.push_back(good.back());
    const std::string obs = write_lines("malformed" + std::to_string(k) + ".jsonl", lines);
    const std::string events = temp("malformed_events.jsonl"), record = temp("malformed_record.txt");
    std::filesystem::remove(record);
    auto r = run_smartboard({"referee", "brazilian", "--observations", obs, "--events", events, "--record", record});
    EXPECT_EQ(r.status, 2) << bad_lines[k];
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(obs + " line 4: "), std::string::npos) << r.err;
    EXPECT_EQ(moves_in(events_of(slurp(events))), (std::vector<std::string>{"22-18", "11-15"})) << bad_lines[k];
    const std::string text = slurp(record);
    EXPECT_NE(text.find("22-18"), std::string::npos) << bad_lines[k] << "\n" << text;
    EXPECT_NE(text.find("11-15"), std::string::npos) << bad_lines[k] << "\n" << text;
  }
}

TEST(RefereeCli, APdnRecordOfAGameThatIsNotDraughtsIsRefusedBeforeTheRun) {
  // The first line is malformed: refusing --record before reading it says so, not "line 1".
  const std::string obs = write_lines("cotoan.jsonl", {"not json"});
  const std::string events = temp("cotoan_events.jsonl");
  auto r =
      run_smartboard({"referee", "cotoan", "--observations", obs, "--record", temp("cotoan.pdn"), "--events", events});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard referee: --record '" + temp("cotoan.pdn") +
                       "': a PDN record is for draughts; cotoan has a text or JSON record\n");
  EXPECT_FALSE(std::filesystem::exists(events));
}

TEST(RefereeCli, ObservationsNamingAFolderExitTwoWithOneLine) {
  const std::string dir = temp("folder");
  std::filesystem::create_directories(dir);
  auto r = run_smartboard({"referee", "brazilian", "--observations", dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard referee: --observations '" + dir +
                       "' is a folder; give a file of observation lines (.jsonl)\n");
}

TEST(RefereeCli, ErrorsNameTheCommandOnce) {
  auto r = run_smartboard({"referee", "brazilian"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "smartboard referee: --observations FILE.jsonl (use - for standard input) or --source SRC is required\n");
  r = run_smartboard({"referee", "brazilian", "--observations", "x.jsonl", "--nope"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard referee: unknown option '--nope'\n");
  r = run_smartboard({"referee", "brazilian", "--observations", temp("missing.jsonl")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "smartboard referee: cannot read observations '" + temp("missing.jsonl") + "'\n");
}

TEST(RefereeCli, RecordsShowClockTimesOnlyWhenAClockRan) {
  const std::string obs = write_lines("clock.jsonl", brazilian_lines({"22-18", "11-15", "18x11", "8x15"}));
  const std::string plain = temp("plain.txt"), plain_json = temp("plain.json");
  auto r = run_smartboard({"referee", "brazilian", "--observations", obs, "--record", plain});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = slurp(plain);
  EXPECT_NE(text.find("22-18"), std::string::npos) << text;
  EXPECT_EQ(text.find('['), std::string::npos) << text;
  r = run_smartboard({"referee", "brazilian", "--observations", obs, "--record", plain_json});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const nlohmann::json& m : nlohmann::json::parse(slurp(plain_json)).at("games")[0].at("moves"))
    EXPECT_FALSE(m.contains("clock")) << m;

  // Five minutes a side, a move a second: White's and Black's times run down from 5:00.
  const std::string clocked = temp("clocked.txt"), pdn = temp("clocked.pdn");
  r = run_smartboard({"referee", "brazilian", "--observations", obs, "--clock", "5", "--record", clocked});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string with_clock = slurp(clocked);
  EXPECT_NE(with_clock.find("  1. 22-18 [4:59]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("11-15 [4:59]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("  2. 18x11 [4:58]"), std::string::npos) << with_clock;
  EXPECT_NE(with_clock.find("8x15 [4:58]"), std::string::npos) << with_clock;
  EXPECT_EQ(with_clock.find("[-"), std::string::npos) << with_clock;
  // The PDN of a clocked game is still read by `smartboard pdn read`.
  r = run_smartboard({"referee", "brazilian", "--observations", obs, "--clock", "5", "--record", pdn});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run_smartboard({"pdn", "read", pdn});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1. 22-18 11-15 2. 18x11 8x15"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sb
