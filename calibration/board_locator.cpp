#include "calibration/board_locator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/board_drawing.h"
#include "calibration/markers.h"
#include "engines/common/errors.h"

namespace sb::calib {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Correspondences {
  std::vector<cv::Point2d> board, image;  // mm, ideal pixels
  std::vector<int> marker_of;             // index into the sightings
};

double cross(cv::Point2d a, cv::Point2d b) {
  return a.x * b.y - a.y * b.x;
}

// Bilinear sample of an 8-bit grey image; the caller keeps `p` inside.
double sample(const cv::Mat& gray, cv::Point2d p) {
  int x = static_cast<int>(std::floor(p.x)), y = static_cast<int>(std::floor(p.y));
  double fx = p.x - x, fy = p.y - y;
  const uchar* r0 = gray.ptr<uchar>(y);
  const uchar* r1 = gray.ptr<uchar>(y + 1);
  return (r0[x] * (1 - fx) + r0[x + 1] * fx) * (1 - fy) + (r1[x] * (1 - fx) + r1[x + 1] * fx) * fy;
}

// Edge points of the image → where an ideal camera would see them, so that straight edges fit straight lines.
void straighten(std::vector<cv::Point2f>& pts, const Lens& lens) {
  std::vector<cv::Point2d> d(pts.begin(), pts.end());
  std::vector<cv::Point2d> ideal = lens.undistort(d);
  for (size_t i = 0; i < pts.size(); ++i)
    pts[i] = cv::Point2f(static_cast<float>(ideal[i].x), static_cast<float>(ideal[i].y));
}

// Where a dark-to-light profile crosses half-way between its dark (first half) and light (second half) levels,
// in samples, nearest the middle: the edge's position, which symmetric blur does not move. The steepest point
// would do as well in theory, but between pixel centres the interpolated profile rises evenly, so it is not
// defined to better than a pixel. nullopt without a clear rise.
std::optional<double> mid_crossing(const std::vector<double>& profile) {
  size_t n = profile.size(), half = n / 2;
  double lo = *std::min_element(profile.begin(), profile.begin() + half + 1);
  double hi = *std::max_element(profile.begin() + half, profile.end());
  if (hi - lo < 25) return std::nullopt;
  double mid = (lo + hi) / 2;
  std::optional<double> best;
  for (size_t j = 0; j + 1 < n; ++j) {
    if (!(profile[j] < mid && profile[j + 1] >= mid)) continue;
    double x = j + (mid - profile[j]) / (profile[j + 1] - profile[j]);
    if (!best || std::abs(x - half) < std::abs(*best - half)) best = x;
  }
  return best;
}

// The corners of a marker as the intersections of its four outer edges. Each edge is found to subpixel at
// many points along it (where it crosses half-way from the black border to the white quiet zone) and a line is fitted
// through them; the corners themselves, which blur rounds, are never measured. nullopt when an edge is not clearly
// visible (a hand over it, the image border). With a lens, the edge points are straightened (undistorted) before the
// lines are fitted, and the corners distorted back.
std::optional<std::array<cv::Point2d, 4>> marker_corners_from_edges(const cv::Mat& gray,
                                                                    const std::vector<cv::Point2d>& corners,
                                                                    const Lens* lens) {
  cv::Point2d centre = (corners[0] + corners[1] + corners[2] + corners[3]) / 4;
  double side = 0;
  for (int k = 0; k < 4; ++k) side += cv::norm(corners[(k + 1) % 4] - corners[k]) / 4;
  double cell = side / 6;
  // Search no farther than most of a cell inwards: beyond the black border lie the marker's own bits.
  double reach = std::clamp(cell * 0.75, 1.5, 6.0);
  constexpr double kStep = 0.25;
  std::array<cv::Vec4d, 4> lines;
  for (int k = 0; k < 4; ++k) {
    cv::Point2d a = corners[k], b = corners[(k + 1) % 4];
    cv::Point2d along = (b - a) / cv::norm(b - a);
    cv::Point2d normal(along.y, -along.x);
    if (normal.dot((a + b) / 2 - centre) < 0) normal = -normal;  // outwards
    std::vector<cv::Point2f> edge;
    int samples = std::max(6, static_cast<int>(cv::norm(b - a) * 0.7 / 1.5));
    for (int i = 0; i < samples; ++i) {
      double t = 0.15 + 0.7 * i / (samples - 1);
      cv::Point2d p = a + t * (b - a);
      cv::Point2d from = p - reach * normal, to = p + reach * normal;
      if (std::min({from.x, from.y, to.x, to.y}) < 1 || std::max(from.x, to.x) > gray.cols - 2 ||
          std::max(from.y, to.y) > gray.rows - 2)
        continue;
      int n = static_cast<int>(2 * reach / kStep) + 1;
      std::vector<double> profile(n);
      for (int j = 0; j < n; ++j) profile[j] = sample(gray, from + (j * kStep) * normal);
      auto crossing = mid_crossing(profile);
      if (!crossing) continue;
      cv::Point2d hit = from + (*crossing * kStep) * normal;
      edge.emplace_back(static_cast<float>(hit.x), static_cast<float>(hit.y));
    }
    if (edge.size() < 4 || edge.size() * 2 < static_cast<size_t>(samples)) return std::nullopt;
    if (lens) straighten(edge, *lens);
    cv::Vec4f line;
    cv::fitLine(edge, line, cv::DIST_HUBER, 0, 0.01, 0.01);
    lines[k] = cv::Vec4d(line[0], line[1], line[2], line[3]);
  }
  std::array<cv::Point2d, 4> out;
  for (int k = 0; k < 4; ++k) {
    // Corner k lies where the edge ending at it (k-1) meets the edge starting from it (k).
    const cv::Vec4d& l1 = lines[(k + 3) % 4];
    const cv::Vec4d& l2 = lines[k];
    cv::Point2d d1(l1[0], l1[1]), p1(l1[2], l1[3]), d2(l2[0], l2[1]), p2(l2[2], l2[3]);
    double den = cross(d1, d2);
    if (std::abs(den) < 1e-6) return std::nullopt;
    double t = cross(p2 - p1, d2) / den;
    out[k] = p1 + t * d1;
  }
  if (lens) {
    std::vector<cv::Point2d> back = lens->distort({out.begin(), out.end()});
    std::copy(back.begin(), back.end(), out.begin());
  }
  for (int k = 0; k < 4; ++k)
    if (cv::norm(out[k] - corners[k]) > std::max(2.0, cell)) return std::nullopt;  // not the edge we expected
  return out;
}

struct SideFit {
  cv::Vec4d line;  // direction, point; in ideal pixels when there is a lens
  std::vector<cv::Point2d> points;
};

// A straight side of the outline near a..b, to subpixel: along the normal at points between a and b, the
// centre of a dark line if there is one (the drawn frame), else the steepest change (a board's edge).
std::optional<SideFit> fit_side(const cv::Mat& gray, cv::Point2d a, cv::Point2d b, double reach, bool lines_only,
                                const Lens* lens) {
  cv::Point2d along = (b - a) / cv::norm(b - a);
  cv::Point2d normal(-along.y, along.x);
  constexpr double kStep = 0.25;
  int samples = std::clamp(static_cast<int>(cv::norm(b - a) / 4), 8, 200);
  SideFit side;
  std::vector<cv::Point2f> pts;
  for (int i = 0; i < samples; ++i) {
    cv::Point2d p = a + (0.05 + 0.9 * i / (samples - 1)) * (b - a);
    cv::Point2d from = p - reach * normal, to = p + reach * normal;
    if (std::min({from.x, from.y, to.x, to.y}) < 1 || std::max(from.x, to.x) > gray.cols - 2 ||
        std::max(from.y, to.y) > gray.rows - 2)
      continue;
    int n = static_cast<int>(2 * reach / kStep) + 1;
    std::vector<double> profile(n);
    for (int j = 0; j < n; ++j) profile[j] = sample(gray, from + (j * kStep) * normal);
    int darkest = static_cast<int>(std::min_element(profile.begin(), profile.end()) - profile.begin());
    double left = *std::max_element(profile.begin(), profile.begin() + darkest + 1);
    double right = *std::max_element(profile.begin() + darkest, profile.end());
    double position;
    if (std::min(left, right) - profile[darkest] > 30 && darkest > 0 && darkest < n - 1) {
      // A dark line: its centre is the middle of its two edges, each where the profile crosses half-way from the
      // line to the paper on that side. The two sides differ (white margin outside, dark squares inside along
      // half a draughts board's frame): one level for both would move the centre towards the darker side.
      double half_left = profile[darkest] + (left - profile[darkest]) / 2;
      double half_right = profile[darkest] + (right - profile[darkest]) / 2;
      int l = darkest, r = darkest;
      while (l > 0 && profile[l - 1] < half_left) --l;
      while (r < n - 1 && profile[r + 1] < half_right) ++r;
      if (l == 0 || r == n - 1) continue;
      double lx = (l - 1) + (half_left - profile[l - 1]) / (profile[l] - profile[l - 1]);
      double rx = r + (profile[r] - half_right) / (profile[r] - profile[r + 1]);
      position = (lx + rx) / 2;
    } else if (lines_only) {
      continue;
    } else {
      // An edge between two areas: dark to light along the normal, or light to dark (read backwards).
      auto rising = mid_crossing(profile);
      std::vector<double> reversed(profile.rbegin(), profile.rend());
      auto falling = mid_crossing(reversed);
      if (rising)
        position = *rising;
      else if (falling)
        position = (n - 1) - *falling;
      else
        continue;
    }
    cv::Point2d hit = from + (position * kStep) * normal;
    pts.emplace_back(static_cast<float>(hit.x), static_cast<float>(hit.y));
  }
  if (pts.size() < 6 || pts.size() * 2 < static_cast<size_t>(samples)) return std::nullopt;
  if (lens) straighten(pts, *lens);
  cv::Vec4f line;
  cv::fitLine(pts, line, cv::DIST_HUBER, 0, 0.01, 0.01);
  side.line = cv::Vec4d(line[0], line[1], line[2], line[3]);
  for (const auto& p : pts) side.points.emplace_back(p.x, p.y);
  return side;
}

std::optional<cv::Point2d> meet(const cv::Vec4d& l1, const cv::Vec4d& l2) {
  cv::Point2d d1(l1[0], l1[1]), p1(l1[2], l1[3]), d2(l2[0], l2[1]), p2(l2[2], l2[3]);
  double den = cross(d1, d2);
  if (std::abs(den) < 1e-6) return std::nullopt;
  return p1 + (cross(p2 - p1, d2) / den) * d1;
}

double signed_area(const std::vector<cv::Point2d>& q) {
  double a = 0;
  for (size_t i = 0; i < q.size(); ++i) a += cross(q[i], q[(i + 1) % q.size()]);
  return a / 2;
}

}  // namespace

