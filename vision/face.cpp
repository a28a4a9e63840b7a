#include "vision/face.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

namespace sb::vision {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Gradient magnitudes (Sobel 3×3, which is 4× an intensity step per pixel): edges weaker than kEdgeMin do not
// vote, edges stronger than kEdgeFull vote with full weight.
constexpr float kEdgeMin = 24.f;
constexpr float kEdgeFull = 120.f;

cv::Vec3f sample_bgr(const cv::Mat& img, float x, float y) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  if (x0 < 0 || y0 < 0 || x0 + 1 >= img.cols || y0 + 1 >= img.rows) return {0, 0, 0};
  const float fx = x - x0, fy = y - y0;
  const auto* r0 = img.ptr<cv::Vec3b>(y0) + x0;
  const auto* r1 = img.ptr<cv::Vec3b>(y0 + 1) + x0;
  cv::Vec3f out;
  for (int c = 0; c < 3; ++c)
    out[c] = (1 - fy) * ((1 - fx) * r0[0][c] + fx * r0[1][c]) + fy * ((1 - fx) * r1[0][c] + fx * r1[1][c]);
  return out;
}

float sample_f(const cv::Mat& img, float x, float y) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  if (x0 < 0 || y0 < 0 || x0 + 1 >= img.cols || y0 + 1 >= img.rows) return 0;
  const float fx = x - x0, fy = y - y0;
  const float* r0 = img.ptr<float>(y0) + x0;
  const float* r1 = img.ptr<float>(y0 + 1) + x0;
  return (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
}

// The peak a perfect circle of radius r leaves in disc_votes' accumulator, per unit of circle length: measured
// once on a drawn disc, so that a disc's score reads as the share of its circle that shows an edge.
float vote_norm() {
  static const float norm = [] {
    const float r = 16;
    cv::Mat img(64, 64, CV_8UC3, cv::Scalar(40, 40, 40));
    cv::circle(img, cv::Point(32 * 16, 32 * 16), static_cast<int>(r * 16), cv::Scalar(220, 220, 220), cv::FILLED,
               cv::LINE_AA, 4);
    cv::Mat acc = cv::Mat::zeros(img.size(), CV_32F);
    disc_votes(img, cv::Rect(0, 0, 64, 64), {r * 0.93f, r, r * 1.07f}, acc);
    double mx = 0;
    cv::minMaxLoc(acc, nullptr, &mx);
    return static_cast<float>(mx / (2 * kPi * r));
  }();
  return norm;
}

}  // namespace

