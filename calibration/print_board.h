// Printable boards: a board model on an A4 or A3 page at true size, with its title and a scale bar to check
// that the printer did not rescale it. PNG, PDF or SVG, through cairo.
#pragma once

#include <filesystem>
#include <map>
#include <opencv2/core.hpp>
#include <optional>
#include <string>

#include "calibration/board_model.h"
#include "calibration/lens.h"

namespace sb::calib {

enum class Paper { A4, A3 };

struct PrintOptions {
  std::optional<Paper> paper;  // unset: the smallest that holds the board
  int dpi = 300;               // PNG only; PDF and SVG are vector
};

// Where things are on the page, in millimetres from its top-left corner.
struct PageLayout {
  Paper paper = Paper::A3;
  Vec2 page_mm;
  Vec2 sheet_origin_mm;  // the board frame's origin on the page
  Vec2 title_mm;         // the title's baseline start
  Vec2 scale_bar_mm;     // the left end of the 100 mm scale bar
};

// Throws InputError when the board does not fit on the paper asked for.
PageLayout layout_page(const BoardModel& model, std::optional<Paper> paper);

struct PrintedBoard {
  PageLayout layout;
  cv::Size image_size;   // PNG only
  double px_per_mm = 0;  // PNG only
  // PNG only: every site centre in image pixels (OpenCV's convention, pixel centres at integers).
  std::map<std::string, cv::Point2d> site_pixels;
};

// Writes the page to `out`; the format follows its extension (.png, .pdf, .svg). Throws InputError for
// another extension, a bad dpi, a board too large for the paper, or a file that cannot be written.
PrintedBoard print_board(const BoardModel& model, const std::filesystem::path& out, const PrintOptions& options);

// The lens calibration sheet (lens.h) on a page the same way; site_pixels are its chessboard corners.
PrintedBoard print_lens_sheet(const LensTarget& target, const std::filesystem::path& out, const PrintOptions& options);

std::optional<Paper> paper_from_name(std::string_view name);  // "A4", "A3" (any case)
const char* paper_name(Paper p);

}  // namespace sb::calib
