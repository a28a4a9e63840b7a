#include "calibration/corner_lens.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <opencv2/imgproc.hpp>
#include <tuple>

#include "calibration/board_drawing.h"
#include "calibration/camera_pose.h"

namespace sb::calib {

namespace {

// A point of a straight drawn line or edge, and the line's unit normal (board mm).
struct DrawnPoint {
  Vec2 at;
  Vec2 normal;
};

// Points every `step_mm` along every straight drawn line, and along the polygons' edges too when the lines give
// fewer than `enough` points (a board drawn in filled areas only); an edge two shapes share (neighbouring squares)
// is taken once. Lines come first because a line's centre stays where it was drawn when ink spreads in print (or
// the renderer's antialiasing grows a filled square by a texel), while an area's edge moves with it: on the
// draughts stills of dataset seed 9500001 square edges left a median residual of 0.4–0.6 px under the exact
// camera, the drawn lines 0.1 px.
std::vector<DrawnPoint> drawn_points(const BoardModel& model, double step_mm, size_t enough) {
  std::vector<DrawnPoint> out;
  std::map<std::tuple<long, long, long>, bool> seen;
  auto add_segment = [&](Vec2 a, Vec2 b) {
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    if (len < step_mm) return;
    const Vec2 t{(b.x - a.x) / len, (b.y - a.y) / len};
    const Vec2 n{-t.y, t.x};
    const int count = static_cast<int>(std::floor(len / step_mm));
    // Evenly spaced, half a step in from each end: an end is a corner or a crossing, not a straight line.
    for (int i = 0; i < count; ++i) {
      const double s = (i + 0.5) * len / count;
      const Vec2 p{a.x + s * t.x, a.y + s * t.y};
      const double angle = std::fmod(std::atan2(t.y, t.x) + CV_PI, CV_PI);
      const auto key = std::make_tuple(std::lround(p.x * 2), std::lround(p.y * 2), std::lround(angle * 20) % 63);
      if (seen.emplace(key, true).second) out.push_back({p, n});
    }
  };
  for (const Shape& s : model.drawing)
    if (s.type == Shape::Type::Polyline)
      for (size_t i = 0; i + 1 < s.points.size(); ++i) add_segment(s.points[i], s.points[i + 1]);
  if (out.size() >= enough) return out;
  for (const Shape& s : model.drawing) {
    if (s.type != Shape::Type::Polygon || s.points.size() < 3) continue;
    for (size_t i = 0; i + 1 < s.points.size(); ++i) add_segment(s.points[i], s.points[i + 1]);
    add_segment(s.points.back(), s.points.front());
  }
  return out;
}

// The board seen through a lens of one radial term whose homography puts the playing area's corners at the
// given image points. The term is applied here directly (what Lens does through OpenCV for any distortion): the
// estimate evaluates it at thousands of points for each candidate.
class RadialView {
 public:
  RadialView(const Lens& base, double k1, const std::array<cv::Point2d, 4>& image_corners, const Quad& board_corners)
      : lens_(base),
        centre_(base.camera_matrix(0, 2), base.camera_matrix(1, 2)),
        focal_(base.camera_matrix(0, 0)),
        k1_(k1) {
    lens_.distortion = {k1, 0, 0, 0, 0};
    std::vector<cv::Point2f> from, to;
    for (int k = 0; k < 4; ++k) {
      const cv::Point2d ideal = to_ideal(image_corners[k]);
      from.emplace_back(static_cast<float>(board_corners[k].x), static_cast<float>(board_corners[k].y));
      to.emplace_back(static_cast<float>(ideal.x), static_cast<float>(ideal.y));
    }
    h_ = cv::Matx33d(cv::getPerspectiveTransform(from, to));
    h_inv_ = h_.inv();
  }

  const cv::Matx33d& homography() const { return h_; }
  const Lens& lens() const { return lens_; }

  cv::Point2d to_image(Vec2 p) const {
    const cv::Point2d ideal = apply_homography(h_, {p.x, p.y});
    if (k1_ == 0) return ideal;
    const cv::Point2d q = (ideal - centre_) / focal_;
    return centre_ + q * (focal_ * (1 + k1_ * q.dot(q)));
  }
  Vec2 to_board(cv::Point2d image_px) const {
    const cv::Point2d b = apply_homography(h_inv_, to_ideal(image_px));
    return {b.x, b.y};
  }

