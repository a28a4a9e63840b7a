// `smartboard eval-arbiter [--games G,...] [--count N] [--misread P] [--seed S] [--run R] [--operator]
// [--failures] [--first N] [--trace N] [--report FILE.html]`:
// the referee's accuracy over random legal games from each engine. Each game is
// refereed four times: seen perfectly one frame per move ("one"); seen perfectly
// with one position in ten missed so that the next frame shows two moves ("fast");
// one frame per move with a share P of the sites misread at low confidence
// ("misread-one", the issue's own criterion); and fast with misreads ("misread",
// harder: a missed position and a misread together).
// Figures per game: moves right, moves only a hidden piece tells apart, false
// illegal / unclear / takeback announcements, game ends announced right, and
// (with --operator) moves the picture does not show that the operator entered.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/args.h"
#include "app/commands.h"
#include "arbiter/simulation.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

struct EvalRow {
  std::string game;
  std::string run;  // one / fast / misread-one / misread
  double misread = 0;
  arbiter::SimulationResult r;
};

std::string row_text(const EvalRow& row) {
  const arbiter::SimulationResult& r = row.r;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%-14s %-11s %7.3f %6d %8lld %8lld %9.4f%% %6lld %9lld %7lld %7lld %8lld %8lld %9lld %8lld/%-6lld %9lld",
                row.game.c_str(), row.run.c_str(), row.misread, r.games, static_cast<long long>(r.plies),
                static_cast<long long>(r.right), 100.0 * r.right_share(), static_cast<long long>(r.asked),
                static_cast<long long>(r.questions), static_cast<long long>(r.hidden), static_cast<long long>(r.unseen),
                static_cast<long long>(r.illegal_events), static_cast<long long>(r.unclear_events),
                static_cast<long long>(r.takeback_events), static_cast<long long>(r.game_over_right),
                static_cast<long long>(r.game_over_true), static_cast<long long>(r.announced));
  return buf;
}

void write_report(const std::string& path, const std::vector<EvalRow>& rows, const std::string& setup) {
  std::ofstream out(path);
  if (!out) throw InputError("eval-arbiter: cannot write report '" + path + "'");
  out << "<!doctype html><meta charset=utf-8><title>smartboard eval-arbiter</title>"
         "<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}td:first-child{text-align:left}"
         ".bad{color:#b00}</style><h1>eval-arbiter: moves read right from simulated observations</h1><p>"
      << setup << "</p><table><tr><th>game<th>run<th>misread<th>games<th>moves<th>right<th>right %<th>asked<th>questions<th>hidden<th>unseen<th>"
      << "false illegal<th>unclear<th>false takebacks<th>ends right<th>announced</tr>";
  for (const EvalRow& row : rows) {
    const arbiter::SimulationResult& r = row.r;
    const bool ok = (row.misread == 0 ? r.right + r.asked == r.plies : r.right_share() >= 0.999) && r.illegal_events == 0;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<tr%s><td>%s<td>%s<td>%.3f<td>%d<td>%lld<td>%lld<td>%.4f<td>%lld<td>%lld<td>%lld<td>%lld<td>%lld<td>%lld<td>%lld<td>%lld/%lld<td>%lld</tr>",
                  ok ? "" : " class=bad", row.game.c_str(), row.run.c_str(), row.misread, r.games, static_cast<long long>(r.plies),
                  static_cast<long long>(r.right), 100.0 * r.right_share(), static_cast<long long>(r.asked),
                  static_cast<long long>(r.questions), static_cast<long long>(r.hidden),
                  static_cast<long long>(r.unseen),
                  static_cast<long long>(r.illegal_events), static_cast<long long>(r.unclear_events),
                  static_cast<long long>(r.takeback_events), static_cast<long long>(r.game_over_right),
                  static_cast<long long>(r.game_over_true), static_cast<long long>(r.announced));
    out << buf;
  }
  out << "</table><p>Targets: every move right when seen perfectly; at least 99.9 % right with misreads; no false "
         "illegal announcement. Rows in red miss a target. asked: moves the referee left to the operator (a question "
         "still open at the end, listing moves the camera sees alike), its provisional record wrong there; questions: "
         "questions asked. hidden: wrong only in what a camera cannot see (a Cờ tư lệnh "
         "stack's lower pieces); unseen: a move into a position no frame showed, when another pair of moves explains "
         "the next frame as well and reaches the same position. Neither is counted right. announced: moves that "
         "leave the picture as it was (no camera can see them), entered by the simulated operator as their player "
         "announces them (with --operator only); counted right only when the record then matches.</p>\n";
}

}  // namespace

