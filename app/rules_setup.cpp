#include "app/rules_setup.h"

#include <fstream>
#include <sstream>

#include "engines/common/errors.h"
#include "engines/registry.h"

namespace sb::cli {

std::vector<OptionSpec> rules_option_specs() { return {{"--options"}, {"--config"}}; }

std::string read_text_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read file '" + path + "'");
  std::ostringstream out;
  char buf[65536];
  size_t total = 0;
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    total += static_cast<size_t>(in.gcount());
    if (total > max_bytes) throw InputError("file '" + path + "' is larger than " + std::to_string(max_bytes) + " bytes");
    out.write(buf, in.gcount());
  }
  if (in.bad()) throw InputError("error reading file '" + path + "'");
  return out.str();
}

std::unique_ptr<Rules> load_rules(const std::string& game, const Args& args) {
  if (!is_game_id(game)) return make_rules(game);  // throws the unknown-game error with the list
  Json options = Json::object();
  if (auto path = args.value("--config")) {
    Json config = Json::parse(read_text_file(*path), *path);
    if (!config.is_object()) throw InputError(*path + ": a game config must be a JSON object");
    if (const Json* g = config.find("game"); g && (!g->is_string() || g->as_string() != game))
      throw InputError(*path + ": config is for game " + g->dump() + ", not '" + game + "'");
    if (const Json* r = config.find("rules")) {
      if (!r->is_object()) throw InputError(*path + ": \"rules\" must be a JSON object");
      options = *r;
    }
  }
  if (auto text = args.value("--options")) {
    Json extra = Json::parse(*text, "--options");
    if (!extra.is_object()) throw InputError("--options: expected a JSON object");
    for (const auto& [k, v] : extra.as_object()) options[k] = v;
  }
  return make_rules(game, options);
}

State load_state(const Rules& rules, const Args& args) {
  State s = rules.start();
  if (auto fen = args.value("--fen")) s = rules.from_fen(*fen);
  if (auto pdn = args.value("--pdn")) {
    if (args.has("--fen")) throw InputError(args.command() + ": give --fen or --pdn, not both");
    s = load_pdn_position(rules, *pdn, args.int_value("--index", 1, 1, 1000000));
  } else if (args.has("--index")) {
    throw InputError(args.command() + ": --index needs --pdn FILE");
  }
  if (auto play = args.value("--play")) s = rules.play(s, *play);
  return s;
}

}  // namespace sb::cli
