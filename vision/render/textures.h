// Procedural surfaces: smooth noise, wood grain, cloth weave, stone veins, paper fibre. Every function is
// deterministic in its Rng and returns single-channel float patterns or 8-bit BGR images.
#pragma once

#include <opencv2/core.hpp>

#include "vision/render/look.h"
#include "vision/render/rng.h"

namespace sb::vision {

// Smooth value noise in about [-1, 1] with features `cell_x` × `cell_y` pixels across (CV_32F).
cv::Mat value_noise(cv::Size size, double cell_x, double cell_y, Rng& rng);
// Several octaves of value noise, each half the size of the previous; about [-1, 1].
cv::Mat fractal_noise(cv::Size size, double cell_px, int octaves, Rng& rng);

// Wood figure: growth rings `ring_px` apart running along x, wavy, with fine fibres; 0 (early wood) .. 1
// (late wood, darker). Turned by `angle_deg`.
cv::Mat wood_pattern(cv::Size size, double ring_px, double angle_deg, Rng& rng);

// Blends `base` and `accent` by `pattern` (0 → base, 1 → accent), 8-bit BGR.
cv::Mat colour_by_pattern(const cv::Mat& pattern, const Rgb& base, const Rgb& accent);

// A table surface at `px_per_mm`.
cv::Mat table_texture(const TableLook& look, cv::Size size, double px_per_mm, Rng& rng);

// The material of a board sheet as a brightness factor around 1 (paper fibre, cardboard speckle, wood grain);
// `squares` turns the grain 90° in alternate squares (rect shapes) of a wooden board.
cv::Mat board_material_factor(const BoardLook& look, cv::Size size, double px_per_mm, Rng& rng);

}  // namespace sb::vision
