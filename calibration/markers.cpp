#include "calibration/markers.h"

#include <map>

#include "engines/common/errors.h"

namespace sb::calib {

cv::Ptr<cv::aruco::Dictionary> aruco_dictionary(const std::string& name) {
  using namespace cv::aruco;
  static const std::map<std::string, PREDEFINED_DICTIONARY_NAME> names = {{"DICT_4X4_50", DICT_4X4_50},
                                                                          {"DICT_4X4_100", DICT_4X4_100},
                                                                          {"DICT_4X4_250", DICT_4X4_250},
                                                                          {"DICT_4X4_1000", DICT_4X4_1000},
                                                                          {"DICT_5X5_50", DICT_5X5_50},
                                                                          {"DICT_5X5_100", DICT_5X5_100},
                                                                          {"DICT_5X5_250", DICT_5X5_250},
                                                                          {"DICT_5X5_1000", DICT_5X5_1000},
                                                                          {"DICT_6X6_50", DICT_6X6_50},
                                                                          {"DICT_6X6_100", DICT_6X6_100},
                                                                          {"DICT_6X6_250", DICT_6X6_250},
                                                                          {"DICT_6X6_1000", DICT_6X6_1000},
                                                                          {"DICT_7X7_50", DICT_7X7_50},
                                                                          {"DICT_7X7_100", DICT_7X7_100},
                                                                          {"DICT_7X7_250", DICT_7X7_250},
                                                                          {"DICT_7X7_1000", DICT_7X7_1000},
                                                                          {"DICT_ARUCO_ORIGINAL", DICT_ARUCO_ORIGINAL}};
  auto it = names.find(name);
  if (it == names.end()) throw InputError("unknown ArUco dictionary '" + name + "'");
  return getPredefinedDictionary(it->second);
}

MarkerCells marker_cells(const cv::aruco::Dictionary& dictionary, int id) {
  if (id < 0 || id >= dictionary.bytesList.rows)
    throw InputError("marker id " + std::to_string(id) + " is not in the dictionary (0.." +
                     std::to_string(dictionary.bytesList.rows - 1) + ")");
  cv::Mat bits = cv::aruco::Dictionary::getBitsFromByteList(dictionary.bytesList.row(id), dictionary.markerSize);
  MarkerCells m;
  m.cells = dictionary.markerSize + 2;
  m.black.assign(m.cells * m.cells, true);
  for (int r = 0; r < dictionary.markerSize; ++r)
    for (int c = 0; c < dictionary.markerSize; ++c) m.black[(r + 1) * m.cells + c + 1] = bits.at<uchar>(r, c) == 0;
  return m;
}

}  // namespace sb::calib