 private:
  cv::Point2d to_ideal(cv::Point2d image_px) const {
    if (k1_ == 0) return image_px;
    // The ideal radius r solves r (1 + k1 r²) = r_d: Newton's steps from r_d (the bends the estimate allows keep
    // the curve rising, 1 + 3 k1 r² > 0, over the image).
    const cv::Point2d qd = (image_px - centre_) / focal_;
    const double rd = std::sqrt(qd.dot(qd));
    if (rd < 1e-12) return image_px;
    double r = rd;
    for (int i = 0; i < 8; ++i) r -= (r * (1 + k1_ * r * r) - rd) / (1 + 3 * k1_ * r * r);
    return centre_ + qd * (focal_ * r / rd);
  }

  Lens lens_;
  cv::Point2d centre_;
  double focal_, k1_;
  cv::Matx33d h_, h_inv_;
};

// Bilinear sample of a float image; nullopt outside it.
std::optional<float> sample(const cv::Mat& f, cv::Point2d p) {
  if (!(p.x >= 0 && p.y >= 0 && p.x < f.cols - 1 && p.y < f.rows - 1)) return std::nullopt;
  const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  const float fx = static_cast<float>(p.x - x), fy = static_cast<float>(p.y - y);
  const float* r0 = f.ptr<float>(y);
  const float* r1 = f.ptr<float>(y + 1);
  return (r0[x] * (1 - fx) + r0[x + 1] * fx) * (1 - fy) + (r1[x] * (1 - fx) + r1[x + 1] * fx) * fy;
}

// A point of the drawing found in the image.
struct Measured {
  size_t drawn;       // index into the drawn points
  cv::Point2d image;  // where the line crosses the measured profile
  double px_per_mm;   // image pixels per board mm across the line there
  double pitch_px;    // one pitch there, across the line
};

struct Drawing {
  cv::Mat grey;  // the board drawn top-down, float
  double px_per_mm = 0;
};

// Each drawn point looked for across its line within `search_pitch` of where `view` puts it: the image profile
// across the line is matched (normalised correlation) with the drawing's own profile there, and the best shift
// taken to subpixel. Points whose profile is flat, that fall off the image, match poorly or best at the edge of
// the search are left out.
std::vector<Measured> measure(const cv::Mat& image, const Drawing& drawing, const std::vector<DrawnPoint>& points,
                              const RadialView& view, double pitch_mm, const CornerLensParams& params,
                              double search_pitch, double step_px) {
  std::vector<Measured> out;
  std::vector<float> templ, profile;
  for (size_t i = 0; i < points.size(); ++i) {
    const DrawnPoint& d = points[i];
    const cv::Point2d x0 = view.to_image(d.at);
    constexpr double kEps = 0.25;  // mm
    const cv::Point2d jx = (view.to_image({d.at.x + kEps, d.at.y}) - x0) / kEps;
    const cv::Point2d jy = (view.to_image({d.at.x, d.at.y + kEps}) - x0) / kEps;
    const cv::Matx22d j(jx.x, jy.x, jx.y, jy.y);
    const double det = cv::determinant(j);
    if (!(std::abs(det) > 1e-9)) continue;
    const cv::Matx22d j_inv = j.inv();
    // Across the line in the image: perpendicular to the image of the line's direction.
    const cv::Vec2d along = j * cv::Vec2d(d.normal.y, -d.normal.x);
    cv::Vec2d across(-along[1], along[0]);
    across /= cv::norm(across);
    if (across.dot(j * cv::Vec2d(d.normal.x, d.normal.y)) < 0) across = -across;
    const cv::Vec2d board_per_px = j_inv * across;  // board mm moved per image pixel across the line
    const double mm_across = std::abs(board_per_px.dot(cv::Vec2d(d.normal.x, d.normal.y)));
    if (!(mm_across > 1e-9)) continue;
    const double px_per_mm = 1 / mm_across;
    const double pitch_px = pitch_mm * px_per_mm;
    const int half = static_cast<int>(params.profile_half_pitch * pitch_px / step_px);
    const int reach = static_cast<int>(search_pitch * pitch_px / step_px);
    if (half < 6 || reach < 2) continue;
    const int n = 2 * half + 1;

    templ.assign(n, 0);
    bool inside = true;
    for (int k = 0; k < n && inside; ++k) {
      const double u = (k - half) * step_px;
      const Vec2 b{d.at.x + u * board_per_px[0], d.at.y + u * board_per_px[1]};
      auto v = sample(drawing.grey, board_image_point(b, drawing.px_per_mm));
      if (!v)
        inside = false;
      else
        templ[k] = *v;
    }
    if (!inside) continue;
    double t_mean = 0, t_sq = 0;
    for (float v : templ) t_mean += v;
    t_mean /= n;
    for (float& v : templ) {
      v -= static_cast<float>(t_mean);
      t_sq += v * v;
    }
    if (std::sqrt(t_sq / n) < 8) continue;  // nothing drawn across here to match

    const int m = n + 2 * reach;
    profile.assign(m, 0);
    const cv::Point2d dir(across[0], across[1]);
    for (int k = 0; k < m && inside; ++k) {
      auto v = sample(image, x0 + ((k - half - reach) * step_px) * dir);
      if (!v)
        inside = false;
      else
        profile[k] = *v;
    }
    if (!inside) continue;

    std::vector<double> score(2 * reach + 1, -1);
    for (int s = 0; s <= 2 * reach; ++s) {
      double sum = 0, sq = 0, dot = 0;
      for (int k = 0; k < n; ++k) {
        const double v = profile[s + k];
        sum += v;
        sq += v * v;
        dot += v * templ[k];
      }
      const double var = sq - sum * sum / n;
      if (var < n * 4.0) continue;  // a flat image profile: noise would decide
      score[s] = dot / std::sqrt(var * t_sq);
    }
    const int best = static_cast<int>(std::max_element(score.begin(), score.end()) - score.begin());
    if (best == 0 || best == 2 * reach || score[best] < params.min_match) continue;
    const double a = score[best - 1], b = score[best], c = score[best + 1];
    const double curvature = a - 2 * b + c;
    const double frac = curvature < 0 ? std::clamp(0.5 * (a - c) / curvature, -0.5, 0.5) : 0.0;
    const double shift = (best - reach + frac) * step_px;
    out.push_back({i, x0 + shift * dir, px_per_mm, pitch_px});
  }
  return out;
}

// Each measured point's distance (image pixels, signed) from its drawn line where `view` puts it.
std::vector<double> residuals(const RadialView& view, const std::vector<DrawnPoint>& points,
                              const std::vector<Measured>& measured) {
  std::vector<double> out(measured.size());
  for (size_t i = 0; i < measured.size(); ++i) {
    const DrawnPoint& d = points[measured[i].drawn];
    const Vec2 b = view.to_board(measured[i].image);
    out[i] = ((b.x - d.at.x) * d.normal.x + (b.y - d.at.y) * d.normal.y) * measured[i].px_per_mm;
  }
  return out;
}

double median_abs(std::vector<double> r) {
  if (r.empty()) return 0;
  for (double& v : r) v = std::abs(v);
  std::nth_element(r.begin(), r.begin() + r.size() / 2, r.end());
  return r[r.size() / 2];
}

// The k1 in [-limit, limit] that brings the measured drawing nearest its lines; each point's squared residual
// counts up to `cap_pitch` of a pitch (points on a piece's rim, a hand, a mark not drawn weigh no more than that).
double best_k1(const Lens& base, const std::array<cv::Point2d, 4>& corners, const Quad& board_corners,
               const std::vector<DrawnPoint>& points, const std::vector<Measured>& measured, double limit,
               double cap_pitch) {
  auto cost = [&](double k1) {
    RadialView view(base, k1, corners, board_corners);
    std::vector<double> r = residuals(view, points, measured);
    double sum = 0;
    for (size_t i = 0; i < r.size(); ++i) {
      const double cap = std::max(1.0, cap_pitch * measured[i].pitch_px);
      sum += std::min(r[i] * r[i], cap * cap);
    }
    return sum;
  };
  // A coarse scan first (the capped cost can have more than one dip), then golden sections round the best.
  constexpr int kSteps = 40;
  const double step = 2 * limit / kSteps;
  double best = 0, best_cost = cost(0);
  for (int i = 0; i <= kSteps; ++i) {
    const double k1 = -limit + i * step;
    const double c = cost(k1);
    if (c < best_cost) best = k1, best_cost = c;
  }
  double lo = std::max(-limit, best - step), hi = std::min(limit, best + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double c1 = cost(x1), c2 = cost(x2);
  for (int it = 0; it < 24; ++it) {
    if (c1 < c2) {
      hi = x2, x2 = x1, c2 = c1;
      x1 = hi - g * (hi - lo), c1 = cost(x1);
    } else {
      lo = x1, x1 = x2, c1 = c2;
      x2 = lo + g * (hi - lo), c2 = cost(x2);
    }
  }
  const double refined = (lo + hi) / 2;
  return cost(refined) <= best_cost ? refined : best;
}

}  // namespace

CornerLens fit_corners_with_lens(const BoardModel& model, const cv::Mat& image,
                                 const std::array<cv::Point2d, 4>& image_corners, const CornerLensParams& params) {
  const auto t0 = std::chrono::steady_clock::now();
  CornerLens out;
  out.fit = BoardLocator(model).from_corners(image_corners);  // checks the corners
  const cv::Size size = image.size();
  const cv::Point2d centre((size.width - 1) / 2.0, (size.height - 1) / 2.0);
  out.focal_px = size.width / (2 * std::tan(params.nominal_hfov_deg / 2 * CV_PI / 180));
  Lens base;
  base.image_size = size;
  base.camera_matrix = cv::Matx33d(out.focal_px, 0, centre.x, 0, out.focal_px, centre.y, 0, 0, 1);
  const double corner_r2 = (centre.x * centre.x + centre.y * centre.y) / (out.focal_px * out.focal_px);
  const double limit = params.max_bend / corner_r2;

  cv::Mat grey;
  gray_of(image).convertTo(grey, CV_32F);
  const Quad& board_corners = model.playing_area_corners();
  const RadialView plain(base, 0, image_corners, board_corners);

  // The drawing at about the image's own scale, softened a little as a camera softens it.
  const Vec2 mid{(board_corners[0].x + board_corners[2].x) / 2, (board_corners[0].y + board_corners[2].y) / 2};
  const cv::Point2d m0 = plain.to_image(mid), m1 = plain.to_image({mid.x + model.pitch_mm, mid.y});
  const double image_px_per_mm = cv::norm(m1 - m0) / model.pitch_mm;
  Drawing drawing;
  drawing.px_per_mm = std::clamp(image_px_per_mm, 2.0, 8.0);
  BoardStyle style;
  style.markers = false;
  gray_of(board_image(model, drawing.px_per_mm, style)).convertTo(drawing.grey, CV_32F);
  cv::GaussianBlur(drawing.grey, drawing.grey, cv::Size(), 0.7);

  const std::vector<DrawnPoint> points =
      drawn_points(model, params.sample_step_pitch * model.pitch_mm, static_cast<size_t>(params.min_points));
  // First from where the plain homography puts the drawing, then again from the first estimate's fit.
  std::vector<Measured> first =
      measure(grey, drawing, points, plain, model.pitch_mm, params, params.first_search_pitch, 0.5);
  if (static_cast<int>(first.size()) < params.min_points) {
    out.points = static_cast<int>(first.size());
    out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }
  const double k1_first = best_k1(base, image_corners, board_corners, points, first, limit, 0.08);
  const RadialView guess(base, k1_first, image_corners, board_corners);
  std::vector<Measured> final_points =
      measure(grey, drawing, points, guess, model.pitch_mm, params, params.final_search_pitch, 0.25);
  out.points = static_cast<int>(final_points.size());
  if (out.points >= params.min_points) {
    out.k1 = best_k1(base, image_corners, board_corners, points, final_points, limit, 0.04);
    const RadialView bent(base, out.k1, image_corners, board_corners);
    out.plain_residual_px = median_abs(residuals(plain, points, final_points));
    out.lens_residual_px = median_abs(residuals(bent, points, final_points));
    const bool clearly_better = out.lens_residual_px <= params.keep_ratio * out.plain_residual_px &&
                                out.plain_residual_px - out.lens_residual_px >= params.keep_margin_px;
    if (clearly_better) {
      // Only k1 / f² is seen in the image: the focal length is the one the view's perspective tells (what the
      // pose of the pieces' top planes needs), k1 scaled to it, the same bend.
      Lens lens = bent.lens();
      if (auto f = focal_from_homography(bent.homography(), centre, size)) {
        lens.distortion[0] = out.k1 * (*f / out.focal_px) * (*f / out.focal_px);
        lens.camera_matrix(0, 0) = lens.camera_matrix(1, 1) = *f;
        out.k1 = lens.distortion[0];
        out.focal_px = *f;
      }
      lens.rms_px = out.lens_residual_px;
      lens.views = 0;
      out.fit = BoardLocator(model, {}, lens).from_corners(image_corners);
      out.lens = lens;
    }
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace sb::calib