void disc_votes(const cv::Mat& bgr, cv::Rect roi, const std::vector<float>& radii, cv::Mat& acc, const cv::Mat& base,
                const cv::Mat& voters) {
  roi &= cv::Rect(0, 0, bgr.cols, bgr.rows);
  if (roi.width < 3 || roi.height < 3) return;
  if (acc.size() != bgr.size() || acc.type() != CV_32F) acc = cv::Mat::zeros(bgr.size(), CV_32F);
  // Kept from call to call: a plane's gradients are megabytes, whose pages a fresh allocation would fault in again.
  static thread_local cv::Mat gx, gy;
  cv::Sobel(bgr(roi), gx, CV_16S, 1, 0, 3);
  cv::Sobel(bgr(roi), gy, CV_16S, 0, 1, 3);
  const int ch = bgr.channels();
  const float rmax = radii.empty() ? 0 : *std::max_element(radii.begin(), radii.end());
  // Votes land up to rmax outside the roi: the accumulator is written wherever it exists.
  float* const acc0 = acc.ptr<float>(0);
  const size_t acc_step = acc.step1();
  const int acc_cols = acc.cols, acc_rows = acc.rows;
  // Row by row in three passes, each a plain loop over arrays the compiler can vectorise: the strongest
  // channel's gradient of every pixel, the pixels that vote (edge strong enough, inside `voters`), and each
  // vote's cell and weight; then the votes are added in the same order as one pixel at a time would (x, then
  // radius, the centre along +n before the one along −n), so the sums are the same to the last bit.
  const std::vector<float> rs = radii;  // not aliased by the accumulator's stores
  const int nr = static_cast<int>(rs.size());
  constexpr int kMin2 = static_cast<int>(kEdgeMin * kEdgeMin);
  const int w = roi.width;
  const size_t wp = static_cast<size_t>(w) + 4;  // room for a last group of four
  std::vector<int> vx_at(wp), gbx(wp), gby(wp), gbest(wp);
  std::vector<float> fbx(wp), fby(wp), fbest(wp, 1.f), b0v(wp), b1v(wp), nxv(wp), nyv(wp), wout(wp), win(wp);
  // Per vote (radius k, the centre along +n or −n): the cell's index in the accumulator (−1: off it).
  std::vector<int> cell(static_cast<size_t>(2 * nr) * wp);
  for (int y = 1; y < roi.height - 1; ++y) {
    const short* px = gx.ptr<short>(y);
    const short* py = gy.ptr<short>(y);
    const cv::Vec2f* brow = base.empty() ? nullptr : base.ptr<cv::Vec2f>(roi.y + y) + roi.x;
    const uchar* vrow = voters.empty() ? nullptr : voters.ptr<uchar>(roi.y + y) + roi.x;
    const float oy = static_cast<float>(roi.y + y);
    // The channel with the strongest edge: pieces may differ from the board in hue only (the first of equals).
    int x = 1;
    if (ch == 3) {
      // Eight pixels at a time, from x = 0 (the pixel at 0 is never a voter).
      for (x = 0; x + 8 <= w; x += 8) {
        cv::v_int16x8 ax[3], ay[3];
        cv::v_load_deinterleave(px + 3 * x, ax[0], ax[1], ax[2]);
        cv::v_load_deinterleave(py + 3 * x, ay[0], ay[1], ay[2]);
        cv::v_int32x4 bx_lo, bx_hi, by_lo, by_hi, best_lo, best_hi;
        for (int c = 0; c < 3; ++c) {
          cv::v_int32x4 gx_lo, gx_hi, gy_lo, gy_hi;
          cv::v_expand(ax[c], gx_lo, gx_hi);
          cv::v_expand(ay[c], gy_lo, gy_hi);
          const cv::v_int32x4 m_lo = gx_lo * gx_lo + gy_lo * gy_lo, m_hi = gx_hi * gx_hi + gy_hi * gy_hi;
          if (c == 0) {
            bx_lo = gx_lo, bx_hi = gx_hi, by_lo = gy_lo, by_hi = gy_hi, best_lo = m_lo, best_hi = m_hi;
            continue;
          }
          const cv::v_int32x4 better_lo = m_lo > best_lo, better_hi = m_hi > best_hi;
          best_lo = cv::v_select(better_lo, m_lo, best_lo), best_hi = cv::v_select(better_hi, m_hi, best_hi);
          bx_lo = cv::v_select(better_lo, gx_lo, bx_lo), bx_hi = cv::v_select(better_hi, gx_hi, bx_hi);
          by_lo = cv::v_select(better_lo, gy_lo, by_lo), by_hi = cv::v_select(better_hi, gy_hi, by_hi);
        }
        const size_t xs = static_cast<size_t>(x);
        cv::v_store(gbx.data() + xs, bx_lo), cv::v_store(gbx.data() + xs + 4, bx_hi);
        cv::v_store(gby.data() + xs, by_lo), cv::v_store(gby.data() + xs + 4, by_hi);
        cv::v_store(gbest.data() + xs, best_lo), cv::v_store(gbest.data() + xs + 4, best_hi);
      }
      x = std::max(x, 1);
    }
    for (; x < w - 1; ++x) {
      const short* gxp = px + x * ch;
      const short* gyp = py + x * ch;
      int bx = gxp[0], by = gyp[0];
      int best = bx * bx + by * by;
      for (int c = 1; c < ch; ++c) {
        const int vx = gxp[c], vy = gyp[c];
        const int m = vx * vx + vy * vy;
        const bool better = m > best;
        best = better ? m : best;
        bx = better ? vx : bx;
        by = better ? vy : by;
      }
      gbx[static_cast<size_t>(x)] = bx, gby[static_cast<size_t>(x)] = by, gbest[static_cast<size_t>(x)] = best;
    }
    // The voters, packed.
    int n = 0;
    for (int x = 1; x < w - 1; ++x) {
      const size_t xs = static_cast<size_t>(x);
      vx_at[static_cast<size_t>(n)] = x;
      fbx[static_cast<size_t>(n)] = static_cast<float>(gbx[xs]);
      fby[static_cast<size_t>(n)] = static_cast<float>(gby[xs]);
      fbest[static_cast<size_t>(n)] = static_cast<float>(gbest[xs]);
      if (brow) b0v[static_cast<size_t>(n)] = brow[x][0], b1v[static_cast<size_t>(n)] = brow[x][1];
      n += gbest[xs] >= kMin2 && (!vrow || vrow[x]);
    }
    if (n == 0) continue;
    // Each voter's direction and weights (four at a time; the arrays have room for a last partial group).
    // For the centre o + s·n the edge's outward side is −s·n: no vote when that faces the base.
    const cv::v_float32x4 one = cv::v_setall_f32(1.f), full = cv::v_setall_f32(kEdgeFull), zero = cv::v_setzero_f32();
    const cv::v_float32x4 lim_hi = cv::v_setall_f32(0.35f), lim_lo = cv::v_setall_f32(-0.35f);
    for (int j = 0; j < n; j += 4) {
      const size_t js = static_cast<size_t>(j);
      const cv::v_float32x4 mag = cv::v_sqrt(cv::v_load(fbest.data() + js));
      const cv::v_float32x4 wt = cv::v_min(one, mag / full);
      const cv::v_float32x4 nx = cv::v_load(fbx.data() + js) / mag, ny = cv::v_load(fby.data() + js) / mag;
      cv::v_store(nxv.data() + js, nx);
      cv::v_store(nyv.data() + js, ny);
      cv::v_float32x4 facing = zero;
      if (brow) {
        const cv::v_float32x4 b0 = cv::v_load(b0v.data() + js), b1 = cv::v_load(b1v.data() + js);
        const cv::v_float32x4 bl = cv::v_sqrt(b0 * b0 + b1 * b1);
        facing = cv::v_select(bl > one, (nx * b0 + ny * b1) / bl, zero);
      }
      cv::v_store(wout.data() + js, cv::v_select(facing < lim_lo, zero, wt));  // the centre at +r·n
      cv::v_store(win.data() + js, cv::v_select(facing > lim_hi, zero, wt));   // the centre at −r·n
    }
    const cv::v_float32x4 half = cv::v_setall_f32(0.5f), neg_half = cv::v_setall_f32(-0.5f), vy0 = cv::v_setall_f32(oy);
    const cv::v_int32x4 cols = cv::v_setall_s32(acc_cols), rows = cv::v_setall_s32(acc_rows);
    const cv::v_int32x4 stride = cv::v_setall_s32(static_cast<int>(acc_step)), off = cv::v_setall_s32(-1);
    const cv::v_int32x4 x0 = cv::v_setall_s32(roi.x);
    auto cell_of = [&](const cv::v_float32x4& fx, const cv::v_float32x4& fy) {
      // Rounded to the nearest pixel (halves up, as lround for the non-negative positions kept).
      const cv::v_int32x4 cx = cv::v_trunc(fx + half), cy = cv::v_trunc(fy + half);
      const cv::v_int32x4 on = cv::v_reinterpret_as_s32((fx > neg_half) & (fy > neg_half)) & (cx < cols) & (cy < rows);
      return cv::v_select(on, cy * stride + cx, off);
    };
    for (int k = 0; k < nr; ++k) {
      const cv::v_float32x4 r = cv::v_setall_f32(rs[static_cast<size_t>(k)]);
      int* c_out = cell.data() + static_cast<size_t>(2 * k) * wp;
      int* c_in = c_out + wp;
      for (int j = 0; j < n; j += 4) {
        const size_t js = static_cast<size_t>(j);
        const cv::v_float32x4 ox = cv::v_cvt_f32(x0 + cv::v_load(vx_at.data() + js));
        const cv::v_float32x4 dx = r * cv::v_load(nxv.data() + js), dy = r * cv::v_load(nyv.data() + js);
        cv::v_store(c_out + js, cell_of(ox + dx, vy0 + dy));
        cv::v_store(c_in + js, cell_of(ox - dx, vy0 - dy));
      }
    }
    for (int j = 0; j < n; ++j) {
      const size_t js = static_cast<size_t>(j);
      const float wo = wout[js], wi = win[js];
      for (int k = 0; k < nr; ++k) {
        const int a = cell[static_cast<size_t>(2 * k) * wp + js], b = cell[static_cast<size_t>(2 * k + 1) * wp + js];
        if (a >= 0) acc0[a] += wo;
        if (b >= 0) acc0[b] += wi;
      }
    }
  }
  const int m = static_cast<int>(std::ceil(rmax)) + 3;
  cv::Rect grown(roi.x - m, roi.y - m, roi.width + 2 * m, roi.height + 2 * m);
  grown &= cv::Rect(0, 0, acc.cols, acc.rows);
  cv::Mat a = acc(grown);
  cv::GaussianBlur(a, a, cv::Size(5, 5), 1.0);
}