cv::Mat gray_of(const cv::Mat& image) {
  if (image.empty()) throw InputError("empty image");
  if (image.channels() == 1) return image;
  cv::Mat gray;
  cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return gray;
}

cv::Point2d apply_homography(const cv::Matx33d& h, cv::Point2d p) {
  cv::Vec3d v = h * cv::Vec3d(p.x, p.y, 1);
  return {v[0] / v[2], v[1] / v[2]};
}

BoardLocator::BoardLocator(BoardModel model, LocatorParams params, std::optional<Lens> lens)
    : model_(std::move(model)), params_(params), lens_(std::move(lens)) {
  dictionary_ = aruco_dictionary(model_.markers.dictionary);
  detector_ = cv::aruco::DetectorParameters::create();
  detector_->minMarkerPerimeterRate = params_.min_marker_perimeter_rate;
  detector_->adaptiveThreshWinSizeMin = params_.threshold_window_min;
  detector_->adaptiveThreshWinSizeMax = params_.threshold_window_max;
  detector_->adaptiveThreshWinSizeStep = params_.threshold_window_step;
  // ArUco's own corner refinement looks at the corner itself, which blur rounds and the marker's inner cells
  // pull on; the edges are measured instead (marker_corners_from_edges).
  detector_->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
}

std::vector<cv::Point2d> BoardLocator::to_ideal(const std::vector<cv::Point2d>& image_px) const {
  return lens_ ? lens_->undistort(image_px) : image_px;
}

