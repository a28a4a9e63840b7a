// Synthetic photographs for the calibration tests: printed pages (from print_board's PNG) seen by a camera.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/print_board.h"
#include "calibration/synthetic_view.h"

namespace sb::calib::testing {

// A board printed to PNG by print_board, read back, with everything needed to photograph it.
struct PrintedPage {
  BoardModel model;
  PrintedBoard printed;
  std::vector<cv::Mat> pyramid;  // the page, then halved again and again
};

inline PrintedPage print_page(const std::string& game, int dpi = 150) {
  PrintedPage page;
  page.model = load_board_model(game);
  std::string path = ::testing::TempDir() + std::to_string(::getpid()) + "_printed_" + game + ".png";
  PrintOptions options;
  options.dpi = dpi;
  page.printed = print_board(page.model, path, options);
  cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
  EXPECT_FALSE(image.empty()) << path;
  std::remove(path.c_str());
  page.pyramid.push_back(image);
  while (page.pyramid.back().cols > 300) {
    // Box-averaging 2×2 blocks keeps each pixel's centre where the frame expects it: (i + 0.5) / scale.
    cv::Mat half;
    cv::resize(page.pyramid.back(), half, cv::Size(page.pyramid.back().cols / 2, page.pyramid.back().rows / 2), 0, 0,
               cv::INTER_AREA);
    page.pyramid.push_back(half);
  }
  return page;
}

struct Photo {
  cv::Mat image;
  std::map<std::string, cv::Point2d> sites;  // true image position of every site centre
  CameraPose pose;
  bool inside = false;
};

// The camera aimed at the board's centre rather than the page's.
inline SyntheticViewParams aimed_at_board(const PrintedPage& page, SyntheticViewParams p) {
  const BoardModel& m = page.model;
  Vec2 page_mm = page.printed.layout.page_mm, origin = page.printed.layout.sheet_origin_mm;
  p.aim_offset_mm = {origin.x + m.size_mm.x / 2 - page_mm.x / 2 + p.aim_offset_mm.x,
                     origin.y + m.size_mm.y / 2 - page_mm.y / 2 + p.aim_offset_mm.y};
  return p;
}

// Whether the board sheet (not the whole page) lies inside the image of a camera aimed by aimed_at_board.
inline bool board_inside(const PrintedPage& page, const cv::Matx33d& page_to_ideal, cv::Size image_size) {
  const BoardModel& m = page.model;
  Vec2 origin = page.printed.layout.sheet_origin_mm;
  bool inside = true;
  for (Vec2 c : {origin, Vec2{origin.x + m.size_mm.x, origin.y}, Vec2{origin.x + m.size_mm.x, origin.y + m.size_mm.y},
                 Vec2{origin.x, origin.y + m.size_mm.y}}) {
    cv::Vec3d v = page_to_ideal * cv::Vec3d(c.x, c.y, 1);
    double x = v[0] / v[2], y = v[1] / v[2];
    inside = inside && x >= 2 && y >= 2 && x <= image_size.width - 3 && y <= image_size.height - 3;
  }
  return inside;
}

// The page photographed as `p` says (params.px_per_pitch refers to the board's pitch; `covered` markers get a
// hand over them). The page's frame is the board frame shifted by the sheet's place on the page.
inline Photo photograph(const PrintedPage& page, SyntheticViewParams p, const std::vector<int>& covered = {}) {
  const BoardModel& m = page.model;
  Vec2 page_mm = page.printed.layout.page_mm, origin = page.printed.layout.sheet_origin_mm;
  p = aimed_at_board(page, p);
  CameraPose camera = synthetic_camera(page_mm, m.pitch_mm, p);
  cv::Matx33d h = camera.plane_homography(0);
  // The pyramid level that the view shrinks by less than 2.
  double finest = 0;
  for (Vec2 c : {origin, Vec2{origin.x + m.size_mm.x, origin.y + m.size_mm.y}}) {
    cv::Vec3d a = h * cv::Vec3d(c.x, c.y, 1), b = h * cv::Vec3d(c.x + 1, c.y, 1), d = h * cv::Vec3d(c.x, c.y + 1, 1);
    cv::Point2d pa(a[0] / a[2], a[1] / a[2]);
    finest = std::max({finest, cv::norm(cv::Point2d(b[0] / b[2], b[1] / b[2]) - pa),
                       cv::norm(cv::Point2d(d[0] / d[2], d[1] / d[2]) - pa)});
  }
  size_t level = 0;
  double px_per_mm = page.printed.px_per_mm;
  while (level + 1 < page.pyramid.size() && px_per_mm / 2 > finest * 1.2) ++level, px_per_mm /= 2;
  cv::Mat sheet = page.pyramid[level].clone();
  px_per_mm = page.printed.px_per_mm / std::pow(2.0, static_cast<double>(level));
  for (int id : covered) {
    const Marker* mk = m.markers.find(id);
    if (!mk) continue;
    cv::Point2d c((origin.x + mk->centre.x) * px_per_mm - 0.5, (origin.y + mk->centre.y) * px_per_mm - 0.5);
    cv::ellipse(sheet, c, cv::Size2d(mk->size_mm * 0.9 * px_per_mm, mk->size_mm * 0.75 * px_per_mm), id * 37.0, 0, 360,
                cv::Scalar(120, 150, 205), cv::FILLED, cv::LINE_AA);
  }
  SyntheticView view = synthetic_sheet_view(sheet, px_per_mm, page_mm, m.pitch_mm, p);
  Photo photo;
  photo.image = view.image;
  photo.pose = view.pose;
  std::vector<cv::Point2d> ideal;
  for (const Site& s : m.sites) {
    cv::Vec3d v = view.board_to_ideal * cv::Vec3d(origin.x + s.centre.x, origin.y + s.centre.y, 1);
    ideal.emplace_back(v[0] / v[2], v[1] / v[2]);
  }
  std::vector<cv::Point2d> sites = p.lens ? p.lens->distort(ideal) : ideal;
  for (size_t i = 0; i < sites.size(); ++i) photo.sites[m.sites[i].name] = sites[i];
  photo.inside = board_inside(page, view.board_to_ideal, p.image_size);
  return photo;
}

// The largest scale not above p.px_per_pitch at which the board stays in view, but not below 30 px per 26 mm
// (a draughts square).
inline Photo photograph_in_view(const PrintedPage& page, SyntheticViewParams p, const std::vector<int>& covered = {}) {
  double smallest = std::max(30.0, 30 * page.model.pitch_mm / 26);
  // Choosing the scale needs only the camera; the photograph is taken once.
  while (p.px_per_pitch > smallest) {
    SyntheticViewParams a = aimed_at_board(page, p);
    if (board_inside(page, synthetic_camera(page.printed.layout.page_mm, page.model.pitch_mm, a).plane_homography(0),
                     a.image_size))
      break;
    p.px_per_pitch = std::max(smallest, p.px_per_pitch * 0.92);
  }
  return photograph(page, p, covered);
}

}  // namespace sb::calib::testing
