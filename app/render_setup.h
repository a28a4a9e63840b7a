// What the render, simulate and dataset commands share: their common options (--seed, --size, --look) and
// building a still scene of a game position.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/args.h"
#include "app/physical_board.h"
#include "calibration/board_model.h"
#include "vision/render/look.h"
#include "vision/render/scene.h"

namespace sb::cli {

// --seed S, --size WxH, --look JSON.
std::vector<OptionSpec> render_option_specs();
uint64_t seed_option(const Args& args, uint64_t fallback = 1);
cv::Size size_option(const Args& args);
std::optional<nlohmann::json> look_patch_option(const Args& args);

// The board model of a game id, with the unknown-game error of the engines registry for a bad id.
calib::BoardModel board_model_for(const std::string& game);

// Throws InputError when `token` cannot be drawn by the game's piece set (wrong side letter, or an identity
// its faces do not show).
void check_token_fits(const vision::GameArt& art, const std::string& token, const std::string& where);

// Pieces on their sites plus those lying beside the board.
vision::Scene still_scene(const calib::BoardModel& model, const vision::Look& look, const vision::BoardContents& board,
                          const OffBoard& off, vision::Rng& rng);

// InputError unless `path` has an image extension the writer knows and its directory exists; checked before
// the work of drawing so a bad path fails at once.
void check_image_path(const std::string& path);
void check_output_path(const std::string& path);
// Writes an image, choosing the format by extension; InputError naming the file when it cannot.
void write_image(const std::string& path, const cv::Mat& img, int jpeg_quality = 92);
void write_json_file(const std::string& path, const nlohmann::json& j, bool pretty = true);

// Progress on stderr, only when it is a terminal.
void progress(const std::string& what, int done, int total);

}  // namespace sb::cli
