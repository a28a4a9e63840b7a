// ArUco markers of the board models: the dictionary by name and each marker's pattern of cells.
#pragma once

#include <opencv2/aruco.hpp>
#include <string>
#include <vector>

namespace sb::calib {

// The OpenCV dictionary a board model names ("DICT_4X4_100"). Throws InputError for another name.
cv::Ptr<cv::aruco::Dictionary> aruco_dictionary(const std::string& name);

// The cells of marker `id`, black border included: (bits + 2)² values in rows from the marker's top (the far
// side in the board frame), true for black. Throws InputError when the dictionary has no such id.
struct MarkerCells {
  int cells = 0;  // per side
  std::vector<bool> black;
  bool at(int row, int col) const { return black[row * cells + col]; }
};
MarkerCells marker_cells(const cv::aruco::Dictionary& dictionary, int id);

}  // namespace sb::calib
