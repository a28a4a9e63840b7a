// Building a game's Rules and start State from the common command-line options.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/args.h"
#include "engines/common/rules.h"

namespace sb::cli {

// Options every rules-driven subcommand accepts: --options JSON (rule options as a
// JSON object) and --config FILE (a game config whose "rules" object is used;
// --options keys override it).
std::vector<OptionSpec> rules_option_specs();

std::unique_ptr<Rules> load_rules(const std::string& game, const Args& args);

// --fen (or the start, or the end of game --index of --pdn FILE) with --play applied.
State load_state(const Rules& rules, const Args& args);

// The position at the end of game `index` (1-based) of a draughts PDN file (cmd_pdn.cpp).
State load_pdn_position(const Rules& rules, const std::string& path, int index);

// A whole file as text; InputError naming the file when it cannot be read.
std::string read_text_file(const std::string& path, size_t max_bytes = 64u << 20);

}  // namespace sb::cli