std::vector<cv::Point2d> BoardLocator::to_image(const std::vector<cv::Point2d>& ideal_px) const {
  return lens_ ? lens_->distort(ideal_px) : ideal_px;
}

std::vector<cv::Point2d> BoardLocator::project(const BoardFit& fit, const std::vector<Vec2>& board_mm) const {
  std::vector<cv::Point2d> ideal;
  for (const Vec2& p : board_mm) ideal.push_back(apply_homography(fit.board_to_ideal, {p.x, p.y}));
  return to_image(ideal);
}

std::vector<MarkerSighting> BoardLocator::detect(const cv::Mat& image, std::vector<int>* foreign_ids) const {
  cv::Mat gray = gray_of(image);
  std::vector<std::vector<cv::Point2f>> corners;
  std::vector<int> ids;
  cv::aruco::detectMarkers(gray, dictionary_, corners, ids, detector_);
  std::vector<MarkerSighting> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!model_.markers.find(ids[i])) {
      if (foreign_ids) foreign_ids->push_back(ids[i]);
      continue;
    }
    // The same id twice is a reflection or a second board: neither can be trusted.
    bool twice = std::count(ids.begin(), ids.end(), ids[i]) > 1;
    if (twice) continue;
    MarkerSighting s;
    s.id = ids[i];
    std::vector<cv::Point2d> rough(corners[i].begin(), corners[i].end());
    if (auto exact = marker_corners_from_edges(gray, rough, lens_ ? &*lens_ : nullptr)) {
      s.corners = *exact;
    } else {
      for (int k = 0; k < 4; ++k) s.corners[k] = rough[k];
    }
    out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const MarkerSighting& a, const MarkerSighting& b) { return a.id < b.id; });
  return out;
}

