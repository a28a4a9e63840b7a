#include "vision/board_appearance.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/board_drawing.h"
#include "vision/column_run.h"
#include "vision/select.h"

namespace sb::vision {

namespace {

constexpr int kRoles = 6;  // calib::Paint's five, then the bare sheet
constexpr int kInk = static_cast<int>(calib::Paint::Ink);
constexpr float kClipped = 250.f;

cv::Point2d apply(const cv::Matx33d& h, double x, double y) {
  cv::Vec3d v = h * cv::Vec3d(x, y, 1);
  return {v[0] / v[2], v[1] / v[2]};
}

// Whether `obs` is a blend of two of the `n` predicted paints (or one of them) as foreign_mask judges one paint:
// its brightness within 0.38–1.55 of theirs, and (where it and both paints are bright enough for their hue to
// tell) its chromaticity within 0.07 of the line between theirs. A paint too dark for its hue to tell adds little
// of it to a blend: it takes the other's. `line` (−1: none) is the index of the drawn lines' colour
// (BoardPaint::lines): a line's core shows darker than that, and a pixel less than twice as bright as it has as
// much of the line as of the paint, whose hue JPEG's chroma and blur leave to chance (a dark brown line's core
// measured 0.09 off its own hue).
bool border_explained(const cv::Vec3f& obs, const cv::Vec3f* preds, int n, int line) {
  const float yo = (obs[0] + obs[1] + obs[2]) / 3.f + 1.f;
  const cv::Vec3f co = obs / (3 * yo);
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) {
      const float ya = (preds[a][0] + preds[a][1] + preds[a][2]) / 3.f + 1.f,
                  yb = (preds[b][0] + preds[b][1] + preds[b][2]) / 3.f + 1.f;
      const bool with_line = a == line || b == line;
      const float floor = with_line ? 0.f : 0.38f * std::min(ya, yb);
      if (yo < floor || yo > 1.55f * std::max(ya, yb)) continue;
      const float hue_floor = with_line ? std::max(25.f, 2 * (a == line ? ya : yb)) : 25.f;
      if (yo <= hue_floor || (ya <= 25 && yb <= 25)) return true;
      cv::Vec3f ca = preds[a] / (3 * ya), cb = preds[b] / (3 * yb);
      if (ya <= 25) ca = cb;
      if (yb <= 25) cb = ca;
      const cv::Vec3f d = cb - ca;
      const float len2 = d.dot(d);
      const float t = len2 > 0 ? std::clamp((co - ca).dot(d) / len2, 0.f, 1.f) : 0.f;
      if (cv::norm(co - (ca + t * d)) <= 0.07) return true;
    }
  return false;
}

// The least sum of squares whose root (as cv::norm takes it, in double) is more than `limit`: a distance of squares
// summed s is more than `limit` exactly when s reaches it (the root never decreases), without the root taken.
double squares_beyond(double limit) {
  double s = limit * limit;
  while (s > 0 && std::sqrt(s) > limit) s = std::nextafter(s, 0.0);
  while (!(std::sqrt(s) > limit)) s = std::nextafter(s, std::numeric_limits<double>::infinity());
  return s;
}

// The falloff as foreign_mask and glare_near use it: evaluated at the middle of each block of 8 columns of a row
// and held across the block. A read judges one paint round every site (the rois overlap, glare_near's windows
// are a pitch wide), so each row's values are computed once, the first time it is asked for, and kept while the
// paint and the image size stay the same: one exp per block instead of one per block per window.
class HeldGain {
 public:
  // The row's values, one per block of 8 columns.
  const float* row(const BoardPaint& paint, cv::Size size, int v) {
    if (size != size_ || paint.light != light_) {
      size_ = size, light_ = paint.light;
      blocks_ = (size.width + 7) / 8;
      values_.assign(static_cast<size_t>(blocks_) * static_cast<size_t>(size.height), 0.f);
      done_.assign(static_cast<size_t>(size.height), 0);
    }
    float* out = values_.data() + static_cast<size_t>(v) * static_cast<size_t>(blocks_);
    if (!done_[static_cast<size_t>(v)]) {
      const float sx = 1.f / static_cast<float>(std::max(1, size.width - 1)),
                  sy = 1.f / static_cast<float>(std::max(1, size.height - 1));
      for (int b = 0; b < blocks_; ++b) out[b] = paint.gain((8 * b + 4) * sx, v * sy);
      done_[static_cast<size_t>(v)] = 1;
    }
    return out;
  }

 private:
  cv::Size size_;
  cv::Vec<float, 6> light_;
  int blocks_ = 0;
  std::vector<float> values_;
  std::vector<uchar> done_;
};

thread_local HeldGain held_gain;

}  // namespace

