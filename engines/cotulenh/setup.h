// Free setup ("chơi nâng cao": each side arranges its pieces in secret). The arbiter
// reads the board when the game begins and asks whether it is a setup the rules
// allow: every piece of the 19 present, each standing where it may stand, each in
// its own half. See RULES.md §8.
#pragma once

#include <string>
#include <vector>

#include "engines/common/rules.h"
#include "engines/cotulenh/options.h"
#include "engines/cotulenh/position.h"

namespace sb::cotulenh {

class CotulenhRules;

// Each broken arrangement rule, in a player's words, with the sites involved (none
// for a missing piece). Empty: the setup is valid.
std::vector<IllegalChange> check_free_setup(const Observation& board, const Options& o = {});

// The position of a valid setup with `first` to move, no points, no losses. Throws
// InputError naming the first problem when the setup is not valid.
Position setup_position(const Observation& board, Side first, const Options& o = {});
State setup_state(const CotulenhRules& rules, const Observation& board, Side first);

}  // namespace sb::cotulenh