BoardFit BoardLocator::least_squares(const std::vector<cv::Point2d>& board, const std::vector<cv::Point2d>& image_px,
                                     const std::string& method) const {
  BoardFit fit;
  fit.method = method;
  cv::Mat h = cv::findHomography(board, to_ideal(image_px), 0);  // least squares, then Levenberg–Marquardt
  if (h.empty()) return fit;
  fit.board_to_ideal = cv::Matx33d(h);
  fit.points = static_cast<int>(board.size());
  std::vector<Vec2> board_mm;
  for (const auto& p : board) board_mm.push_back({p.x, p.y});
  std::vector<cv::Point2d> predicted = project(fit, board_mm);
  double sum = 0;
  for (size_t i = 0; i < predicted.size(); ++i) sum += std::pow(cv::norm(predicted[i] - image_px[i]), 2);
  fit.reprojection_error_px = std::sqrt(sum / predicted.size());
  return fit;
}

std::optional<BoardFit> BoardLocator::fit(const std::vector<MarkerSighting>& sightings) const {
  if (static_cast<int>(sightings.size()) < std::max(1, params_.min_markers)) return std::nullopt;
  Correspondences c;
  std::vector<cv::Point2d> image_px;
  for (size_t i = 0; i < sightings.size(); ++i) {
    auto board = model_.markers.find(sightings[i].id)->corners();
    for (int k = 0; k < 4; ++k) {
      c.board.emplace_back(board[k].x, board[k].y);
      image_px.push_back(sightings[i].corners[k]);
      c.marker_of.push_back(static_cast<int>(i));
    }
  }
  c.image = to_ideal(image_px);

  // RANSAC finds markers misread as this board's; a marker with any outlying corner is dropped whole.
  std::vector<bool> keep(sightings.size(), true);
  if (sightings.size() > 2) {
    std::vector<uchar> inlier;
    cv::Mat h = cv::findHomography(c.board, c.image, cv::RANSAC, params_.ransac_threshold_px, inlier, 2000, 0.999);
    if (h.empty()) return std::nullopt;
    for (size_t i = 0; i < inlier.size(); ++i)
      if (!inlier[i]) keep[c.marker_of[i]] = false;
  }
  std::vector<cv::Point2d> board, image;
  std::vector<int> used;
  for (size_t i = 0; i < c.board.size(); ++i) {
    if (!keep[c.marker_of[i]]) continue;
    board.push_back(c.board[i]);
    image.push_back(image_px[i]);
    if (i % 4 == 0) used.push_back(sightings[c.marker_of[i]].id);
  }
  if (static_cast<int>(used.size()) < std::max(1, params_.min_markers)) return std::nullopt;
  BoardFit fit = least_squares(board, image, "markers");
  if (fit.points == 0) return std::nullopt;
  fit.marker_ids = used;
  if (fit.reprojection_error_px > params_.max_error_px) return std::nullopt;
  return fit;
}

