// Enrollment layouts: boards whose tokens are known, from which a piece set is learnt when a game does not
// begin from the standard start (a given FEN, Cờ tư lệnh's free setup). Either the pieces laid out once in the
// standard start (any known position serves), or each kind shown once (kinds_layout). The set learnt is saved
// (piece_set.h) and given to `read` and `referee` with --set.
#pragma once

#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/observation.h"

namespace sb::vision {

// Each kind of each side once: the first side's pieces, in the vocabulary's order of kinds, on the sites nearest
// the first player, row by row from that player's left; the second side's on the farthest sites, row by row from
// the first player's left. Faces without identities show one piece per side. Per site of `model`: "" or a token.
// Cờ tư lệnh: Red's C H I E T A G S F N M on a1 … k1, Blue's on a12 … k12.
std::vector<std::string> kinds_layout(const calib::BoardModel& model, const PieceVocabulary& vocab);

// "a1 RC, b1 RH, …": a layout as a person lays it out.
std::string describe_layout(const calib::BoardModel& model, const std::vector<std::string>& tokens);

}  // namespace sb::vision