cv::Mat paint_labels(const Rectifier& rect, cv::Mat* borders) {
  const calib::BoardModel& model = rect.model();
  const CanonicalFrame& tf = rect.top_frame();
  // The board drawn with one pure colour per role, finer than the top-plane image.
  calib::BoardStyle style;
  style.paper = {1, 1, 1};
  style.light = {1, 0, 0};
  style.dark = {0, 1, 0};
  style.ink = {0, 0, 0};
  style.water = {0, 0, 1};
  style.land = {1, 1, 0};
  style.markers = false;
  const double ppm = tf.px_per_mm * 1.5;
  cv::Mat drawn = calib::board_image(model, ppm, style);
  // Codes in BGR, in role order: light, dark, ink, water, land, sheet.
  static const cv::Vec3b codes[kRoles] = {{0, 0, 255}, {0, 255, 0},   {0, 0, 0},
                                          {255, 0, 0}, {0, 255, 255}, {255, 255, 255}};
  cv::Mat fine(drawn.size(), CV_8U, cv::Scalar(kNoPaint));
  for (int y = 0; y < drawn.rows; ++y) {
    const auto* row = drawn.ptr<cv::Vec3b>(y);
    uchar* o = fine.ptr<uchar>(y);
    for (int x = 0; x < drawn.cols; ++x) {
      int best = -1, best_d = 60 * 60;
      for (int k = 0; k < kRoles; ++k) {
        const int d0 = row[x][0] - codes[k][0], d1 = row[x][1] - codes[k][1], d2 = row[x][2] - codes[k][2];
        const int d = d0 * d0 + d1 * d1 + d2 * d2;
        if (d < best_d) best_d = d, best = k;
      }
      if (best >= 0) o[x] = static_cast<uchar>(best);
    }
  }
  // Pixels next to another paint are neither: the fit and the camera are never exact to a pixel.
  cv::Mat lo, hi;
  const cv::Mat k = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(5, 5));
  cv::erode(fine, lo, k);
  cv::dilate(fine, hi, k);
  // What such a pixel may show instead: any of the paints within that reach, or a blend of two of them.
  cv::Mat near_roles;
  if (borders) {
    near_roles = cv::Mat::zeros(fine.size(), CV_8U);
    for (int r = 0; r < kRoles; ++r) {
      cv::Mat reach;
      cv::dilate(fine == r, reach, k);
      cv::bitwise_or(near_roles, cv::Scalar(1 << r), near_roles, reach);
    }
  }
  // The drawn lines' own pixels (kLineCore): too thin for any to keep the ink's label, they tell its colour.
  const cv::Mat ink = fine == kInk;
  fine.setTo(kNoPaint, lo != hi);
  if (borders) {
    near_roles.setTo(0, fine != kNoPaint);
    cv::bitwise_or(near_roles, cv::Scalar(kLineCore), near_roles, ink & (fine == kNoPaint));
  }

  // Each top-plane pixel shows the board point H_0⁻¹ · H_h of its own position.
  const cv::Matx33d fwd = rect.plane_homography(0).inv() * rect.plane_homography(rect.top_height_mm());
  cv::Mat labels(tf.size, CV_8U, cv::Scalar(kNoPaint));
  if (borders) *borders = cv::Mat::zeros(tf.size, CV_8U);
  for (int v = 0; v < tf.size.height; ++v) {
    uchar* o = labels.ptr<uchar>(v);
    uchar* n = borders ? borders->ptr<uchar>(v) : nullptr;
    for (int u = 0; u < tf.size.width; ++u) {
      const calib::Vec2 mm = tf.to_mm({static_cast<double>(u), static_cast<double>(v)});
      const cv::Point2d b = apply(fwd, mm.x, mm.y);
      const cv::Point2d p = calib::board_image_point({b.x, b.y}, ppm);
      const int x = static_cast<int>(std::lround(p.x)), y = static_cast<int>(std::lround(p.y));
      if (x >= 0 && y >= 0 && x < fine.cols && y < fine.rows) {
        o[u] = fine.at<uchar>(y, x);
        if (n) n[u] = near_roles.at<uchar>(y, x);
      }
    }
  }
  return labels;
}

float BoardPaint::gain(float x, float y) const {
  return std::exp(light[0] + light[1] * x + light[2] * y + light[3] * x * x + light[4] * x * y + light[5] * y * y);
}

float BoardPaint::empty_board_gain(int k, float x, float y) const {
  if (!empty_board_measured) return 1.f;
  const cv::Vec<float, 6>& f = empty_board_ratio[static_cast<size_t>(k)];
  return std::exp(f[0] + f[1] * x + f[2] * y + f[3] * x * x + f[4] * x * y + f[5] * y * y);
}