std::optional<MarkerSighting> BoardLocator::sight_near(const cv::Mat& gray, const BoardFit& fit, const Marker& marker,
                                                       const std::vector<bool>& pattern) const {
  const int n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(pattern.size()))));
  if (n < 3 || n * n != static_cast<int>(pattern.size())) return std::nullopt;
  const auto board_corners = marker.corners();
  std::vector<cv::Point2d> predicted = project(fit, std::vector<Vec2>(board_corners.begin(), board_corners.end()));
  double side = 0;
  for (int k = 0; k < 4; ++k) side += cv::norm(predicted[(k + 1) % 4] - predicted[k]) / 4;
  // Too small to read its cells, or too far off for its neighbours' pattern not to be mistaken for it.
  if (side < 2.5 * n) return std::nullopt;
  const double reach = std::min(0.6 * side, 14.0);
  // Three by three points per cell, its middle half: a cell's mean away from the blur of its borders.
  const double cell = marker.size_mm / n;
  const Vec2 top_left = board_corners[0];
  std::vector<Vec2> points;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
          points.push_back({top_left.x + (c + 0.25 + 0.25 * i) * cell, top_left.y + (r + 0.25 + 0.25 * j) * cell});
  const std::vector<cv::Point2d> px = project(fit, points);
  for (const cv::Point2d& p : px)
    if (p.x < reach + 3 || p.y < reach + 3 || p.x > gray.cols - reach - 4 || p.y > gray.rows - reach - 4)
      return std::nullopt;
  // The offset whose cell means correlate best with the pattern (white +1, black -1).
  double pattern_mean = 0;
  for (bool black : pattern) pattern_mean += black ? -1 : 1;
  pattern_mean /= static_cast<double>(pattern.size());
  // A cell's mean grey at offset d: its nine points, or (for the coarse search) its middle alone.
  auto cell_mean = [&](size_t k, cv::Point2d d, bool whole_cell) {
    if (!whole_cell) return sample(gray, px[k * 9 + 4] + d);
    double m = 0;
    for (size_t q = 0; q < 9; ++q) m += sample(gray, px[k * 9 + q] + d);
    return m / 9;
  };
  auto score_at = [&](cv::Point2d d, bool whole_cells) {
    double sum = 0, sum2 = 0, with_pattern = 0;
    for (size_t k = 0; k < pattern.size(); ++k) {
      const double m = cell_mean(k, d, whole_cells);
      sum += m;
      sum2 += m * m;
      with_pattern += pattern[k] ? -m : m;
    }
    const double count = static_cast<double>(pattern.size());
    const double mean = sum / count, sd = std::sqrt(std::max(0.0, sum2 / count - mean * mean));
    if (sd < 10) return -1.0;
    // Pearson's r between the means and the pattern, but for the pattern's own spread (the same at every offset).
    return (with_pattern - count * mean * pattern_mean) / (count * sd);
  };
  // Whole pixels over the reach by the cells' middles, then half pixels round the best by whole cells.
  double best_score = -1;
  cv::Point2d best_offset;
  const int steps = static_cast<int>(std::ceil(reach));
  for (int sy = -steps; sy <= steps; ++sy)
    for (int sx = -steps; sx <= steps; ++sx) {
      const double score = score_at({static_cast<double>(sx), static_cast<double>(sy)}, false);
      if (score > best_score) best_score = score, best_offset = {static_cast<double>(sx), static_cast<double>(sy)};
    }
  if (best_score < 0) return std::nullopt;
  const cv::Point2d coarse = best_offset;
  best_score = -1;
  for (int sy = -2; sy <= 2; ++sy)
    for (int sx = -2; sx <= 2; ++sx) {
      const cv::Point2d d = coarse + cv::Point2d(0.5 * sx, 0.5 * sy);
      const double score = score_at(d, true);
      if (score > best_score) best_score = score, best_offset = d;
    }
  if (best_score < 0) return std::nullopt;
  // Read the cells at the best offset as the tracker's check does: nearly every cell must show its own colour.
  std::vector<double> means(pattern.size());
  double lo = 1e9, hi = -1e9;
  for (size_t k = 0; k < pattern.size(); ++k) {
    means[k] = cell_mean(k, best_offset, true);
    lo = std::min(lo, means[k]);
    hi = std::max(hi, means[k]);
  }
  if (hi - lo < 40) return std::nullopt;
  const double mid = (lo + hi) / 2;
  int wrong = 0;
  for (size_t k = 0; k < pattern.size(); ++k) wrong += (means[k] < mid) != pattern[k];
  if (wrong > 1) return std::nullopt;
  for (cv::Point2d& p : predicted) p += best_offset;
  auto edges = marker_corners_from_edges(gray, predicted, lens_ ? &*lens_ : nullptr);
  if (!edges) return std::nullopt;
  MarkerSighting s;
  s.id = marker.id;
  s.corners = *edges;
  return s;
}

