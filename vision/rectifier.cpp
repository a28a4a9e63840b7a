#include "vision/rectifier.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

#include "vision/board_appearance.h"

namespace sb::vision {

namespace {

cv::Point2d apply(const cv::Matx33d& h, double x, double y) {
  cv::Vec3d v = h * cv::Vec3d(x, y, 1);
  return {v[0] / v[2], v[1] / v[2]};
}

struct Box {
  double x0, y0, x1, y1;
};

CanonicalFrame frame_for(const Box& b, double px_per_mm) {
  CanonicalFrame f;
  f.origin_mm = {b.x0, b.y0};
  f.px_per_mm = px_per_mm;
  f.size = cv::Size(static_cast<int>(std::ceil((b.x1 - b.x0) * px_per_mm)) + 1,
                    static_cast<int>(std::ceil((b.y1 - b.y0) * px_per_mm)) + 1);
  return f;
}

}  // namespace

void FramePyramid::reset(const cv::Mat& frame, cv::Rect roi) {
  frame_ = frame;
  roi_ = roi & cv::Rect(0, 0, frame.cols, frame.rows);
  levels_.clear();
}

const cv::Mat& FramePyramid::level(int l) {
  if (levels_.empty()) levels_.push_back(frame_(roi_));
  while (static_cast<int>(levels_.size()) <= l) {
    const cv::Mat& prev = levels_.back();
    cv::Mat half;
    // A 2×2 box average: pixel centres stay where the maps expect them, (p + 0.5) / 2 - 0.5.
    cv::resize(prev, half, cv::Size(std::max(1, prev.cols / 2), std::max(1, prev.rows / 2)), 0, 0, cv::INTER_AREA);
    levels_.push_back(half);
  }
  return levels_[l];
}

Rectifier::Rectifier(const calib::BoardModel& model, const calib::Calibration& calibration, double top_height_mm,
                     int stack_levels, const RectifyParams& params)
    : model_(model), calibration_(calibration), params_(params), top_height_mm_(top_height_mm) {
  pose_ = calibration_.pose();
  anchor_ = calibration_.fit.board_to_ideal * pose_.plane_homography(0).inv();

  // Scale of the view at the board's centre: the square root of the fit's area magnification there.
  const calib::Quad& pa = model_.playing_area_corners();
  double cx = 0, cy = 0;
  for (const auto& p : pa) cx += p.x / 4, cy += p.y / 4;
  {
    const double d = 1.0;
    cv::Point2d c = frame_point({cx, cy}), ex = frame_point({cx + d, cy}), ey = frame_point({cx, cy + d});
    cv::Point2d a = ex - c, b = ey - c;
    source_px_per_mm_ = std::sqrt(std::abs(a.x * b.y - a.y * b.x)) / d;
  }
  const double pitch = model_.pitch_mm;

  // The gate sees the sheet and the room around it; the reader the playing area and the overhang of its pieces.
  const calib::Vec2 sheet = model_.size_mm;
  Box gate_box{-params_.gate_margin_pitches * pitch, -params_.gate_margin_pitches * pitch,
               sheet.x + params_.gate_margin_pitches * pitch, sheet.y + params_.gate_margin_pitches * pitch};
  gate_.frame = frame_for(gate_box, params_.gate_px_per_pitch / pitch);
  gate_.height_mm = 0;

  double sites_x0 = 1e18, sites_y0 = 1e18, sites_x1 = -1e18, sites_y1 = -1e18;
  for (const auto& s : model_.sites) {
    sites_x0 = std::min(sites_x0, s.centre.x);
    sites_y0 = std::min(sites_y0, s.centre.y);
    sites_x1 = std::max(sites_x1, s.centre.x);
    sites_y1 = std::max(sites_y1, s.centre.y);
  }
  const double m = params_.read_margin_pitches * pitch;
  const double read_px_per_pitch =
      std::clamp(source_px_per_mm_ * pitch, params_.read_px_per_pitch_min, params_.read_px_per_pitch_max);
  top_frame_ = frame_for({sites_x0 - m, sites_y0 - m, sites_x1 + m, sites_y1 + m}, read_px_per_pitch / pitch);
  for (int l = 1; l <= std::max(1, stack_levels); ++l) {
    PlaneMap p;
    p.frame = top_frame_;
    p.height_mm = top_height_mm_ * l;
    tops_.push_back(p);
  }

  // The frame rectangle every map reads from: the gate's (it covers the most), within the image.
  {
    std::vector<cv::Point2d> corners;
    const int n = 24;
    for (int i = 0; i <= n; ++i) {
      double t = static_cast<double>(i) / n;
      for (auto [x, y] : {std::pair{gate_box.x0 + t * (gate_box.x1 - gate_box.x0), gate_box.y0},
                          std::pair{gate_box.x0 + t * (gate_box.x1 - gate_box.x0), gate_box.y1},
                          std::pair{gate_box.x0, gate_box.y0 + t * (gate_box.y1 - gate_box.y0)},
                          std::pair{gate_box.x1, gate_box.y0 + t * (gate_box.y1 - gate_box.y0)}}) {
        corners.push_back(frame_point({x, y}, 0));
        corners.push_back(frame_point({x, y}, top_height_mm_ * std::max(1, stack_levels)));
      }
    }
    double x0 = 1e18, y0 = 1e18, x1 = -1e18, y1 = -1e18;
    for (const auto& p : corners) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
    }
    const cv::Rect image(0, 0, calibration_.image_size.width, calibration_.image_size.height);
    cv::Rect r(static_cast<int>(std::floor(std::max(-1e6, x0))) - 2,
               static_cast<int>(std::floor(std::max(-1e6, y0))) - 2, 0, 0);
    r.width = static_cast<int>(std::ceil(std::min(1e6, x1))) + 3 - r.x;
    r.height = static_cast<int>(std::ceil(std::min(1e6, y1))) + 3 - r.y;
    roi_ = r & image;
    if (roi_.empty()) roi_ = image;
  }

