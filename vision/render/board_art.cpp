#include "vision/render/board_art.h"

#include <cmath>
#include <map>
#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "engines/common/errors.h"
#include "vision/render/textures.h"

namespace sb::vision {

namespace {

constexpr int kShift = 4;  // sub-pixel bits for OpenCV's drawing functions
constexpr double kOne = 1 << kShift;

cv::Point fixed(cv::Point2d p) {
  return {static_cast<int>(std::lround(p.x * kOne)), static_cast<int>(std::lround(p.y * kOne))};
}

const Rgb& paint_colour(const BoardColours& c, calib::Paint p) {
  switch (p) {
    case calib::Paint::Light:
      return c.light;
    case calib::Paint::Dark:
      return c.dark;
    case calib::Paint::Ink:
      return c.ink;
    case calib::Paint::Water:
      return c.water;
    case calib::Paint::Land:
      return c.land;
  }
  return c.ink;
}

void fill_polygon(cv::Mat& img, const std::vector<cv::Point2d>& pts, const cv::Scalar& colour) {
  std::vector<cv::Point> f;
  for (const auto& p : pts) f.push_back(fixed(p));
  const cv::Point* ptr = f.data();
  int n = static_cast<int>(f.size());
  cv::fillPoly(img, &ptr, &n, 1, colour, cv::LINE_AA, kShift);
}

// A stroke as one quadrilateral per segment with square caps, so widths below a pixel keep their weight.
void stroke(cv::Mat& img, const std::vector<cv::Point2d>& pts, double width_px, const cv::Scalar& colour) {
  double h = std::max(width_px, 0.7) / 2;
  for (size_t i = 0; i + 1 < pts.size(); ++i) {
    cv::Point2d a = pts[i], b = pts[i + 1], d = b - a;
    double len = std::hypot(d.x, d.y);
    if (len < 1e-9) continue;
    d *= 1.0 / len;
    cv::Point2d n(-d.y, d.x);
    a -= d * h;
    b += d * h;
    fill_polygon(img, {a + n * h, b + n * h, b - n * h, a - n * h}, colour);
  }
}

}  // namespace

int aruco_dictionary_id(const std::string& name) {
  static const std::map<std::string, int> ids = {{"DICT_4X4_50", cv::aruco::DICT_4X4_50},
                                                 {"DICT_4X4_100", cv::aruco::DICT_4X4_100},
                                                 {"DICT_4X4_250", cv::aruco::DICT_4X4_250},
                                                 {"DICT_4X4_1000", cv::aruco::DICT_4X4_1000},
                                                 {"DICT_5X5_50", cv::aruco::DICT_5X5_50},
                                                 {"DICT_5X5_100", cv::aruco::DICT_5X5_100},
                                                 {"DICT_5X5_250", cv::aruco::DICT_5X5_250},
                                                 {"DICT_5X5_1000", cv::aruco::DICT_5X5_1000},
                                                 {"DICT_6X6_50", cv::aruco::DICT_6X6_50},
                                                 {"DICT_6X6_100", cv::aruco::DICT_6X6_100},
                                                 {"DICT_6X6_250", cv::aruco::DICT_6X6_250},
                                                 {"DICT_6X6_1000", cv::aruco::DICT_6X6_1000},
                                                 {"DICT_7X7_50", cv::aruco::DICT_7X7_50},
                                                 {"DICT_7X7_100", cv::aruco::DICT_7X7_100},
                                                 {"DICT_7X7_250", cv::aruco::DICT_7X7_250},
                                                 {"DICT_7X7_1000", cv::aruco::DICT_7X7_1000},
                                                 {"DICT_ARUCO_ORIGINAL", cv::aruco::DICT_ARUCO_ORIGINAL}};
  auto it = ids.find(name);
  if (it == ids.end()) throw InputError("unknown ArUco dictionary '" + name + "'");
  return it->second;
}

BoardTexture paint_board(const calib::BoardModel& model, const BoardLook& look, double px_per_mm, Rng& rng) {
  BoardTexture tex;
  tex.px_per_mm = px_per_mm;
  tex.pad = 2;
  cv::Size size(static_cast<int>(std::ceil(model.size_mm.x * px_per_mm)) + 2 * tex.pad,
                static_cast<int>(std::ceil(model.size_mm.y * px_per_mm)) + 2 * tex.pad);
  tex.bgr = cv::Mat(size, CV_8UC3, look.colours.sheet.bgr255());
  auto px = [&](calib::Vec2 p) { return tex.to_px(p.x, p.y); };

  for (const calib::Shape& s : model.drawing) {
    cv::Scalar colour = paint_colour(look.colours, s.paint).bgr255();
    std::vector<cv::Point2d> pts;
    for (const auto& p : s.points) pts.push_back(px(p));
    switch (s.type) {
      case calib::Shape::Type::Polygon:
        fill_polygon(tex.bgr, pts, colour);
        break;
      case calib::Shape::Type::Polyline:
        stroke(tex.bgr, pts, s.width_mm * px_per_mm, colour);
        break;
      case calib::Shape::Type::Disc:
        cv::circle(tex.bgr, fixed(pts[0]), static_cast<int>(std::lround(s.radius_mm * px_per_mm * kOne)), colour,
                   cv::FILLED, cv::LINE_AA, kShift);
        break;
    }
  }

  // The material shows through the print (fibre, speckle, grain).
  cv::Mat factor = board_material_factor(look, size, px_per_mm, rng);
  for (int y = 0; y < size.height; ++y) {
    const float* f = factor.ptr<float>(y);
    cv::Vec3b* o = tex.bgr.ptr<cv::Vec3b>(y);
    for (int x = 0; x < size.width; ++x)
      for (int c = 0; c < 3; ++c) o[x][c] = cv::saturate_cast<uchar>(o[x][c] * f[x]);
  }

  if (look.markers && !model.markers.markers.empty()) {
    auto dict = cv::aruco::getPredefinedDictionary(aruco_dictionary_id(model.markers.dictionary));
    int bits = dict->markerSize;
    int cells = bits + 2;  // one cell of black border each side
    cv::Scalar white = Rgb{0.97, 0.97, 0.96}.bgr255(), black = Rgb{0.04, 0.04, 0.04}.bgr255();
    for (const calib::Marker& m : model.markers.markers) {
      double cell = m.size_mm / cells;
      double x0 = m.centre.x - m.size_mm / 2, y0 = m.centre.y - m.size_mm / 2;
      // Printed on a white label one cell wider all round (the quiet zone a detector needs).
      auto rect_px = [&](double x, double y, double w, double h) {
        return std::vector<cv::Point2d>{px({x, y}), px({x + w, y}), px({x + w, y + h}), px({x, y + h})};
      };
      fill_polygon(tex.bgr, rect_px(x0 - cell, y0 - cell, m.size_mm + 2 * cell, m.size_mm + 2 * cell), white);
      cv::Mat marker_bits = cv::aruco::Dictionary::getBitsFromByteList(dict->bytesList.rowRange(m.id, m.id + 1), bits);
      for (int r = 0; r < cells; ++r)
        for (int c = 0; c < cells; ++c) {
          bool border = r == 0 || c == 0 || r == cells - 1 || c == cells - 1;
          bool is_black = border || marker_bits.at<uchar>(r - 1, c - 1) == 0;
          if (!is_black) continue;
          // Each black cell slightly overlaps its neighbours so no seams show between them.
          double e = 0.02 * cell;
          fill_polygon(tex.bgr, rect_px(x0 + c * cell - e, y0 + r * cell - e, cell + 2 * e, cell + 2 * e), black);
        }
    }
  }

  tex.alpha = cv::Mat(size, CV_8U, cv::Scalar(0));
  fill_polygon(tex.alpha,
               {px({0, 0}), px({model.size_mm.x, 0}), px({model.size_mm.x, model.size_mm.y}), px({0, model.size_mm.y})},
               cv::Scalar(255));
  return tex;
}

}  // namespace sb::vision