int cmd_eval_arbiter(const Words& words) {
  Args args("eval-arbiter", words,
            {{"--games"}, {"--count"}, {"--misread"}, {"--seed"}, {"--report"}, {"--failures", false}, {"--trace"}, {"--first"}, {"--run"}, {"--operator", false}}, 0, 0);
  const std::vector<std::string> games = args.list_value("--games", game_ids());
  arbiter::SimulationOptions base;
  base.games = args.int_value("--count", 1000, 1, 1000000);
  base.seed = static_cast<uint64_t>(args.int_value("--seed", 1, 0, 1 << 30));
  base.skip_rate = 0.1;
  base.max_plies = 200;
  // Accuracy only: the referee works out successors as it needs them rather than
  // every one of every position ahead of each frame (`bench arbiter` times that
  // working ahead). The same readings, several times less work for Cờ tư lệnh.
  base.prepare = false;
  base.first_game = args.int_value("--first", 0, 0, 1000000);  // the first game's index (to look at one game)
  base.trace_game = args.int_value("--trace", -1, -1, 1000000);  // one game's frames and events to stderr
  const double misread = args.double_value("--misread", 0.01, 0, 0.5);
  const std::string only = args.value("--run").value_or("");  // one run only: one, fast or misread
  if (!only.empty() && only != "one" && only != "fast" && only != "misread-one" && only != "misread")
    throw InputError("eval-arbiter --run: expected one, fast, misread-one or misread, got '" + only + "'");
  base.operator_answers = args.has("--operator");  // a simulated operator answers the open questions
  const bool tty = ::isatty(2);
  const bool show_failures = args.has("--failures");

  std::printf("%-14s %-11s %7s %6s %8s %8s %10s %6s %9s %7s %7s %8s %8s %9s %15s %9s\n", "game", "run", "misread", "games",
              "moves", "right", "right%", "asked", "questions", "hidden", "unseen", "illegal", "unclear", "takeback",
              "ends right", "announced");
  std::vector<EvalRow> rows;
  for (const std::string& game : games) {
    std::shared_ptr<const Rules> rules = make_rules(game);
    struct Run {
      const char* name;
      double skip, misread;
    };
    std::vector<Run> runs{{"one", 0.0, 0.0}, {"fast", 0.1, 0.0}};
    if (misread > 0) {
      runs.push_back({"misread-one", 0.0, misread});
      runs.push_back({"misread", 0.1, misread});
    }
    for (const Run& run : runs) {
      if (!only.empty() && only != run.name) continue;
      arbiter::SimulationOptions o = base;
      o.misread_rate = run.misread;
      o.skip_rate = run.skip;
      auto progress = [&](int done) {
        if (tty && (done % 10 == 0 || done == o.games))
          std::fprintf(stderr, "\r%s %s: %d/%d games", game.c_str(), run.name, done, o.games);
      };
      EvalRow row{game, run.name, run.misread, arbiter::simulate(rules, o, {}, progress)};
      if (tty) std::fprintf(stderr, "\r%*s\r", 60, "");
      std::printf("%s\n", row_text(row).c_str());
      if (show_failures)
        for (const std::string& f : row.r.failures) std::printf("    %s\n", f.c_str());
      std::fflush(stdout);
      rows.push_back(std::move(row));
    }
  }
  if (auto report = args.value("--report")) {
    char setup[512];
    std::snprintf(setup, sizeof setup,
                  "%d random legal games per game (seed %llu, at most %d moves). one: one perfect frame per move; "
                  "fast: 10%% of positions missed (two moves in the next frame); misread-one: one frame per move "
                  "with a share %.3f of sites misread at confidence 0.05–0.45; misread: fast with the same misreads.",
                  base.games, static_cast<unsigned long long>(base.seed), base.max_plies, misread);
    write_report(*report, rows, setup);
  }
  return 0;
}

}  // namespace sb::cli