  // Sample from the pyramid level whose scale is the first at most twice the canonical one.
  auto level_for = [&](double canonical_px_per_mm) {
    int l = 0;
    double ratio = source_px_per_mm_ / canonical_px_per_mm;
    while (ratio >= 2.0 && l < 5) ratio /= 2, ++l;
    return l;
  };
  gate_.level = level_for(gate_.frame.px_per_mm);
  build_map(gate_);
  {
    // A picture all white, sampled as the gate samples: what falls short of white took some of the black beyond
    // the picture's edge. The level's size is the pyramid's (FramePyramid::level halves it so).
    cv::Size level = roi_.size();
    for (int l = 0; l < gate_.level; ++l) level = {std::max(1, level.width / 2), std::max(1, level.height / 2)};
    cv::Mat seen;
    cv::remap(cv::Mat(level, CV_8U, cv::Scalar(255)), seen, gate_.map1, gate_.map2, cv::INTER_LINEAR,
              cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::compare(seen, 255, gate_unseen_, cv::CMP_LT);
  }
  for (PlaneMap& p : tops_) {
    p.level = level_for(p.frame.px_per_mm);
    build_map(p);
    // A site's base at board level, seen through this plane: H_h⁻¹ · H_0 (the lens cancels out).
    const cv::Matx33d back = plane_homography(p.height_mm).inv() * plane_homography(0);
    std::vector<cv::Point2f> offsets;
    for (const auto& s : model_.sites) {
      const cv::Point2d b = apply(back, s.centre.x, s.centre.y);
      const cv::Point2d at = p.frame.to_px({b.x, b.y}) - p.frame.to_px(s.centre);
      offsets.emplace_back(static_cast<float>(at.x), static_cast<float>(at.y));
    }
    base_offsets_.push_back(std::move(offsets));
    cv::Mat field(p.frame.size, CV_32FC2);
    for (int v = 0; v < field.rows; ++v) {
      auto* row = field.ptr<cv::Vec2f>(v);
      for (int u = 0; u < field.cols; ++u) {
        const calib::Vec2 mm = p.frame.to_mm({static_cast<double>(u), static_cast<double>(v)});
        const cv::Point2d b = apply(back, mm.x, mm.y);
        const cv::Point2d at = p.frame.to_px({b.x, b.y});
        row[u] = cv::Vec2f(static_cast<float>(at.x - u), static_cast<float>(at.y - v));
      }
    }
    base_offset_maps_.push_back(field);
  }

  // Gate masks: the zone is the outline grown by half a pitch (a hand there is over the board); the ring is the
  // band from there to one and a half pitches out.
  const CanonicalFrame& gf = gate_.frame;
  auto quad_px = [&](double grow) {
    const calib::Quad& q = model_.outline_corners();
    // Corners in order near-left, near-right, far-right, far-left: grow each away from the centre.
    std::vector<cv::Point> pts;
    calib::Vec2 c{0, 0};
    for (const auto& p : q) c.x += p.x / 4, c.y += p.y / 4;
    for (const auto& p : q) {
      calib::Vec2 g{p.x + (p.x < c.x ? -grow : grow), p.y + (p.y < c.y ? -grow : grow)};
      cv::Point2d px = gf.to_px(g);
      pts.emplace_back(static_cast<int>(std::lround(px.x)), static_cast<int>(std::lround(px.y)));
    }
    return pts;
  };
  zone_mask_ = cv::Mat::zeros(gf.size, CV_8U);
  ring_mask_ = cv::Mat::zeros(gf.size, CV_8U);
  {
    std::vector<std::vector<cv::Point>> zone{quad_px(pitch * 0.5)}, outer{quad_px(pitch * 1.5)};
    cv::fillPoly(ring_mask_, outer, cv::Scalar(255));
    cv::fillPoly(zone_mask_, zone, cv::Scalar(255));
    ring_mask_.setTo(0, zone_mask_);
  }
  for (const auto& s : model_.sites) {
    cv::Point2d c = gf.to_px(s.centre);
    const double h = 0.5 * pitch * gf.px_per_mm;
    cv::Rect r(static_cast<int>(std::floor(c.x - h + 0.5)), static_cast<int>(std::floor(c.y - h + 0.5)),
               std::max(1, static_cast<int>(std::lround(2 * h))), std::max(1, static_cast<int>(std::lround(2 * h))));
    gate_cells_.push_back(r & cv::Rect(0, 0, gf.size.width, gf.size.height));
  }
}

cv::Matx33d Rectifier::plane_homography(double height_mm) const {
  if (height_mm == 0) return calibration_.fit.board_to_ideal;
  return anchor_ * pose_.plane_homography(height_mm);
}

cv::Point2d Rectifier::frame_point(calib::Vec2 mm, double height_mm) const {
  cv::Point2d ideal = apply(plane_homography(height_mm), mm.x, mm.y);
  if (calibration_.lens) return calibration_.lens->distort({ideal})[0];
  return ideal;
}

void Rectifier::build_map(PlaneMap& plane) const {
  const CanonicalFrame& f = plane.frame;
  const cv::Matx33d h = plane_homography(plane.height_mm);
  std::vector<cv::Point2d> ideal;
  ideal.reserve(static_cast<size_t>(f.size.area()));
  for (int v = 0; v < f.size.height; ++v)
    for (int u = 0; u < f.size.width; ++u) {
      calib::Vec2 mm = f.to_mm({static_cast<double>(u), static_cast<double>(v)});
      ideal.push_back(apply(h, mm.x, mm.y));
    }
  std::vector<cv::Point2d> px = calibration_.lens ? calibration_.lens->distort(ideal) : ideal;
  cv::Mat map(f.size, CV_32FC2);
  const double scale = 1.0 / (1 << plane.level);
  size_t i = 0;
  for (int v = 0; v < f.size.height; ++v) {
    cv::Vec2f* row = map.ptr<cv::Vec2f>(v);
    for (int u = 0; u < f.size.width; ++u, ++i) {
      double x = (px[i].x - roi_.x + 0.5) * scale - 0.5, y = (px[i].y - roi_.y + 0.5) * scale - 0.5;
      if (!std::isfinite(x) || !std::isfinite(y) || std::abs(x) > 30000 || std::abs(y) > 30000) x = y = -10;
      row[u] = cv::Vec2f(static_cast<float>(x), static_cast<float>(y));
    }
  }
  cv::convertMaps(map, cv::noArray(), plane.map1, plane.map2, CV_16SC2);
}

namespace {

bool same_pixels(const cv::Mat& a, const cv::Mat& b) {
  if (a.size() != b.size() || a.type() != b.type()) return false;
  if (a.empty()) return true;
  return a.isContinuous() && b.isContinuous() && std::equal(a.datastart, a.dataend, b.datastart, b.dataend);
}

}  // namespace

bool Rectifier::same_gate_view(const Rectifier& other) const {
  return roi_ == other.roi_ && gate_.level == other.gate_.level && gate_.frame.size == other.gate_.frame.size &&
         gate_cells_ == other.gate_cells_ && same_pixels(gate_.map1, other.gate_.map1) &&
         same_pixels(gate_.map2, other.gate_.map2) && same_pixels(zone_mask_, other.zone_mask_) &&
         same_pixels(ring_mask_, other.ring_mask_) && same_pixels(gate_unseen_, other.gate_unseen_);
}

void Rectifier::gate_image(FramePyramid& pyramid, cv::Mat& out) const {
  cv::remap(pyramid.level(gate_.level), out, gate_.map1, gate_.map2, cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            cv::Scalar::all(0));
}

void Rectifier::top_image(FramePyramid& pyramid, int level, cv::Mat& out, const std::vector<cv::Rect>* rects) const {
  const PlaneMap& p = tops_.at(static_cast<size_t>(std::clamp(level, 1, stack_levels()) - 1));
  const cv::Mat& src = pyramid.level(p.level);
  if (!rects) {
    cv::remap(src, out, p.map1, p.map2, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
    return;
  }
  if (out.size() != p.frame.size || out.type() != src.type()) out = cv::Mat::zeros(p.frame.size, src.type());
  const cv::Rect all(0, 0, p.frame.size.width, p.frame.size.height);
  for (const cv::Rect& r0 : *rects) {
    cv::Rect r = r0 & all;
    if (r.empty()) continue;
    cv::Mat dst = out(r);
    cv::remap(src, dst, p.map1(r), p.map2(r), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
  }
}

cv::Point2f Rectifier::base_offset(int site, int level) const {
  const size_t l = static_cast<size_t>(std::clamp(level, 1, stack_levels()) - 1);
  return base_offsets_[l].at(static_cast<size_t>(site));
}

const cv::Mat& Rectifier::paint_labels() const {
  if (paint_labels_.empty()) paint_labels_ = vision::paint_labels(*this, &paint_borders_);
  return paint_labels_;
}

const cv::Mat& Rectifier::paint_borders() const {
  paint_labels();
  return paint_borders_;
}

const cv::Mat& Rectifier::base_offset_map(int level) const {
  return base_offset_maps_[static_cast<size_t>(std::clamp(level, 1, stack_levels()) - 1)];
}

std::vector<cv::Point2d> Rectifier::zone_outline_frame() const {
  std::vector<cv::Point2d> out;
  const calib::Quad& q = model_.outline_corners();
  calib::Vec2 c{0, 0};
  for (const auto& p : q) c.x += p.x / 4, c.y += p.y / 4;
  const double g = model_.pitch_mm * 0.5;
  for (int side = 0; side < 4; ++side) {
    calib::Vec2 a = q[side], b = q[(side + 1) % 4];
    a = {a.x + (a.x < c.x ? -g : g), a.y + (a.y < c.y ? -g : g)};
    b = {b.x + (b.x < c.x ? -g : g), b.y + (b.y < c.y ? -g : g)};
    for (int i = 0; i < 8; ++i) {
      double t = i / 8.0;
      out.push_back(frame_point({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}));
    }
  }
  return out;
}

}  // namespace sb::vision
