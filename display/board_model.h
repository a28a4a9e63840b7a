// The board model as the screen reads it: what `GameHost::board_model()` returns
// and `GET /api/board` serves. The app builds it from the shared board model of
// calibration (configs/boards/<game>.json); the page draws the board from it and
// nothing else, so no board is written into the page.
//
//   {"game": "cotoan",
//    "width_mm": 400, "height_mm": 480,        the drawing's extent, origin top-left, y down
//    "piece_mm": 32,                           diameter of a piece drawn on a site
//    "sites": {"a1": [x, y], ...},             every site's centre in millimetres
//    "shapes": [ ... ]}                        drawn in order, each one of
//      {"kind": "rect", "x", "y", "w", "h", "style"}
//      {"kind": "line", "from": [x, y], "to": [x, y], "style", "width"?}
//      {"kind": "polygon", "points": [[x, y], ...], "style"}                (closed, filled)
//      {"kind": "polyline", "points": [[x, y], ...], "style", "width"?}     (open, stroked)
//      {"kind": "circle", "center": [x, y], "r", "style"}                   (filled)
//      {"kind": "text", "at": [x, y], "text", "size"?, "style"}
//    style names a role, not a colour; the page's style sheet colours it: the board model's paints
//    "light", "dark", "ink", "water", "land", and "board", "marked", "river", "ford", "label".
//    "width" is a line's width in millimetres.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sb::display {

// Checks a board model; throws InputError naming the first thing wrong
// ("board model: site 'a1' is not a pair of numbers").
void validate_board_model(const nlohmann::json& model);

// The sites in reading order: top row first, left to right (rows grouped within
// a third of the smallest site spacing). Morris FENs list their points this way.
std::vector<std::string> reading_order(const nlohmann::json& model);

}  // namespace sb::display