BoardPaint measure_paint(const cv::Mat& top, const cv::Mat& labels, const cv::Mat& exclude) {
  BoardPaint paint;
  struct Sample {
    float x, logy;
    cv::Vec3f bgr;
    bool in = true;
  };
  // Every other pixel of every other row, in a quincunx (fewer lose a Morris board's thin lines and points). A
  // sampled row's samples are kept by role, each role's in the row's order: a run of one role is summed in
  // registers.
  struct Run {
    size_t begin, end;
    int role;
  };
  struct Row {
    float y;
    size_t first_run, end_run;
  };
  thread_local std::vector<Sample> samples;
  thread_local std::vector<Run> runs;
  thread_local std::vector<Row> rows;
  thread_local std::array<std::vector<Sample>, kRoles> row_samples;
  samples.clear(), runs.clear(), rows.clear();
  samples.reserve(top.total() / 4 + 16);
  const float sx = 1.f / static_cast<float>(std::max(1, top.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, top.rows - 1));
  std::array<int, kRoles> count{};
  std::array<cv::Vec3i, kRoles> clipped{};
  // log Y of every sum of three 8-bit channels, as the samples compute it (Y = sum / 3 + 1).
  static const std::array<float, 3 * 255 + 1> log_y = [] {
    std::array<float, 3 * 255 + 1> t{};
    for (int k = 0; k <= 3 * 255; ++k) t[static_cast<size_t>(k)] = std::log(static_cast<float>(k) / 3.f + 1.f);
    return t;
  }();
  for (int v = 0; v < top.rows; v += 2) {
    for (auto& rs : row_samples) rs.clear();
    const auto* row = top.ptr<cv::Vec3b>(v);
    const uchar* l = labels.ptr<uchar>(v);
    const uchar* e = exclude.empty() ? nullptr : exclude.ptr<uchar>(v);
    for (int u = (v / 2) % 2; u < top.cols; u += 2) {
      if (l[u] == kNoPaint || (e && e[u])) continue;
      const cv::Vec3f c(row[u][0], row[u][1], row[u][2]);
      for (int k = 0; k < 3; ++k) clipped[l[u]][k] += row[u][k] >= kClippedLevel;
      row_samples[l[u]].push_back({u * sx, log_y[static_cast<size_t>(row[u][0] + row[u][1] + row[u][2])], c});
    }
    const size_t first = runs.size();
    for (int r = 0; r < kRoles; ++r) {
      const auto& rs = row_samples[static_cast<size_t>(r)];
      if (rs.empty()) continue;
      runs.push_back({samples.size(), samples.size() + rs.size(), r});
      samples.insert(samples.end(), rs.begin(), rs.end());
      count[static_cast<size_t>(r)] += static_cast<int>(rs.size());
    }
    if (runs.size() > first) rows.push_back({v * sy, first, runs.size()});
  }
  for (int r = 0; r < kRoles; ++r) {
    paint.seen[static_cast<size_t>(r)] = count[static_cast<size_t>(r)] >= 40;
    for (int k = 0; k < 3; ++k)
      paint.clipped[static_cast<size_t>(r)][k] = static_cast<float>(clipped[static_cast<size_t>(r)][k]) /
                                                 static_cast<float>(std::max(1, count[static_cast<size_t>(r)]));
  }
  // log Y = offset(role) + falloff(x, y), by least squares, dropping what the fit does not explain (pieces,
  // shadows, glare) and fitting again. A sample's row of the design is one role's indicator and the five falloff
  // terms g = (x, y, x², xy, y²). Within a sampled row y is fixed: every sum of the normal equations is a sum of
  // the row's sums of 1, x, x², x³, x⁴ and log Y, x·log Y, x²·log Y times a power of y, so a sample costs a
  // handful of additions, not the 21 products of the full normal equations.
  constexpr int kFall = 5;
  const int n_par = kRoles + kFall;
  std::vector<double> sol(static_cast<size_t>(n_par), 0.0);
  for (int iter = 0; iter < 4; ++iter) {
    double n_role[kRoles] = {0}, y_role[kRoles] = {0}, g_role[kRoles][kFall] = {{0}};
    double gg[kFall][kFall] = {{0}}, gy[kFall] = {0};
    const double* f = sol.data() + kRoles;
    const double limit = iter == 1 ? 0.35 : 0.18;
    for (const Row& row : rows) {
      const double y = row.y;
      // The falloff along this row: f0·x + f1·y + f2·x² + f3·x·y + f4·y² = (f1·y + f4·y²) + x·(f0 + f3·y + f2·x).
      const double along = f[1] * y + f[4] * y * y, slope = f[0] + f[3] * y;
      double n = 0, sx1 = 0, sx2 = 0, sx3 = 0, sx4 = 0, sl = 0, sxl = 0, sxxl = 0;
      for (size_t k = row.first_run; k < row.end_run; ++k) {
        const Run& run = runs[k];
        const int r = run.role;
        if (!paint.seen[static_cast<size_t>(r)]) continue;
        const double offset = sol[static_cast<size_t>(r)] + along;
        double rn = 0, rx = 0, rxx = 0, rx3 = 0, rx4 = 0, rl = 0, rxl = 0, rxxl = 0;
        for (size_t j = run.begin; j < run.end; ++j) {
          Sample& s = samples[j];
          const double x = s.x, l = s.logy;
          if (iter > 0) s.in = std::abs(l - (offset + x * (slope + f[2] * x))) < limit;
          if (!s.in) continue;
          const double xx = x * x;
          rn += 1, rx += x, rxx += xx, rx3 += xx * x, rx4 += xx * xx;
          rl += l, rxl += x * l, rxxl += xx * l;
        }
        if (rn == 0) continue;
        n_role[r] += rn, y_role[r] += rl;
        g_role[r][0] += rx, g_role[r][1] += y * rn, g_role[r][2] += rxx;
        g_role[r][3] += y * rx, g_role[r][4] += y * y * rn;
        n += rn, sx1 += rx, sx2 += rxx, sx3 += rx3, sx4 += rx4, sl += rl, sxl += rxl, sxxl += rxxl;
      }
      if (n == 0) continue;
      const double y2 = y * y, y3 = y2 * y;
      gy[0] += sxl, gy[1] += y * sl, gy[2] += sxxl, gy[3] += y * sxl, gy[4] += y2 * sl;
      gg[0][0] += sx2, gg[0][1] += y * sx1, gg[0][2] += sx3, gg[0][3] += y * sx2, gg[0][4] += y2 * sx1;
      gg[1][1] += y2 * n, gg[1][2] += y * sx2, gg[1][3] += y2 * sx1, gg[1][4] += y3 * n;
      gg[2][2] += sx4, gg[2][3] += y * sx3, gg[2][4] += y2 * sx2;
      gg[3][3] += y2 * sx2, gg[3][4] += y3 * sx1;
      gg[4][4] += y2 * y2 * n;
    }
    cv::Mat ata = cv::Mat::zeros(n_par, n_par, CV_64F), atb = cv::Mat::zeros(n_par, 1, CV_64F);
    for (int r = 0; r < kRoles; ++r) {
      ata.at<double>(r, r) = n_role[r] == 0 ? 1 : n_role[r];  // a role not seen: keep it out of the solve
      atb.at<double>(r) = y_role[r];
      for (int a = 0; a < kFall; ++a) ata.at<double>(r, kRoles + a) = ata.at<double>(kRoles + a, r) = g_role[r][a];
    }
    for (int a = 0; a < kFall; ++a) {
      atb.at<double>(kRoles + a) = gy[a];
      for (int b = a; b < kFall; ++b)
        ata.at<double>(kRoles + a, kRoles + b) = ata.at<double>(kRoles + b, kRoles + a) = gg[a][b];
      ata.at<double>(kRoles + a, kRoles + a) += 1e-3;  // a little damping for the falloff
    }
    cv::Mat x;
    if (!cv::solve(ata, atb, x, cv::DECOMP_CHOLESKY)) return paint;
    for (int k = 0; k < n_par; ++k) sol[static_cast<size_t>(k)] = x.at<double>(k);
  }
  paint.light = cv::Vec<float, 6>(0.f, static_cast<float>(sol[kRoles]), static_cast<float>(sol[kRoles + 1]),
                                  static_cast<float>(sol[kRoles + 2]), static_cast<float>(sol[kRoles + 3]),
                                  static_cast<float>(sol[kRoles + 4]));
  // Each role's colour: the median, light falloff taken out, of the pixels the fit kept.
  thread_local std::array<std::array<std::vector<float>, 3>, kRoles> ch;
  for (int r = 0; r < kRoles; ++r)
    for (auto& c : ch[static_cast<size_t>(r)]) {
      c.clear();
      if (paint.seen[static_cast<size_t>(r)]) c.reserve(static_cast<size_t>(count[static_cast<size_t>(r)]));
    }
  for (const Row& row : rows)
    for (size_t k = row.first_run; k < row.end_run; ++k) {
      const Run& run = runs[k];
      if (!paint.seen[static_cast<size_t>(run.role)]) continue;
      auto& rc = ch[static_cast<size_t>(run.role)];
      for (size_t j = run.begin; j < run.end; ++j) {
        const Sample& s = samples[j];
        if (!s.in) continue;
        const float g = paint.gain(s.x, row.y);
        for (int c = 0; c < 3; ++c) rc[static_cast<size_t>(c)].push_back(s.bgr[c] / g);
      }
    }
  for (int r = 0; r < kRoles; ++r) {
    if (!paint.seen[static_cast<size_t>(r)]) continue;
    auto& rc = ch[static_cast<size_t>(r)];
    if (rc[0].size() < 20) {
      paint.seen[static_cast<size_t>(r)] = false;
      continue;
    }
    for (int c = 0; c < 3; ++c) paint.colour[static_cast<size_t>(r)][c] = middle_value(rc[static_cast<size_t>(c)]);
  }
  // The main role is chosen among the roles whose colour was measured. The one with the most pixels may have lost
  // them all to the fit: on a small board the bare sheet round it, printed with the markers, can cover more of the
  // top plane than the drawn board and fit its falloff too poorly to keep 20 pixels (morris3 seed 9715101 image
  // 1337). Chosen all the same, it left the board's white reference black and the empty board unkept, so the
  // first placement read empty and the set was never learnt.
  paint.main_role = -1;
  for (int r = 0; r < kRoles; ++r)
    if (paint.seen[static_cast<size_t>(r)] &&
        (paint.main_role < 0 || count[static_cast<size_t>(r)] > count[static_cast<size_t>(paint.main_role)]))
      paint.main_role = r;
  paint.ok = true;
  return paint;
}

