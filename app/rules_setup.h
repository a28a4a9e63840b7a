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

// --fen (or the start) with --play applied.
State load_state(const Rules& rules, const Args& args);

// A whole file as text; InputError naming the file when it cannot be read.
std::string read_text_file(const std::string& path, size_t max_bytes = 64u << 20);

}  // namespace sb::cli