std::optional<BoardFit> BoardLocator::refine(const cv::Mat& gray, const BoardFit& first,
                                             const std::vector<MarkerSighting>& sightings) const {
  std::vector<MarkerSighting> refined;
  for (const MarkerSighting& s : sightings) {
    if (std::find(first.marker_ids.begin(), first.marker_ids.end(), s.id) == first.marker_ids.end()) continue;
    auto board = model_.markers.find(s.id)->corners();
    std::vector<cv::Point2d> predicted = project(first, std::vector<Vec2>(board.begin(), board.end()));
    MarkerSighting r = s;
    if (auto edges = marker_corners_from_edges(gray, predicted, lens_ ? &*lens_ : nullptr)) r.corners = *edges;
    refined.push_back(r);
  }
  std::optional<BoardFit> second = fit(refined);
  if (!second) return std::nullopt;

  // Markers the detector missed (small or steep ones, glare across a border) are looked for where the fit
  // puts them: a fit from two or three markers extrapolates across the board by many pixels, and each marker
  // found beside them pins it down. Rounds, because a marker found brings the ones beyond it within reach.
  if (params_.sight_missed_markers) {
    auto dictionary = aruco_dictionary(model_.markers.dictionary);
    for (int round = 0; round < 3; ++round) {
      bool found = false;
      for (const Marker& m : model_.markers.markers) {
        const bool have =
            std::any_of(refined.begin(), refined.end(), [&](const MarkerSighting& s) { return s.id == m.id; });
        if (have) continue;
        if (auto s = sight_near(gray, *second, m, marker_cells(*dictionary, m.id).black)) {
          refined.push_back(*s);
          found = true;
        }
      }
      if (!found) break;
      std::optional<BoardFit> wider = fit(refined);
      if (!wider) break;
      second = wider;
    }
  }

  // The board's outline, measured where the fit puts it: where markers are hidden (a hand on one side), its
  // corners keep the fit from extrapolating.
  const Quad& outline = model_.outline_corners();
  std::vector<cv::Point2d> predicted = project(*second, std::vector<Vec2>(outline.begin(), outline.end()));
  std::array<std::optional<SideFit>, 4> sides;
  for (int k = 0; k < 4; ++k) {
    const Vec2 &a = outline[k], &b = outline[(k + 1) % 4];
    double px_per_mm = cv::norm(predicted[(k + 1) % 4] - predicted[k]) / std::hypot(b.x - a.x, b.y - a.y);
    // Not so far that the next line of the drawing (a pitch away, or the lattice inside a frame) is reached.
    double reach = std::clamp(std::min(model_.pitch_mm / 4, 5.0) * px_per_mm, 2.0, 10.0);
    sides[k] = fit_side(gray, predicted[k], predicted[(k + 1) % 4], reach, true, lens_ ? &*lens_ : nullptr);
  }
  std::vector<cv::Point2d> board, image;
  for (const MarkerSighting& r : refined) {
    if (std::find(second->marker_ids.begin(), second->marker_ids.end(), r.id) == second->marker_ids.end()) continue;
    auto corners = model_.markers.find(r.id)->corners();
    for (int k = 0; k < 4; ++k) {
      board.emplace_back(corners[k].x, corners[k].y);
      image.push_back(r.corners[k]);
    }
  }
  size_t marker_points = board.size();
  double tolerance = std::max(2.0, 0.1 * cv::norm(predicted[1] - predicted[0]) / model_.files);
  for (int k = 0; k < 4; ++k) {
    const auto &before = sides[(k + 3) % 4], &after = sides[k];
    if (!before || !after) continue;
    auto corner = meet(before->line, after->line);
    if (corner && lens_) corner = lens_->distort({*corner})[0];
    if (!corner || cv::norm(*corner - predicted[k]) > tolerance) continue;
    board.emplace_back(outline[k].x, outline[k].y);
    image.push_back(*corner);
  }
  if (board.size() == marker_points) return second;
  BoardFit third = least_squares(board, image, "markers");
  if (third.points == 0 || third.reprojection_error_px > params_.max_error_px) return second;
  third.marker_ids = second->marker_ids;
  return third;
}