cv::Mat foreign_mask(const cv::Mat& top, const cv::Mat& labels, const BoardPaint& paint,
                     const std::vector<cv::Rect>* rois, const std::vector<float>* glare, const cv::Mat* borders) {
  cv::Mat mask(top.size(), CV_8U, cv::Scalar(kNoPaint));
  if (!paint.ok) return mask;
  const cv::Rect all(0, 0, top.cols, top.rows);
  const std::vector<cv::Rect> whole{all};
  const std::vector<cv::Rect>& judged = rois ? *rois : whole;
  for (size_t r = 0; r < judged.size(); ++r) {
    const cv::Rect roi = judged[r] & all;
    const float allowance = glare && rois && r < glare->size() ? std::max(0.f, (*glare)[r]) : 0.f;
    // The falloff changes slowly: evaluate it every 8 pixels and hold it.
    for (int v = roi.y; v < roi.y + roi.height; ++v) {
      const auto* row = top.ptr<cv::Vec3b>(v);
      const uchar* l = labels.ptr<uchar>(v);
      uchar* o = mask.ptr<uchar>(v);
      // Held from the last multiple of 8, as for the whole image, so a pixel is judged alike either way.
      const float* gains = held_gain.row(paint, top.size(), v);
      const uchar* near = borders ? borders->ptr<uchar>(v) : nullptr;
      for (int u = roi.x; u < roi.x + roi.width; ++u) {
        const cv::Vec3f obs(row[u][0], row[u][1], row[u][2]);
        auto predict = [&](int role) {
          cv::Vec3f pred = (role < 0 ? paint.lines : paint.colour[static_cast<size_t>(role)]) * gains[u >> 3];
          // A lamp's glare, as glare_near measures it, is judged on the channels it left below white: a channel
          // clipped at white tells only that the glare added at least what its paint lacked.
          if (allowance > 0) {
            float excess = std::numeric_limits<float>::max();
            for (int k = 0; k < 3; ++k)
              if (obs[k] < kClipped) excess = std::min(excess, obs[k] - pred[k]);
            const float added = excess == std::numeric_limits<float>::max() ? 0.f : std::clamp(excess, 0.f, allowance);
            pred += cv::Vec3f(added, added, added);
          }
          // The camera shows no channel brighter than white: a paint the light (a lamp switched on) brightens
          // beyond white in one channel is seen clipped there, and unclipped its prediction's colour is another (Cờ
          // toán seed 6007801591341153: a light wooden sheet under a warm lamp predicted 280 in red, seen 253, its
          // empty sites' centres foreign in chroma and read as blue pieces).
          for (int k = 0; k < 3; ++k) pred[k] = std::min(pred[k], 255.f);
          return pred;
        };
        const float yo = (obs[0] + obs[1] + obs[2]) / 3.f + 1.f;
        if (l[u] != kNoPaint && paint.seen[l[u]]) {
          const cv::Vec3f pred = predict(l[u]);
          const float yp = (pred[0] + pred[1] + pred[2]) / 3.f + 1.f;
          const float q = yo / yp;
          bool alien = q < 0.38f || q > 1.55f;
          if (!alien && yo > 25 && yp > 25) {
            // cv::norm(co − cp) > 0.07: the squares summed in double, against the least sum whose root is more.
            static const double beyond = squares_beyond(0.07);
            const cv::Vec3f co = obs / (3 * yo), cp = pred / (3 * yp);
            const cv::Vec3f d = co - cp;
            double sq = 0;
            for (int k = 0; k < 3; ++k) sq += static_cast<double>(d[k]) * static_cast<double>(d[k]);
            alien = sq >= beyond;
          }
          o[u] = alien ? 1 : 0;
          continue;
        }
        if (!near || l[u] != kNoPaint || near[u] == 0) continue;
        // A border between paints (a line and the sheet round it) is judged as a blend of the paints within
        // reach of it, each as bright or as dark as one alone may be: a colour of none of their hues lies on it
        // (Cờ tư lệnh's infantry: a light face on the light sheet whose red bar, at the site's centre, runs along
        // the line below it). Only where every paint within reach is known.
        std::array<cv::Vec3f, kRoles> preds;
        int n = 0, line = -1;
        bool known = true;
        for (int r = 0; r < kRoles; ++r)
          if (near[u] & (1 << r)) {
            if (paint.seen[static_cast<size_t>(r)])
              preds[static_cast<size_t>(n++)] = predict(r);
            else if (r == kInk && paint.lines_seen)
              line = n, preds[static_cast<size_t>(n++)] = predict(-1);
            else
              known = false;
          }
        if (!known) continue;
        o[u] = border_explained(obs, preds.data(), n, line) ? 0 : 1;
      }
    }
  }
  return mask;
}