Disc refine_disc(const cv::Mat& bgr, Disc guess, float tol, cv::Point2f base) {
  constexpr int kRays = 32;
  std::vector<cv::Point2f> edge;
  std::vector<float> strength;
  const float base_len = std::hypot(base.x, base.y);
  const cv::Point2f base_dir = base_len > 0 ? base * (1.f / base_len) : cv::Point2f(0, 0);
  const float r0 = guess.radius * (1 - tol), r1 = guess.radius * (1 + tol);
  const float step = 0.5f;
  // The radii each ray samples and how much an edge at each is weighed towards the expected radius: a square's
  // border or a neighbour just beyond the face must not win over the face's own rim.
  const float spread = std::max(1.f, 0.5f * (r1 - r0));
  std::array<float, 128> rs, pull;
  int steps = 0;
  for (float r = r0; r <= r1 && steps < static_cast<int>(rs.size()); r += step) {
    const float off = (r - step / 2 - guess.radius) / spread;
    rs[static_cast<size_t>(steps)] = r;
    pull[static_cast<size_t>(steps++)] = std::exp(-0.5f * off * off);
  }
  // The rays' directions, as each ray computed them (a read refines every site's disc twice).
  static const std::array<cv::Point2f, kRays> directions = [] {
    std::array<cv::Point2f, kRays> d;
    for (int i = 0; i < kRays; ++i) {
      const float a = static_cast<float>(2 * kPi * i / kRays);
      d[static_cast<size_t>(i)] = {std::cos(a), std::sin(a)};
    }
    return d;
  }();
  for (int i = 0; i < kRays; ++i) {
    const float dx = directions[static_cast<size_t>(i)].x, dy = directions[static_cast<size_t>(i)].y;
    // Towards the base the top face's rim meets the piece's own side: a weak edge with the silhouette beyond.
    if (base_len > 0.06f * guess.radius && dx * base_dir.x + dy * base_dir.y > 0.45f) continue;
    float best = 0, best_r = -1, best_raw = 0;
    cv::Vec3f prev = sample_bgr(bgr, guess.centre.x + dx * (r0 - step), guess.centre.y + dy * (r0 - step));
    for (int k = 0; k < steps; ++k) {
      const float r = rs[static_cast<size_t>(k)];
      const cv::Vec3f c = sample_bgr(bgr, guess.centre.x + dx * r, guess.centre.y + dy * r);
      const double d0 = c[0] - prev[0], d1 = c[1] - prev[1], d2 = c[2] - prev[2];
      const float raw = static_cast<float>(std::sqrt(d0 * d0 + d1 * d1 + d2 * d2));  // as cv::norm
      const float d = raw * pull[static_cast<size_t>(k)];
      if (d > best) best = d, best_r = r - step / 2, best_raw = raw;
      prev = c;
    }
    if (best_r > 0 && best_raw > 3) {
      edge.emplace_back(guess.centre.x + dx * best_r, guess.centre.y + dy * best_r);
      strength.push_back(best);
    }
  }
  Disc out = guess;
  std::vector<bool> use(edge.size(), true);
  for (int iter = 0; iter < 3; ++iter) {
    // Kåsa's algebraic circle fit: x² + y² + D x + E y + F = 0.
    cv::Matx33d ata = cv::Matx33d::zeros();
    cv::Vec3d atb(0, 0, 0);
    int n = 0;
    for (size_t i = 0; i < edge.size(); ++i) {
      if (!use[i]) continue;
      const double x = edge[i].x - guess.centre.x, y = edge[i].y - guess.centre.y;
      const cv::Vec3d row(x, y, 1);
      const double b = -(x * x + y * y);
      ata += row * row.t();
      atb += row * b;
      ++n;
    }
    if (n < 7) break;
    cv::Vec3d sol;
    if (!cv::solve(cv::Mat(ata), cv::Mat(atb), cv::Mat(sol, false), cv::DECOMP_CHOLESKY)) break;
    const double cx = -sol[0] / 2, cy = -sol[1] / 2, rr = cx * cx + cy * cy - sol[2];
    if (!(rr > 0)) break;
    const double r = std::sqrt(rr);
    if (r < r0 * 0.9 || r > r1 * 1.1 || std::hypot(cx, cy) > guess.radius * 0.5) break;
    out.centre = {static_cast<float>(guess.centre.x + cx), static_cast<float>(guess.centre.y + cy)};
    out.radius = static_cast<float>(r);
    // Drop the rays whose edge is far from the circle (a neighbour, a mark, the piece's side) and fit again.
    bool changed = false;
    for (size_t i = 0; i < edge.size(); ++i) {
      const double d = std::abs(std::hypot(edge[i].x - out.centre.x, edge[i].y - out.centre.y) - r);
      const bool keep = d < std::max(1.0, 0.06 * r);
      if (keep != use[i]) changed = true;
      use[i] = keep;
    }
    if (!changed) break;
  }
  return out;
}

Disc disc_peak(const cv::Mat& acc, cv::Rect window, float radius, cv::Point2f base) {
  Disc d;
  d.radius = radius;
  window &= cv::Rect(0, 0, acc.cols, acc.rows);
  if (window.empty()) return d;
  double mx = 0;
  cv::Point at;
  cv::minMaxLoc(acc(window), nullptr, &mx, nullptr, &at);
  d.centre = {static_cast<float>(window.x + at.x), static_cast<float>(window.y + at.y)};
  // Where the base is offset, only the far part of the rim votes (disc_votes): score against that part.
  const float arc =
      std::hypot(base.x, base.y) > 1.f ? static_cast<float>((kPi + 2 * std::asin(0.35)) / (2 * kPi)) : 1.f;
  d.score = static_cast<float>(mx / (2 * kPi * radius * vote_norm() * arc));
  return d;
}

Disc refine_peak(const cv::Mat& bgr, const Disc& peak, float tol, cv::Point2f base) {
  Disc d = refine_disc(bgr, peak, tol, base);
  return refine_disc(bgr, d, tol * 0.7f, base);
}

Disc find_disc(const cv::Mat& bgr, const cv::Mat& acc, cv::Rect window, float radius, float tol, cv::Point2f base) {
  const Disc peak = disc_peak(acc, window, radius, base);
  // An empty window leaves the disc where it is.
  if ((window & cv::Rect(0, 0, acc.cols, acc.rows)).empty()) return peak;
  return refine_peak(bgr, peak, tol, base);
}

const std::array<float, kFaceSize * kFaceSize>& face_radii() {
  static const auto table = [] {
    std::array<float, kFaceSize * kFaceSize> t{};
    const float c0 = (kFaceSize - 1) / 2.f;
    for (int v = 0; v < kFaceSize; ++v)
      for (int u = 0; u < kFaceSize; ++u)
        t[static_cast<size_t>(v * kFaceSize + u)] = std::hypot(u - c0, v - c0) / kFaceRadius;
    return t;
  }();
  return table;
}

