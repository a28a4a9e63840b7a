// `smartboard bench <what>`: fixed-work benchmarks. `bench engines` runs each
// game's bench positions through perft; the total node count is the signature
// that must not change unless the rules do.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/bench_display.h"
#include "app/bench_vision.h"
#include "app/commands.h"
#include "app/rules_setup.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

struct BenchRow {
  std::string game, name;
  int depth = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  double cpu_seconds = 0;  // processor time: what the work costs when other jobs share the cores
};

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

void write_engine_report(const std::string& path, const std::vector<BenchRow>& rows, uint64_t total) {
  std::ofstream out(path);
  if (!out) throw InputError("bench: cannot write report '" + path + "'");
  out << "<!doctype html><meta charset=utf-8><title>smartboard bench engines</title>"
         "<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}"
         "td:first-child,td:nth-child(2){text-align:left}</style>"
         "<h1>bench engines</h1><table><tr><th>game<th>position<th>depth<th>nodes<th>ms<th>cpu ms<th>Mnodes/s</tr>";
  for (const BenchRow& r : rows) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "<tr><td>%s<td>%s<td>%d<td>%llu<td>%.1f<td>%.1f<td>%.2f</tr>", r.game.c_str(),
                  r.name.c_str(), r.depth, static_cast<unsigned long long>(r.nodes), r.seconds * 1e3,
                  r.cpu_seconds * 1e3, r.seconds > 0 ? r.nodes / r.seconds / 1e6 : 0.0);
    out << buf;
  }
  out << "</table><p>signature " << total << "</p>\n";
}

int bench_engines(const Args& args) {
  const int repeat = args.int_value("--repeat", 1, 1, 1000);
  const std::vector<std::string> games = args.list_value("--games", game_ids());
  std::vector<BenchRow> rows;
  uint64_t total = 0;
  std::printf("%-14s %-28s %5s %14s %10s %10s %10s\n", "game", "position", "depth", "nodes", "ms", "cpu ms", "Mnps");
  for (const std::string& game : games) {
    std::unique_ptr<Rules> rules;
    try {
      rules = make_rules(game);
    } catch (const InputError& e) {
      std::fprintf(stderr, "bench: skipping %s: %s\n", game.c_str(), e.what());
      continue;
    }
    for (const BenchCase& c : rules->bench_cases()) {
      State s = c.fen.empty() ? rules->start() : rules->from_fen(c.fen);
      // --repeat N: the median of N runs, steadier on a shared machine.
      std::vector<double> runs, cpu_runs;
      uint64_t nodes = 0;
      for (int r = 0; r < repeat; ++r) {
        const double c0 = cpu_now();
        auto t0 = std::chrono::steady_clock::now();
        nodes = rules->perft(s, c.depth);
        runs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        cpu_runs.push_back(cpu_now() - c0);
      }
      std::sort(runs.begin(), runs.end());
      std::sort(cpu_runs.begin(), cpu_runs.end());
      double sec = runs[runs.size() / 2];
      const double cpu_sec = cpu_runs[cpu_runs.size() / 2];
      rows.push_back({game, c.name, c.depth, nodes, sec, cpu_sec});
      total += nodes;
      std::printf("%-14s %-28s %5d %14llu %10.1f %10.1f %10.2f\n", game.c_str(), c.name.c_str(), c.depth,
                  static_cast<unsigned long long>(nodes), sec * 1e3, cpu_sec * 1e3,
                  sec > 0 ? nodes / sec / 1e6 : 0.0);
      std::fflush(stdout);
    }
  }
  std::printf("signature %llu\n", static_cast<unsigned long long>(total));
  if (auto report = args.value("--report")) write_engine_report(*report, rows, total);
  return 0;
}

}  // namespace

int bench_arbiter(const Args& args);  // bench_arbiter.cpp
int bench_render(const Args& args);   // cmd_render.cpp
int bench_hall(const Args& args);     // bench_hall.cpp

int cmd_bench(const Words& words) {
  std::vector<OptionSpec> specs = {{"--games"}, {"--report"}, {"--repeat"}, {"--count"}, {"--seed"}, {"--misread"}, {"--frames"},
                                   {"--speed"}, {"--plies"}, {"--no-restart", false}, {"--sweep"}, {"--cold", false}};
  for (const OptionSpec& s : bench_display_specs()) specs.push_back(s);
  Args args("bench", words, specs, 1, 1);
  const std::string& what = args.positional()[0];
  if (what == "engines") return bench_engines(args);
  if (what == "arbiter") return bench_arbiter(args);
  if (what == "render") return bench_render(args);
  if (what == "vision") return bench_vision(args);
  if (what == "display") return bench_display(args);
  if (what == "hall") return bench_hall(args);
  throw InputError("bench: unknown benchmark '" + what + "' (benchmarks: engines, arbiter, render, vision, display, hall)");
}

}  // namespace sb::cli
