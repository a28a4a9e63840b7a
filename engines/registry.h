// The one place that knows every game: game ids and the Rules factory.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engines/common/json.h"
#include "engines/common/rules.h"

namespace sb {

// Every game id in CONTRACT.md order.
const std::vector<std::string>& game_ids();
bool is_game_id(std::string_view id);

// The rules of `id` with `options` (a JSON object; missing keys take the defaults
// of RULES.md). Throws InputError for an unknown game or a bad option.
std::unique_ptr<Rules> make_rules(std::string_view id, const Json& options = Json::object());

}  // namespace sb