std::optional<BoardFit> BoardLocator::locate(const cv::Mat& image, LocatorTimes* times,
                                             std::vector<MarkerSighting>* sightings_out) const {
  LocatorTimes t;
  auto t0 = Clock::now();
  cv::Mat gray = gray_of(image);
  std::vector<MarkerSighting> sightings = detect(gray);
  t.detect_ms = ms_since(t0);
  t0 = Clock::now();
  std::optional<BoardFit> result = fit(sightings);
  t.fit_ms = ms_since(t0);
  if (result && params_.refine) {
    t0 = Clock::now();
    if (auto better = refine(gray, *result, sightings)) result = better;
    t.refine_ms = ms_since(t0);
  }
  if (times) *times = t;
  if (sightings_out) *sightings_out = std::move(sightings);
  return result;
}

BoardFit BoardLocator::from_corners(const std::array<cv::Point2d, 4>& image_corners) const {
  std::vector<cv::Point2d> image(image_corners.begin(), image_corners.end());
  // Near-left, near-right, far-right, far-left go round the board one way: every turn has the same sign.
  int positive = 0, negative = 0;
  for (int i = 0; i < 4; ++i) {
    double z = cross(image[(i + 1) % 4] - image[i], image[(i + 2) % 4] - image[(i + 1) % 4]);
    positive += z > 1e-9;
    negative += z < -1e-9;
  }
  if (!(positive == 4 || negative == 4))
    throw InputError(
        "--corners: the four points are not a convex quadrilateral in the order near-left, near-right, "
        "far-right, far-left");
  std::vector<cv::Point2d> ideal = to_ideal(image);
  std::vector<cv::Point2d> board;
  for (const Vec2& p : model_.playing_area_corners()) board.emplace_back(p.x, p.y);
  BoardFit fit;
  fit.method = "corners";
  cv::Mat h = cv::findHomography(board, ideal, 0);
  if (h.empty()) throw InputError("--corners: no board fits these four points");
  fit.board_to_ideal = cv::Matx33d(h);
  fit.points = 4;
  fit.reprojection_error_px = 0;  // four points fix a homography exactly: nothing to measure against
  return fit;
}