void measure_lines(const cv::Mat& top, const cv::Mat& borders, BoardPaint& paint) {
  paint.lines_seen = false;
  if (!paint.ok || paint.seen[static_cast<size_t>(kInk)]) return;
  std::array<std::vector<float>, 3> ch;
  const float sx = 1.f / static_cast<float>(std::max(1, top.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, top.rows - 1));
  for (int v = 0; v < top.rows; ++v) {
    const auto* row = top.ptr<cv::Vec3b>(v);
    const uchar* b = borders.ptr<uchar>(v);
    for (int u = 0; u < top.cols; ++u) {
      if (!(b[u] & kLineCore)) continue;
      const float g = paint.gain(static_cast<float>(u) * sx, static_cast<float>(v) * sy);
      for (int c = 0; c < 3; ++c) ch[static_cast<size_t>(c)].push_back(row[u][c] / g);
    }
  }
  if (ch[0].size() < 50) return;
  // The darker quarter: the pixels drawn in ink are mostly a line's edges, which blur and the fit blend with the
  // paint beside it; pieces on the crossings hide a fifth of them on a full board.
  for (int c = 0; c < 3; ++c) {
    std::vector<float>& v = ch[static_cast<size_t>(c)];
    const auto q = v.begin() + static_cast<long>(v.size() / 4);
    std::nth_element(v.begin(), q, v.end());
    paint.lines[c] = *q;
  }
  paint.lines_seen = true;
}