namespace {

// The face-patch pixels cut_face measures, in row order: the inner ones (within 0.85 of the radius) with their
// radii, and the rim's (0.9 to 1 of it). The same for every face, so found once rather than per pixel per face.
struct FaceRings {
  std::vector<int> inner, rim;  // index in the patch
  std::vector<float> inner_r;
};

const FaceRings& face_rings() {
  static const FaceRings table = [] {
    FaceRings t;
    const auto& radii = face_radii();
    for (int i = 0; i < kFaceSize * kFaceSize; ++i) {
      const float r = radii[static_cast<size_t>(i)];
      if (r < 0.85f) {
        t.inner.push_back(i);
        t.inner_r.push_back(r);
      } else if (r >= 0.9f && r <= 1.0f) {
        t.rim.push_back(i);
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

void face_patch(const cv::Mat& bgr, const cv::Matx23d& m, cv::Mat& out) {
  // OpenCV's fixed point: positions in 1/1024 pixel rounded to 1/32, bilinear weights in 1/32768.
  constexpr int kAbBits = 10, kAbScale = 1 << kAbBits, kTabBits = 5, kTab = 1 << kTabBits;
  constexpr int kRoundDelta = kAbScale / kTab / 2;
  auto reference = [&] {
    cv::warpAffine(bgr, out, m, cv::Size(kFaceSize, kFaceSize), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                   cv::BORDER_REPLICATE);
  };
  if (bgr.type() != CV_8UC3 || m(0, 1) != 0 || m(1, 0) != 0) return reference();
  // As cv::warpAffine computes them: per column the x offset, per row the y position (without cross terms a
  // column's x is the same in every row, a row's y in every column).
  int col[kFaceSize], col_w[kFaceSize], row[kFaceSize], row_w[kFaceSize];
  const int x0 = cvRound(m(0, 2) * kAbScale) + kRoundDelta;
  for (int u = 0; u < kFaceSize; ++u) {
    const int x = (x0 + cvRound(m(0, 0) * u * kAbScale)) >> (kAbBits - kTabBits);
    col[u] = x >> kTabBits, col_w[u] = x & (kTab - 1);
    if (col[u] < 0 || col[u] > bgr.cols - 2) return reference();  // OpenCV's border rule applies
  }
  for (int v = 0; v < kFaceSize; ++v) {
    const int y = (cvRound((m(1, 1) * v + m(1, 2)) * kAbScale) + kRoundDelta) >> (kAbBits - kTabBits);
    row[v] = y >> kTabBits, row_w[v] = y & (kTab - 1);
    if (row[v] < 0 || row[v] > bgr.rows - 2) return reference();
  }
  out.create(kFaceSize, kFaceSize, CV_8UC3);
  for (int v = 0; v < kFaceSize; ++v) {
    const uchar* s0 = bgr.ptr<uchar>(row[v]);
    const uchar* s1 = bgr.ptr<uchar>(row[v] + 1);
    const int fy = row_w[v];
    uchar* o = out.ptr<uchar>(v);
    for (int u = 0; u < kFaceSize; ++u) {
      const int fx = col_w[u];
      // The weights of OpenCV's table: (1 − f) and f of each axis, products exact in 1/32768.
      const int w0 = (kTab - fx) * (kTab - fy) * 32, w1 = fx * (kTab - fy) * 32, w2 = (kTab - fx) * fy * 32,
                w3 = fx * fy * 32;
      const uchar* a = s0 + 3 * col[u];
      const uchar* b = s1 + 3 * col[u];
      for (int c = 0; c < 3; ++c)
        o[3 * u + c] = static_cast<uchar>((a[c] * w0 + a[c + 3] * w1 + b[c] * w2 + b[c + 3] * w3 + (1 << 14)) >> 15);
    }
  }
}

Face cut_face(const cv::Mat& top_bgr, const Disc& disc) {
  Face f;
  const float s = disc.radius / kFaceRadius;
  const float c0 = (kFaceSize - 1) / 2.f;
  // patch (u, v) → top image (cx + (u − c0)·s, cy + (v − c0)·s)
  cv::Matx23d m(s, 0, disc.centre.x - c0 * s, 0, s, disc.centre.y - c0 * s);
  cv::Mat patch8;
  face_patch(top_bgr, m, patch8);
  if (patch8.depth() != CV_8U) patch8.convertTo(patch8, CV_8U);  // top-plane images are 8-bit BGR
  patch8.convertTo(f.patch, CV_32FC3);

  // The inner pixels' colours and distances from the body, in buffers kept per thread (a read cuts 99 faces),
  // sized once for the fixed set of inner pixels and written by index.
  const FaceRings& rings = face_rings();
  const size_t inner_n = rings.inner.size();
  thread_local std::vector<cv::Vec3f> inner;
  thread_local std::vector<float> dist, inner_r;
  thread_local std::vector<int> dist2;
  inner.resize(inner_n);
  inner_r.resize(inner_n);
  dist.resize(inner_n + 4);  // room for a last group of four roots
  dist2.resize(inner_n + 4);
  const auto* patch = f.patch.ptr<cv::Vec3f>();
  const auto* patch_bytes = patch8.ptr<cv::Vec3b>();
  // The patch holds whole grey levels: each channel's median is read off its histogram.
  int hist[3][256] = {{0}};
  for (size_t i = 0; i < inner_n; ++i) {
    const int at = rings.inner[i];
    inner[i] = patch[at];
    inner_r[i] = rings.inner_r[i];
    for (int c = 0; c < 3; ++c) ++hist[c][patch_bytes[at][c]];
  }
  cv::Vec3f rim(0, 0, 0);
  for (const int at : rings.rim) rim += patch[at];
  const int rim_n = static_cast<int>(rings.rim.size());
  f.rim = rim_n ? rim / rim_n : rim;
  int body_level[3];
  for (int c = 0; c < 3; ++c) {
    const int mid = static_cast<int>(inner_n / 2);  // the value nth_element would put at this index
    int below = 0, level = 0;
    while (level < 255 && below + hist[c][level] <= mid) below += hist[c][level++];
    f.body[c] = static_cast<float>(level);
    body_level[c] = level;
  }
  // Each inner pixel's distance from the body as cv::norm gives it (the root of the squares summed in double). The
  // pixel and the body are whole grey levels: the squares sum to a whole number, exact in an int and in a float,
  // and a float's root rounds to the same float whether taken in single or in double precision. So the squares
  // are summed in ints and their roots taken four at a time in float.
  for (size_t i = 0; i < inner_n; ++i) {
    const cv::Vec3b& px = patch_bytes[rings.inner[i]];
    const int d0 = px[0] - body_level[0], d1 = px[1] - body_level[1], d2 = px[2] - body_level[2];
    dist2[i] = d0 * d0 + d1 * d1 + d2 * d2;
  }
  for (size_t i = inner_n; i < dist2.size(); ++i) dist2[i] = 0;
  for (size_t i = 0; i < inner_n; i += 4)
    cv::v_store(dist.data() + i, cv::v_sqrt(cv::v_cvt_f32(cv::v_load(dist2.data() + i))));
  dist.resize(inner_n);
  // The 95th percentile of the distances is the root of the 95th percentile of their squares (the root keeps
  // their order): the square of that rank is found by counting the squares, first by their upper bits (at most
  // 3 · 255² < 763 · 256), then the low eight bits of those in its bin.
  const size_t rank95 = inner_n * 95 / 100;
  int upper[763] = {0};
  for (size_t i = 0; i < inner_n; ++i) ++upper[dist2[i] >> 8];
  size_t below95 = 0;
  int bin = 0;
  while (below95 + static_cast<size_t>(upper[bin]) <= rank95) below95 += static_cast<size_t>(upper[bin++]);
  int lower[256] = {0};
  for (size_t i = 0; i < inner_n; ++i)
    if ((dist2[i] >> 8) == bin) ++lower[dist2[i] & 255];
  int low = 0;
  while (below95 + static_cast<size_t>(lower[low]) <= rank95) below95 += static_cast<size_t>(lower[low++]);
  const float d95 = std::sqrt(static_cast<float>(bin * 256 + low));
  f.mark = f.body;
  f.symbol_mark = f.body;
  if (d95 > 10) {
    cv::Vec3f sum(0, 0, 0);
    float length = 0;
    int n = 0;
    for (size_t i = 0; i < inner.size(); ++i)
      if (dist[i] > 0.5f * d95) sum += inner[i], length += dist[i], ++n;
    if (n > 0) f.mark = sum / n;
    f.symbol_mark = f.mark;
    // Marks that cover much of a small or blurred face pull the median halfway to them: the far tail then
    // holds the body's own pixels on one side and the marks on the other, and their mean falls back on the
    // median (a face "without marks"). The tail is split along its main direction; a symbol's marks are the
    // part nearer the centre, the body the part round it.
    if (n > 0 && cv::norm(f.mark - f.body) < 0.5 * length / n) {
      cv::Matx33f scatter = cv::Matx33f::zeros();
      for (size_t i = 0; i < inner.size(); ++i)
        if (dist[i] > 0.5f * d95) {
          const cv::Vec3f o = inner[i] - f.body;
          scatter += o * o.t();
        }
      cv::Vec3f axis(1, 1, 1);
      for (int it = 0; it < 12; ++it) {
        axis = scatter * axis;
        const float len = static_cast<float>(cv::norm(axis));
        if (len < 1e-6f) break;
        axis /= len;
      }
      cv::Vec3f part_sum[2] = {{0, 0, 0}, {0, 0, 0}};
      float part_r[2] = {0, 0};
      int part_n[2] = {0, 0};
      for (size_t i = 0; i < inner.size(); ++i) {
        if (dist[i] <= 0.5f * d95) continue;
        const int k = (inner[i] - f.body).dot(axis) > 0 ? 0 : 1;
        part_sum[k] += inner[i], part_r[k] += inner_r[i], ++part_n[k];
      }
      if (part_n[0] > 0 && part_n[1] > 0) {
        const int m = part_r[0] / part_n[0] < part_r[1] / part_n[1] ? 0 : 1;
        f.symbol_mark = part_sum[m] / part_n[m];
      }
    }
  }
  f.mark_contrast = static_cast<float>(cv::norm(f.mark - f.body));
  if (f.mark_contrast > 1) {
    const cv::Vec3f axis = f.mark - f.body;
    const float inv = 1.f / axis.dot(axis);
    int n = 0;
    for (const auto& c : inner)
      if ((c - f.body).dot(axis) * inv > 0.5f) ++n;
    f.mark_share = static_cast<float>(n) / static_cast<float>(std::max<size_t>(1, inner.size()));
  }
  return f;
}

namespace {

// The pixels of a face patch within 0.9 of the radius, in row order: the ones mark_map measures. Their positions
// in top-face radii from the centre, and the sums of the plane fit's terms over all of them (its first pass uses
// every pixel), summed in the same order as the fit sums them.
struct MarkPixels {
  std::vector<int> at;  // index in the patch
  std::vector<float> x, y;
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
};

const MarkPixels& mark_pixels() {
  static const MarkPixels table = [] {
    MarkPixels t;
    const float c0 = (kFaceSize - 1) / 2.f;
    const auto& radii = face_radii();
    for (int v = 0; v < kFaceSize; ++v)
      for (int u = 0; u < kFaceSize; ++u) {
        if (radii[static_cast<size_t>(v * kFaceSize + u)] > 0.9f) continue;
        t.at.push_back(v * kFaceSize + u);
        t.x.push_back((u - c0) / kFaceRadius);
        t.y.push_back((v - c0) / kFaceRadius);
      }
    for (size_t i = 0; i < t.at.size(); ++i) {
      const double x = t.x[i], y = t.y[i];
      t.n += 1, t.sx += x, t.sy += y, t.sxx += x * x, t.sxy += x * y, t.syy += y * y;
    }
    return t;
  }();
  return table;
}

}  // namespace

cv::Mat mark_map(const Face& face, const cv::Vec3f& body, const cv::Vec3f& mark) {
  cv::Mat out = cv::Mat::zeros(kFaceSize, kFaceSize, CV_32F);
  const cv::Vec3f axis = mark - body;
  const float len2 = axis.dot(axis);
  if (len2 < 4) return out;
  const float inv = 1.f / len2;
  const cv::Mat whole = face.patch.isContinuous() ? face.patch : face.patch.clone();
  const MarkPixels& mp = mark_pixels();
  const size_t count = mp.at.size();
  const float* px = mp.x.data();
  const float* py = mp.y.data();
  // Each pixel's position along the body → mark axis (1 at the mark's colour).
  thread_local std::vector<float> ms, vals;
  ms.resize(count);
  const auto* patch = whole.ptr<cv::Vec3f>();
  for (size_t i = 0; i < count; ++i) ms[i] = (patch[mp.at[i]] - body).dot(axis) * inv;
  // Light falls unevenly across a face (the lamp's direction, a glossy sheen): take a plane fitted to the body
  // (the pixels that are not marks) off before deciding what is mark. Normal equations of m ≈ a0 + ax·x + ay·y.
  double a0 = 0, ax = 0, ay = 0;
  for (int iter = 0; iter < 3; ++iter) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, sm = 0, sxm = 0, sym = 0;
    if (iter == 0) {
      // Every pixel: the terms of the position alone are the table's.
      n = mp.n, sx = mp.sx, sy = mp.sy, sxx = mp.sxx, sxy = mp.sxy, syy = mp.syy;
      for (size_t i = 0; i < count; ++i) {
        const double x = px[i], y = py[i], m = ms[i];
        sm += m, sxm += x * m, sym += y * m;
      }
    } else {
      for (size_t i = 0; i < count; ++i) {
        const double x = px[i], y = py[i], m = ms[i];
        if (std::abs(m - (a0 + ax * x + ay * y)) > 0.22) continue;
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y;
        sm += m, sxm += x * m, sym += y * m;
      }
    }
    if (n < 30) break;
    // Cholesky of the 3×3 normal matrix, by hand (cv::solve's set-up costs more than the solve).
    const double l00 = std::sqrt(n), l10 = sx / l00, l20 = sy / l00;
    const double d11 = sxx - l10 * l10;
    if (!(d11 > 1e-12)) break;
    const double l11 = std::sqrt(d11), l21 = (sxy - l20 * l10) / l11;
    const double d22 = syy - l20 * l20 - l21 * l21;
    if (!(d22 > 1e-12)) break;
    const double l22 = std::sqrt(d22);
    const double z0 = sm / l00, z1 = (sxm - l10 * z0) / l11, z2 = (sym - l20 * z0 - l21 * z1) / l22;
    ay = z2 / l22;
    ax = (z1 - l21 * ay) / l11;
    a0 = (z0 - l10 * ax - l20 * ay) / l00;
  }
  for (size_t i = 0; i < count; ++i) {
    const double x = px[i], y = py[i];
    ms[i] = static_cast<float>(ms[i] - (a0 + ax * x + ay * y));
  }
  // Scale so that the marks' cores are near 1 whatever the contrast: by the 97th percentile, the least of the
  // values from that rank up (what nth_element would put there), kept in a heap whose least is on top (a value
  // not above it, most of them, costs one comparison).
  const size_t top_n = count - count * 97 / 100;
  vals.clear();
  for (size_t i = 0; i < count; ++i) {
    const float m = ms[i];
    if (vals.size() < top_n) {
      vals.push_back(m);
      std::push_heap(vals.begin(), vals.end(), std::greater<float>());
    } else if (m > vals.front()) {
      std::pop_heap(vals.begin(), vals.end(), std::greater<float>());
      vals.back() = m;
      std::push_heap(vals.begin(), vals.end(), std::greater<float>());
    }
  }
  const float scale = 1.f / std::max(0.35f, vals.front());
  float* o = out.ptr<float>();
  for (size_t i = 0; i < count; ++i) o[mp.at[i]] = std::clamp(ms[i] * scale, -0.5f, 1.5f);
  return out;
}

namespace {

constexpr int kFacePixels = kFaceSize * kFaceSize;
static_assert(kFaceSize % 16 == 0, "FaceBlur takes sixteen pixels of a row at a time");

// A Gaussian blur of a face-sized float picture as cv::GaussianBlur makes it for a float image (its kernel size
// for σ, mirrored border), without the per-call set-up that costs more than the blur on 48² pixels.
class FaceBlur {
 public:
  explicit FaceBlur(double sigma) {
    const int ksize = cvRound(sigma * 4 * 2 + 1) | 1;
    const cv::Mat k = cv::getGaussianKernel(ksize, sigma, CV_32F);
    radius_ = ksize / 2;
    kernel_.assign(k.ptr<float>(), k.ptr<float>() + ksize);
  }
  void apply(const float* in, float* out) const {
    const int r = radius_, n = kFaceSize;
    auto mirror = [n](int i) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
    const float* k = kernel_.data();
    float tmp[kFacePixels];
    const float* rows[kFaceSize + 64];
    // Four pixels at a time, each pixel's sum taken over the kernel in order.
    for (int y = 0; y < n; ++y) blur_across(in, y, tmp);
    for (int i = -r; i < n + r; ++i) rows[i + r] = tmp + mirror(i) * n;
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; x += 16) {
        cv::v_float32x4 a0 = cv::v_setzero_f32(), a1 = a0, a2 = a0, a3 = a0;
        for (int j = 0; j <= 2 * r; ++j) {
          const cv::v_float32x4 kj = cv::v_setall_f32(k[j]);
          const float* p = rows[y + j] + x;
          a0 = a0 + kj * cv::v_load(p), a1 = a1 + kj * cv::v_load(p + 4);
          a2 = a2 + kj * cv::v_load(p + 8), a3 = a3 + kj * cv::v_load(p + 12);
        }
        float* o = out + y * n + x;
        cv::v_store(o, a0), cv::v_store(o + 4, a1), cv::v_store(o + 8, a2), cv::v_store(o + 12, a3);
      }
  }
  // apply()'s values in the groups of four pixels of a row (columns 4g … 4g + 3) where `group[y][g]` is set
  // (others are left as they were): only the rows those groups' sums reach are blurred across, and down only
  // those groups. Each pixel's value is the same as apply()'s, to the bit: its sums are taken lane by lane, in
  // the same order.
  void apply_where(const float* in, const bool (*group)[kFaceSize / 4], float* out) const {
    const int r = radius_, n = kFaceSize;
    auto mirror = [n](int i) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
    const float* k = kernel_.data();
    float tmp[kFacePixels];
    const float* rows[kFaceSize + 64];
    bool across[kFaceSize] = {};
    for (int y = 0; y < n; ++y) {
      bool any = false;
      for (int g = 0; g < n / 4; ++g) any = any || group[y][g];
      if (any)
        for (int j = -r; j <= r; ++j) across[mirror(y + j)] = true;
    }
    for (int y = 0; y < n; ++y)
      if (across[y]) blur_across(in, y, tmp);
    for (int i = -r; i < n + r; ++i) rows[i + r] = tmp + mirror(i) * n;
    for (int y = 0; y < n; ++y)
      for (int g = 0; g < n / 4; ++g) {
        if (!group[y][g]) continue;
        cv::v_float32x4 a = cv::v_setzero_f32();
        for (int j = 0; j <= 2 * r; ++j) a = a + cv::v_setall_f32(k[j]) * cv::v_load(rows[y + j] + 4 * g);
        cv::v_store(out + y * n + 4 * g, a);
      }
  }

 private:
  // Row y's sums across (the first pass) into `tmp`, sixteen pixels at a time, each over the kernel in order.
  void blur_across(const float* in, int y, float* tmp) const {
    const int r = radius_, n = kFaceSize;
    auto mirror = [n](int i) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
    const float* k = kernel_.data();
    float pad[kFaceSize + 64];
    for (int i = -r; i < n + r; ++i) pad[i + r] = in[y * n + mirror(i)];
    for (int x = 0; x < n; x += 16) {
      cv::v_float32x4 a0 = cv::v_setzero_f32(), a1 = a0, a2 = a0, a3 = a0;
      for (int j = 0; j <= 2 * r; ++j) {
        const cv::v_float32x4 kj = cv::v_setall_f32(k[j]);
        const float* p = pad + x + j;
        a0 = a0 + kj * cv::v_load(p), a1 = a1 + kj * cv::v_load(p + 4);
        a2 = a2 + kj * cv::v_load(p + 8), a3 = a3 + kj * cv::v_load(p + 12);
      }
      float* t = tmp + y * n + x;
      cv::v_store(t, a0), cv::v_store(t + 4, a1), cv::v_store(t + 8, a2), cv::v_store(t + 12, a3);
    }
  }

  int radius_ = 0;
  std::vector<float> kernel_;
};

// 8-connected parts of a face-sized binary picture: per pixel its part (0: none, parts from 1), and per part its
// area and bounding box.
struct FaceParts {
  int label[kFacePixels];
  struct Part {
    int area = 0, x0 = kFaceSize, y0 = kFaceSize, x1 = -1, y1 = -1;
  };
  std::vector<Part> parts{Part{}};  // parts[0]: the background, unused
};

void face_parts(const bool* on, FaceParts& fp) {
  std::fill(std::begin(fp.label), std::end(fp.label), 0);
  fp.parts.assign(1, FaceParts::Part{});
  int stack[kFacePixels];
  for (int start = 0; start < kFacePixels; ++start) {
    if (!on[start] || fp.label[start]) continue;
    const int id = static_cast<int>(fp.parts.size());
    FaceParts::Part part;
    int top = 0;
    stack[top++] = start;
    fp.label[start] = id;
    while (top > 0) {
      const int p = stack[--top];
      const int x = p % kFaceSize, y = p / kFaceSize;
      ++part.area;
      part.x0 = std::min(part.x0, x), part.x1 = std::max(part.x1, x);
      part.y0 = std::min(part.y0, y), part.y1 = std::max(part.y1, y);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= kFaceSize || ny >= kFaceSize) continue;
          const int q = ny * kFaceSize + nx;
          if (on[q] && !fp.label[q]) fp.label[q] = id, stack[top++] = q;
        }
    }
    fp.parts.push_back(part);
  }
}

}  // namespace

DotCount count_dots(const cv::Mat& marks_in, bool every_pixel) {
  DotCount dc;
  cv::Mat marks = marks_in;
  if (marks.type() != CV_32F || marks.rows != kFaceSize || marks.cols != kFaceSize || !marks.isContinuous()) {
    cv::Mat m;
    marks_in.convertTo(m, CV_32F);
    cv::resize(m, marks, cv::Size(kFaceSize, kFaceSize));
  }
  const float* mk = marks.ptr<float>();
  const float face_area = static_cast<float>(kPi * kFaceRadius * kFaceRadius);
  // Parts of the marks: a ring, a cross, a star or a letter is one large or long part; dots are small round ones.
  bool on[kFacePixels];
  for (int i = 0; i < kFacePixels; ++i) on[i] = mk[i] > 0.5f;
  thread_local FaceParts fp;
  face_parts(on, fp);
  const int n = static_cast<int>(fp.parts.size());
  const float max_dot = static_cast<float>(kPi * std::pow(0.26 * kFaceRadius, 2));
  std::vector<bool> dotlike(static_cast<size_t>(n), false);
  int big = 0;
  for (int i = 1; i < n; ++i) {
    const FaceParts::Part& part = fp.parts[static_cast<size_t>(i)];
    const int area = part.area;
    if (area < 3) continue;
    ++dc.blobs;
    dc.largest_share = std::max(dc.largest_share, static_cast<float>(area) / face_area);
    const int w = part.x1 - part.x0 + 1, h = part.y1 - part.y0 + 1;
    const float fill = static_cast<float>(area) / static_cast<float>(w * h);
    // Touching dots make a part of a few dots' size: still dots if it is lumpy rather than a line or a ring.
    if (area > 3.5f * max_dot || (area > 1.5f * max_dot && fill < 0.45f) || fill < 0.25f)
      ++big;
    else
      dotlike[static_cast<size_t>(i)] = true;
  }
  // Dots: peaks of a difference of Gaussians tuned to a dot's size, so touching dots still count apart; a peak
  // is the greatest within the 5×5 disc round it.
  static const FaceBlur fine_blur(1.0), coarse_blur(2.6);
  float fine_px[kFacePixels], coarse_px[kFacePixels], dog_px[kFacePixels];
  fine_blur.apply(mk, fine_px);
  static const std::vector<cv::Point> disc5 = [] {
    std::vector<cv::Point> d;
    const cv::Mat e = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(5, 5));
    for (int y = 0; y < e.rows; ++y)
      for (int x = 0; x < e.cols; ++x)
        if (e.at<uchar>(y, x)) d.emplace_back(x - 2, y - 2);
    return d;
  }();
  auto local_max = [&](int x, int y) {
    float m = -std::numeric_limits<float>::infinity();
    for (const cv::Point& o : disc5) {
      const int u = x + o.x, v = y + o.y;
      if (u >= 0 && v >= 0 && u < kFaceSize && v < kFaceSize) m = std::max(m, dog_px[v * kFaceSize + u]);
    }
    return m;
  };
  struct Peak {
    float x, y, v;
  };
  // A peak is a bright pixel (fine blur at least 0.4) within 0.8 of the radius, off any part too big for a dot:
  // the difference of Gaussians is needed only there and in the 5×5 discs round them (the coarse blur is most
  // of the count's time, and most of a face is body), measured in the groups of four columns that hold them.
  static const std::array<bool, kFacePixels> within = [] {
    const float c = (kFaceSize - 1) / 2.f;
    std::array<bool, kFacePixels> t{};
    for (int y = 0; y < kFaceSize; ++y)
      for (int x = 0; x < kFaceSize; ++x)
        t[static_cast<size_t>(y * kFaceSize + x)] = !(std::hypot(x - c, y - c) > 0.8f * kFaceRadius);
    return t;
  }();
  bool candidate[kFacePixels] = {};
  bool group[kFaceSize][kFaceSize / 4] = {};
  for (int y = 1; y < kFaceSize - 1; ++y) {
    const float* f = fine_px + y * kFaceSize;
    const int* l = fp.label + y * kFaceSize;
    for (int x = 1; x < kFaceSize - 1; ++x) {
      if (f[x] < 0.4f || !within[static_cast<size_t>(y * kFaceSize + x)]) continue;
      if (l[x] > 0 && !dotlike[static_cast<size_t>(l[x])]) continue;
      candidate[y * kFaceSize + x] = true;
      const int g0 = std::max(0, x - 2) / 4, g1 = std::min(kFaceSize - 1, x + 2) / 4;
      for (int v = std::max(0, y - 2); v <= std::min(kFaceSize - 1, y + 2); ++v) group[v][g0] = group[v][g1] = true;
    }
  }
  if (every_pixel) {
    coarse_blur.apply(mk, coarse_px);
    for (int i = 0; i < kFacePixels; ++i) dog_px[i] = fine_px[i] - coarse_px[i];
  } else {
    coarse_blur.apply_where(mk, group, coarse_px);
    for (int y = 0; y < kFaceSize; ++y)
      for (int g = 0; g < kFaceSize / 4; ++g)
        if (group[y][g])
          for (int i = y * kFaceSize + 4 * g; i < y * kFaceSize + 4 * g + 4; ++i) dog_px[i] = fine_px[i] - coarse_px[i];
  }
  std::vector<Peak> peaks;
  for (int y = 1; y < kFaceSize - 1; ++y) {
    const float* d = dog_px + y * kFaceSize;
    for (int x = 1; x < kFaceSize - 1; ++x) {
      if (!candidate[y * kFaceSize + x] || d[x] < 0.08f || d[x] < local_max(x, y)) continue;
      peaks.push_back({static_cast<float>(x), static_cast<float>(y), d[x]});
    }
  }
  std::sort(peaks.begin(), peaks.end(), [](const Peak& a, const Peak& b) { return a.v > b.v; });
  std::vector<Peak> kept;
  for (const Peak& p : peaks) {
    bool near = false;
    for (const Peak& k : kept) near = near || std::hypot(p.x - k.x, p.y - k.y) < 3.5f;
    if (!near) kept.push_back(p);
  }
  // Peaks far weaker than the strongest are texture or glare, not dots of the same set.
  if (!kept.empty()) {
    const float strongest = kept.front().v;
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](const Peak& p) { return p.v < 0.35f * strongest; }),
               kept.end());
  }
  dc.dots = big > 0 && kept.size() <= 1 ? 0 : static_cast<int>(kept.size());
  if (!kept.empty()) {
    float mean = 0;
    for (const Peak& p : kept) mean += p.v;
    mean /= static_cast<float>(kept.size());
    float dev = 0;
    for (const Peak& p : kept) dev += std::abs(p.v - mean) / mean;
    dc.regularity = std::clamp(1.f - dev / static_cast<float>(kept.size()), 0.f, 1.f);
  }
  return dc;
}

