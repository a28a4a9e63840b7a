#include "calibration/synthetic_view.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "calibration/board_drawing.h"

namespace sb::calib {

namespace {

cv::Point2d apply(const cv::Matx33d& h, cv::Point2d p) {
  cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1);
  return {v[0] / v[2], v[1] / v[2]};
}

cv::Mat table_texture(cv::Size size, std::mt19937_64& rng) {
  // A low-frequency wash of browns with a fine grain: a table that is not uniform.
  cv::Mat coarse(6, 10, CV_32FC3);
  std::uniform_real_distribution<float> u(-25, 25);
  for (int y = 0; y < coarse.rows; ++y)
    for (int x = 0; x < coarse.cols; ++x)
      coarse.at<cv::Vec3f>(y, x) = cv::Vec3f(70 + u(rng), 100 + u(rng), 135 + u(rng));
  cv::Mat table;
  cv::resize(coarse, table, size, 0, 0, cv::INTER_CUBIC);
  cv::Mat grain(size, CV_32FC3);
  cv::randn(grain, 0, 6);
  table += grain;
  cv::Mat out;
  table.convertTo(out, CV_8UC3);
  return out;
}

int scale_level(double wanted_px_per_mm) {
  return static_cast<int>(std::ceil(2 * std::log2(std::clamp(wanted_px_per_mm, 0.5, 12.0))));
}

// Board sheets drawn at scales 2^(k/2) px/mm, kept for the next view: drawing is most of a view's cost.
cv::Mat cached_sheet(const BoardModel& model, int level, bool markers) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int, bool>, cv::Mat> cache;
  auto key = std::make_tuple(model.to_json().dump(), level, markers);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() > 32) cache.clear();
  BoardStyle style;
  style.markers = markers;
  return cache[key] = board_image(model, std::pow(2.0, level / 2.0), style);
}

// The finest scale (px per mm) at which the view shows the sheet, and whether all of the sheet is in view.
double finest_scale(const cv::Matx33d& h, Vec2 size_mm, cv::Size image_size, bool* inside) {
  double finest = 0;
  *inside = true;
  for (Vec2 c : {Vec2{0, 0}, Vec2{size_mm.x, 0}, Vec2{size_mm.x, size_mm.y}, Vec2{0, size_mm.y}}) {
    cv::Point2d a = apply(h, {c.x, c.y});
    cv::Point2d bx = apply(h, {c.x + 1, c.y}), by = apply(h, {c.x, c.y + 1});
    finest = std::max({finest, cv::norm(bx - a), cv::norm(by - a)});
    *inside = *inside && a.x >= 0 && a.y >= 0 && a.x <= image_size.width - 1 && a.y <= image_size.height - 1;
  }
  return finest;
}

