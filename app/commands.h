// Every subcommand is a plain function taking the words after its name and
// returning the exit status; errors are thrown (InputError → 2, others → 1).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sb::cli {

using Words = std::vector<std::string>;

struct Command {
  const char* name;
  const char* synopsis;
  std::function<int(const Words&)> run;
};

// The table of subcommands, in the order `smartboard help` lists them.
const std::vector<Command>& commands();

// Rules (cmd_rules.cpp)
int cmd_games(const Words& args);
int cmd_perft(const Words& args);
int cmd_moves(const Words& args);
int cmd_fen(const Words& args);
// Draughts game files (cmd_pdn.cpp)
int cmd_pdn(const Words& args);
// The referee over observation lines (cmd_referee.cpp)
int cmd_referee(const Words& args);
// The referee's accuracy on simulated observations (cmd_eval_arbiter.cpp)
int cmd_eval_arbiter(const Words& args);
// Synthetic pictures (cmd_render.cpp)
int cmd_render(const Words& args);
int cmd_dataset(const Words& args);
int cmd_simulate(const Words& args);  // cmd_simulate.cpp
int cmd_eval_vision(const Words& args);  // cmd_eval_vision.cpp
// Calibration (cmd_calibration.cpp)
int cmd_print_board(const Words& args);
int cmd_calibrate(const Words& args);
int cmd_calibrate_lens(const Words& args);
// The referee screen (cmd_display.cpp)
int cmd_serve_events(const Words& args);
int cmd_demo(const Words& args);  // cmd_demo.cpp
// The tournament hall (cmd_hall.cpp)
int cmd_hall(const Words& args);
// Vision (cmd_read.cpp)
int cmd_read(const Words& args);
int cmd_enroll(const Words& args);  // cmd_enroll.cpp
// Benchmarks (cmd_bench.cpp)
int cmd_bench(const Words& args);

}  // namespace sb::cli