std::optional<BoardFit> BoardLocator::find_outline(const cv::Mat& image) const {
  cv::Mat gray = gray_of(image);
  // Quadrilaterals among the strong edges.
  cv::Mat smooth, edges;
  cv::GaussianBlur(gray, smooth, cv::Size(5, 5), 0);
  cv::Canny(smooth, edges, 40, 120);
  cv::dilate(edges, edges, cv::Mat());
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(edges, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
  double min_area = 0.005 * gray.total();
  std::vector<std::vector<cv::Point2d>> quads;
  for (const auto& contour : contours) {
    if (std::abs(cv::contourArea(contour)) < min_area) continue;
    std::vector<cv::Point> poly;
    cv::approxPolyDP(contour, poly, 0.02 * cv::arcLength(contour, true), true);
    if (poly.size() != 4 || !cv::isContourConvex(poly)) continue;
    std::vector<cv::Point2d> q(poly.begin(), poly.end());
    // The model's corner order turns the same way as this (near-left, near-right, far-right, far-left with
    // y down): make every candidate turn that way too.
    if (signed_area(q) > 0) std::reverse(q.begin(), q.end());
    quads.push_back(q);
  }
  if (quads.empty()) return std::nullopt;

  // Score each quadrilateral in each of its four turns by how well the image, brought into the board frame,
  // correlates with the drawn board (without markers).
  const Quad& outline = model_.outline_corners();
  double ox0 = std::min(outline[0].x, outline[3].x), oy0 = std::min(outline[2].y, outline[3].y);
  double ox1 = std::max(outline[1].x, outline[2].x), oy1 = std::max(outline[0].y, outline[1].y);
  double scale = 160 / std::max(ox1 - ox0, oy1 - oy0);  // px per mm of the comparison
  cv::Size cmp_size(static_cast<int>((ox1 - ox0) * scale), static_cast<int>((oy1 - oy0) * scale));
  BoardStyle style;
  style.markers = false;
  cv::Mat drawn = gray_of(board_image(model_, scale, style));
  cv::Mat reference =
      drawn(cv::Rect(static_cast<int>(ox0 * scale), static_cast<int>(oy0 * scale), cmp_size.width, cmp_size.height) &
            cv::Rect(0, 0, drawn.cols, drawn.rows))
          .clone();
  cmp_size = reference.size();
  std::vector<cv::Point2d> board_quad;
  for (const Vec2& p : outline) board_quad.emplace_back(p.x, p.y);
  cv::Matx33d cmp_to_board(1 / scale, 0, ox0, 0, 1 / scale, oy0, 0, 0, 1);

  struct Candidate {
    double score;
    double near_y;
    std::vector<cv::Point2d> quad;
  };
  std::vector<Candidate> candidates;
  double best_score = -1;
  for (const auto& q : quads) {
    for (int turn = 0; turn < 4; ++turn) {
      std::vector<cv::Point2d> image_quad;
      for (int k = 0; k < 4; ++k) image_quad.push_back(q[(k + turn) % 4]);
      cv::Mat h = cv::findHomography(board_quad, image_quad, 0);
      if (h.empty()) continue;
      cv::Mat warped;
      cv::warpPerspective(gray, warped, h * cv::Mat(cmp_to_board), cmp_size, cv::INTER_LINEAR | cv::WARP_INVERSE_MAP);
      cv::Mat score;
      cv::matchTemplate(warped, reference, score, cv::TM_CCOEFF_NORMED);
      double s = score.at<float>(0, 0);
      candidates.push_back({s, (image_quad[0].y + image_quad[1].y) / 2, image_quad});
      best_score = std::max(best_score, s);
    }
  }
  if (best_score < params_.min_outline_score) return std::nullopt;
  // A board that looks the same turned round (Morris, draughts turned half-way) is taken with its near side
  // lowest in the image: the first player sits nearest the camera's bottom edge.
  const Candidate* chosen = nullptr;
  for (const Candidate& c : candidates)
    if (c.score >= best_score - 0.05 && (!chosen || c.near_y > chosen->near_y)) chosen = &c;

  // Each side to subpixel, corners where the sides meet.
  double side_px = 0;
  for (int k = 0; k < 4; ++k) side_px += cv::norm(chosen->quad[(k + 1) % 4] - chosen->quad[k]) / 4;
  double reach = std::clamp(side_px / 60, 4.0, 12.0);
  std::array<SideFit, 4> sides;
  for (int k = 0; k < 4; ++k) {
    auto s = fit_side(gray, chosen->quad[k], chosen->quad[(k + 1) % 4], reach, false, lens_ ? &*lens_ : nullptr);
    if (!s) return std::nullopt;
    sides[k] = *s;
  }
  std::vector<cv::Point2d> corners;
  for (int k = 0; k < 4; ++k) {
    auto c = meet(sides[(k + 3) % 4].line, sides[k].line);
    if (!c) return std::nullopt;
    corners.push_back(*c);
  }
  BoardFit fit;
  cv::Mat h = cv::findHomography(board_quad, corners, 0);  // the sides were fitted in ideal pixels
  if (h.empty()) return std::nullopt;
  fit.board_to_ideal = cv::Matx33d(h);
  fit.method = "outline";
  fit.points = 0;
  double sum = 0;
  for (const SideFit& s : sides) {
    cv::Point2d d(s.line[0], s.line[1]), p0(s.line[2], s.line[3]);
    for (const auto& p : s.points) sum += std::pow(cross(p - p0, d), 2);
    fit.points += static_cast<int>(s.points.size());
  }
  fit.reprojection_error_px = std::sqrt(sum / std::max(1, fit.points));
  return fit;
}

}  // namespace sb::calib