namespace {

// A pixel's excess over the paint model as glare_near counts it: per unclipped channel what it shows above its
// paint's prediction, the least of them; a pixel clipped at white in every channel only says the glare added at
// least what its paint left below white. NaN where the paint is not modelled.
float pixel_excess(const cv::Vec3b& px, uchar label, const BoardPaint& paint, float gain) {
  if (label == kNoPaint || !paint.seen[label]) return std::numeric_limits<float>::quiet_NaN();
  const cv::Vec3f pred = paint.colour[label] * gain;
  float least = 1e9f, bound = 0;
  for (int k = 0; k < 3; ++k) {
    if (px[k] < kClipped)
      least = std::min(least, px[k] - pred[k]);
    else
      bound = std::max(bound, 255.f - pred[k]);
  }
  return least < 1e8f ? least : bound;
}

// The pixels within `reach` of `centre` painted otherwise than it, in rows from y0: `excess_of(v)` gives row v's
// excesses (NaN: not modelled). The quantile of glare_near from them.
template <typename RowExcess>
float quantile_near(const cv::Mat& labels, cv::Point2f centre, float reach, float share, float below,
                    RowExcess&& excess_of) {
  const int cx = std::clamp(static_cast<int>(std::lround(centre.x)), 0, labels.cols - 1);
  const int cy = std::clamp(static_cast<int>(std::lround(centre.y)), 0, labels.rows - 1);
  const uchar own = labels.at<uchar>(cy, cx);
  const int x0 = std::max(0, static_cast<int>(centre.x - reach)),
            x1 = std::min(labels.cols - 1, static_cast<int>(centre.x + reach));
  const int y0 = std::max(0, static_cast<int>(centre.y - reach)),
            y1 = std::min(labels.rows - 1, static_cast<int>(centre.y + reach));
  // Each row's pixels within reach form one run of columns (the test below grows with |u − centre.x| however
  // it rounds), so a run holds exactly the pixels the test admits.
  struct Run {
    int v, a, b;
  };
  thread_local std::vector<Run> runs;
  runs.clear();
  for (int v = y0; v <= y1; ++v) {
    const float dy = v - centre.y;
    const ColumnRun run = run_of(x0, x1, centre.x, [&](int u) {
      const float dx = u - centre.x;
      return !(dx * dx + dy * dy > reach * reach);
    });
    if (run.a <= run.b) runs.push_back({v, run.a, run.b});
  }
  // First only counted: most callers give a floor, and the quantile is usually below it (no glare), which the
  // counts tell without the values being gathered and ordered.
  // Four pixels at a time: each lane adds 1 (subtracts a true mask's −1) for a pixel counted.
  size_t count = 0, under = 0;
  const cv::v_uint32x4 own4 = cv::v_setall_u32(own);
  const cv::v_float32x4 below4 = cv::v_setall_f32(below);
  cv::v_int32x4 count4 = cv::v_setzero_s32(), under4 = cv::v_setzero_s32();
  for (const Run& run : runs) {
    const uchar* l = labels.ptr<uchar>(run.v);
    const float* e = excess_of(run.v);
    int u = run.a;
    for (; u + 3 <= run.b; u += 4) {
      const cv::v_float32x4 e4 = cv::v_load(e + u);
      // Another paint than the centre's, and modelled (NaN is not equal to itself).
      const cv::v_int32x4 counted =
          cv::v_reinterpret_as_s32(cv::v_load_expand_q(l + u) != own4) & cv::v_reinterpret_as_s32(e4 == e4);
      count4 -= counted;
      under4 -= counted & cv::v_reinterpret_as_s32(e4 < below4);
    }
    for (; u <= run.b; ++u) {
      const bool counted = l[u] != own && !std::isnan(e[u]);
      count += counted;
      under += counted && e[u] < below;
    }
  }
  count += static_cast<size_t>(cv::v_reduce_sum(count4));
  under += static_cast<size_t>(cv::v_reduce_sum(under4));
  if (count < 30) return 0;
  const size_t rank = static_cast<size_t>(std::clamp(share, 0.f, 1.f) * static_cast<float>(count - 1));
  // More values below `below` than the rank: the quantile is below it too.
  if (under > rank) return 0;
  thread_local std::vector<float> excess;
  excess.clear();
  for (const Run& run : runs) {
    const uchar* l = labels.ptr<uchar>(run.v);
    const float* e = excess_of(run.v);
    for (int u = run.a; u <= run.b; ++u)
      if (l[u] != own && !std::isnan(e[u])) excess.push_back(e[u]);
  }
  auto at = excess.begin() + static_cast<long>(rank);
  std::nth_element(excess.begin(), at, excess.end());
  return std::max(0.f, *at);
}

}  // namespace

