// smartboard: the electronic referee. Dispatches to the subcommands.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

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
      {"referee", "GAME --observations FILE.jsonl [--events OUT.jsonl] [--record OUT] [--journal FILE] [--mqtt HOST[:PORT] --board N [--event ID]]: referee a game",
       cmd_referee},
      {"eval-arbiter", "[--games G,...] [--count N] [--misread P] [--seed S] [--run one|fast|misread-one|misread] [--operator] [--failures] [--trace N] [--report FILE.html]: moves read right from simulated observations",
       cmd_eval_arbiter},
      {"print-board", "GAME --out FILE.png|.pdf|.svg [--paper A4|A3] [--dpi N] [--truth FILE.json]: a printable board",
       cmd_print_board},
      {"calibrate", "GAME IMAGE [--corners x,y,...] [--lens FILE] [--calibration FILE] [--json] [--save FILE] [--debug FILE.png]: find the board",
       cmd_calibrate},
      {"calibrate-lens", "IMAGE... --out LENS.json [--json] | --sheet FILE [--paper A4|A3]: lens from ChArUco views",
       cmd_calibrate_lens},
      {"demo", "[--game GAME] [--port P] [--speed X] [--seed S] [--games N]: rendered games through vision, the referee and the screen",
       cmd_demo},
      {"serve-events", "GAME FILE [--http [ADDR:]PORT] [--speed X]: replay recorded events on the screen",
       cmd_serve_events},
      {"hall", "--mqtt HOST[:PORT] [--event ID] [--pairings FILE] --http [ADDR:]PORT: the tournament hall's overview",
       cmd_hall},
      {"bench", "engines|vision [--games G,...] [--repeat N] [--report FILE.html]: fixed-work benchmarks with a signature (medians of N runs), vision also [--sweep N] (accuracy on N random photos per board); arbiter [--games G,...] [--count N] [--misread R] [--report FILE.html]: time to decide one observation", cmd_bench},
      {"render", "GAME [--fen FEN] --out FILE.png [--seed S] [--truth FILE.json]: draw a synthetic photo", cmd_render},
      {"simulate", "GAME --out DIR|FILE.mp4 [--moves N] [--seed S] [--fps F] [--faults illegal,takeback,nudge,light]: a game played by hands, frames + truth.jsonl", cmd_simulate},
      {"dataset", "GAME --out DIR --images N [--seed S]: settled synthetic photos with truth files", cmd_dataset},
      {"read", "GAME IMAGE [--calibration FILE.json] [--corners x,y,x,y,x,y,x,y] [--set FILE] [--json] [--debug FILE.png]: read the board in one image", cmd_read},
      {"enroll", "GAME IMAGE [--corners x,y,x,y,x,y,x,y] [--calibration FILE.json] --out SET.json [--layout start|kinds] [--fen FEN]: learn a piece set from a picture of a known layout (for read/referee --set)", cmd_enroll},
      {"eval-vision", "GAME --dataset DIR | --videos DIR | --simulations N [--report FILE.html] [--fit truth|corners|locate] [--limit N] [--no-learn]: the vision pipeline's accuracy against the renderer's truth", cmd_eval_vision},
  };
  return table;
}

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 when the byte
// there starts none (a stray continuation byte, an overlong or truncated form).
size_t utf8_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b <= 0xDF ? 2 : 0;
  if (b >= 0xF5) n = 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  if ((b == 0xE0 && byte(i + 1) < 0xA0) || (b == 0xED && byte(i + 1) > 0x9F) || (b == 0xF0 && byte(i + 1) < 0x90) ||
      (b == 0xF4 && byte(i + 1) > 0x8F))
    return 0;
  return n;
}

// An error message as the one line CONTRACT.md promises: messages quote the input
// they refuse, and that input may hold line breaks, control or invalid bytes, or be
// megabytes long. Such bytes are written as escapes (\n, \x01), and an overlong
// message keeps its head and its tail (where it says what is wrong and where).
std::string one_line(std::string_view message) {
  constexpr size_t kHead = 300, kTail = 300;
  std::string out;
  std::vector<size_t> starts;  // where each input character begins in `out`
  for (size_t i = 0; i < message.size();) {
    starts.push_back(out.size());
    const unsigned char b = static_cast<unsigned char>(message[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += message[i++];
    } else if (const size_t n = b >= 0x80 ? utf8_length(message, i) : 0; n > 0) {
      out.append(message.substr(i, n));
      i += n;
    } else {
      static const char* const kHex = "0123456789abcdef";
      out += b == '\n'   ? "\\n"
             : b == '\r' ? "\\r"
             : b == '\t' ? "\\t"
                         : std::string{'\\', 'x', kHex[b >> 4], kHex[b & 15]};
      ++i;
    }
  }
  if (starts.size() <= kHead + kTail + 64) return out;
  const size_t cut_from = starts[kHead], cut_to = starts[starts.size() - kTail];
  return out.substr(0, cut_from) + " [... " + std::to_string(starts.size() - kHead - kTail) +
         " characters left out ...] " + out.substr(cut_to);
}

// "smartboard <command>: " goes before every error; a message that already names
// its command (an option parser's "referee: unknown option …") must not say it twice.
std::string without_command(std::string_view message, std::string_view command) {
  if (message.size() > command.size() + 1 && message.substr(0, command.size()) == command &&
      message.substr(command.size(), 2) == ": ")
    message.remove_prefix(command.size() + 2);
  return std::string(message);
}

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
      std::cerr << "smartboard " << name << ": " << one_line(without_command(e.what(), name)) << "\n";
      return 2;
    } catch (const std::bad_alloc&) {
      std::cout.flush();
      std::cerr << "smartboard " << name << ": out of memory\n";
      return 1;
    } catch (const std::exception& e) {
      std::cout.flush();
      std::cerr << "smartboard " << name << ": " << one_line(without_command(e.what(), name)) << "\n";
      return 1;
    }
  }
  std::cerr << one_line("smartboard: unknown command '" + name + "' (try 'smartboard help')") << "\n";
  return 2;
}