namespace {

// e^{-2πi m / kAngles}, m = 0 … kAngles − 1.
const std::vector<std::complex<float>>& roots() {
  static const std::vector<std::complex<float>> table = [] {
    std::vector<std::complex<float>> t(kAngles);
    for (int m = 0; m < kAngles; ++m) {
      const double a = -2 * kPi * m / kAngles;
      t[static_cast<size_t>(m)] = {static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
    }
    return t;
  }();
  return table;
}

}  // namespace

namespace {

// The angular spectra of a picture's rings (Polar::spectra) from its patterns: each frequency summed over the
// angles in order, in its own lane (so the loop over frequencies is vectorised without reordering any sum).
// Built for AVX2 too where the processor has it (wider lanes, the same sums: no fused multiply-add).
__attribute__((target_clones("avx2", "default"))) void angular_spectra(const float* angular, float* spectra) {
  constexpr int kFreqs = kPolarFreqs;
  struct Table {
    float re[kAngles][kFreqs], im[kAngles][kFreqs];
  };
  static const Table table = [] {
    const auto& w = roots();
    Table t{};
    for (int j = 0; j < kAngles; ++j)
      for (int f = 0; f < kFreqs; ++f) {
        t.re[j][f] = w[static_cast<size_t>((f * j) % kAngles)].real();
        t.im[j][f] = w[static_cast<size_t>((f * j) % kAngles)].imag();
      }
    return t;
  }();
  for (int k = 0; k < kRings; ++k) {
    const float* a = angular + k * kAngles;
    float re[kFreqs] = {0}, im[kFreqs] = {0};
    for (int j = 0; j < kAngles; ++j) {
      const float aj = a[j];
      for (int f = 0; f < kFreqs; ++f) {
        re[f] += aj * table.re[j][f];
        im[f] += aj * table.im[j][f];
      }
    }
    float* out = spectra + k * 2 * kFreqs;
    for (int f = 0; f < kFreqs; ++f) out[f] = re[f], out[kFreqs + f] = im[f];
  }
}

}  // namespace

Polar polar_from_values(std::vector<float> values) {
  Polar p;
  if (values.size() != static_cast<size_t>(kRings * kAngles)) return p;
  p.values = std::move(values);
  // Radial profile.
  p.radial.assign(kRings, 0.f);
  for (int k = 0; k < kRings; ++k) {
    float m = 0;
    for (int j = 0; j < kAngles; ++j) m += p.values[static_cast<size_t>(k * kAngles + j)];
    p.radial[static_cast<size_t>(k)] = m / kAngles;
  }
  std::array<float, kRings * kAngles> angular;
  float norm = 0;
  for (int k = 0; k < kRings; ++k)
    for (int j = 0; j < kAngles; ++j) {
      const size_t i = static_cast<size_t>(k * kAngles + j);
      angular[i] = p.values[i] - p.radial[static_cast<size_t>(k)];
      norm += angular[i] * angular[i];
    }
  norm = std::sqrt(norm);
  for (float& v : angular) v = norm > 1e-6f ? v / norm : 0.f;
  const float mean = std::accumulate(p.radial.begin(), p.radial.end(), 0.f) / kRings;
  float rn = 0;
  for (float& v : p.radial) v -= mean, rn += v * v;
  rn = std::sqrt(rn);
  for (float& v : p.radial) v = rn > 1e-6f ? v / rn : 0.f;
  // Angular spectra. The pattern is real: its spectrum's upper half mirrors the lower (conjugated) and is not
  // kept.
  p.spectra.resize(static_cast<size_t>(kRings * 2 * kPolarFreqs));
  angular_spectra(angular.data(), p.spectra.data());
  return p;
}

Polar polar_of(const cv::Mat& marks) {
  // Where each sample lies in the face patch: the same for every face.
  static const std::vector<cv::Point2f> where = [] {
    std::vector<cv::Point2f> w(static_cast<size_t>(kRings * kAngles));
    const float c0 = (kFaceSize - 1) / 2.f;
    for (int k = 0; k < kRings; ++k) {
      const float r = (k + 0.5f) / kRings * 0.9f * kFaceRadius;
      for (int j = 0; j < kAngles; ++j) {
        const float a = static_cast<float>(2 * kPi * j / kAngles);
        w[static_cast<size_t>(k * kAngles + j)] = {c0 + r * std::cos(a), c0 + r * std::sin(a)};
      }
    }
    return w;
  }();
  std::vector<float> v(where.size());
  for (size_t i = 0; i < where.size(); ++i) v[i] = sample_f(marks, where[i].x, where[i].y);
  return polar_from_values(std::move(v));
}

namespace {

// rotational_match's best angular correlation and its shift, from two pictures' spectra. Built for AVX2 too where
// the processor has it (wider lanes, the same sums in the same order: no fused multiply-add).
__attribute__((target_clones("avx2", "default"))) float best_rotation(const float* sa, const float* sb, int* best_shift) {
  // corr(s) = Σ_k Σ_j a_k(j) b_k(j + s) = (1/N) Σ_f conj(A(f)) B(f) e^{2πi f s / N}, summed over rings first.
  // Both patterns are real, so C(N − f) = conj(C(f)): the sum over f is C(0) + C(N/2)·(−1)^s + twice the real
  // part of the terms 0 < f < N/2.
  constexpr int kHalf = kAngles / 2;
  constexpr int kFreqs = kPolarFreqs;
  // Per frequency, summed over the rings in order (each frequency in its own lane).
  float cr[kHalf + 1] = {0}, ci[kHalf + 1] = {0};
  for (int k = 0; k < kRings; ++k) {
    const float* ra = sa + k * 2 * kFreqs;
    const float* rb = sb + k * 2 * kFreqs;
    for (int f = 0; f <= kHalf; ++f) {
      const float ar = ra[f], ai = ra[kFreqs + f], br = rb[f], bi = rb[kFreqs + f];
      cr[f] += ar * br + ai * bi;  // conj(a) · b
      ci[f] += ar * bi - ai * br;
    }
  }
  // cos and sin of 2π f s / N, per frequency 0 < f < N/2 and shift s.
  struct Twiddles {
    float cos[kHalf][kAngles], sin[kHalf][kAngles];
  };
  static const Twiddles tw = [] {
    Twiddles t{};
    for (int f = 0; f < kHalf; ++f)
      for (int s = 0; s < kAngles; ++s) {
        const double ang = 2 * kPi * ((f * s) % kAngles) / kAngles;
        t.cos[f][s] = static_cast<float>(std::cos(ang));
        t.sin[f][s] = static_cast<float>(std::sin(ang));
      }
    return t;
  }();
  // Every shift's correlation at once, frequency by frequency (each shift's sum in the same order as alone).
  float sum[kAngles] = {0};
  for (int f = 1; f < kHalf; ++f)
    for (int s = 0; s < kAngles; ++s) sum[s] += cr[f] * tw.cos[f][s] - ci[f] * tw.sin[f][s];
  float best = -2;
  int best_s = 0;
  for (int s = 0; s < kAngles; ++s) {
    const float v = (2 * sum[s] + cr[0] + (s % 2 ? -1.f : 1.f) * cr[kHalf]) / kAngles;
    if (v > best) best = v, best_s = s;
  }
  *best_shift = best_s;
  return best;
}

}  // namespace

float rotational_match(const Polar& a, const Polar& b, int* shift) {
  if (a.empty() || b.empty()) return 0;
  int best_s = 0;
  const float best = best_rotation(a.spectra.data(), b.spectra.data(), &best_s);
  if (shift) *shift = best_s;
  float radial = 0;
  for (int k = 0; k < kRings; ++k) radial += a.radial[static_cast<size_t>(k)] * b.radial[static_cast<size_t>(k)];
  return 0.35f * radial + 0.65f * best;
}

RingPower ring_power(const Polar& p) {
  RingPower out{};
  if (p.empty()) return out;
  for (int k = 0; k < kRings; ++k) {
    const float* ring = p.spectra.data() + k * 2 * kPolarFreqs;
    for (int f = 0; f < kPolarFreqs; ++f) out[static_cast<size_t>(f)] += ring[f] * ring[f] + ring[kPolarFreqs + f] * ring[kPolarFreqs + f];
  }
  for (float& v : out) v = std::sqrt(v);
  return out;
}

float match_bound(const Polar& a, const Polar& b, const RingPower& pa, const RingPower& pb) {
  if (a.empty() || b.empty()) return 0;
  constexpr int kHalf = kAngles / 2;
  // |C(f)| = |Σ_k conj(A_k(f)) B_k(f)| ≤ pa(f) · pb(f), and every shift's correlation is at most
  // (|C(0)| + 2 Σ_{0<f<N/2} |C(f)| + |C(N/2)|) / N.
  float angular = pa[0] * pb[0] + pa[kHalf] * pb[kHalf];
  for (int f = 1; f < kHalf; ++f) angular += 2 * pa[static_cast<size_t>(f)] * pb[static_cast<size_t>(f)];
  angular /= kAngles;
  float radial = 0;
  for (int k = 0; k < kRings; ++k) radial += a.radial[static_cast<size_t>(k)] * b.radial[static_cast<size_t>(k)];
  // Rounding in the match's sums (a few hundred terms of unit-norm spectra) stays far below 1e-3.
  return 0.35f * radial + 0.65f * angular + 1e-3f;
}

Polar rotate_polar(const Polar& p, int shift) {
  if (p.empty()) return p;
  std::vector<float> v(p.values.size());
  for (int k = 0; k < kRings; ++k)
    for (int j = 0; j < kAngles; ++j)
      v[static_cast<size_t>(k * kAngles + j)] = p.values[static_cast<size_t>(k * kAngles + ((j + shift) % kAngles))];
  return polar_from_values(std::move(v));
}

}  // namespace sb::vision