float glare_near(const cv::Mat& top, const cv::Mat& labels, const BoardPaint& paint, cv::Point2f centre, float reach,
                 float share, float below) {
  if (!paint.ok) return 0;
  thread_local std::vector<float> row_excess;
  row_excess.resize(static_cast<size_t>(top.cols));
  const int x0 = std::max(0, static_cast<int>(centre.x - reach)),
            x1 = std::min(top.cols - 1, static_cast<int>(centre.x + reach));
  return quantile_near(labels, centre, reach, share, below, [&](int v) {
    const auto* row = top.ptr<cv::Vec3b>(v);
    const uchar* l = labels.ptr<uchar>(v);
    const float* gains = held_gain.row(paint, top.size(), v);
    for (int u = x0; u <= x1; ++u)
      row_excess[static_cast<size_t>(u)] = pixel_excess(row[u], l[u], paint, gains[u >> 3]);
    return row_excess.data();
  });
}

GlareField::GlareField(const cv::Mat& top_bgr, const cv::Mat& labels, const BoardPaint& paint)
    : top_(top_bgr), labels_(labels), paint_(paint) {}

const float* GlareField::excess_row(int v) {
  if (excess_.empty()) {
    excess_.create(top_.size(), CV_32F);
    done_.assign(static_cast<size_t>(top_.rows), 0);
  }
  float* e = excess_.ptr<float>(v);
  if (!done_[static_cast<size_t>(v)]) {
    const auto* row = top_.ptr<cv::Vec3b>(v);
    const uchar* l = labels_.ptr<uchar>(v);
    const float* gains = held_gain.row(paint_, top_.size(), v);
    for (int u = 0; u < top_.cols; ++u) e[u] = pixel_excess(row[u], l[u], paint_, gains[u >> 3]);
    done_[static_cast<size_t>(v)] = 1;
  }
  return e;
}

float GlareField::near(cv::Point2f centre, float reach, float share, float below) {
  if (!paint_.ok) return 0;
  return quantile_near(labels_, centre, reach, share, below, [&](int v) { return excess_row(v); });
}

