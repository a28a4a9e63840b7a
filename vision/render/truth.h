// The truth written beside every rendered picture: the observation a reader should produce (CONTRACT.md's
// format) and, for checking a reader's geometry, where things are in the image.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vision/render/renderer.h"
#include "vision/render/scene.h"

namespace sb::vision {

// {"site": "token", …} of the pieces standing on sites (the top token of each stack).
nlohmann::json board_json(const std::vector<PieceInstance>& pieces);

// Where the board is in the image: "sites" (every site centre at board level), "corners" (the playing area's
// four corners, CONTRACT.md's --corners order), "outline", "markers" (id → four corners in ArUco order), and
// "camera" (intrinsics, distortion, pose).
nlohmann::json geometry_json(const Renderer& renderer);

// Per occupied site: "top" (image centre of the piece's top face), "layers", "offset_mm" from the site centre.
nlohmann::json pieces_json(const Renderer& renderer, const std::vector<PieceInstance>& pieces);

// The truth of a still picture: the observation ("t", "board", "stable") with everything above, the hands'
// cover ("hidden": sites a hand hides) and the look it was drawn with.
nlohmann::json still_truth(const Renderer& renderer, const Scene& scene, uint64_t seed);

}  // namespace sb::vision
