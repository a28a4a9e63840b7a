// `smartboard bench arbiter [--games g1,g2] [--count N] [--seed S] [--misread R] [--cold] [--report FILE.html]`:
// the time the referee takes to decide one observation, per game: random legal
// games from each engine, seen by a simulated camera one frame per position, one
// position in ten missed so that the next frame shows two moves. Timed are the
// frames that show new moves (one or two). Target: median ≤ 1 ms. Between frames
// the referee works ahead (Referee::prepare: the legal moves of the position and
// what each shows), untimed, as it does while waiting for the camera; --cold
// times the frames without it.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/args.h"
#include "app/rules_setup.h"
#include "arbiter/simulation.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t k = static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(k, v.size() - 1)];
}

struct ArbiterRow {
  std::string game;
  size_t one = 0, two = 0;
  double median_one = 0, median_two = 0, median_all = 0, p90_all = 0, max_all = 0;
  int64_t plies = 0, right = 0, illegal = 0;
};

void write_report(const std::string& path, const std::vector<ArbiterRow>& rows, const std::string& setup) {
  std::ofstream out(path);
  if (!out) throw InputError("bench: cannot write report '" + path + "'");
  double top = 1000;
  for (const ArbiterRow& r : rows) top = std::max({top, r.median_all, r.median_two});
  out << "<!doctype html><meta charset=utf-8><title>smartboard bench arbiter</title>"
         "<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}td:first-child{text-align:left}"
         "</style><h1>bench arbiter: time to decide one observation</h1><p>"
      << setup << "</p><table><tr><th>game<th>frames (1 move)<th>median µs<th>frames (2 moves)<th>median µs"
      << "<th>median all µs<th>p90 µs<th>max µs<th>moves right</tr>";
  for (const ArbiterRow& r : rows) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<tr><td>%s<td>%zu<td>%.0f<td>%zu<td>%.0f<td>%.0f<td>%.0f<td>%.0f<td>%lld/%lld</tr>", r.game.c_str(),
                  r.one, r.median_one, r.two, r.median_two, r.median_all, r.p90_all, r.max_all,
                  static_cast<long long>(r.right), static_cast<long long>(r.plies));
    out << buf;
  }
  out << "</table><h2>medians (bars) against the 1 ms target (line)</h2>";
  const int width = 600, bar = 14, gap = 26;
  out << "<svg width=" << width + 160 << " height=" << rows.size() * gap + 30 << " font-size=12>";
  for (size_t i = 0; i < rows.size(); ++i) {
    int y = static_cast<int>(i) * gap + 10;
    out << "<text x=0 y=" << y + 11 << ">" << rows[i].game << "</text>";
    out << "<rect x=110 y=" << y << " width=" << static_cast<int>(rows[i].median_one / top * width)
        << " height=" << bar / 2 << " fill=#4a8></rect>";
    out << "<rect x=110 y=" << y + bar / 2 << " width=" << static_cast<int>(rows[i].median_two / top * width)
        << " height=" << bar / 2 << " fill=#c84></rect>";
  }
  int line = 110 + static_cast<int>(1000 / top * width);
  out << "<line x1=" << line << " x2=" << line << " y1=0 y2=" << rows.size() * gap + 10 << " stroke=red></line>";
  out << "<text x=" << line + 4 << " y=" << rows.size() * gap + 24 << ">1 ms</text></svg>";
  out << "<p>green: frames with one new move; orange: frames with two new moves.</p>\n";
}

}  // namespace

int bench_arbiter(const Args& args) {
  const std::vector<std::string> games = args.list_value("--games", game_ids());
  arbiter::SimulationOptions o;
  o.games = args.int_value("--count", 20, 1, 100000);
  o.seed = static_cast<uint64_t>(args.int_value("--seed", 1, 0, 1 << 30));
  o.misread_rate = args.double_value("--misread", 0, 0, 0.5);
  o.skip_rate = 0.1;
  o.max_plies = 200;
  o.time_decisions = true;
  o.prepare = !args.has("--cold");
  const bool tty = ::isatty(2);
  std::printf("%-14s %8s %10s %8s %10s %10s %10s %10s %12s\n", "game", "frames1", "median1us", "frames2", "median2us",
              "medianus", "p90us", "maxus", "right");
  std::vector<ArbiterRow> rows;
  for (const std::string& game : games) {
    std::shared_ptr<const Rules> rules;
    try {
      rules = make_rules(game);
    } catch (const InputError& e) {
      std::fprintf(stderr, "bench: skipping %s: %s\n", game.c_str(), e.what());
      continue;
    }
    auto progress = [&](int done) {
      if (tty) std::fprintf(stderr, "\r%s: %d/%d games", game.c_str(), done, o.games);
    };
    arbiter::SimulationResult r = arbiter::simulate(rules, o, {}, progress);
    if (tty) std::fprintf(stderr, "\r%*s\r", 40, "");
    ArbiterRow row;
    row.game = game;
    row.one = r.decide_us_one.size();
    row.two = r.decide_us_two.size();
    std::vector<double> all = r.decide_us_one;
    all.insert(all.end(), r.decide_us_two.begin(), r.decide_us_two.end());
    row.median_one = quantile(r.decide_us_one, 0.5);
    row.median_two = quantile(r.decide_us_two, 0.5);
    row.median_all = quantile(all, 0.5);
    row.p90_all = quantile(all, 0.9);
    row.max_all = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
    row.plies = r.plies;
    row.right = r.right;
    row.illegal = r.illegal_events;
    rows.push_back(row);
    std::printf("%-14s %8zu %10.0f %8zu %10.0f %10.0f %10.0f %10.0f %6lld/%-6lld\n", game.c_str(), row.one,
                row.median_one, row.two, row.median_two, row.median_all, row.p90_all, row.max_all,
                static_cast<long long>(row.right), static_cast<long long>(row.plies));
    std::fflush(stdout);
  }
  if (auto report = args.value("--report")) {
    char setup[384];
    std::snprintf(setup, sizeof setup, "%d random games per game (seed %llu), one frame per position, 10%% of "
                  "positions missed, misread rate %.3f; %s.", o.games, static_cast<unsigned long long>(o.seed),
                  o.misread_rate, o.prepare ? "the referee works ahead between frames (untimed)" :
                  "cold: nothing worked out ahead of a frame");
    write_report(*report, rows, setup);
  }
  return 0;
}

}  // namespace sb::cli