float GlareField::near_own(cv::Point2f centre, float inner, float outer, float share, float below,
                           const std::vector<Silhouette>& hidden) {
  if (!paint_.ok) return 0;
  const int cx = std::clamp(static_cast<int>(std::lround(centre.x)), 0, labels_.cols - 1);
  const int cy = std::clamp(static_cast<int>(std::lround(centre.y)), 0, labels_.rows - 1);
  const uchar own = labels_.at<uchar>(cy, cx);
  if (own == kNoPaint || !paint_.seen[own]) return 0;
  const int x0 = std::max(0, static_cast<int>(centre.x - outer)),
            x1 = std::min(top_.cols - 1, static_cast<int>(centre.x + outer));
  const int y0 = std::max(0, static_cast<int>(centre.y - outer)),
            y1 = std::min(top_.rows - 1, static_cast<int>(centre.y + outer));
  // Each silhouette's segment and the box it can hide pixels in: a pixel more than a pixel outside the box lies
  // farther than the radius from the segment, whatever the rounding (tested exactly only inside it).
  struct Cover {
    cv::Point2f top, ab;
    float len2, r2, x0, x1, y0, y1;
  };
  thread_local std::vector<Cover> covers;
  thread_local std::vector<const Cover*> row_covers;
  covers.clear();
  for (const Silhouette& s : hidden) {
    const float m = s.radius + 1;
    covers.push_back({s.top, s.base - s.top, (s.base - s.top).dot(s.base - s.top), s.radius * s.radius,
                      std::min(s.top.x, s.base.x) - m, std::max(s.top.x, s.base.x) + m, std::min(s.top.y, s.base.y) - m,
                      std::max(s.top.y, s.base.y) + m});
  }
  const float inner2 = inner * inner, outer2 = outer * outer;
  thread_local std::vector<float> excess;
  excess.clear();
  size_t under = 0;
  for (int v = y0; v <= y1; ++v) {
    const float dy = v - centre.y;
    // The row's columns within `outer`, less those within `inner` (both runs centred on the centre).
    const ColumnRun out = run_of(x0, x1, centre.x, [&](int u) {
      const float dx = u - centre.x;
      return !(dx * dx + dy * dy > outer2);
    });
    if (out.a > out.b) continue;
    const ColumnRun in = run_of(out.a, out.b, centre.x, [&](int u) {
      const float dx = u - centre.x;
      return dx * dx + dy * dy < inner2;
    });
    const float* e = excess_row(v);
    const uchar* l = labels_.ptr<uchar>(v);
    row_covers.clear();
    const float fv = static_cast<float>(v);
    for (const Cover& s : covers)
      if (fv >= s.y0 && fv <= s.y1) row_covers.push_back(&s);
    auto take = [&](int a, int b) {
      for (int u = a; u <= b; ++u) {
        if (l[u] != own || std::isnan(e[u])) continue;
        const cv::Point2f p(static_cast<float>(u), static_cast<float>(v));
        const float fu = static_cast<float>(u);
        bool covered = false;
        for (const Cover* s : row_covers) {
          if (fu < s->x0 || fu > s->x1) continue;
          // The nearest point of the segment from the top's centre to the base's.
          const float t = s->len2 > 0 ? std::clamp((p - s->top).dot(s->ab) / s->len2, 0.f, 1.f) : 0.f;
          const cv::Point2f q = p - (s->top + t * s->ab);
          if (q.dot(q) < s->r2) {
            covered = true;
            break;
          }
        }
        if (covered) continue;
        excess.push_back(e[u]);
        under += e[u] < below;
      }
    };
    if (in.a > in.b) {
      take(out.a, out.b);
    } else {
      take(out.a, in.a - 1);
      take(in.b + 1, out.b);
    }
  }
  if (excess.size() < 30) return 0;
  const size_t rank = static_cast<size_t>(std::clamp(share, 0.f, 1.f) * static_cast<float>(excess.size() - 1));
  // More values below `below` than the rank: the quantile is below it too, and need not be found.
  if (under > rank) return 0;
  auto at = excess.begin() + static_cast<long>(rank);
  std::nth_element(excess.begin(), at, excess.end());
  return std::max(0.f, *at);
}

float foreign_share(const cv::Mat& mask, cv::Point2f centre, float radius, bool wider) {
  const int x0 = std::max(0, static_cast<int>(centre.x - radius)),
            x1 = std::min(mask.cols - 1, static_cast<int>(centre.x + radius));
  const int y0 = std::max(0, static_cast<int>(centre.y - radius)),
            y1 = std::min(mask.rows - 1, static_cast<int>(centre.y + radius));
  int counted = 0, foreign = 0;
  const float r2 = radius * radius;
  for (int v = y0; v <= y1; ++v) {
    const uchar* m = mask.ptr<uchar>(v);
    for (int u = x0; u <= x1; ++u) {
      const float dx = u - centre.x, dy = v - centre.y;
      if (dx * dx + dy * dy > r2 || m[u] == kNoPaint) continue;
      ++counted;
      foreign += m[u];
    }
  }
  if (counted >= kJudgedPixelsMin) return static_cast<float>(foreign) / static_cast<float>(counted);
  // A small board's point where many lines meet (morris3's centre at 27 px per pitch: eight lines and a dot) shows
  // almost nothing but the borders between paints within the centre's radius: judged over a wider circle, which
  // reaches the sheet between the lines, rather than taken for half foreign (read as a piece on the empty start).
  return wider ? foreign_share(mask, centre, kWiderCentre * radius, false) : 0.5f;
}

}  // namespace sb::vision
