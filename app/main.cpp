// smartboard: the electronic referee. Dispatches to the subcommands.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>

#include "app/commands.h"
#include "engines/common/errors.h"

namespace sb::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"games", "list the game ids", cmd_games},
      {"perft", "GAME [--fen FEN] --depth N [--duplicates keep|drop]: count move paths", cmd_perft},
      {"moves", "GAME [--fen FEN] [--play \"M1 M2 ...\"] [--json]: list the legal moves", cmd_moves},
      {"fen", "GAME [--fen FEN] [--play \"...\"]: print the position's FEN and state", cmd_fen},
      {"pdn", "read FILE [--index N] [--as GAME] | write GAME [--fen FEN] [--play \"...\"]: draughts PDN files", cmd_pdn},
      {"referee", "GAME --observations FILE.jsonl [--events OUT.jsonl] [--record OUT] [--journal FILE]: referee a game",
       cmd_referee},
      {"print-board", "GAME --out FILE.png|.pdf|.svg [--paper A4|A3] [--dpi N] [--truth FILE.json]: a printable board",
       cmd_print_board},
      {"calibrate", "GAME IMAGE [--corners x,y,...] [--lens FILE] [--json] [--save FILE] [--debug FILE.png]: find the board",
       cmd_calibrate},
      {"calibrate-lens", "IMAGE... --out LENS.json [--json] | --sheet FILE [--paper A4|A3]: lens from ChArUco views",
       cmd_calibrate_lens},
      {"bench", "engines|vision [--games G,...] [--repeat N] [--report FILE.html]: fixed-work benchmarks with a signature (medians of N runs); arbiter [--games G,...] [--count N] [--misread R] [--report FILE.html]: time to decide one observation", cmd_bench},
      {"render", "GAME [--fen FEN] --out FILE.png [--seed S] [--truth FILE.json]: draw a synthetic photo", cmd_render},
      {"simulate", "GAME --out DIR|FILE.mp4 [--moves N] [--seed S] [--fps F] [--faults illegal,takeback,nudge,light]: a game played by hands, frames + truth.jsonl", cmd_simulate},
      {"dataset", "GAME --out DIR --images N [--seed S]: settled synthetic photos with truth files", cmd_dataset},
  };
  return table;
}

namespace {

void print_usage(std::ostream& out) {
  out << "usage: smartboard <command> [arguments]\n\ncommands:\n";
  for (const Command& c : commands()) out << "  " << c.name << "  " << c.synopsis << "\n";
}

}  // namespace
}  // namespace sb::cli

int main(int argc, char** argv) {
  using namespace sb::cli;
  std::ios::sync_with_stdio(false);
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    print_usage(std::cout);
    return 0;
  }
  Words words(argv + 2, argv + argc);
  for (const Command& c : commands()) {
    if (name != c.name) continue;
    try {
      int rc = c.run(words);
      std::cout.flush();
      return rc;
    } catch (const sb::InputError& e) {
      std::cout.flush();
      std::cerr << "smartboard " << name << ": " << e.what() << "\n";
      return 2;
    } catch (const std::bad_alloc&) {
      std::cout.flush();
      std::cerr << "smartboard " << name << ": out of memory\n";
      return 1;
    } catch (const std::exception& e) {
      std::cout.flush();
      std::cerr << "smartboard " << name << ": " << e.what() << "\n";
      return 1;
    }
  }
  std::cerr << "smartboard: unknown command '" << name << "' (try 'smartboard help')\n";
  return 2;
}
