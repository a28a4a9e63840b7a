#include "vision/cell_reader.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <tuple>

#include "vision/board_appearance.h"
#include "vision/symbol_reader.h"
#include "vision/thread_clock.h"

namespace sb::vision {

namespace {

// Adds the time since the last call to `out` under `name`.
struct StageClock {
  std::vector<std::pair<std::string, double>>& out;
  double t = thread_cpu_ms();
  void lap(const char* name) {
    const double now = thread_cpu_ms();
    out.emplace_back(name, now - t);
    t = now;
  }
};

float sigmoid(float x) {
  return 1.f / (1.f + std::exp(-x));
}

float median_of(std::vector<float> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

float percentile(std::vector<float> v, double q) {
  if (v.empty()) return 0;
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(pos);
  const double f = pos - static_cast<double>(i);
  // The two values of ranks i and i + 1 as a sort would leave them: the first put in place, the second the least
  // of those after it (the frame's white reference takes three percentiles on every read).
  if (i + 1 >= v.size()) return *std::max_element(v.begin(), v.end());
  std::nth_element(v.begin(), v.begin() + static_cast<long>(i), v.end());
  const float next = *std::min_element(v.begin() + static_cast<long>(i) + 1, v.end());
  return static_cast<float>(v[i] * (1 - f) + next * f);
}

cv::Vec3f div(const cv::Vec3f& a, const cv::Vec3f& b) {
  return {a[0] / std::max(1.f, b[0]), a[1] / std::max(1.f, b[1]), a[2] / std::max(1.f, b[2])};
}

cv::Vec3f mul(const cv::Vec3f& a, const cv::Vec3f& b) {
  return {a[0] * b[0], a[1] * b[1], a[2] * b[2]};
}

// The frame's white as a face's body colour tells it, from the side's learnt body colour (relative to white).
cv::Vec3f white_from_body(const cv::Vec3f& body, const cv::Vec3f& body_rel) {
  return {body[0] / std::max(0.02f, body_rel[0]), body[1] / std::max(0.02f, body_rel[1]),
          body[2] / std::max(0.02f, body_rel[2])};
}

float dist2(const cv::Vec3f& a, const cv::Vec3f& b) {
  const cv::Vec3f d = a - b;
  return d.dot(d);
}

// The assignment of rows to distinct columns (rows ≤ columns) with the greatest sum of `gain` (row-major, rows ×
// cols): per row its column. The Hungarian method with potentials, O(rows² · cols); deterministic for a given
// matrix (ties go to the lower column).
std::vector<int> best_assignment(const std::vector<double>& gain, int rows, int cols) {
  // Minimises cost = −gain. u, v: potentials; way: the augmenting path; p[j]: the row holding column j (1-based,
  // 0: none; column 0 is the virtual start).
  std::vector<double> u(static_cast<size_t>(rows) + 1, 0), v(static_cast<size_t>(cols) + 1, 0);
  std::vector<int> p(static_cast<size_t>(cols) + 1, 0), way(static_cast<size_t>(cols) + 1, 0);
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 1; i <= rows; ++i) {
    p[0] = i;
    int j0 = 0;
    std::vector<double> minv(static_cast<size_t>(cols) + 1, inf);
    std::vector<char> used(static_cast<size_t>(cols) + 1, 0);
    do {
      used[static_cast<size_t>(j0)] = 1;
      const int i0 = p[static_cast<size_t>(j0)];
      double delta = inf;
      int j1 = 0;
      for (int j = 1; j <= cols; ++j) {
        if (used[static_cast<size_t>(j)]) continue;
        const double cost = -gain[static_cast<size_t>((i0 - 1) * cols + (j - 1))];
        const double cur = cost - u[static_cast<size_t>(i0)] - v[static_cast<size_t>(j)];
        if (cur < minv[static_cast<size_t>(j)]) minv[static_cast<size_t>(j)] = cur, way[static_cast<size_t>(j)] = j0;
        if (minv[static_cast<size_t>(j)] < delta) delta = minv[static_cast<size_t>(j)], j1 = j;
      }
      for (int j = 0; j <= cols; ++j) {
        if (used[static_cast<size_t>(j)]) {
          u[static_cast<size_t>(p[static_cast<size_t>(j)])] += delta;
          v[static_cast<size_t>(j)] -= delta;
        } else {
          minv[static_cast<size_t>(j)] -= delta;
        }
      }
      j0 = j1;
    } while (p[static_cast<size_t>(j0)] != 0);
    do {
      const int j1 = way[static_cast<size_t>(j0)];
      p[static_cast<size_t>(j0)] = p[static_cast<size_t>(j1)];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<int> col_of(static_cast<size_t>(rows), -1);
  for (int j = 1; j <= cols; ++j)
    if (p[static_cast<size_t>(j)] > 0) col_of[static_cast<size_t>(p[static_cast<size_t>(j)] - 1)] = j - 1;
  return col_of;
}

// How sure a symbol's kind is: the softmax temperature over its kinds' match scores.
constexpr float kSymbolTemperature = 0.04f;
// A cached site whose occupancy logit lies within this of 0 (p between 0.05 and 0.95) is read again on every read
// (ReadCache).
constexpr float kDoubtLogit = 3.f;

// Softmax over scores divided by `temperature`; returns the probability of `score` (one of them).
float probability_of(const std::vector<float>& scores, float score, float temperature) {
  if (scores.empty()) return 0;
  const float mx = *std::max_element(scores.begin(), scores.end());
  float sum = 0;
  for (float s : scores) sum += std::exp((s - mx) / temperature);
  return std::exp((score - mx) / temperature) / sum;
}

// The same, the probability of the best.
float best_probability(const std::vector<float>& scores, float temperature) {
  return scores.empty() ? 0 : probability_of(scores, *std::max_element(scores.begin(), scores.end()), temperature);
}

// The smooth per-channel field (BoardPaint::empty_board_ratio) of `rel` over `empty` (both relative to their
// paint) where the empty board is modelled: a quadratic in the position fitted to each channel's log-ratio, first
// over the pixels near the median, then over those near the first fit (pieces and their shadows lie far off
// either; an overexposing lamp left one corner's card a sixth bluer against the empty board than the centre's).
void fit_empty_board_ratio(const cv::Mat& rel, const cv::Mat& empty, const cv::Mat& mask, BoardPaint& paint) {
  struct Sample {
    float x, y;
    cv::Vec3f log_ratio;
  };
  std::vector<Sample> samples;
  const float sx = 1.f / static_cast<float>(std::max(1, rel.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, rel.rows - 1));
  for (int v = 0; v < rel.rows; v += 3) {
    const auto* c = rel.ptr<cv::Vec3f>(v);
    const auto* e = empty.ptr<cv::Vec3f>(v);
    const uchar* o = mask.ptr<uchar>(v);
    for (int u = v % 3; u < rel.cols; u += 3) {
      if (o[u] == kNoPaint || e[u][0] < 0.2f || e[u][1] < 0.2f || e[u][2] < 0.2f) continue;
      Sample s{static_cast<float>(u) * sx, static_cast<float>(v) * sy, {}};
      for (int k = 0; k < 3; ++k) s.log_ratio[k] = std::log(std::max(1e-3f, c[u][k]) / e[u][k]);
      samples.push_back(s);
    }
  }
  if (samples.size() < 50) return;
  std::array<cv::Vec<float, 6>, 3> field{};
  for (int k = 0; k < 3; ++k) {
    std::vector<float> v;
    v.reserve(samples.size());
    for (const Sample& s : samples) v.push_back(s.log_ratio[k]);
    field[static_cast<size_t>(k)][0] = median_of(std::move(v));
  }
  auto predict = [&](const Sample& s, int k) {
    const cv::Vec<float, 6>& f = field[static_cast<size_t>(k)];
    return f[0] + f[1] * s.x + f[2] * s.y + f[3] * s.x * s.x + f[4] * s.x * s.y + f[5] * s.y * s.y;
  };
  for (const float tolerance : {0.2f, 0.08f}) {
    cv::Matx66d a = cv::Matx66d::zeros();
    std::array<cv::Vec6d, 3> b{};
    int used = 0;
    for (const Sample& s : samples) {
      bool near = true;
      for (int k = 0; k < 3 && near; ++k) near = std::abs(s.log_ratio[k] - predict(s, k)) < tolerance;
      if (!near) continue;
      const cv::Vec6d t(1, s.x, s.y, s.x * s.x, s.x * s.y, s.y * s.y);
      for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) a(i, j) += t[i] * t[j];
        for (int k = 0; k < 3; ++k) b[static_cast<size_t>(k)][i] += t[i] * s.log_ratio[k];
      }
      ++used;
    }
    // Too few pixels agree (most of the board covered or changed): keep what is known so far.
    if (used < 50) break;
    for (int i = 0; i < 6; ++i) a(i, i) += 1e-3 * static_cast<double>(used);  // a board seen in part stays flat
    for (int k = 0; k < 3; ++k) {
      cv::Vec6d x;
      cv::solve(a, b[static_cast<size_t>(k)], x, cv::DECOMP_CHOLESKY);
      for (int i = 0; i < 6; ++i) field[static_cast<size_t>(k)][i] = static_cast<float>(x[i]);
    }
  }
  paint.empty_board_ratio = field;
  paint.empty_board_measured = true;
}

}  // namespace

// Each pixel of a level-1 top-plane image over the colour of one paint role (the main one when the empty board
// was learnt: two roles may cover about as much of a board) and the light falloff there.
cv::Mat relative_to_paint(const cv::Mat& top, const BoardPaint& paint, int role) {
  cv::Mat rel(top.size(), CV_32FC3);
  const cv::Vec3f main = paint.colour[static_cast<size_t>(role)];
  const float sx = 1.f / static_cast<float>(std::max(1, top.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, top.rows - 1));
  for (int v = 0; v < top.rows; ++v) {
    const auto* row = top.ptr<cv::Vec3b>(v);
    auto* o = rel.ptr<cv::Vec3f>(v);
    float g = 1;
    for (int u = 0; u < top.cols; ++u) {
      if ((u & 7) == 0) g = paint.gain((u + 4) * sx, v * sy);
      for (int k = 0; k < 3; ++k) o[u][k] = row[u][k] / std::max(1.f, main[k] * g);
    }
  }
  return rel;
}

// The reading's paint, each role's colour as the set's learnt paint predicts it from the reference role's: pieces
// standing on most of a role (a draughts start's men on the dark squares, dark pieces on Morris' ink points) pull
// its measured colour towards theirs, and the empty sites of that role then look foreign. The ratios between
// the paint's colours hold under another lamp; the falloff is still measured in each reading. A lamp of another
// colour switched on after learning may overexpose the reference (the light squares) in its strong channels only:
// there the reference shows less than the light it gets, the ratio predicts too little and the other roles'
// predicted hue is off (brazilian seed 2056979079899873: under a 2,900 K lamp the light squares clipped in red, the
// empty dark squares showed red 176 against 137 predicted, and nine read as black men). So in a channel of a
// reference learnt unclipped (under `clipped_share` of its pixels) that now clips on at least `clipped_share` more
// of them than its least newly clipped channel, a role keeps its own measured colour when that is more. Not where
// every channel clips alike (a white lamp: the hue stays right, only the brightness is low, which the brightness
// bounds and the glare allowance take), nor for a reference clipped already when learnt (its ratio was learnt
// clipped) while the light stays as it was: there a near-black paint measured with the black men standing on it
// would hide them. But once a lamp newly clips another channel, a channel clipped when learnt cannot show the
// lamp's light either (english seed 2425071305113808: light squares clipped in red at the start, in green after a
// 2,900 K lamp; the empty dark squares showed red 80 against 53 predicted, and one read as a black man for the
// rest of the game): it too keeps the measured colour when that is more.
void correct_paint(const PieceSet& set, BoardPaint& paint, float clipped_share) {
  const int ref = set.paint_ref_role;
  if (!paint.ok || ref < 0 || !paint.seen[static_cast<size_t>(ref)]) return;
  const cv::Vec3f base = paint.colour[static_cast<size_t>(ref)];
  const cv::Vec3f more_clipped = paint.clipped[static_cast<size_t>(ref)] - set.paint_ref_clipped;
  const float least_more = std::min({more_clipped[0], more_clipped[1], more_clipped[2]});
  const float most_more = std::max({more_clipped[0], more_clipped[1], more_clipped[2]});
  const bool lamp_clips = most_more - least_more >= clipped_share;
  for (size_t r = 0; r < paint.colour.size(); ++r) {
    if (!set.paint_known[r] || static_cast<int>(r) == ref) continue;
    const cv::Vec3f measured = paint.colour[r];
    const bool measured_here = paint.seen[r];
    paint.colour[r] = mul(set.paint_ratio[r], base);
    for (int k = 0; k < 3; ++k) {
      const bool clipped_when_learnt = set.paint_ref_clipped[k] >= clipped_share;
      const bool newly_clipped = !clipped_when_learnt && more_clipped[k] - least_more >= clipped_share;
      if (measured_here && (newly_clipped || (clipped_when_learnt && lamp_clips)))
        paint.colour[r][k] = std::max(paint.colour[r][k], measured[k]);
    }
    paint.seen[r] = true;
  }
}

// Non-zero over the pieces standing on `pieces`' sites: each top face (radius `r`) and the side below it, as far
// as its base circle.
cv::Mat piece_cover(const Rectifier& rect, const std::vector<bool>& pieces, float r) {
  const CanonicalFrame& tf = rect.top_frame();
  cv::Mat cover = cv::Mat::zeros(tf.size, CV_8U);
  const int rad = cvRound(1.15f * r);
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!pieces[i]) continue;
    const cv::Point2f c = tf.to_px(rect.model().sites[i].centre);
    const cv::Point2f b = c + rect.base_offset(static_cast<int>(i), 1);
    const cv::Point ci(cvRound(c.x), cvRound(c.y)), bi(cvRound(b.x), cvRound(b.y));
    cv::circle(cover, ci, rad, cv::Scalar(255), cv::FILLED);
    cv::circle(cover, bi, rad, cv::Scalar(255), cv::FILLED);
    cv::line(cover, ci, bi, cv::Scalar(255), 2 * rad + 1);
  }
  return cover;
}

struct CellReader::Planes {
  std::vector<cv::Mat> top;  // per stack level, from 1
  std::vector<cv::Mat> acc;
  std::vector<Disc> level1;  // per site, the best disc of the level-1 plane (where a stack's top was preferred)
  cv::Mat foreign;           // level 1: where the empty board does not explain the image (board_appearance.h)
  BoardPaint paint;
};

