// What the vision pipeline needs to know about a game, from its id and config: the pieces a face can show
// (PieceVocabulary), the side colours the game's config gives (the reader's only hint at which colour group is
// which side before a set is learnt), and a pipeline built from them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/pipeline.h"
#include "vision/render/look.h"

namespace sb::vision {

// Draughts: W/B, plain faces, kings are two men; Morris: W/B, plain, one high; Cờ toán: R/B with dots 0–9;
// Cờ tư lệnh: R/B with the eleven piece letters (CHIETAGSFNM), stacks up to three. Throws InputError for an
// unknown game id.
PieceVocabulary vocabulary_for(const std::string& game);

// Per side of `vocab`, the body and mark colours of the config's set, relative to the board's white.
std::vector<SideModel> default_sides_for(const GameArt& art, const PieceVocabulary& vocab);

// The pipeline of a game with its config's defaults (load_board_model, load_game_art); the set's piece height
// from the config.
Pipeline make_pipeline(const std::string& game, PipelineParams params = {},
                       std::optional<calib::Lens> lens = std::nullopt);

}  // namespace sb::vision
