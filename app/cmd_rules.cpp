// The rules subcommands of CONTRACT.md: games, perft, moves, fen.
#include <algorithm>
#include <iostream>

#include "app/commands.h"
#include "app/rules_setup.h"
#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

namespace {

std::vector<OptionSpec> with_rules_options(std::vector<OptionSpec> specs) {
  for (OptionSpec& s : rules_option_specs()) specs.push_back(s);
  return specs;
}

Json site_or_null(const Rules& rules, int site) { return site < 0 ? Json(nullptr) : Json(rules.site_name(site)); }

// The move as one JSON object: the fields CONTRACT.md fixes, then the game's own.
std::string move_json(const Rules& rules, const Move& m) {
  Json j = m.details.is_object() ? m.details : Json::object();
  j["notation"] = m.notation;
  j["from"] = site_or_null(rules, m.from);
  j["to"] = site_or_null(rules, m.to);
  Json captured = Json::array();
  for (int c : m.captured) captured.push_back(rules.site_name(c));
  j["captured"] = captured;
  Json path = Json::array();
  for (int p : m.path) path.push_back(rules.site_name(p));
  j["path"] = path;
  j["points"] = m.points;
  return j.dump();
}

}  // namespace

int cmd_games(const Words& words) {
  Args args("games", words, {}, 0, 0);
  for (const std::string& id : game_ids()) std::cout << id << "\n";
  return 0;
}

int cmd_perft(const Words& words) {
  Args args("perft", words, with_rules_options({{"--fen"}, {"--depth"}, {"--duplicates"}}), 1, 1);
  if (!args.has("--depth")) throw InputError("perft: --depth N is required");
  int depth = args.int_value("--depth", 1, 1, 64);
  std::string dup = args.value_or("--duplicates", "drop");
  if (dup != "keep" && dup != "drop") throw InputError("perft --duplicates: expected 'keep' or 'drop', got '" + dup + "'");
  auto rules = load_rules(args.positional()[0], args);
  State s = load_state(*rules, args);
  PerftOptions opt;
  opt.keep_duplicates = dup == "keep";
  for (int d = 1; d <= depth; ++d) std::cout << "perft " << d << " " << rules->perft(s, d, opt) << std::endl;
  return 0;
}

int cmd_moves(const Words& words) {
  Args args("moves", words, with_rules_options({{"--fen"}, {"--play"}, {"--json", false}, {"--pdn"}, {"--index"}}), 1, 1);
  auto rules = load_rules(args.positional()[0], args);
  State s = load_state(*rules, args);
  std::vector<Move> moves = rules->legal_moves(s);
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.notation < b.notation; });
  const bool json = args.has("--json");
  for (const Move& m : moves) std::cout << (json ? move_json(*rules, m) : m.notation) << "\n";
  return 0;
}

int cmd_fen(const Words& words) {
  Args args("fen", words, with_rules_options({{"--fen"}, {"--play"}, {"--pdn"}, {"--index"}}), 1, 1);
  auto rules = load_rules(args.positional()[0], args);
  State s = load_state(*rules, args);
  std::cout << rules->fen(s) << "\n" << rules->state_line(s) << "\n";
  return 0;
}

}  // namespace sb::cli