cv::Vec3f white_reference(const cv::Mat& gate_bgr, const cv::Mat& zone) {
  cv::Vec3f w(200, 200, 200);
  if (gate_bgr.empty()) return w;
  std::vector<float> ch[3];
  for (int y = 0; y < gate_bgr.rows; y += 2) {
    const auto* row = gate_bgr.ptr<cv::Vec3b>(y);
    const uchar* z = zone.empty() ? nullptr : zone.ptr<uchar>(y);
    for (int x = 0; x < gate_bgr.cols; x += 2) {
      if (z && !z[x]) continue;
      for (int c = 0; c < 3; ++c) ch[c].push_back(row[x][c]);
    }
  }
  for (int c = 0; c < 3; ++c)
    if (!ch[c].empty()) w[c] = std::max(20.f, percentile(ch[c], 0.8));
  return w;
}

CellReader::CellReader(PieceVocabulary vocab, std::vector<SideModel> default_sides, ReaderParams params)
    : vocab_(std::move(vocab)), default_sides_(std::move(default_sides)), params_(params) {
  if (vocab_.face == PieceVocabulary::Face::Symbols) symbols_ = std::make_shared<const SymbolReader>(vocab_.kinds);
}

float CellReader::estimate_radius(const Rectifier& rect, Planes& planes, const std::vector<bool>& use) const {
  const CanonicalFrame& tf = rect.top_frame();
  const float pitch_px = static_cast<float>(rect.model().pitch_mm * tf.px_per_mm);
  const float win = params_.search_pitches * pitch_px;
  std::vector<float> radii;
  for (float f = params_.radius_min_pitch; f <= params_.radius_max_pitch + 1e-4f; f *= 1.07f)
    radii.push_back(f * pitch_px);
  // One accumulator per radius. Per site, the largest radius whose circle is nearly as strong as the best one:
  // marks inside a face (a zero's ring, a symbol's border) make smaller circles, the rim is the outermost.
  const size_t n = rect.model().sites.size();
  std::vector<std::vector<float>> score(n, std::vector<float>(radii.size(), 0.f));
  std::vector<std::vector<cv::Point2f>> where(n, std::vector<cv::Point2f>(radii.size()));
  cv::Mat acc;
  for (size_t k = 0; k < radii.size(); ++k) {
    const float r = radii[k];
    acc = cv::Mat::zeros(planes.top[0].size(), CV_32F);
    disc_votes(planes.top[0], cv::Rect(0, 0, acc.cols, acc.rows), {r * 0.97f, r * 1.03f}, acc, rect.base_offset_map(1));
    for (size_t i = 0; i < n; ++i) {
      if (!use.empty() && !use[i]) continue;
      cv::Point2d c = tf.to_px(rect.model().sites[i].centre);
      cv::Rect w(static_cast<int>(c.x - win), static_cast<int>(c.y - win), static_cast<int>(2 * win) + 1,
                 static_cast<int>(2 * win) + 1);
      w &= cv::Rect(0, 0, acc.cols, acc.rows);
      if (w.empty()) continue;
      double mx;
      cv::Point at;
      cv::minMaxLoc(acc(w), nullptr, &mx, nullptr, &at);
      score[i][k] = static_cast<float>(mx / (2 * CV_PI * r));
      where[i][k] = {static_cast<float>(w.x + at.x), static_cast<float>(w.y + at.y)};
    }
  }
  std::vector<float> best_score(n, 0.f), best_r(n, 0.f);
  std::vector<cv::Point2f> best_c(n);
  for (size_t i = 0; i < n; ++i) {
    const float top = *std::max_element(score[i].begin(), score[i].end());
    best_score[i] = top;
    for (size_t k = radii.size(); k-- > 0;)
      if (score[i][k] >= 0.75f * top && top > 0) {
        best_r[i] = radii[k];
        best_c[i] = where[i][k];
        break;
      }
  }
  std::vector<float> scores;
  for (size_t i = 0; i < n; ++i)
    if (use.empty() || use[i]) scores.push_back(best_score[i]);
  const float cut = std::max(percentile(scores, use.empty() ? 0.7 : 0.3), 0.05f);
  std::vector<float> measured;
  for (size_t i = 0; i < n; ++i) {
    if ((!use.empty() && !use[i]) || best_score[i] < cut || best_r[i] <= 0) continue;
    Disc d;
    d.centre = best_c[i];
    d.radius = best_r[i];
    d = refine_disc(planes.top[0], d, 0.06f, rect.base_offset(static_cast<int>(i), 1));
    measured.push_back(d.radius);
  }
  if (measured.empty()) return 0.38f * pitch_px;
  return std::clamp(median_of(measured), params_.radius_min_pitch * pitch_px, params_.radius_max_pitch * pitch_px);
}

std::vector<bool> CellReader::unexplained_sites(const Rectifier& rect, Planes& planes) const {
  // Circles the board itself draws (Morris' junction points, rings round special sites) are as round as any
  // piece: the radius is measured only where the paint model does not explain the site's centre.
  const cv::Mat& labels = rect.paint_labels();
  const BoardPaint paint = measure_paint(planes.top[0], labels);
  const cv::Mat foreign = foreign_mask(planes.top[0], labels, paint);
  const CanonicalFrame& tf = rect.top_frame();
  const float radius = static_cast<float>(params_.centre_pitches * rect.model().pitch_mm * tf.px_per_mm);
  std::vector<bool> use(rect.model().sites.size(), false);
  for (size_t i = 0; i < use.size(); ++i)
    use[i] = foreign_share(foreign, tf.to_px(rect.model().sites[i].centre), radius) > 0.3f;
  return use;
}

float CellReader::unknown_radius(const Rectifier& rect, Planes& planes, const PieceSet& set, float* tol) const {
  const float nominal =
      static_cast<float>(params_.nominal_radius_pitch * rect.model().pitch_mm * rect.top_frame().px_per_mm);
  if (nominal > 0 && set.learnt) {
    *tol = std::max(*tol, 0.15f);
    return nominal;
  }
  std::vector<bool> use = unexplained_sites(rect, planes);
  if (std::count(use.begin(), use.end(), true) >= 2) return estimate_radius(rect, planes, use);
  if (nominal > 0) {
    *tol = std::max(*tol, 0.15f);
    return nominal;
  }
  return estimate_radius(rect, planes, {});
}

void CellReader::find_discs(const Rectifier& rect, FramePyramid& pyramid, float r, float tol, Planes& planes,
                            std::vector<SiteDetail>& details, const std::vector<bool>* only,
                            std::vector<std::pair<std::string, double>>* stage_ms) const {
  const CanonicalFrame& tf = rect.top_frame();
  const float pitch_px = static_cast<float>(rect.model().pitch_mm * tf.px_per_mm);
  const float win = params_.search_pitches * pitch_px;
  const std::vector<float> radii = {r * 0.94f, r, r * 1.06f};
  const int levels = rect.stack_levels();
  planes.top.resize(static_cast<size_t>(levels));
  planes.acc.assign(static_cast<size_t>(levels), cv::Mat());
  const size_t n = rect.model().sites.size();
  if (!only || details.size() != n) details.assign(n, SiteDetail{});
  // The edges that can vote for a centre in a site's window lie within the window grown by the largest radius.
  const int reach = static_cast<int>(std::ceil(radii.back())) + 2;
  planes.level1.resize(n);
  auto window_of = [&](size_t i) {
    const cv::Point2d c = tf.to_px(rect.model().sites[i].centre);
    return cv::Rect(static_cast<int>(std::lround(c.x - win)), static_cast<int>(std::lround(c.y - win)),
                    static_cast<int>(2 * win) + 1, static_cast<int>(2 * win) + 1);
  };
  double t = thread_cpu_ms();
  for (int l = 1; l <= levels; ++l) {
    // The sites looked at in this plane. A stack's top is looked for only where the level-1 plane shows
    // something like a piece's rim at all (most empty sites' circles there score lower).
    std::vector<bool> look(n, true);
    size_t looked = n;
    if (only) look = *only;
    if (l > 1)
      for (size_t i = 0; i < n; ++i) look[i] = look[i] && planes.level1[i].score >= params_.stack_search_min;
    looked = static_cast<size_t>(std::count(look.begin(), look.end(), true));
    // Votes over the whole plane, or each window's alone when few sites are looked at (a window's votes come
    // from an area about twice its own).
    const bool per_site = only || 2 * looked < n;
    cv::Mat& top = planes.top[static_cast<size_t>(l - 1)];
    if (l == 1) {
      if (top.empty()) rect.top_image(pyramid, l, top);
    } else if (!per_site) {
      rect.top_image(pyramid, l, top);
    } else if (looked > 0) {
      std::vector<cv::Rect> rects;
      double area = 0;
      for (size_t i = 0; i < n; ++i)
        if (look[i]) {
          const cv::Rect w = window_of(i);
          rects.emplace_back(w.x - reach - 2, w.y - reach - 2, w.width + 2 * reach + 4, w.height + 2 * reach + 4);
          area += rects.back().area();
        }
      // Neighbouring windows overlap: once they add up to the plane's size, the whole plane costs less (the
      // same pixels where the windows lie).
      const cv::Size plane = rect.top_frame().size;
      if (area >= static_cast<double>(plane.area()))
        rect.top_image(pyramid, l, top);
      else
        rect.top_image(pyramid, l, top, &rects);
    }
    cv::Mat& acc = planes.acc[static_cast<size_t>(l - 1)];
    if (looked == 0) continue;
    // The accumulators are kept from read to read (fresh megabytes would be faulted in page by page each time).
    static thread_local std::vector<cv::Mat> kept_acc;
    if (kept_acc.size() < static_cast<size_t>(levels)) kept_acc.resize(static_cast<size_t>(levels));
    cv::Mat& kept = kept_acc[static_cast<size_t>(l - 1)];
    kept.create(top.size(), CV_32F);
    kept.setTo(0);
    acc = kept;
    const cv::Rect all(0, 0, top.cols, top.rows);
    // A few windows are voted for one by one; more at once, by the pixels of their grown windows alone.
    const bool one_by_one = per_site && looked <= 6;
    if (!per_site) {
      disc_votes(top, all, radii, acc, rect.base_offset_map(l));
    } else if (!one_by_one) {
      cv::Mat voters = cv::Mat::zeros(top.size(), CV_8U);
      cv::Rect box;
      for (size_t i = 0; i < n; ++i)
        if (look[i]) {
          const cv::Rect w = window_of(i);
          const cv::Rect grown = cv::Rect(w.x - reach, w.y - reach, w.width + 2 * reach, w.height + 2 * reach) & all;
          voters(grown).setTo(1);
          box = box.empty() ? grown : (box | grown);
        }
      disc_votes(top, cv::Rect(box.x - 1, box.y - 1, box.width + 2, box.height + 2), radii, acc,
                 rect.base_offset_map(l), voters);
    }
    for (size_t i = 0; i < details.size(); ++i) {
      if (!look[i]) continue;
      const cv::Point2d c = tf.to_px(rect.model().sites[i].centre);
      const cv::Rect w = window_of(i);
      if (one_by_one) {
        // This window's votes alone (a neighbour's window overlaps it: its votes were counted there).
        const cv::Rect grown(w.x - reach, w.y - reach, w.width + 2 * reach, w.height + 2 * reach);
        const cv::Rect clear(grown.x - reach - 3, grown.y - reach - 3, grown.width + 2 * reach + 6,
                             grown.height + 2 * reach + 6);
        acc(clear & cv::Rect(0, 0, acc.cols, acc.rows)).setTo(0);
        disc_votes(top, grown, radii, acc, rect.base_offset_map(l));
      }
      const cv::Point2f base = rect.base_offset(static_cast<int>(i), l);
      Disc d = disc_peak(acc, w, r, base);
      // A stack's top must show a convincing rim of its own, and stand on its site as any piece does: on an
      // empty site the best circle of a higher plane is often a neighbour's top, seen displaced by the
      // planes' difference in height (a third of a pitch and more off the site's centre on a tilted view).
      // The rim's share is known before the rays are measured: a higher plane's disc too weak to be kept is not
      // refined (most sites, as most sites hold no stack).
      if (l > 1 && !(d.score > details[i].disc.score + params_.level_margin && d.score >= params_.stack_min_score))
        continue;
      if (!(w & cv::Rect(0, 0, acc.cols, acc.rows)).empty()) d = refine_peak(top, d, tol, base);
      d.level = l;
      if (l == 1) planes.level1[i] = d;
      const float off = static_cast<float>(cv::norm(cv::Point2d(d.centre) - c)) / pitch_px;
      if (l == 1 || off <= params_.stack_max_offset) details[i].disc = d;
    }
    if (stage_ms) {
      const double now = thread_cpu_ms();
      stage_ms->emplace_back(l == 1 ? "discs: level 1" : "discs: level " + std::to_string(l), now - t);
      t = now;
    }
  }
}

// Against the kept empty board, the brightness (relative to the sheet: 3 for the sheet itself) below which a pixel's
// chroma is not compared.
constexpr float kChromaFloor = 1.5f;

