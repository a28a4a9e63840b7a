// `smartboard pdn`: PDN 3.0 game files of the draughts games.
//   pdn read FILE [--index N] [--as GAME] [--options JSON]
//       checks every move of every game (or game N) and prints the games as the
//       engine writes them; a game's rules come from its GameType tag, or --as.
//   pdn write GAME [--fen FEN] [--play "M1 M2 ..."] [--result R] [--tag NAME=VALUE]...
//       prints the PDN record of the moves played.
// `fen` and `moves` take `--pdn FILE [--index N]` to start from the end of a game.
#include <cctype>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "app/rules_setup.h"
#include "engines/common/errors.h"
#include "engines/draughts/pdn.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

using draughts::PdnGame;

const draughts::DraughtsRules& as_draughts(const Rules& rules) {
  const auto* d = dynamic_cast<const draughts::DraughtsRules*>(&rules);
  if (!d)
    throw InputError("PDN files are for the draughts games (brazilian, international, english), not '" + rules.id() +
                     "'");
  return *d;
}

std::vector<PdnGame> read_games(const std::string& path) {
  return draughts::read_pdn(read_text_file(path), path);
}

const PdnGame& pick(const std::vector<PdnGame>& games, int index, const std::string& path) {
  if (games.empty()) throw InputError(path + ": no game in the file");
  if (index < 1 || index > static_cast<int>(games.size()))
    throw InputError(path + ": --index " + std::to_string(index) + " but the file holds " +
                     std::to_string(games.size()) + " game(s)");
  return games[index - 1];
}

Json options_arg(const Args& args) {
  if (auto text = args.value("--options")) {
    Json o = Json::parse(*text, "--options");
    if (!o.is_object()) throw InputError("--options: expected a JSON object");
    return o;
  }
  return Json::object();
}

int pdn_read(const Args& args) {
  if (args.positional().size() != 2) throw InputError("pdn read: expected one FILE");
  const std::string& path = args.positional()[1];
  std::vector<PdnGame> games = read_games(path);
  if (games.empty()) throw InputError(path + ": no game in the file");
  const int only = args.int_value("--index", 0, 1, 1000000);
  if (only) pick(games, only, path);
  const std::string as = args.value_or("--as", "");
  if (!as.empty() && !draughts::find_variant(as))
    throw InputError("pdn read --as: '" + as + "' is not a draughts game (brazilian, international, english)");
  const Json options = options_arg(args);
  for (int i = 1; i <= static_cast<int>(games.size()); ++i) {
    if (only && i != only) continue;
    const PdnGame& g = games[i - 1];
    const std::string id = as.empty() ? draughts::pdn_game_id(g) : as;
    draughts::PdnReplay replay = draughts::replay_pdn(g, id, options, path);
    PdnGame out = g;
    for (size_t m = 0; m < out.moves.size(); ++m) out.moves[m].text = replay.moves[m].notation;
    std::cout << draughts::write_pdn(out);
  }
  return 0;
}

int pdn_write(const Args& args) {
  if (args.positional().size() != 2) throw InputError("pdn write: expected one GAME");
  auto rules = load_rules(args.positional()[1], args);
  const draughts::DraughtsRules& d = as_draughts(*rules);
  State start = rules->start();
  if (auto fen = args.value("--fen")) start = rules->from_fen(*fen);
  std::vector<Move> moves;
  State s = start;
  if (auto play = args.value("--play")) {
    std::istringstream in(*play);
    std::string word;
    while (in >> word) {
      Move m = rules->parse_move(s, word);
      s = rules->apply(s, m);
      moves.push_back(std::move(m));
    }
  }
  std::string result = args.value_or("--result", "");
  if (result.empty()) result = draughts::normalized_result(rules->outcome(s).result());
  if (result != "1-0" && result != "0-1" && result != "1/2-1/2" && result != "*")
    throw InputError("pdn write --result: expected 1-0, 0-1, 1/2-1/2 or *, got '" + result + "'");
  std::vector<draughts::PdnTag> tags;
  for (const std::string& t : args.values("--tag")) {
    const size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("pdn write --tag: expected NAME=VALUE, got '" + t + "'");
    const std::string name = t.substr(0, eq);
    for (char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
        throw InputError("pdn write --tag: bad tag name '" + name + "'");
    tags.push_back({name, t.substr(eq + 1)});
  }
  std::cout << draughts::write_pdn(draughts::record_pdn(d, start, moves, result, tags));
  return 0;
}

}  // namespace

State load_pdn_position(const Rules& rules, const std::string& path, int index) {
  const draughts::DraughtsRules& d = as_draughts(rules);
  std::vector<PdnGame> games = read_games(path);
  const PdnGame& g = pick(games, index, path);
  const std::string id = draughts::pdn_game_id(g, rules.id());
  if (id != rules.id())
    throw InputError(path + ": game " + std::to_string(index) + " is " + id + " (GameType tag), not " + rules.id());
  draughts::PdnReplay replay = draughts::replay_pdn(g, id, d.options(), path);
  return replay.states.back();
}

int cmd_pdn(const Words& words) {
  Args args(
      "pdn", words,
      {{"--index"}, {"--as"}, {"--options"}, {"--config"}, {"--fen"}, {"--play"}, {"--result"}, {"--tag", true, true}},
      2, 2);
  const std::string& mode = args.positional()[0];
  const auto reject = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (args.has(n)) throw InputError("pdn " + mode + ": option '" + n + "' does not apply");
  };
  if (mode == "read") {
    reject({"--fen", "--play", "--result", "--tag", "--config"});
    return pdn_read(args);
  }
  if (mode == "write") {
    reject({"--index", "--as"});
    return pdn_write(args);
  }
  throw InputError("pdn: expected 'read FILE' or 'write GAME', got '" + mode + "'");
}

}  // namespace sb::cli