// Sheet on the table, then whatever `cover` paints over it (hands), then lens, blur, light and noise.
SyntheticView render(const cv::Mat& sheet, double sheet_px_per_mm, Vec2 size_mm, double pitch_mm,
                     const SyntheticViewParams& p, const std::function<void(cv::Mat&, const cv::Matx33d&)>& cover) {
  std::mt19937_64 rng(p.seed);
  cv::theRNG().state = p.seed * 2654435761u + 1;
  SyntheticView view;
  view.pose = synthetic_camera(size_mm, pitch_mm, p);
  view.board_to_ideal = view.pose.plane_homography(0);
  const cv::Matx33d& h = view.board_to_ideal;
  finest_scale(h, size_mm, p.image_size, &view.sheet_inside);

  cv::Matx33d src_to_board(1 / sheet_px_per_mm, 0, 0.5 / sheet_px_per_mm, 0, 1 / sheet_px_per_mm, 0.5 / sheet_px_per_mm,
                           0, 0, 1);
  cv::Mat ideal = table_texture(p.image_size, rng);
  cv::warpPerspective(sheet, ideal, cv::Mat(h * src_to_board), p.image_size, cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
  if (cover) cover(ideal, h);

  cv::Mat image = ideal;
  if (p.lens) {
    // Each pixel of the distorted photo shows the ideal view at its undistorted position. The map is smooth:
    // it is computed every 4 pixels and interpolated in between (well under 0.01 px off).
    constexpr int kStep = 4;
    cv::Size coarse(p.image_size.width / kStep + 2, p.image_size.height / kStep + 2);
    std::vector<cv::Point2d> grid;
    for (int y = 0; y < coarse.height; ++y)
      for (int x = 0; x < coarse.width; ++x) grid.emplace_back(x * kStep, y * kStep);
    std::vector<cv::Point2d> source = p.lens->undistort(grid);
    cv::Mat coarse_x(coarse, CV_32F), coarse_y(coarse, CV_32F);
    for (int y = 0, i = 0; y < coarse.height; ++y)
      for (int x = 0; x < coarse.width; ++x, ++i) {
        coarse_x.at<float>(y, x) = static_cast<float>(source[i].x);
        coarse_y.at<float>(y, x) = static_cast<float>(source[i].y);
      }
    // Fine pixel (u, v) sits at coarse position (u / kStep, v / kStep).
    cv::Mat map_x(p.image_size, CV_32F), map_y(p.image_size, CV_32F);
    cv::Mat xs(p.image_size, CV_32F), ys(p.image_size, CV_32F);
    for (int y = 0; y < p.image_size.height; ++y)
      for (int x = 0; x < p.image_size.width; ++x) {
        xs.at<float>(y, x) = static_cast<float>(x) / kStep;
        ys.at<float>(y, x) = static_cast<float>(y) / kStep;
      }
    cv::remap(coarse_x, map_x, xs, ys, cv::INTER_CUBIC, cv::BORDER_REPLICATE);
    cv::remap(coarse_y, map_y, xs, ys, cv::INTER_CUBIC, cv::BORDER_REPLICATE);
    cv::remap(ideal, image, map_x, map_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  }
  if (p.blur_sigma_px > 0) cv::GaussianBlur(image, image, cv::Size(), p.blur_sigma_px);

  // Light falls off linearly along one direction: gain = 1 - falloff * (position along it, 0..1).
  double angle = p.light_angle_deg * CV_PI / 180, reach = std::hypot(p.image_size.width, p.image_size.height);
  cv::Mat xs(1, p.image_size.width, CV_32F), ys(p.image_size.height, 1, CV_32F);
  for (int x = 0; x < xs.cols; ++x)
    xs.at<float>(0, x) = static_cast<float>((x - xs.cols / 2.0) * std::cos(angle) / reach);
  for (int y = 0; y < ys.rows; ++y)
    ys.at<float>(y, 0) = static_cast<float>((y - ys.rows / 2.0) * std::sin(angle) / reach + 0.5);
  cv::Mat light = cv::repeat(xs, ys.rows, 1) + cv::repeat(ys, 1, xs.cols);
  cv::min(cv::max(light, 0.0), 1.0, light);
  light = 1 - p.light_falloff * light;
  cv::Mat lit, light3;
  image.convertTo(lit, CV_32FC3);
  cv::merge(std::vector<cv::Mat>{light, light, light}, light3);
  lit = lit.mul(light3);
  if (p.noise_sigma > 0) {
    cv::Mat noise(p.image_size, CV_32FC3);
    cv::randn(noise, 0, p.noise_sigma);
    lit += noise;
  }
  lit.convertTo(view.image, CV_8UC3);
  return view;
}

}  // namespace

CameraPose synthetic_camera(Vec2 size_mm, double pitch_mm, const SyntheticViewParams& p) {
  CameraPose pose;
  double f = p.focal_px;
  cv::Point2d c((p.image_size.width - 1) / 2.0, (p.image_size.height - 1) / 2.0);
  pose.camera_matrix = cv::Matx33d(f, 0, c.x, 0, f, c.y, 0, 0, 1);
  if (p.lens) pose.camera_matrix = p.lens->camera_matrix, f = p.lens->camera_matrix(0, 0);
  double tilt = p.tilt_deg * CV_PI / 180, roll = p.rotation_deg * CV_PI / 180;
  double distance = f * pitch_mm / p.px_per_pitch;
  cv::Vec3d aim(size_mm.x / 2 + p.aim_offset_mm.x, size_mm.y / 2 + p.aim_offset_mm.y, 0);
  // Camera axes in the board frame: x along the board's x, y (image down) and z (view) tilted back towards
  // the first player, then turned about the view axis.
  cv::Matx33d lean(1, 0, 0, 0, std::cos(tilt), std::sin(tilt), 0, -std::sin(tilt), std::cos(tilt));
  cv::Matx33d turn(std::cos(roll), -std::sin(roll), 0, std::sin(roll), std::cos(roll), 0, 0, 0, 1);
  pose.rotation = turn * lean;
  cv::Vec3d position = aim + distance * cv::Vec3d(0, std::sin(tilt), -std::cos(tilt));
  pose.translation = -(pose.rotation * position);
  return pose;
}

SyntheticView synthetic_sheet_view(const cv::Mat& sheet, double sheet_px_per_mm, Vec2 size_mm, double pitch_mm,
                                   const SyntheticViewParams& params) {
  return render(sheet, sheet_px_per_mm, size_mm, pitch_mm, params, nullptr);
}

SyntheticView synthetic_view(const BoardModel& model, const SyntheticViewParams& p) {
  bool inside = false;
  CameraPose pose = synthetic_camera(model.size_mm, model.pitch_mm, p);
  double finest = finest_scale(pose.plane_homography(0), model.size_mm, p.image_size, &inside);
  int level = scale_level(finest * 1.2);
  cv::Mat sheet = cached_sheet(model, level, p.draw_markers);
  auto hands = [&](cv::Mat& image, const cv::Matx33d& h) {
    // A skin-coloured blob over each covered marker, a little larger than the marker.
    std::mt19937_64 rng(p.seed + 17);
    std::uniform_real_distribution<double> jitter(-0.15, 0.15);
    for (int id : p.covered_markers) {
      const Marker* m = model.markers.find(id);
      if (!m) continue;
      std::vector<cv::Point> blob;
      for (int k = 0; k < 16; ++k) {
        double a = 2 * CV_PI * k / 16, r = m->size_mm * (0.85 + jitter(rng));
        cv::Point2d q = apply(h, {m->centre.x + r * std::cos(a), m->centre.y + r * std::sin(a)});
        blob.emplace_back(cvRound(q.x), cvRound(q.y));
      }
      cv::fillPoly(image, std::vector<std::vector<cv::Point>>{blob}, cv::Scalar(120, 150, 205), cv::LINE_AA);
    }
  };
  SyntheticView view = render(sheet, std::pow(2.0, level / 2.0), model.size_mm, model.pitch_mm, p, hands);
  std::vector<cv::Point2d> ideal_sites;
  for (const Site& s : model.sites) ideal_sites.push_back(apply(view.board_to_ideal, {s.centre.x, s.centre.y}));
  std::vector<cv::Point2d> sites = p.lens ? p.lens->distort(ideal_sites) : ideal_sites;
  for (size_t i = 0; i < model.sites.size(); ++i) view.sites[model.sites[i].name] = sites[i];
  return view;
}

}  // namespace sb::calib