namespace {

// The correlation of the brightness of `rel` with that of `empty` (both relative to their paint, as
// measure_foreign compares them) over the pixels within `radius` of `centre` where the empty board was seen; 0
// when fewer than two thirds of them were, or when the empty board's brightness there spreads by less than
// `contrast` of its mean (nothing drawn there to be hidden).
float empty_likeness(const cv::Mat& rel, const cv::Mat& empty, cv::Point2f centre, float radius, float contrast) {
  const int x0 = std::max(0, static_cast<int>(std::floor(centre.x - radius))),
            x1 = std::min(rel.cols - 1, static_cast<int>(std::ceil(centre.x + radius)));
  const int y0 = std::max(0, static_cast<int>(std::floor(centre.y - radius))),
            y1 = std::min(rel.rows - 1, static_cast<int>(std::ceil(centre.y + radius)));
  double n = 0, se = 0, sc = 0, see = 0, scc = 0, sec = 0;
  int inside = 0;
  for (int v = y0; v <= y1; ++v) {
    const auto* c = rel.ptr<cv::Vec3f>(v);
    const auto* e = empty.ptr<cv::Vec3f>(v);
    for (int u = x0; u <= x1; ++u) {
      const float dx = static_cast<float>(u) - centre.x, dy = static_cast<float>(v) - centre.y;
      if (dx * dx + dy * dy > radius * radius) continue;
      ++inside;
      if (e[u][0] < 0) continue;
      const double ye = e[u][0] + e[u][1] + e[u][2], yc = c[u][0] + c[u][1] + c[u][2];
      n += 1, se += ye, sc += yc, see += ye * ye, scc += yc * yc, sec += ye * yc;
    }
  }
  if (inside == 0 || 3 * n < 2 * inside) return 0;
  const double me = se / n, mc = sc / n;
  const double ve = see / n - me * me, vc = scc / n - mc * mc, cov = sec / n - me * mc;
  if (ve <= 0 || vc <= 0 || std::sqrt(ve) < contrast * me) return 0;
  return static_cast<float>(cov / std::sqrt(ve * vc));
}

// How much more the median colour within `radius` of `c` (a face's dots are a small part of it) looks like one of
// `sides`' bodies than like the paint role most of it shows, as a log-likelihood ratio (`white`: the board's
// white reference, `illum`: the light there against the board's centre); 0 when it shows too little paint of a
// known role.
float body_llr(const cv::Mat& top, const cv::Mat& labels, const BoardPaint& paint,
               const std::vector<const SideModel*>& sides, const cv::Vec3f& white, float illum, cv::Point2f c,
               float radius, float* body_d2 = nullptr) {
  const int m = static_cast<int>(std::ceil(radius));
  const float r2 = radius * radius;
  // The paint's own spread: a neighbour's shadow darkens it (the paint model takes down to 0.38 of its light
  // for a shadow), its chroma stays.
  const cv::Vec3f paint_sd(0.25f, 0.03f, 0.03f);
  auto norm2 = [](const cv::Vec3f& a, const cv::Vec3f& b, const cv::Vec3f& sd) {
    float s = 0;
    for (int k = 0; k < 3; ++k) s += (a[k] - b[k]) * (a[k] - b[k]) / (sd[k] * sd[k]);
    return s;
  };
  thread_local std::vector<float> ch[3];
  for (auto& v : ch) v.clear();
  std::array<int, 6> roles{};
  const int x0 = std::max(0, cvRound(c.x) - m), x1 = std::min(top.cols - 1, cvRound(c.x) + m);
  const int y0 = std::max(0, cvRound(c.y) - m), y1 = std::min(top.rows - 1, cvRound(c.y) + m);
  for (int v = y0; v <= y1; v += 2) {
    const auto* row = top.ptr<cv::Vec3b>(v);
    const uchar* l = labels.ptr<uchar>(v);
    for (int u = x0; u <= x1; u += 2) {
      const float dx = u - c.x, dy = v - c.y;
      if (dx * dx + dy * dy > r2) continue;
      for (int k = 0; k < 3; ++k) ch[k].push_back(row[u][k]);
      if (l[u] < roles.size() && paint.seen[l[u]]) ++roles[l[u]];
    }
  }
  const auto role = std::max_element(roles.begin(), roles.end());
  if (ch[0].size() < 8 || *role == 0) return 0;
  const cv::Vec3f local_white = white * illum;
  const cv::Vec3f seen = div(cv::Vec3f(median_of(ch[0]), median_of(ch[1]), median_of(ch[2])), local_white);
  const cv::Vec3f paint_rel =
      div(paint.colour[static_cast<size_t>(role - roles.begin())] * (paint.gain(0.5f, 0.5f) * illum), local_white);
  const cv::Vec3f f = colour_features(seen);
  float best = 1e9f;
  for (const SideModel* s : sides) best = std::min(best, norm2(f, colour_features(s->body), s->body_sd));
  if (body_d2) *body_d2 = best;
  return 0.5f * (norm2(f, colour_features(paint_rel), paint_sd) - best);
}

// Site `i`'s centre in the level-1 top image, in the plane of `level` (a stack's top is displaced from its base):
// the level-1 image stands in for the others, shifted by the difference.
cv::Point2f centre_at_level(const Rectifier& rect, size_t i, int level) {
  cv::Point2f c = rect.top_frame().to_px(rect.model().sites[i].centre);
  if (level > 1) c += rect.base_offset(static_cast<int>(i), 1) - rect.base_offset(static_cast<int>(i), level);
  return c;
}

}  // namespace

void CellReader::measure_foreign(const Rectifier& rect, Planes& planes, const PieceSet& set,
                                 std::vector<SiteDetail>& details, const BoardPaint* known,
                                 const std::vector<bool>* only, const std::vector<bool>* pieces) const {
  const cv::Mat& labels = rect.paint_labels();
  const cv::Mat& top = planes.top[0];
  const CanonicalFrame& tf = rect.top_frame();
  const float radius = static_cast<float>(params_.centre_pitches * rect.model().pitch_mm * tf.px_per_mm);
  // Only the pixels round the sites' centres are looked at, unless the empty board learnt from is compared
  // with the whole picture.
  const bool whole = set.empty_board_role >= 0 && set.empty_board.size() == top.size();
  // The borders between paints are judged too (as blends of the paints round them), so that a mark lying along a
  // line is seen: Cờ tư lệnh's infantry, a light face on the light sheet whose red bar runs along the line through
  // its site, showed no foreign pixel once the camera was knocked into lining the two up (cotulenh seed
  // 7512002369046855: the red infantry on k5 read as gone, a capture no piece could make announced illegal). Not
  // with an empty board kept: its centres are compared with the drawing itself (empty_likeness).
  const cv::Mat* borders = whole ? nullptr : &rect.paint_borders();
  // A window as wide as foreign_share's wider circle only round a centre that shows too little paint of a kind
  // the paint model knows to be judged in its own circle (a small board's crossing of many lines): the same
  // shares as wide windows everywhere, at a fraction of the pixels.
  const int m = static_cast<int>(std::ceil(radius)) + 1;
  const int m_wide = static_cast<int>(std::ceil(kWiderCentre * radius)) + 1;
  auto judged_pixels = [&](cv::Point2f c) {
    const int x0 = std::max(0, static_cast<int>(c.x - radius)),
              x1 = std::min(labels.cols - 1, static_cast<int>(c.x + radius));
    const int y0 = std::max(0, static_cast<int>(c.y - radius)),
              y1 = std::min(labels.rows - 1, static_cast<int>(c.y + radius));
    int n = 0;
    for (int v = y0; v <= y1; ++v) {
      const uchar* l = labels.ptr<uchar>(v);
      for (int u = x0; u <= x1; ++u) {
        const float dx = u - c.x, dy = v - c.y;
        n += dx * dx + dy * dy <= radius * radius && l[u] != kNoPaint && planes.paint.seen[l[u]];
      }
    }
    return n;
  };
  auto rois_round = [&](auto&& centre, const std::vector<bool>* which) {
    std::vector<cv::Rect> rois;
    for (size_t i = 0; i < details.size(); ++i)
      if (!which || (*which)[i]) {
        const cv::Point2f c = centre(i);
        const int w = planes.paint.ok && judged_pixels(c) < kJudgedPixelsMin ? m_wide : m;
        rois.emplace_back(static_cast<int>(c.x) - w, static_cast<int>(c.y) - w, 2 * w + 1, 2 * w + 1);
      }
    return rois;
  };
  auto site_centre = [&](size_t i) { return cv::Point2f(tf.to_px(rect.model().sites[i].centre)); };
  if (known) {
    planes.paint = *known;
  } else if (pieces) {
    float r = 0;
    for (size_t i = 0; i < details.size(); ++i)
      if ((*pieces)[i]) r = std::max(r, details[i].disc.radius);
    planes.paint = measure_paint(top, labels, piece_cover(rect, *pieces, std::max(r, radius)));
  } else {
    planes.paint = measure_paint(top, labels);
    correct_paint(set, planes.paint, params_.clipped_ref_share);
    // Only the sites not already plainly pieces (a stack, or a rim scoring above repaint_score) need their centre's
    // foreign share, the one thing this first mask is used for.
    std::vector<bool> unsure(details.size());
    for (size_t i = 0; i < details.size(); ++i)
      unsure[i] = details[i].disc.level <= 1 && !(details[i].disc.score > params_.repaint_score);
    if (whole) {
      planes.foreign = foreign_mask(top, labels, planes.paint);
    } else {
      const std::vector<cv::Rect> rois = rois_round(site_centre, &unsure);
      planes.foreign = foreign_mask(top, labels, planes.paint, &rois);
    }
    // The paint is measured again without the sites that plainly hold a piece: a paint drawn mostly at the sites
    // (Morris' points, the dark squares) is half covered on a busy board, and pieces of about its brightness
    // (dark ones on ink points) pull its colour off, so that every empty point's paint looks foreign.
    cv::Mat exclude = cv::Mat::zeros(top.size(), CV_8U);
    std::vector<bool> out(details.size(), false);
    int excluded = 0;
    float widest = radius;
    for (size_t i = 0; i < details.size(); ++i) {
      const cv::Point2f c = tf.to_px(rect.model().sites[i].centre);
      if (!unsure[i] || foreign_share(planes.foreign, c, radius) > params_.repaint_foreign) {
        cv::circle(exclude, cv::Point(cvRound(c.x), cvRound(c.y)),
                   cvRound(1.15f * std::max(radius, details[i].disc.radius)), cv::Scalar(255), cv::FILLED);
        out[i] = true;
        widest = std::max(widest, details[i].disc.radius);
        ++excluded;
      }
    }
    // Without a learnt paint (the defaults), the pieces' sides too, down to their base: on a steep view of tall
    // men they cover most of the dark squares' corners, the only dark paint a start leaves bare (brazilian seed
    // 6967658757376383, 42° tilt: the dark paint measured grey from the men's shaded purple and green sides, the
    // brown empty squares foreign, and the start never seen). A learnt set takes its roles' colours from the
    // ratios learnt with the pieces' sides left out (correct_paint).
    if (excluded > 0 && params_.repaint_sides && set.paint_ref_role < 0) exclude |= piece_cover(rect, out, widest);
    if (excluded > 0) {
      planes.paint = measure_paint(top, labels, exclude);
      correct_paint(set, planes.paint, params_.clipped_ref_share);
    }
  }
  if (borders && !known) measure_lines(top, *borders, planes.paint);
  const BoardPaint& paint = planes.paint;
  // Around the site's centre, in the plane of the level the best disc was found in.
  auto centre_of = [&](size_t i) { return centre_at_level(rect, i, details[i].disc.level); };
  if (only || !whole) {
    const std::vector<cv::Rect> rois = rois_round(centre_of, only);
    planes.foreign = foreign_mask(top, labels, paint, &rois, nullptr, borders);
  } else {
    planes.foreign = foreign_mask(top, labels, paint, nullptr, nullptr, borders);
  }
  // A site whose centre the paint model does not explain is judged again allowing the glare its surroundings
  // show: a draughts start hides the dark squares, so no picture of them empty is kept, and a lamp's glare on a
  // square vacated later doubles its brightness.
  if (paint.ok && params_.glare_min > 0) {
    const float pitch_px = static_cast<float>(rect.model().pitch_mm * tf.px_per_mm);
    const cv::Rect all(0, 0, top.cols, top.rows);
    GlareField field(top, labels, paint);
    // The sites that show a piece, whose top and side the own glare leaves out: the pieces known when learning,
    // else those whose centre looks like a learnt side's body (each judged once, when first asked; −1: not yet).
    std::vector<const SideModel*> sides;
    if (!pieces)
      for (char s : vocab_.sides)
        if (const SideModel* side = set.side(s)) sides.push_back(side);
    std::vector<signed char> shows_piece(details.size(), -1);
    const float gx = 1.f / static_cast<float>(std::max(1, top.cols - 1)),
                gy = 1.f / static_cast<float>(std::max(1, top.rows - 1));
    auto holds_piece = [&](size_t j) {
      if (pieces) return static_cast<bool>((*pieces)[j]);
      if (sides.empty()) return false;
      if (shows_piece[j] < 0) {
        const cv::Point2f cj = centre_of(j);
        const float illum = std::clamp(paint.gain(cj.x * gx, cj.y * gy) / paint.gain(0.5f, 0.5f), 0.4f, 2.5f);
        float body_d2 = 0;
        const float llr = body_llr(top, labels, paint, sides, paint.reference(), illum, cj, radius, &body_d2);
        shows_piece[j] = llr > 0 && body_d2 <= params_.own_glare_piece_sd * params_.own_glare_piece_sd;
      }
      return shows_piece[j] > 0;
    };
    std::vector<GlareField::Silhouette> hidden;
    // Every site's centre, looked at once per site with glare and once per site round it.
    std::vector<cv::Point2f> site_px(details.size());
    for (size_t j = 0; j < details.size(); ++j) site_px[j] = site_centre(j);
    for (size_t i = 0; i < details.size(); ++i) {
      if (only && !(*only)[i]) continue;
      const cv::Point2f c = centre_of(i);
      if (foreign_share(planes.foreign, c, radius) <= 0) continue;
      float glare = field.near(c, params_.glare_reach * pitch_px, params_.glare_share, params_.glare_min);
      if (params_.own_glare_gain > 0) {
        hidden.clear();
        const cv::Point2f here = site_px[i];
        for (size_t j = 0; j < details.size(); ++j) {
          const cv::Point2f site = site_px[j];
          if (cv::norm(site - here) > params_.own_glare_neighbours * pitch_px || !holds_piece(j)) continue;
          // At the site's centre and where its disc was found: a man lies up to 0.15 pitch off his site's centre,
          // and a light man's rim seen steeply is weak enough for the disc to be found off him.
          const Disc& d = details[j].disc;
          const cv::Point2f drop = rect.base_offset(static_cast<int>(j), 1);
          const float cover = 1.15f * std::max(d.radius, radius);
          hidden.push_back({centre_of(j), site + drop, cover});
          if (d.level == 1 && d.radius > 0) hidden.push_back({d.centre, d.centre + drop, cover});
        }
        // Only an own glare that reaches glare_min once multiplied counts: less is not measured (0).
        glare = std::max(
            glare, params_.own_glare_gain * field.near_own(c, params_.own_glare_inner * pitch_px,
                                                           params_.own_glare_outer * pitch_px, params_.own_glare_share,
                                                           params_.glare_min / params_.own_glare_gain, hidden));
      }
      if (glare < params_.glare_min) continue;
      const std::vector<cv::Rect> roi{
          cv::Rect(static_cast<int>(c.x) - m, static_cast<int>(c.y) - m, 2 * m + 1, 2 * m + 1) & all};
      if (roi[0].empty()) continue;
      const std::vector<float> allowance{glare};
      foreign_mask(top, labels, paint, &roi, &allowance, borders)(roi[0]).copyTo(planes.foreign(roi[0]));
    }
  }
  if (paint.ok && set.empty_board_role >= 0 && paint.seen[static_cast<size_t>(set.empty_board_role)] &&
      set.empty_board.size() == top.size()) {
    // Where the empty board was seen, a pixel is foreign when it differs from it (each relative to its own
    // picture's paint and light); the paint model stands in elsewhere.
    cv::Mat rel = relative_to_paint(top, paint, set.empty_board_role);
    cv::blur(rel, rel, cv::Size(3, 3));
    // What the two pictures' paint measurements leave between them (a role's colour measured a little apart,
    // another lamp's colour, unevenly over the board) is a smooth factor per channel: taken out by a robust fit
    // of the ratio. A read of a few changed sites takes the field its paint was measured with (the windows of
    // those sites alone, one of them holding a new piece, would give a field of the piece; morris9 seed 8200001:
    // after the lamp, a black piece put on g4 made the empty f4 beside it foreign, read as a white piece).
    if (known && known->empty_board_measured) {
      planes.paint.empty_board_measured = true;
      planes.paint.empty_board_ratio = known->empty_board_ratio;
    } else if (!only) {
      fit_empty_board_ratio(rel, set.empty_board, planes.foreign, planes.paint);
    }
    if (planes.paint.empty_board_measured) {
      const BoardPaint& fitted = planes.paint;
      const float sx = 1.f / static_cast<float>(std::max(1, rel.cols - 1)),
                  sy = 1.f / static_cast<float>(std::max(1, rel.rows - 1));
      for (int v = 0; v < rel.rows; ++v) {
        auto* c = rel.ptr<cv::Vec3f>(v);
        cv::Vec3f g(1, 1, 1);
        for (int u = 0; u < rel.cols; ++u) {
          if ((u & 7) == 0)
            for (int k = 0; k < 3; ++k) g[k] = 1.f / std::max(0.05f, fitted.empty_board_gain(k, (u + 4) * sx, v * sy));
          for (int j = 0; j < 3; ++j) c[u][j] *= g[j];
        }
      }
    }
    const float hi = params_.change_brightness, lo = 1.f / hi, chroma = params_.change_chroma;
    for (int v = 0; v < top.rows; ++v) {
      const auto* c = rel.ptr<cv::Vec3f>(v);
      const auto* e = set.empty_board.ptr<cv::Vec3f>(v);
      uchar* o = planes.foreign.ptr<uchar>(v);
      for (int u = 0; u < top.cols; ++u) {
        if (o[u] == kNoPaint || e[u][0] < 0) continue;
        const float yc = c[u][0] + c[u][1] + c[u][2] + 1e-3f, ye = e[u][0] + e[u][1] + e[u][2] + 1e-3f;
        // Dark paint (ink) is compared by brightness only, against a floor: its chroma is mostly noise and
        // compression artefacts.
        bool alien = std::abs(yc - ye) > std::max(0.3f, (hi - 1) * ye) || yc < lo * ye;
        // Chroma only where the empty board was at least half as bright as its sheet (3 = the sheet's colour): a
        // lamp of another colour shifts a drawn point's dark ink towards its own colour far more than the sheet,
        // which the smooth colour field follows (morris6 seed 8716011: the empty b4's ink core foreign from the
        // lamp at 18 s on, a tenth of its centre, and b4 read as a white man in every later read).
        if (!alien && ye > kChromaFloor && yc > 1) {
          float d = 0;
          for (int k = 0; k < 3; ++k) d += (c[u][k] / yc - e[u][k] / ye) * (c[u][k] / yc - e[u][k] / ye);
          alien = d > chroma * chroma;
        }
        o[u] = alien ? 1 : 0;
      }
    }
    // The drawing is compared where it lies: a point's ink is at board level, which the top plane shows displaced
    // from the site's centre by the pieces' height (base_offset), under a piece's side. Round the top's centre a
    // steep view shows the board beside the point (morris9 seed 8822009 game 8: a line beside c3 at a 42° tilt,
    // stone men 6.6 mm tall), and there a white man's shadow on the line's side looked 0.68 like the drawing, so
    // that the man put down after a lamp came on read empty.
    if (params_.empty_likeness_min > 0)
      for (size_t i = 0; i < details.size(); ++i) {
        if (only && !(*only)[i]) continue;
        const cv::Point2f point =
            cv::Point2f(tf.to_px(rect.model().sites[i].centre)) + rect.base_offset(static_cast<int>(i), 1);
        details[i].empty_likeness = empty_likeness(rel, set.empty_board, point, radius, params_.empty_contrast_min);
      }
  }
  const float sx = 1.f / static_cast<float>(std::max(1, top.cols - 1)),
              sy = 1.f / static_cast<float>(std::max(1, top.rows - 1));
  const float centre_gain = paint.ok ? paint.gain(0.5f, 0.5f) : 1.f;
  for (size_t i = 0; i < details.size(); ++i) {
    if (only && !(*only)[i]) continue;
    const cv::Point2f c = centre_of(i);
    details[i].foreign = details[i].empty_likeness >= params_.empty_likeness_min && params_.empty_likeness_min > 0
                             ? 0.f
                             : foreign_share(planes.foreign, c, radius);
    details[i].illum = paint.ok ? std::clamp(paint.gain(c.x * sx, c.y * sy) / centre_gain, 0.4f, 2.5f) : 1.f;
  }
}

void CellReader::keep_supported_stacks(const Rectifier& rect, Planes& planes, std::vector<SiteDetail>& details,
                                       const std::vector<bool>* only) const {
  const CanonicalFrame& tf = rect.top_frame();
  const float radius = static_cast<float>(params_.centre_pitches * rect.model().pitch_mm * tf.px_per_mm);
  const int m = static_cast<int>(std::ceil(radius)) + 1;
  std::vector<size_t> stacks;
  std::vector<cv::Rect> rois;
  for (size_t i = 0; i < details.size(); ++i) {
    if ((only && !(*only)[i]) || details[i].disc.level <= 1 || i >= planes.level1.size()) continue;
    const cv::Point2f c = tf.to_px(rect.model().sites[i].centre);
    stacks.push_back(i);
    rois.emplace_back(static_cast<int>(c.x) - m, static_cast<int>(c.y) - m, 2 * m + 1, 2 * m + 1);
  }
  if (stacks.empty() || !planes.paint.ok) return;
  // A stack stands on its site: the level-1 plane shows its body at the site's centre (the point a piece's
  // height above it lies inside the stack). Where that plane shows the board, the higher plane's disc was
  // a neighbour's top seen displaced (a steep view shifts a three-high plane by a pitch and more).
  const cv::Mat mask = foreign_mask(planes.top[0], rect.paint_labels(), planes.paint, &rois);
  for (size_t i : stacks) {
    const float support = foreign_share(mask, tf.to_px(rect.model().sites[i].centre), radius);
    if (support >= params_.stack_min_support) continue;
    details[i].disc = planes.level1[i];
    details[i].foreign = support;
  }
}

void CellReader::measure_body(const Rectifier& rect, const Planes& planes, const PieceSet& set,
                              std::vector<SiteDetail>& details, cv::Vec3f white, const std::vector<bool>* only) const {
  std::vector<const SideModel*> sides;
  for (char c : vocab_.sides)
    if (const SideModel* m = set.side(c)) sides.push_back(m);
  if (sides.empty() || !planes.paint.ok || planes.top.empty()) return;
  const CanonicalFrame& tf = rect.top_frame();
  const float radius = static_cast<float>(params_.centre_pitches * rect.model().pitch_mm * tf.px_per_mm);
  for (size_t i = 0; i < details.size(); ++i) {
    if (only && !(*only)[i]) continue;
    SiteDetail& d = details[i];
    const cv::Point2f c = centre_at_level(rect, i, d.disc.level);
    const float llr = body_llr(planes.top[0], rect.paint_labels(), planes.paint, sides, white, d.illum, c, radius);
    d.body = std::clamp(llr / 6.f, -1.f, 1.f);
  }
}

void CellReader::measure_texture(const Rectifier& rect, const Planes& planes, std::vector<SiteDetail>& details,
                                 cv::Vec3f white, const std::vector<bool>* only) const {
  if (planes.top.empty() || planes.top[0].empty()) return;
  const cv::Mat& top = planes.top[0];
  const CanonicalFrame& tf = rect.top_frame();
  const float radius = static_cast<float>(params_.texture_pitches * rect.model().pitch_mm * tf.px_per_mm);
  const float white_level = std::max(1.f, (white[0] + white[1] + white[2]) / 3.f);
  for (size_t i = 0; i < details.size(); ++i) {
    if (only && !(*only)[i]) continue;
    SiteDetail& d = details[i];
    const cv::Point2f c = centre_at_level(rect, i, d.disc.level);
    // Brightness ≈ a0 + ax·x + ay·y over the circle (normal equations), then the spread about that plane: a lamp's
    // falloff or a glare's slope across the centre is no texture.
    const int x0 = std::max(0, static_cast<int>(std::floor(c.x - radius))),
              x1 = std::min(top.cols - 1, static_cast<int>(std::ceil(c.x + radius)));
    const int y0 = std::max(0, static_cast<int>(std::floor(c.y - radius))),
              y1 = std::min(top.rows - 1, static_cast<int>(std::ceil(c.y + radius)));
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, sg = 0, sxg = 0, syg = 0, sum_sq = 0;
    for (int v = y0; v <= y1; ++v) {
      const auto* row = top.ptr<cv::Vec3b>(v);
      const double y = v - c.y;
      for (int u = x0; u <= x1; ++u) {
        const double x = u - c.x;
        if (x * x + y * y > radius * radius) continue;
        const double g = (row[u][0] + row[u][1] + row[u][2]) / 3.0;
        n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y;
        sg += g, sxg += x * g, syg += y * g, sum_sq += g * g;
      }
    }
    d.texture = 0;
    if (n < 12) continue;
    const cv::Matx33d a(n, sx, sy, sx, sxx, sxy, sy, sxy, syy);
    const cv::Vec3d b(sg, sxg, syg);
    cv::Vec3d coef;
    if (!cv::solve(a, b, coef, cv::DECOMP_CHOLESKY)) continue;
    // The residual sum of squares of a least-squares fit: Σg² − coef·b.
    const double residual = std::max(0.0, sum_sq - coef.dot(b)) / n;
    d.texture = static_cast<float>(100 * std::sqrt(residual) / (white_level * std::max(0.2f, d.illum)));
  }
}

void CellReader::decide_occupancy(const PieceSet& set, std::vector<SiteDetail>& details) const {
  const bool learnt = set.occupancy[1] != 0 || set.occupancy[2] != 0;
  const std::array<float, 3>& w = learnt ? set.occupancy : params_.default_occupancy;
  const float floor = set.piece_disc * params_.piece_disc_floor;
  for (SiteDetail& d : details) {
    // A site whose rim shows less than half of what the learnt pieces' did (PieceSet::piece_disc) is no piece on
    // its foreign share alone: the paint model's misses (a lamp's colour and clipping: international seed 8722111,
    // empty dark squares at disc 0.14–0.24 and foreign 0.22–0.61 against the start's 0.71) and shadows leave part
    // of a centre unexplained too. Its foreign share counts only when its centre is at least 1 − disc / piece_disc
    // foreign: a real piece with a weak rim (a light man on a light sheet, a blurred one) covers all of it.
    const float foreign = d.disc.score < floor && d.foreign < 1.f - d.disc.score / set.piece_disc ? 0.f : d.foreign;
    // A centre that still shows the kept empty board's drawing holds no piece (a piece hides the point's ink),
    // whatever rim a neighbour's side or shadow draws round it: morris12 seed 8712011, the empty e3 beside
    // Black's d3 showed a rim of 0.46–0.61 with its ink in place (likeness 0.98), read as a white man after the
    // camera was knocked.
    const bool drawing_shows = params_.empty_likeness_min > 0 && d.empty_likeness >= params_.empty_likeness_min;
    const float disc = drawing_shows ? 0.f : d.disc.score;
    // A centre whose drawing is hidden (likeness measured, 0 when not, and below empty_unlike_max) is evidence of
    // a piece on its own.
    const float hidden =
        params_.empty_unlike_gain > 0 && d.empty_likeness != 0 && d.empty_likeness < params_.empty_unlike_max
            ? params_.empty_unlike_gain * (params_.empty_unlike_max - d.empty_likeness)
            : 0.f;
    const float own =
        learnt ? set.occupancy_body * d.body + set.occupancy_texture * (d.texture - set.texture_empty) : 0.f;
    d.occupancy_logit = w[0] + w[1] * disc + w[2] * foreign + hidden + own;
    d.p_occupied = sigmoid(d.occupancy_logit);
    d.occupied = d.p_occupied >= 0.5f;
  }
}

void CellReader::centre_stray_discs(const Rectifier& rect, const Planes& planes, const PieceSet& set,
                                    std::vector<SiteDetail>& details, const std::vector<size_t>& sites,
                                    cv::Vec3f white) const {
  std::vector<const SideModel*> sides;
  for (char c : vocab_.sides)
    if (const SideModel* m = set.side(c)) sides.push_back(m);
  if (sides.empty()) return;
  const CanonicalFrame& tf = rect.top_frame();
  // The deviations (SideModel::body_sd) of a face's body from the nearest learnt side's.
  auto off_sides = [&](const Disc& disc, float illum) {
    const cv::Vec3f f = colour_features(div(cut_face(planes.top[0], disc).body, white * illum));
    float best = 1e9f;
    for (const SideModel* m : sides) {
      const cv::Vec3f g = colour_features(m->body);
      float d2 = 0;
      for (int k = 0; k < 3; ++k) d2 += (f[k] - g[k]) * (f[k] - g[k]) / (m->body_sd[k] * m->body_sd[k]);
      best = std::min(best, d2);
    }
    return std::sqrt(best);
  };
  for (size_t k = 0; k < details.size(); ++k) {
    SiteDetail& d = details[k];
    if (!d.occupied || d.disc.level != 1 || d.disc.radius <= 0) continue;
    const cv::Point2f site = tf.to_px(rect.model().sites[sites[k]].centre);
    if (cv::norm(d.disc.centre - site) <= params_.stray_disc_offset * d.disc.radius) continue;
    Disc centred = d.disc;
    centred.centre = site;
    const float at_centre = off_sides(centred, d.illum);
    if (at_centre > params_.stray_centre_fit_sd) continue;
    const float at_disc = off_sides(d.disc, d.illum);
    if (at_disc > params_.stray_disc_fit_sd && at_centre * params_.stray_disc_better < at_disc) d.disc = centred;
  }
}

void CellReader::read_faces(const Rectifier& rect, Planes& planes, std::vector<SiteDetail>& details,
                            cv::Vec3f white) const {
  (void)rect;
  for (SiteDetail& d : details) {
    if (!d.occupied) continue;
    d.face = cut_face(planes.top[static_cast<size_t>(d.disc.level - 1)], d.disc);
    d.body_rel = div(d.face.body, white * d.illum);
    d.mark_rel = div(d.face.mark, white * d.illum);
  }
}

void CellReader::assign_sides(const PieceSet& set, std::vector<SiteDetail>& details, cv::Vec3f white) const {
  const int nsides = static_cast<int>(vocab_.sides.size());
  std::vector<SideModel> models;
  for (char s : vocab_.sides) {
    const SideModel* m = set.side(s);
    if (m) models.push_back(*m);
  }
  const bool learnt = static_cast<int>(models.size()) == nsides;
  // One side known (a Morris set learnt from the first placement): the other side is whatever does not look
  // like it.
  std::optional<SideModel> known_side;
  if (!learnt && models.size() == 1 && nsides == 2) known_side = models[0];
  std::vector<size_t> occ;
  for (size_t i = 0; i < details.size(); ++i)
    if (details[i].occupied) occ.push_back(i);
  if (occ.empty()) return;

  if (!learnt) {
    // Split the occupied faces in two by colour (2-means from the two faces farthest apart), then name the
    // groups by the config's colours.
    std::vector<std::array<float, 6>> f;
    for (size_t i : occ) {
      const auto& d = details[i];
      f.push_back({d.body_rel[0], d.body_rel[1], d.body_rel[2], d.mark_rel[0], d.mark_rel[1], d.mark_rel[2]});
    }
    auto d2 = [](const std::array<float, 6>& a, const std::array<float, 6>& b) {
      float s = 0;
      for (int k = 0; k < 6; ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
      return s;
    };
    size_t a = 0, b = 0;
    float far = -1;
    for (size_t i = 0; i < f.size(); ++i)
      for (size_t j = i + 1; j < f.size(); ++j)
        if (d2(f[i], f[j]) > far) far = d2(f[i], f[j]), a = i, b = j;
    std::array<float, 6> ca = f[a], cb = f[b];
    std::vector<int> group(f.size(), 0);
    for (int iter = 0; iter < 10; ++iter) {
      std::array<float, 6> sa{}, sb{};
      int na = 0, nb = 0;
      for (size_t i = 0; i < f.size(); ++i) {
        group[i] = d2(f[i], ca) <= d2(f[i], cb) ? 0 : 1;
        auto& s = group[i] ? sb : sa;
        (group[i] ? nb : na)++;
        for (int k = 0; k < 6; ++k) s[k] += f[i][k];
      }
      for (int k = 0; k < 6; ++k) {
        if (na) ca[k] = sa[k] / na;
        if (nb) cb[k] = sb[k] / nb;
      }
    }
    // Within-group spread against the distance between the groups: one colour only, or two?
    float within = 0;
    for (size_t i = 0; i < f.size(); ++i) within += d2(f[i], group[i] ? cb : ca);
    within /= static_cast<float>(f.size());
    const bool two = f.size() >= 2 && d2(ca, cb) > 9 * within + 0.01f;
    auto model_of = [](const std::array<float, 6>& c, char side) {
      SideModel m;
      m.side = side;
      m.body = {c[0], c[1], c[2]};
      m.mark = {c[3], c[4], c[5]};
      return m;
    };
    // How far a group's colours lie from a side's (the config's colours, or a learnt side's mean): chromaticity
    // and brightness both count; brightness is less trustworthy across sets.
    auto config_cost = [&](const std::array<float, 6>& c, const SideModel& s) {
      SideModel g = model_of(c, 0);
      auto chroma = [](cv::Vec3f v) {
        const float sum = v[0] + v[1] + v[2] + 1e-3f;
        return cv::Vec3f(v[0] / sum, v[1] / sum, v[2] / sum);
      };
      return 4 * dist2(chroma(g.body), chroma(s.body)) + 4 * dist2(chroma(g.mark), chroma(s.mark)) +
             0.5f * dist2(g.body, s.body) + 0.25f * dist2(g.mark, s.mark);
    };
    // Name the groups: the pairing of groups with the config's sides that puts colours closest.
    models.clear();
    if (known_side) {
      // The group nearer the known side's colours is that side (in its learnt spread); a single group is the
      // known side when its colours lie within a few spreads of it.
      const char other = vocab_.sides[vocab_.sides[0] == known_side->side ? 1 : 0];
      auto cost = [&](const std::array<float, 6>& c) {
        const cv::Vec3f df = colour_features({c[0], c[1], c[2]}) - colour_features(known_side->body);
        float s = 0;
        for (int k = 0; k < 3; ++k)
          s += df[k] * df[k] / std::max(1e-6f, known_side->body_sd[k] * known_side->body_sd[k]);
        return s;
      };
      if (two) {
        const bool a_known = cost(ca) <= cost(cb);
        models.push_back(*known_side);
        models.push_back(model_of(a_known ? cb : ca, other));
      } else {
        std::array<float, 6> all{};
        for (const auto& x : f)
          for (int k = 0; k < 6; ++k) all[k] += x[k] / static_cast<float>(f.size());
        // Beyond those spreads, a group still nearer the known side's colours than the config's colours of the
        // other is the known side: a lamp that washes out a light piece's tint (overexposed: morris9 seed
        // 8710001, White's only piece on d1 four spreads off its learnt chroma) does not make it the other side.
        const auto other_config = std::find_if(default_sides_.begin(), default_sides_.end(),
                                               [&](const SideModel& m) { return m.side == other; });
        const bool nearer_known =
            other_config != default_sides_.end() && config_cost(all, *known_side) < config_cost(all, *other_config);
        models.push_back(cost(all) <= 16 || nearer_known ? *known_side : model_of(all, other));
      }
    } else if (default_sides_.size() >= 2 && nsides >= 2) {
      if (two) {
        const float straight = config_cost(ca, default_sides_[0]) + config_cost(cb, default_sides_[1]);
        const float crossed = config_cost(ca, default_sides_[1]) + config_cost(cb, default_sides_[0]);
        models.push_back(model_of(straight <= crossed ? ca : cb, vocab_.sides[0]));
        models.push_back(model_of(straight <= crossed ? cb : ca, vocab_.sides[1]));
      } else {
        std::array<float, 6> all{};
        for (const auto& x : f)
          for (int k = 0; k < 6; ++k) all[k] += x[k] / static_cast<float>(f.size());
        const bool first = config_cost(all, default_sides_[0]) <= config_cost(all, default_sides_[1]);
        models.push_back(model_of(all, vocab_.sides[first ? 0 : 1]));
      }
    } else {
      // No config colours: the lighter group is the first side.
      auto luma = [](const std::array<float, 6>& c) { return c[0] + c[1] + c[2]; };
      const bool a_first = luma(ca) >= luma(cb);
      models.push_back(model_of(a_first ? ca : cb, vocab_.sides[0]));
      if (two && nsides > 1) models.push_back(model_of(a_first ? cb : ca, vocab_.sides[1]));
    }
    (void)within;
  }

  // Two kinds of evidence, each weighed by how well it tells these sides apart: the face's body colour, and
  // the colour of its mark pixels (when two sets share a body colour, ivory pieces with red or blue marks, the
  // marks decide however few they are).
  auto norm2 = [](const cv::Vec3f& a, const cv::Vec3f& b, const cv::Vec3f& sd) {
    float s = 0;
    for (int k = 0; k < 3; ++k) s += (a[k] - b[k]) * (a[k] - b[k]) / std::max(1e-6f, sd[k] * sd[k]);
    return s;
  };
  float w_body = 1, w_mark = 0, w_hue = 0;
  const bool hue_known =
      models.size() == 2 && models[0].hue != cv::Vec3f(0, 0, 0) && models[1].hue != cv::Vec3f(0, 0, 0);
  if (models.size() == 2) {
    // Separation of the two sides' means, in their pooled spread.
    auto sep2 = [&](const cv::Vec3f& a, const cv::Vec3f& b, const cv::Vec3f& sa, const cv::Vec3f& sb) {
      cv::Vec3f pooled;
      for (int k = 0; k < 3; ++k) pooled[k] = std::sqrt(0.5f * (sa[k] * sa[k] + sb[k] * sb[k]));
      return norm2(colour_features(a), colour_features(b), pooled);
    };
    w_body = sep2(models[0].body, models[1].body, models[0].body_sd, models[1].body_sd);
    w_mark = sep2(models[0].mark, models[1].mark, models[0].mark_sd, models[1].mark_sd);
    if (hue_known) {
      const float pooled = 0.5f * (models[0].hue_sd * models[0].hue_sd + models[1].hue_sd * models[1].hue_sd);
      w_hue = dist2(models[0].hue, models[1].hue) / std::max(1e-4f, pooled);
    }
    const float sum = w_body + w_mark + w_hue + 1e-6f;
    w_body /= sum, w_mark /= sum, w_hue /= sum;
  }
  // The face's pixels within 0.85 of its radius, in row order.
  static const std::vector<int> face_at = [] {
    std::vector<int> at;
    const auto& radii = face_radii();
    for (int j = 0; j < kFaceSize * kFaceSize; ++j)
      if (!(radii[static_cast<size_t>(j)] > 0.85f)) at.push_back(j);
    return at;
  }();
  const size_t face_n = face_at.size();
  std::vector<float> rel_b(face_n), rel_g(face_n), rel_r(face_n);
  std::vector<uchar> is_mark(face_n);
  // The mark pixels' colour features, one array per feature, so that their costs against a side (the same
  // arithmetic per pixel) are worked out several pixels at a time.
  std::array<std::vector<float>, 3> marks;
  std::vector<float> capped;
  for (size_t i : occ) {
    SiteDetail& d = details[i];
    const cv::Vec3f local_white = white * d.illum;
    // The face's mark pixels: far from its own body colour.
    for (auto& feature : marks) feature.clear();
    // div(pixel, local_white) and its dist2 from the body for every pixel first (plain loops over arrays,
    // several pixels at a time), then the features of the pixels far enough from it.
    const auto* patch = d.face.patch.ptr<cv::Vec3f>();
    const float wb = std::max(1.f, local_white[0]), wg = std::max(1.f, local_white[1]),
                wr = std::max(1.f, local_white[2]);
    for (size_t j = 0; j < face_n; ++j) {
      const cv::Vec3f& px = patch[face_at[j]];
      rel_b[j] = px[0] / wb, rel_g[j] = px[1] / wg, rel_r[j] = px[2] / wr;
    }
    for (size_t j = 0; j < face_n; ++j) {
      // dist2: the differences' dot product, in float, channel by channel from 0.
      const float db = rel_b[j] - d.body_rel[0], dg = rel_g[j] - d.body_rel[1], dr = rel_r[j] - d.body_rel[2];
      float far = 0;
      far += db * db;
      far += dg * dg;
      far += dr * dr;
      is_mark[j] = far > 0.12f * 0.12f;
    }
    for (size_t j = 0; j < face_n; ++j) {
      if (!is_mark[j]) continue;
      const cv::Vec3f f = colour_features({rel_b[j], rel_g[j], rel_r[j]});
      for (int k = 0; k < 3; ++k) marks[static_cast<size_t>(k)].push_back(f[k]);
    }
    const size_t mark_n = marks[0].size();
    const float mark_weight = w_mark * std::min(1.f, static_cast<float>(mark_n) / 20.f);
    const cv::Vec3f body_f = colour_features(d.body_rel);
    float hue_strength = 0;
    const cv::Vec3f hue = w_hue > 0 ? mark_hue(d.face, local_white, d.body_rel, &hue_strength) : cv::Vec3f(0, 0, 0);
    const float hue_weight = w_hue * std::min(1.f, hue_strength / (2 * kHueStrength));
    std::vector<float> scores;
    int best = -1;
    float best_s = -1e9f;
    for (size_t k = 0; k < models.size(); ++k) {
      const SideModel& m = models[k];
      float s = -0.5f * w_body * norm2(body_f, colour_features(m.body), m.body_sd);
      if (mark_n > 0 && mark_weight > 0) {
        // Each pixel's norm2(feature, mf, mark_sd) capped at 16, then summed in the pixels' order.
        const cv::Vec3f mf = colour_features(m.mark);
        float spread[3];
        for (int k = 0; k < 3; ++k) spread[k] = std::max(1e-6f, m.mark_sd[k] * m.mark_sd[k]);
        capped.resize(mark_n);
        const float *f0 = marks[0].data(), *f1 = marks[1].data(), *f2 = marks[2].data();
        for (size_t j = 0; j < mark_n; ++j) {
          float c = (f0[j] - mf[0]) * (f0[j] - mf[0]) / spread[0];
          c += (f1[j] - mf[1]) * (f1[j] - mf[1]) / spread[1];
          c += (f2[j] - mf[2]) * (f2[j] - mf[2]) / spread[2];
          capped[j] = std::min(c, 16.f);
        }
        double cost = 0;
        for (size_t j = 0; j < mark_n; ++j) cost += capped[j];
        s -= 0.5f * mark_weight * static_cast<float>(cost / static_cast<double>(mark_n));
      }
      if (hue_weight > 0) s -= 0.5f * hue_weight * std::min(16.f, dist2(hue, m.hue) / (m.hue_sd * m.hue_sd));
      scores.push_back(s);
      if (s > best_s) best_s = s, best = static_cast<int>(k);
    }
    if (best < 0) continue;
    d.side = static_cast<int>(vocab_.sides.find(models[static_cast<size_t>(best)].side));
    d.side_p = models.size() > 1 ? best_probability(scores, 1.f) : 0.9f;
  }
}

namespace {

// Whether a set's pictures of counts are centred on their marks (learnt so since dots were; a set saved before
// keeps its face-centred pictures, and faces are then pictured alike).
bool dots_centred(const PieceSet& set) {
  bool any = false;
  for (const KindModel& k : set.kinds) {
    if (k.token.size() != 2 || k.dots < 0) continue;
    if (!k.marks_centred) return false;
    any = true;
  }
  return any;
}

// Cờ toán: a face's pictures, about its centre (the face's, or its marks' centre of mass) and about the points
// round it kCountCentreStep apart, up to two steps away (13 in all). Blur and a small view put the outline found,
// and with it the face's centre, a pixel or two of the view off (2–4 pixels of the face patch), and the marks'
// centre of mass wanders as far with the noise and the plane fitted under faint marks: a picture taken about a
// centre that far off matches a neighbouring count's picture better than its own. Each count's match is the best
// of these pictures' (the start's pictures are taken about the centre found, as before). `search` false: the one
// about the centre (PieceSet::count_search).
constexpr float kCountCentreStep = 2.f;  // face-patch pixels (kFaceRadius = 21)

// `middle`: the picture about the centre, already taken (count_pictures without the search), else taken here.
std::vector<Polar> count_pictures(const cv::Mat& marks, bool marks_centred, bool search, Polar middle = {}) {
  const float c0 = (kFaceSize - 1) / 2.f;
  const cv::Point2f centre = marks_centred ? SymbolReader::marks_centre(marks, 0) : cv::Point2f(c0, c0);
  std::vector<Polar> out;
  out.reserve(13);
  if (!middle.empty())
    out.push_back(std::move(middle));
  else
    out.push_back(marks_centred ? SymbolReader::picture_about(marks, centre) : polar_of(marks));
  if (!search) return out;
  for (int y = -2; y <= 2; ++y)
    for (int x = -2; x <= 2; ++x) {
      if ((x == 0 && y == 0) || x * x + y * y > 4) continue;
      out.push_back(SymbolReader::picture_about(marks, centre + cv::Point2f(static_cast<float>(x) * kCountCentreStep,
                                                                            static_cast<float>(y) * kCountCentreStep)));
    }
  return out;
}

}  // namespace

std::vector<std::pair<char, float>> CellReader::dot_scores(const PieceSet& set, const std::vector<Polar>& pictures,
                                                           int dots, char side, Pictures which,
                                                           std::vector<float>* middle_matches) const {
  // A set draws each count alike on both sides (its marks are compared as mark-ness, whatever their colour):
  // the other side's exemplar of a count is a second picture of it, taken where this side's is poor.
  const float blob_weight = set.count_blob_weight > 0 ? set.count_blob_weight : kCountBlobWeight;
  std::map<char, float> best;
  const size_t looked = set.count_search ? pictures.size() : std::min<size_t>(1, pictures.size());
  // The pictures about the other centres are matched only where their bound could beat the best so far (the
  // same best, to the bit).
  std::vector<RingPower> power;
  if (looked > 1)
    for (size_t i = 0; i < looked; ++i) power.push_back(ring_power(pictures[i]));
  // The middle picture's matches, one per kind in the order they are looked at: kept from a call with the middle
  // picture alone, taken from there by the search's call (the same match, to the bit).
  const bool keep = middle_matches && looked == 1, reuse = middle_matches && looked > 1;
  if (keep) middle_matches->clear();
  size_t kind_index = 0;
  for (const KindModel& k : set.kinds) {
    if (k.token.size() != 2) continue;
    if (k.token[0] != side ? which == Pictures::Own : which == Pictures::Other) continue;
    float s = -2;
    const RingPower kp = looked > 1 ? ring_power(k.polar) : RingPower{};
    for (size_t i = 0; i < looked; ++i) {
      if (i > 0 && match_bound(pictures[i], k.polar, power[i], kp) < s) continue;
      float m;
      if (i == 0 && reuse && kind_index < middle_matches->size()) {
        m = (*middle_matches)[kind_index];
      } else {
        m = rotational_match(pictures[i], k.polar);
        if (i == 0 && keep) middle_matches->push_back(m);
      }
      s = std::max(s, m);
    }
    ++kind_index;
    if (k.dots >= 0) s += dots == k.dots ? blob_weight : -blob_weight;
    if (k.token[0] != side) s -= 0.02f;
    auto [it, fresh] = best.emplace(k.token[1], s);
    if (!fresh) it->second = std::max(it->second, s);
  }
  std::vector<std::pair<char, float>> cand;
  for (const auto& [kind, s] : best) cand.emplace_back(kind, s);
  std::sort(cand.begin(), cand.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return cand;
}

bool CellReader::plainly_ahead(const std::vector<std::pair<char, float>>& cand, float margin) const {
  if (margin <= 0 || cand.empty()) return false;
  const float next = cand.size() > 1 ? cand[1].second : -2.f;
  return cand[0].second >= params_.search_skip_score && cand[0].second - next >= margin;
}

void CellReader::assign_kinds(const PieceSet& set, std::vector<SiteDetail>& details) const {
  if (vocab_.face == PieceVocabulary::Face::Plain || vocab_.kinds.empty()) return;
  const bool marks_centred = symbols_ || dots_centred(set);
  for (SiteDetail& d : details) {
    if (!d.occupied || d.side < 0) continue;
    const char side = vocab_.sides[static_cast<size_t>(d.side)];
    const SideModel* sm = set.side(side);
    // The marks: against the side's learnt mark colour when known (a face with one small dot gives a poor
    // estimate of its own), else the face's own. With a learnt mark colour the map is made as learn() made the
    // pictures it is compared with, however faint the marks (blur and haze take their contrast, not their shape).
    cv::Vec3f mark = symbols_ ? d.face.symbol_mark : d.face.mark;
    const bool learnt_mark = sm && cv::norm(sm->mark - sm->body) > 0.08;
    if (learnt_mark) mark = mul(sm->mark, white_from_body(d.face.body, sm->body));
    const bool shows_marks =
        learnt_mark || (sm && set.learnt) || cv::norm(mark - d.face.body) >= params_.min_mark_contrast;
    cv::Mat marks = shows_marks ? mark_map(d.face, d.face.body, mark) : cv::Mat::zeros(kFaceSize, kFaceSize, CV_32F);
    if (!symbols_) d.dots = count_dots(marks);  // symbols are matched as pictures only
    // Candidates: the learnt kinds of this side (symbols: vision/symbol_reader.h).
    // The picture about the face's centre first; the pictures about the centres round it only when that one leaves
    // the face's best kind not plainly ahead (most faces: the search then changes nothing but the other kinds'
    // scores).
    std::vector<std::pair<char, float>> cand;
    if (symbols_) {
      // The search takes the middle picture, its centre and its matches from the first rank.
      const cv::Point2f centre = SymbolReader::marks_centre(marks);
      std::vector<Polar> middle{SymbolReader::picture_about(marks, centre)};
      std::vector<float> middle_matches;
      cand = symbols_->rank(middle, set, side, &middle_matches);
      if (params_.symbol_centre_search && !plainly_ahead(cand, params_.symbol_search_skip_margin))
        cand = symbols_->rank(SymbolReader::pictures_round(marks, centre, std::move(middle[0])), set, side,
                              &middle_matches);
    } else {
      // Cờ toán's dots centred on their marks: about the centre of mass of one fixed window (a window moved onto
      // the marks misreads more counts: CotoanSets.NoSideIsReadWithTwoPiecesOfOneCount).
      const Pictures which = params_.dots_from_both_sides ? Pictures::Both : Pictures::Own;
      // The search takes the middle picture and its matches from the first call.
      std::vector<Polar> middle = count_pictures(marks, marks_centred, false);
      std::vector<float> middle_matches;
      cand = dot_scores(set, middle, d.dots.dots, side, which, &middle_matches);
      // Plainly ahead in units of the look's count temperature: the other counts' scores, which the search raises
      // too, then weigh next to nothing in the joint assignment (limit_kinds), where they can swap two faces.
      const float temperature = set.count_temperature > 0 ? set.count_temperature : kCountTemperature;
      if (set.count_search && !plainly_ahead(cand, params_.count_search_skip_temperatures * temperature))
        cand = dot_scores(set, count_pictures(marks, marks_centred, true, std::move(middle[0])), d.dots.dots, side,
                          which, &middle_matches);
    }
    d.kind_scores = cand;

    if (vocab_.face == PieceVocabulary::Face::Dots) {
      const bool learnt_dots = !cand.empty() && static_cast<int>(cand.size()) >= 9;
      if (learnt_dots) {
        std::vector<float> s;
        for (const auto& c : cand) s.push_back(c.second);
        d.kind = cand[0].first;
        d.kind_p = best_probability(s, set.count_temperature > 0 ? set.count_temperature : kCountTemperature);
      } else {
        // Defaults: count the dots; no dot-like blob is the 0.
        const int n = std::min(9, d.dots.dots);
        d.kind = static_cast<char>('0' + n);
        d.kind_p = n == 0 ? (d.dots.blobs > 0 || !shows_marks ? 0.8f : 0.6f) : 0.5f + 0.45f * d.dots.regularity;
      }
    } else if (!cand.empty()) {
      std::vector<float> s;
      for (const auto& c : cand) s.push_back(c.second);
      d.kind = cand[0].first;
      d.kind_p = best_probability(s, kSymbolTemperature);
    }
  }
}

std::vector<char> assign_counts(const std::vector<std::vector<std::pair<char, float>>>& scores,
                                const std::string& kinds, const std::vector<int>& most, float temperature) {
  std::vector<char> out(scores.size(), 0);
  std::vector<char> col_kind;  // one column per piece a side owns
  for (size_t k = 0; k < kinds.size() && k < most.size(); ++k)
    for (int m = 0; m < most[k]; ++m) col_kind.push_back(kinds[k]);
  if (scores.empty() || scores.size() > col_kind.size()) return out;
  const int rows = static_cast<int>(scores.size()), cols = static_cast<int>(col_kind.size());
  // Each face's probability of each count; a count the face has no score for: 0.
  std::vector<double> gain(static_cast<size_t>(rows * cols), 0.0);
  std::vector<float> s;
  for (int r = 0; r < rows; ++r) {
    s.clear();
    for (const auto& ks : scores[static_cast<size_t>(r)]) s.push_back(ks.second);
    for (const auto& [kind, score] : scores[static_cast<size_t>(r)])
      for (int j = 0; j < cols; ++j)
        if (col_kind[static_cast<size_t>(j)] == kind)
          gain[static_cast<size_t>(r * cols + j)] = probability_of(s, score, temperature);
  }
  const std::vector<int> col_of = best_assignment(gain, rows, cols);
  for (int r = 0; r < rows; ++r)
    if (col_of[static_cast<size_t>(r)] >= 0)
      out[static_cast<size_t>(r)] = col_kind[static_cast<size_t>(col_of[static_cast<size_t>(r)])];
  return out;
}

void CellReader::limit_kinds(std::vector<SiteDetail>& details, float temperature) const {
  const std::vector<int>& most = vocab_.most_per_side;
  if (vocab_.face == PieceVocabulary::Face::Plain || most.size() != vocab_.kinds.size()) return;
  // Counts read without a learnt picture of each (the defaults' blob count) are left as read.
  const size_t least_scores = vocab_.face == PieceVocabulary::Face::Dots ? vocab_.kinds.size() - 1 : 1;
  struct Choice {
    float score;
    size_t site;
    char kind;
  };
  std::vector<Choice> choices;
  std::vector<char> kind_of(details.size());
  for (int side = 0; side < static_cast<int>(vocab_.sides.size()); ++side) {
    choices.clear();
    for (size_t i = 0; i < details.size(); ++i) {
      const SiteDetail& d = details[i];
      if (!d.occupied || d.side != side || d.kind_scores.size() < least_scores) continue;
      for (const auto& [kind, score] : d.kind_scores) choices.push_back({score, i, kind});
    }
    std::fill(kind_of.begin(), kind_of.end(), 0);
    // Counts: the assignment under which the most faces are expected right (assign_counts).
    bool assigned = false;
    if (vocab_.face == PieceVocabulary::Face::Dots && !choices.empty()) {
      std::vector<size_t> faces;
      std::vector<std::vector<std::pair<char, float>>> scores;
      for (const Choice& c : choices)
        if (faces.empty() || faces.back() != c.site)
          faces.push_back(c.site), scores.push_back(details[c.site].kind_scores);
      const std::vector<char> kinds = assign_counts(scores, vocab_.kinds, most, temperature);
      assigned = kinds.front() != 0;
      if (assigned)
        for (size_t r = 0; r < faces.size(); ++r) kind_of[faces[r]] = kinds[r];
    }
    if (!assigned) {
      // The surest matches first: a clear face keeps its kind, an unclear one yields to it. Ties go by site and
      // by each site's own order, so a read taken partly from the previous one assigns as a fresh read does.
      std::stable_sort(choices.begin(), choices.end(),
                       [](const Choice& a, const Choice& b) { return a.score > b.score; });
      std::vector<int> used(most.size(), 0);
      for (const Choice& c : choices) {
        if (kind_of[c.site]) continue;
        const size_t k = vocab_.kinds.find(c.kind);
        if (k == std::string::npos || used[k] >= most[k]) continue;
        kind_of[c.site] = c.kind;
        ++used[k];
      }
    }
    for (size_t i = 0; i < details.size(); ++i) {
      SiteDetail& d = details[i];
      if (!d.occupied || d.side != side || d.kind_scores.size() < least_scores) continue;
      // More faces than the side owns pieces (a side misread): the rest keep their best match.
      d.kind = kind_of[i] ? kind_of[i] : d.kind_scores.front().first;
      std::vector<float> scores;
      float mine = 0;
      for (const auto& [kind, score] : d.kind_scores) {
        scores.push_back(score);
        if (kind == d.kind) mine = score;
      }
      d.kind_p = probability_of(scores, mine, temperature);
    }
  }
}

std::vector<cv::Mat> CellReader::site_pictures(const Rectifier& rect, const cv::Mat& top) const {
  const CanonicalFrame& tf = rect.top_frame();
  const int half = static_cast<int>(std::lround(0.5 * rect.model().pitch_mm * tf.px_per_mm));
  const cv::Rect all(0, 0, top.cols, top.rows);
  std::vector<cv::Mat> out;
  out.reserve(rect.model().sites.size());
  for (const auto& site : rect.model().sites) {
    const cv::Point2d c = tf.to_px(site.centre);
    const cv::Rect box = cv::Rect(static_cast<int>(std::lround(c.x)) - half, static_cast<int>(std::lround(c.y)) - half,
                                  2 * half + 1, 2 * half + 1) &
                         all;
    cv::Mat small, f;
    if (box.width < kCachePicture || box.height < kCachePicture) {
      small = cv::Mat::zeros(kCachePicture, kCachePicture, CV_8UC3);
    } else {
      cv::resize(top(box), small, cv::Size(kCachePicture, kCachePicture), 0, 0, cv::INTER_AREA);
    }
    small.convertTo(f, CV_32FC3);
    out.push_back(f);
  }
  return out;
}

ReadResult CellReader::read(const Rectifier& rect, FramePyramid& pyramid, const PieceSet& set, cv::Vec3f white,
                            ReadCache* cache) const {
  ReadResult out;
  StageClock clock{out.stage_ms};
  Planes planes;
  const CanonicalFrame& tf = rect.top_frame();
  float r = static_cast<float>(set.radius_mm * tf.px_per_mm);
  float tol = 0.1f;
  const cv::Vec3f frame_white = white;
  const size_t n = rect.model().sites.size();
  // Only a set that knows its radius and both sides reads each site on its own.
  const bool cacheable =
      cache && r > 0 && std::all_of(vocab_.sides.begin(), vocab_.sides.end(), [&](char c) { return set.side(c); });
  std::vector<cv::Mat> pictures;
  std::vector<bool> changed, again(n, false);  // again: read again only because its last reading was in doubt
  if (cacheable) {
    planes.top.resize(1);
    rect.top_image(pyramid, 1, planes.top[0]);
    pictures = site_pictures(rect, planes.top[0]);
    // The whole board again under another light (a lamp switched on) or another geometry.
    bool same = cache->valid && cache->top_size == planes.top[0].size() && cache->details.size() == n &&
                std::abs(cache->radius_px - r) < 0.01f * r;
    cv::Vec3f gain(1, 1, 1);
    for (int c = 0; same && c < 3; ++c) {
      gain[c] = frame_white[c] / std::max(1.f, cache->white[c]);
      same = std::abs(gain[c] - 1) < 0.06f;
    }
    changed.assign(n, true);
    if (same) {
      // A site changed when its picture did, beyond the camera's noise: a piece put down, taken or turned over.
      for (size_t i = 0; i < n; ++i) {
        float worst = 0, sum = 0;
        for (int v = 0; v < kCachePicture; ++v) {
          const auto* a = pictures[i].ptr<cv::Vec3f>(v);
          const auto* b = cache->pictures[i].ptr<cv::Vec3f>(v);
          for (int u = 0; u < kCachePicture; ++u)
            for (int c = 0; c < 3; ++c) {
              const float d = std::abs(a[u][c] - b[u][c] * gain[c]);
              worst = std::max(worst, d), sum += d;
            }
        }
        changed[i] = worst > 24.f || sum > 4.f * 3 * kCachePicture * kCachePicture;
        // A site read in doubt is read again although its picture did not change, and its occupancy is the mean
        // of its reads since the picture last changed: taken from here, one frame's noise would stand for every
        // later read, and the pipeline's pooling of a spell's reads could never outvote it (brazilian seed
        // 4729474243218558: a black man on a black square at the board's edge, his foreign share 0.07-0.23 from
        // frame to frame, read empty in the first read after learning, and every later read took that: the
        // start was never confirmed and no move of the game was recorded).
        const SiteDetail& last = cache->details[i];
        again[i] = !changed[i] && std::abs(last.occupancy_logit) < kDoubtLogit;
        changed[i] = changed[i] || again[i];
      }
    }
    clock.lap("cache");
  }
  const size_t to_read = cacheable ? static_cast<size_t>(std::count(changed.begin(), changed.end(), true)) : n;
  const bool partial = cacheable && to_read < n;
  if (r <= 0) {
    planes.top.resize(1);
    rect.top_image(pyramid, 1, planes.top[0]);
    tol = 0.12f;
    r = unknown_radius(rect, planes, set, &tol);
    clock.lap("radius");
  }
  out.radius_px = r;
  if (partial) {
    out.details = cache->details;
    for (size_t i = 0; i < n; ++i)
      if (changed[i]) out.details[i] = SiteDetail{};
  }
  const std::vector<bool>* only = partial ? &changed : nullptr;
  if (to_read > 0 || !partial) {
    if (planes.top.empty() || planes.top[0].empty()) {
      planes.top.resize(1);
      rect.top_image(pyramid, 1, planes.top[0]);
      clock.lap("top image");
    }
    find_discs(rect, pyramid, r, tol, planes, out.details, only, &out.stage_ms);
    clock.t = thread_cpu_ms();
    measure_foreign(rect, planes, set, out.details, partial ? &cache->paint : nullptr, only);
    keep_supported_stacks(rect, planes, out.details, only);
    if (planes.paint.ok) white = planes.paint.reference();
    if (set.occupancy_body != 0) measure_body(rect, planes, set, out.details, white, only);
    measure_texture(rect, planes, out.details, white, only);
    // The later stages go site by site: only the sites read again pass through them.
    std::vector<size_t> idx;
    for (size_t i = 0; i < n; ++i)
      if (!partial || changed[i]) idx.push_back(i);
    std::vector<SiteDetail> sub;
    sub.reserve(idx.size());
    for (size_t i : idx) sub.push_back(std::move(out.details[i]));
    decide_occupancy(set, sub);
    if (cacheable) {
      if (cache->logit_sum.size() != n) cache->logit_sum.assign(n, 0.f), cache->reads.assign(n, 0);
      for (size_t k = 0; k < idx.size(); ++k) {
        const size_t i = idx[k];
        SiteDetail& d = sub[k];
        if (!again[i] || cache->reads[i] <= 0) cache->logit_sum[i] = 0, cache->reads[i] = 0;
        cache->logit_sum[i] += d.occupancy_logit;
        ++cache->reads[i];
        d.occupancy_logit = cache->logit_sum[i] / static_cast<float>(cache->reads[i]);
        d.p_occupied = sigmoid(d.occupancy_logit);
        d.occupied = d.p_occupied >= 0.5f;
      }
    }
    clock.lap("occupancy");
    centre_stray_discs(rect, planes, set, sub, idx, white);
    read_faces(rect, planes, sub, white);
    clock.lap("faces");
    assign_sides(set, sub, white);
    clock.lap("sides");
    assign_kinds(set, sub);
    clock.lap("identities");
    for (size_t k = 0; k < idx.size(); ++k) out.details[idx[k]] = std::move(sub[k]);
  }
  const float count_temperature = set.count_temperature > 0 ? set.count_temperature : kCountTemperature;
  limit_kinds(out.details, symbols_ ? kSymbolTemperature : count_temperature);
  if (cacheable) {
    if (!partial) {
      cache->valid = true;
      cache->top_size = planes.top[0].size();
      cache->white = frame_white;
      cache->radius_px = r;
      cache->paint = planes.paint;
      cache->pictures = pictures;
    } else {
      for (size_t i = 0; i < n; ++i)
        if (changed[i]) cache->pictures[i] = pictures[i];
    }
    cache->details = out.details;
    cache->reused = static_cast<int>(n - to_read);
  }

  out.sites.resize(out.details.size());
  for (size_t i = 0; i < out.details.size(); ++i) {
    const SiteDetail& d = out.details[i];
    SiteReading& s = out.sites[i];
    const float p_occ = d.p_occupied;
    s.occupied = p_occ;
    s.evidence = d.occupancy_logit;
    if (!d.occupied || d.side < 0) {
      s.token.clear();
      s.conf = 1 - p_occ;
      continue;
    }
    s.token = std::string(1, vocab_.sides[static_cast<size_t>(d.side)]);
    float p = p_occ * d.side_p;
    if (vocab_.has_identity()) {
      if (d.kind) s.token += d.kind;
      p *= d.kind_p;
    }
    s.conf = std::clamp(p, 0.f, 1.f);
    s.level = d.disc.level;
  }
  return out;
}

PieceSet CellReader::learn(const Rectifier& rect, FramePyramid& pyramid, const std::vector<std::string>& expected,
                           cv::Vec3f white, const PieceSet& base, std::vector<std::string>* problems,
                           LearnReport* report) const {
  if (report) *report = LearnReport{};
  const auto& sites = rect.model().sites;
  PieceSet set = base;
  set.learnt = true;
  set.game = rect.model().game;
  set.sides.clear();
  const CanonicalFrame& tf = rect.top_frame();

  // The radius: measured where pieces are known to stand.
  Planes planes;
  planes.top.resize(1);
  rect.top_image(pyramid, 1, planes.top[0]);
  std::vector<SiteDetail> details;
  std::vector<bool> known(sites.size());
  for (size_t i = 0; i < sites.size(); ++i) known[i] = !expected[i].empty();
  // A start with no piece on the board (Morris: every piece in hand) teaches the empty board only: how its sites
  // look without a piece (occupancy), not the pieces' size or colours.
  const bool any_piece = std::find(known.begin(), known.end(), true) != known.end();
  float unused_tol = 0;
  float r = set.radius_mm > 0 ? static_cast<float>(set.radius_mm * tf.px_per_mm)
            : any_piece       ? estimate_radius(rect, planes, known)
                              : unknown_radius(rect, planes, base, &unused_tol);
  find_discs(rect, pyramid, r, 0.06f, planes, details);
  std::vector<float> radii;
  for (size_t i = 0; i < sites.size(); ++i) {
    if (!expected[i].empty() && details[i].disc.level == 1) radii.push_back(details[i].disc.radius);
  }
  if (!radii.empty()) r = median_of(radii);
  if (any_piece) set.radius_mm = r / tf.px_per_mm;
  find_discs(rect, pyramid, r, 0.08f, planes, details);

  // Occupancy: a logistic fit on this board's known pieces and empty sites, drawn towards the defaults so
  // that a board where the two are far apart does not make the weights run away.
  measure_foreign(rect, planes, base, details, nullptr, nullptr, any_piece ? &known : nullptr);
  keep_supported_stacks(rect, planes, details);
  {
    // How plainly this set's pieces show their rim, from a board of enough of them (a Morris placement's one or
    // two say too little: light men's rims range there from a third of a stone's to all of it).
    std::vector<float> scores;
    for (size_t i = 0; i < sites.size(); ++i)
      if (known[i]) scores.push_back(details[i].disc.score);
    if (scores.size() >= kPieceDiscMinPieces) set.piece_disc = percentile(scores, 0.2);
  }
  if (planes.paint.ok) white = planes.paint.reference();
  if (planes.paint.ok) {
    // The paint as this picture shows it without its pieces, over the role the pieces covered least.
    const cv::Mat cover = piece_cover(rect, known, r);
    const cv::Mat& labels = rect.paint_labels();
    std::array<int, 6> all{}, covered{};
    for (int v = 0; v < labels.rows; ++v) {
      const uchar* l = labels.ptr<uchar>(v);
      const uchar* c = cover.ptr<uchar>(v);
      for (int u = 0; u < labels.cols; ++u) {
        if (l[u] >= all.size()) continue;
        ++all[l[u]];
        covered[l[u]] += c[u] != 0;
      }
    }
    int ref = -1;
    for (size_t k = 0; k < all.size(); ++k) {
      if (!planes.paint.seen[k]) continue;
      // Least covered share first; among roles the pieces leave (nearly) free, the largest.
      auto key = [&](size_t j) {
        const double share = static_cast<double>(covered[j]) / std::max(1, all[j]);
        return std::pair<double, int>(share < 0.05 ? 0.0 : share, -all[j]);
      };
      if (ref < 0 || key(k) < key(static_cast<size_t>(ref))) ref = static_cast<int>(k);
    }
    set.paint_ref_role = ref;
    set.paint_ref_clipped = ref >= 0 ? planes.paint.clipped[static_cast<size_t>(ref)] : cv::Vec3f();
    set.paint_known = {};
    if (ref >= 0) {
      const cv::Vec3f base_colour = planes.paint.colour[static_cast<size_t>(ref)];
      for (size_t k = 0; k < all.size(); ++k) {
        if (!planes.paint.seen[k]) continue;
        set.paint_known[k] = true;
        set.paint_ratio[k] = div(planes.paint.colour[k], base_colour);
      }
    }
  }
  // Only from a start without pieces (Morris): a start with pieces leaves their sides and shadows on the sites
  // round them, where an empty site then differs from the kept picture (Cờ toán: 102 empty sites read as pieces
  // in 20 unseen images), and the occupancy weights fitted below are fitted on the paint model's foreign share.
  const auto bright = [](const cv::Vec3f& c) { return (c[0] + c[1] + c[2]) / 3.f; };
  if (!any_piece && set.empty_board.empty() && planes.paint.ok && planes.paint.main_role >= 0 &&
      planes.paint.seen[static_cast<size_t>(planes.paint.main_role)] &&
      bright(planes.paint.colour[static_cast<size_t>(planes.paint.main_role)]) > 20) {
    // The empty board as this picture shows it.
    set.empty_board_role = planes.paint.main_role;
    set.empty_board = relative_to_paint(planes.top[0], planes.paint, set.empty_board_role);
    cv::blur(set.empty_board, set.empty_board, cv::Size(3, 3));
    const float pitch_px = static_cast<float>(rect.model().pitch_mm * tf.px_per_mm);
    for (size_t i = 0; i < sites.size(); ++i)
      if (!expected[i].empty())
        cv::circle(set.empty_board, tf.to_px(sites[i].centre), cvRound(std::max(1.3f * r, 0.9f * pitch_px)),
                   cv::Scalar(-1, -1, -1), cv::FILLED);
  }
  for (size_t i = 0; i < sites.size(); ++i) details[i].occupied = !expected[i].empty();
  read_faces(rect, planes, details, white);

  // Side colours.
  for (char side : vocab_.sides) {
    std::vector<float> b[3], m[3];
    std::vector<size_t> idx;
    for (size_t i = 0; i < sites.size(); ++i) {
      if (expected[i].empty() || expected[i][0] != side) continue;
      idx.push_back(i);
      for (int c = 0; c < 3; ++c) b[c].push_back(details[i].body_rel[c]), m[c].push_back(details[i].mark_rel[c]);
    }
    if (idx.empty()) {
      if (const SideModel* old = base.side(side)) set.sides.push_back(*old);
      continue;
    }
    SideModel sm;
    sm.side = side;
    for (int c = 0; c < 3; ++c) sm.body[c] = median_of(b[c]), sm.mark[c] = median_of(m[c]);
    // Spreads per colour feature, with floors: a handful of exemplars understates them.
    std::vector<float> fb[3], fm[3];
    const cv::Vec3f mb = colour_features(sm.body), mm = colour_features(sm.mark);
    for (size_t i : idx) {
      const cv::Vec3f b = colour_features(details[i].body_rel);
      for (int k = 0; k < 3; ++k) fb[k].push_back(std::abs(b[k] - mb[k]));
      if (details[i].face.mark_share > 0.02f) {
        const cv::Vec3f m = colour_features(details[i].mark_rel);
        for (int k = 0; k < 3; ++k) fm[k].push_back(std::abs(m[k] - mm[k]));
      }
    }
    const cv::Vec3f body_floor(0.06f, 0.025f, 0.025f), mark_floor(0.12f, 0.05f, 0.05f);
    for (int k = 0; k < 3; ++k) {
      sm.body_sd[k] = std::max(body_floor[k], 1.25f * percentile(fb[k], 0.8));
      sm.mark_sd[k] = std::max(mark_floor[k], fm[k].empty() ? 2 * mark_floor[k] : 1.25f * percentile(fm[k], 0.8));
    }
    // The marks' hue, from the faces that show marks of another hue than their body (a 0 with no mark does not).
    // Cờ toán only for now: measured on its tuning set, not on the other games' (their sets keep none).
    if (vocab_.face == PieceVocabulary::Face::Dots) {
      std::vector<cv::Vec3f> hues;
      cv::Vec3f sum(0, 0, 0);
      for (size_t i : idx) {
        float strength = 0;
        const cv::Vec3f h = mark_hue(details[i].face, white * details[i].illum, details[i].body_rel, &strength);
        if (strength < kHueStrength) continue;
        hues.push_back(h);
        sum += h;
      }
      const float n = static_cast<float>(cv::norm(sum));
      // Known when most exemplars show it and they agree (their mean direction is not washed out).
      if (hues.size() >= 2 && 2 * hues.size() >= idx.size() && n >= 0.6f * static_cast<float>(hues.size())) {
        sm.hue = sum / n;
        std::vector<float> off;
        for (const cv::Vec3f& h : hues) off.push_back(static_cast<float>(cv::norm(h - sm.hue)));
        sm.hue_sd = std::max(0.15f, 1.25f * percentile(off, 0.8));
      }
    }
    sm.exemplars = static_cast<int>(idx.size());
    set.sides.push_back(sm);
  }

  // The centre's likeness to the side colours just learnt is a fourth piece of evidence (Cờ toán only for now:
  // measured on its tuning sets, not on the other games').
  const bool use_body = any_piece && vocab_.face == PieceVocabulary::Face::Dots && !set.sides.empty();
  if (use_body) measure_body(rect, planes, set, details, white);
  // The occupancy weights: a logistic fit on this start's known sites (evidence `ds`, with or without their
  // texture), drawn towards the prior.
  const bool base_learnt = base.occupancy[1] != 0 || base.occupancy[2] != 0;
  const std::array<float, 3>& p3 = base_learnt ? base.occupancy : params_.default_occupancy;
  using Weights = cv::Vec<double, 5>;
  // The texture as its excess over the start's empty sites' (PieceSet::texture_empty): about 0 where no piece
  // stands, so that weighing it leaves the bias, held near its prior, where it was.
  float texture_empty = 0;
  auto features = [&](const SiteDetail& d, bool use_texture) {
    return Weights(1, d.disc.score, d.foreign, use_body ? d.body : 0.f, use_texture ? d.texture - texture_empty : 0.f);
  };
  const double lambda = 0.02 * static_cast<double>(sites.size());
  auto fit = [&](const std::vector<SiteDetail>& ds, bool use_texture) {
    const Weights prior(p3[0], p3[1], p3[2], base_learnt ? base.occupancy_body : 0.0,
                        use_texture && base_learnt ? base.occupancy_texture : 0.0);
    Weights w = prior;
    for (int iter = 0; iter < 25; ++iter) {
      // The body's and the texture's priors (none) are held loosely: on a start where one of them separates pieces
      // from empty sites it must be free to outweigh a rim and a foreign share that do not.
      const Weights reg(lambda, lambda, lambda, 0.1 * lambda, 0.1 * lambda);
      cv::Matx<double, 5, 5> hess = cv::Matx<double, 5, 5>::diag(reg * 2);
      Weights grad = (w - prior).mul(reg) * 2;
      for (size_t i = 0; i < sites.size(); ++i) {
        const Weights x = features(ds[i], use_texture);
        const double p = 1 / (1 + std::exp(-w.dot(x)));
        const double y = expected[i].empty() ? 0 : 1;
        grad += x * (p - y);
        hess += x * x.t() * std::max(1e-6, p * (1 - p));
      }
      if (!any_piece) {
        // Without a piece the weights of the evidence cannot be fitted: only the bias moves, to where every site
        // of this empty board reads empty with a margin. Down, for a board whose drawn points and lines the
        // paint model explains poorly (some evidence everywhere), though never so far that a clear piece (half
        // its rim seen, half its centre foreign) would read empty; up, for a board that shows little: a light
        // piece on a light sheet leaves its centre unexplained nowhere, and its rim is all it shows.
        double most = -1e9;
        for (size_t i = 0; i < sites.size(); ++i) most = std::max(most, w[1] * ds[i].disc.score + w[2] * ds[i].foreign);
        const double clear_piece = 0.5 * (w[1] + w[2]);
        // Raised at most so far that an empty site needs a third of its rim seen to read as a piece.
        const double margin = 3, highest = -w[1] / 3;
        // With the empty board kept (PieceSet::empty_board) a light piece is seen by its difference from it: no
        // need to go up.
        const double upper =
            base.empty_board.empty() && !set.empty_board.empty() ? prior[0] : std::max(highest, prior[0]);
        w[0] = std::clamp(-most - margin, -clear_piece + 2.5, std::max(upper, -clear_piece + 2.5));
        break;
      }
      Weights step;
      if (!cv::solve(cv::Mat(hess), cv::Mat(grad), cv::Mat(step, false), cv::DECOMP_CHOLESKY)) break;
      w -= step;
      if (cv::norm(step) < 1e-4) break;
    }
    if (any_piece) {
      // The prior holds the weights where a board of few pieces (a Morris placement: one or two) barely moves
      // them, and a false piece beside a placed one (its shadow or side over a fifth of the point's centre) can
      // stay occupied. When the fitted weights still order every piece of this board above every empty site,
      // the bias goes to the middle of that gap.
      double lowest_piece = 1e9, highest_empty = -1e9;
      for (size_t i = 0; i < sites.size(); ++i) {
        const double s = w.dot(features(ds[i], use_texture));
        (expected[i].empty() ? highest_empty : lowest_piece) =
            expected[i].empty() ? std::max(highest_empty, s) : std::min(lowest_piece, s);
      }
      if (highest_empty < lowest_piece) {
        if (highest_empty > 0 || lowest_piece < 0) {
          w[0] -= 0.5 * (highest_empty + lowest_piece);
        } else if (std::count_if(expected.begin(), expected.end(), [](const std::string& t) { return !t.empty(); }) >=
                   static_cast<long>(kPieceDiscMinPieces)) {
          // Not from a Morris placement's one or two pieces: there the prior's bias is what keeps a piece with a
          // weak rim and half its centre foreign (a light man on a light sheet) read (morris3 and morris6 missed
          // more men with the margin).
          const double margin =
              std::min(static_cast<double>(params_.learnt_empty_margin), 0.5 * (lowest_piece - highest_empty));
          if (highest_empty > -margin) w[0] -= highest_empty + margin;
        }
      }
    }
    return w;
  };
  auto use_weights = [&](PieceSet& s, const Weights& w, bool use_texture) {
    s.occupancy = {static_cast<float>(w[0]), static_cast<float>(w[1]), static_cast<float>(w[2])};
    s.occupancy_body = use_body ? static_cast<float>(w[3]) : 0.f;
    s.occupancy_texture = use_texture ? static_cast<float>(w[4]) : 0.f;
    s.texture_empty = use_texture ? texture_empty : 0.f;
  };
  use_weights(set, fit(details, false), false);
  // The look of each identity.
  if (vocab_.has_identity() && vocab_.face != PieceVocabulary::Face::Plain) {
    std::map<std::string, std::vector<size_t>> by_token;
    for (size_t i = 0; i < sites.size(); ++i)
      if (expected[i].size() == 2) by_token[expected[i]].push_back(i);
    // Site, pictures (count_pictures; symbols: the one), dot-like blobs.
    using StartFaces = std::vector<std::tuple<size_t, std::vector<Polar>, int>>;
    // Each kind's picture learnt into `into`, about each face's centre or about its marks' centre of mass.
    auto learn_pictures = [&](bool marks_centred, PieceSet& into, StartFaces& faces) {
      for (const auto& [token, idx] : by_token) {
        const SideModel* sm = into.side(token[0]);
        std::vector<Polar> polars;
        std::vector<int> counts;
        for (size_t i : idx) {
          const Face& f = details[i].face;
          cv::Vec3f mark = symbols_ ? f.symbol_mark : f.mark;
          if (sm && cv::norm(sm->mark - sm->body) > 0.08) mark = mul(sm->mark, white_from_body(f.body, sm->body));
          cv::Mat marks = mark_map(f, f.body, mark);
          std::vector<Polar> pictures =
              vocab_.face == PieceVocabulary::Face::Dots
                  ? count_pictures(marks, marks_centred, true)
                  : std::vector<Polar>{marks_centred ? SymbolReader::picture(marks) : polar_of(marks)};
          polars.push_back(pictures.front());
          counts.push_back(count_dots(marks).dots);
          faces.emplace_back(i, std::move(pictures), counts.back());
        }
        KindModel km;
        km.token = token;
        km.polar = consensus_polar(polars);
        if (symbols_) km.exemplar_pictures = polars;
        std::map<int, int> votes;
        for (int c : counts) votes[c]++;
        km.dots =
            vocab_.face == PieceVocabulary::Face::Dots
                ? std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) { return a.second < b.second; })
                      ->first
                : -1;
        km.exemplars = static_cast<int>(idx.size());
        km.marks_centred = marks_centred;
        into.kinds.erase(
            std::remove_if(into.kinds.begin(), into.kinds.end(), [&](const KindModel& k) { return k.token == token; }),
            into.kinds.end());
        into.kinds.push_back(std::move(km));
      }
    };
    StartFaces start_faces;
    if (vocab_.face != PieceVocabulary::Face::Dots) {
      learn_pictures(symbols_ != nullptr, set, start_faces);
    } else {
      // Dots pictured about their face's centre, or about their marks' centre of mass: blur smears a face's
      // outline, which is then found a pixel or two off, and merged dots pictured about a wrong centre match the
      // next count's picture as well as their own, while the marks' centre of mass stays with the marks; but
      // dots scattered off the middle of a sharp face put that centre off the middle, and the rings round it
      // cut through dots. Each start face is read with the other side's pictures alone, and the marks' centre is
      // taken only when it reads more of the start right.
      PieceSet about_marks = set;
      StartFaces faces_marks;
      learn_pictures(false, set, start_faces);
      learn_pictures(true, about_marks, faces_marks);
      // How much the blob count backs the pictures: by the share of the start's faces it counts right (the same
      // however the pictures are centred). All of them: 0.15; 0.7 of them or fewer: 0.04 (blur merges dots and
      // the blob count then misleads where the pictures may still tell); in between on a straight line.
      int counted_right = 0;
      for (const auto& [i, pictures, dots] : start_faces) counted_right += dots == expected[i][1] - '0';
      const float counted_share =
          start_faces.empty() ? 0.f : static_cast<float>(counted_right) / static_cast<float>(start_faces.size());
      set.count_blob_weight = 0.04f + 0.11f * std::clamp((counted_share - 0.7f) / 0.3f, 0.f, 1.f);
      about_marks.count_blob_weight = set.count_blob_weight;
      set.count_search = about_marks.count_search = true;
      auto right = [&](const PieceSet& with, const StartFaces& faces) {
        int n = 0;
        for (const auto& [i, pictures, dots] : faces) {
          const auto cand = dot_scores(with, pictures, dots, expected[i][0], Pictures::Other);
          n += !cand.empty() && cand[0].first == expected[i][1];
        }
        return n;
      };
      if (right(about_marks, faces_marks) > right(set, start_faces)) {
        set = std::move(about_marks);
        start_faces = std::move(faces_marks);
      }
      // The search round the centre, unless the picture about the centre alone reads more of the start right.
      const int searched = right(set, start_faces);
      set.count_search = false;
      const int unsearched = right(set, start_faces);
      set.count_search = searched >= unsearched;
      if (report) report->read_by_other_side = std::max(searched, unsearched);
    }
    if (report) {
      report->faces = static_cast<int>(start_faces.size());
      if (symbols_) {
        // Each face ranked against a set that keeps the other side's pictures only.
        std::map<char, PieceSet> others;
        for (const auto& [i, pictures, dots] : start_faces) {
          const char side = expected[i][0];
          auto [it, fresh] = others.try_emplace(side, set);
          if (fresh)
            it->second.kinds.erase(std::remove_if(it->second.kinds.begin(), it->second.kinds.end(),
                                                  [&](const KindModel& k) { return k.token[0] == side; }),
                                   it->second.kinds.end());
          const std::vector<KindScore> ranked = symbols_->rank(pictures, it->second, side);
          report->read_by_other_side += !ranked.empty() && ranked[0].first == expected[i][1];
        }
      }
    }
    // How sure a count is under this look: each start face read with the other side's pictures alone, and the
    // softmax temperature that gives the true counts the highest likelihood (temperature scaling), never below
    // the default's. A sharp start reads every count by a wide margin (the default stays); blur that merges
    // dots brings the counts' scores together or puts a neighbouring count first, and the read counts of this
    // look are then held as unsure as the start showed them to be.
    set.count_temperature = 0;
    if (vocab_.face == PieceVocabulary::Face::Dots) {
      std::vector<std::pair<std::vector<float>, size_t>> trials;  // scores, index of the true count's
      for (const auto& [i, pictures, dots] : start_faces) {
        const auto cand = dot_scores(set, pictures, dots, expected[i][0], Pictures::Other);
        std::vector<float> scores;
        size_t truth = cand.size();
        for (const auto& [kind, score] : cand) {
          if (kind == expected[i][1]) truth = scores.size();
          scores.push_back(score);
        }
        if (cand.size() >= 9 && truth < cand.size()) trials.emplace_back(std::move(scores), truth);
      }
      if (trials.size() >= 10) {
        float best_t = kCountTemperature;
        double best_ll = -1e300;
        for (float t = kCountTemperature; t < 1.2f; t *= 1.25f) {
          double ll = 0;
          for (const auto& [scores, truth] : trials) {
            double z = 0;
            for (float v : scores) z += std::exp((v - scores[truth]) / t);
            ll -= std::log(z);
          }
          if (ll > best_ll + 1e-9) best_ll = ll, best_t = t;
        }
        if (best_t > kCountTemperature) set.count_temperature = best_t;
      }
    }
  }

  // Check: the learnt set must read this very board right.
  ReadResult check = read(rect, pyramid, set, white);
  auto occupancy_misread = [&](const ReadResult& r) {
    int n = 0;
    for (size_t i = 0; i < sites.size(); ++i) n += r.details[i].occupied == expected[i].empty();
    return n;
  };
  // Men of the squares' own colour (black on near-black) show neither a rim nor a foreign centre, only the shading
  // of their tops: a start of enough pieces that this set still misreads has its weights fitted again on that very
  // reading, its texture weighed too, and kept when they read fewer of its sites wrong.
  const int misread = any_piece && params_.texture_pitches > 0 &&
                              std::count(known.begin(), known.end(), true) >= static_cast<long>(kPieceDiscMinPieces)
                          ? occupancy_misread(check)
                          : 0;
  if (misread > 0) {
    std::vector<float> empty_textures;
    for (size_t i = 0; i < sites.size(); ++i)
      if (expected[i].empty()) empty_textures.push_back(check.details[i].texture);
    texture_empty = empty_textures.empty() ? 0.f : median_of(empty_textures);
    const Weights w = fit(check.details, true);
    if (w[4] > 0) {
      PieceSet textured = set;
      use_weights(textured, w, true);
      ReadResult again = read(rect, pyramid, textured, white);
      if (occupancy_misread(again) < misread) set = std::move(textured), check = std::move(again);
    }
  }
  if (problems) {
    problems->clear();
    for (size_t i = 0; i < sites.size(); ++i)
      if (check.sites[i].token != expected[i])
        problems->push_back(sites[i].name + ": read '" + check.sites[i].token + "', expected '" + expected[i] + "'");
  }
  return set;
}

}  // namespace sb::vision
