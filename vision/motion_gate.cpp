#include "vision/motion_gate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/imgproc.hpp>

namespace sb::vision {

MotionGate::MotionGate(cv::Mat zone, cv::Mat ring, std::vector<cv::Rect> cells, GateParams params, cv::Mat unseen)
    : zone_(std::move(zone)), ring_(std::move(ring)), cells_(std::move(cells)), params_(params) {
  cv::bitwise_or(zone_, ring_, watch_);
  // Where a hand's skin holds the board as well as over it: the renderer's truth calls a hand over the board a
  // pixel or two before the gate image shows it in the zone.
  if (params_.hand_guard_px > 0)
    cv::dilate(zone_, near_zone_, cv::Mat(), cv::Point(-1, -1), params_.hand_guard_px);
  else
    near_zone_ = zone_.clone();
  motion_guard_ = cv::Mat::zeros(zone_.size(), CV_8U);
  if (params_.motion_guard_px > 0) {
    cv::dilate(zone_, motion_guard_, cv::Mat(), cv::Point(-1, -1), params_.motion_guard_px);
    motion_guard_.setTo(0, zone_);
  }
  // The gate image's edge, where arms come in from the players. When the picture ends inside the gate image (a
  // close camera), an arm comes in from beyond the picture: its change starts at the black the picture leaves,
  // never at the image's border (brazilian seed 6967658757376383, morris9 seed 8719012: hands over the board that
  // never held it).
  edge_ = cv::Mat::zeros(watch_.size(), CV_8U);
  cv::rectangle(edge_, cv::Rect(0, 0, edge_.cols, edge_.rows), cv::Scalar(255), 2);
  if (unseen.size() == edge_.size()) {
    cv::Mat beyond;
    cv::dilate(unseen, beyond, cv::Mat(), cv::Point(-1, -1), 2);
    edge_ |= beyond;
  }
  // Every third watched pixel is enough to measure gains and noise. Pixels the picture does not reach are always
  // black and never change: counted, they would read as a view darkened by an arm and as a quieter camera.
  const bool has_unseen = unseen.size() == watch_.size();
  int i = 0;
  for (int y = 0; y < watch_.rows; ++y) {
    const uchar* w = watch_.ptr<uchar>(y);
    const uchar* u = has_unseen ? unseen.ptr<uchar>(y) : nullptr;
    for (int x = 0; x < watch_.cols; ++x)
      if (w[x] && !(u && u[x]) && (i++ % 3) == 0) sample_idx_.push_back(static_cast<uint32_t>(y * watch_.cols + x));
  }
}

void MotionGate::reset() {
  have_prev_ = false;
  settled_ = false;
  reference_.release();
  last_motion_ms_ = -1;
  ring_blocked_since_ = -1;
  last_blocked_ms_ = -1;
  lamp_reference_.release();
  prev_disturbed_ = true;
  prev_covered_ = false;
  covered_still_since_ = -1;
}

bool MotionGate::covered(const cv::Mat& cur) const {
  if (sample_idx_.empty()) return false;
  const auto* pc = cur.ptr<cv::Vec3f>(0);
  const cv::Vec3f* pr = reference_.size() == cur.size() ? reference_.ptr<cv::Vec3f>(0) : nullptr;
  const auto grey_limit = static_cast<float>(params_.covered_grey), share = static_cast<float>(params_.covered_share);
  size_t dark = 0;
  for (uint32_t i : sample_idx_) {
    float limit = grey_limit;
    if (pr) limit = std::max(limit, share * (pr[i][0] + pr[i][1] + pr[i][2]) / 3.f);
    dark += (pc[i][0] + pc[i][1] + pc[i][2]) / 3.f < limit;
  }
  if (static_cast<double>(dark) >= params_.covered_part * static_cast<double>(sample_idx_.size())) return true;
  // Unlike the settled scene and with far less detail: not the scene shifted by a knock or seen in other light.
  return pr && likeness_to_scene(cur) < params_.covered_likeness &&
         detail(cur) < params_.covered_detail * detail(reference_);
}

double MotionGate::detail(const cv::Mat& img) const {
  const int w = img.cols;
  const auto* p = img.ptr<cv::Vec3f>(0);
  const size_t last = img.total() - static_cast<size_t>(w) - 1;
  double edges = 0, level = 0;
  for (uint32_t i : sample_idx_) {
    if (i >= last) continue;
    const float g = p[i][0] + p[i][1] + p[i][2];
    edges +=
        std::abs(p[i + 1][0] + p[i + 1][1] + p[i + 1][2] - g) + std::abs(p[i + w][0] + p[i + w][1] + p[i + w][2] - g);
    level += g;
  }
  return level > 0 ? edges / level : 0;
}

double MotionGate::likeness_to_scene(const cv::Mat& cur) const {
  const auto* pc = cur.ptr<cv::Vec3f>(0);
  const auto* pr = reference_.ptr<cv::Vec3f>(0);
  double sc = 0, sr = 0, scc = 0, srr = 0, scr = 0;
  for (uint32_t i : sample_idx_) {
    const double c = pc[i][0] + pc[i][1] + pc[i][2], r = pr[i][0] + pr[i][1] + pr[i][2];
    sc += c, sr += r, scc += c * c, srr += r * r, scr += c * r;
  }
  const auto n = static_cast<double>(sample_idx_.size());
  const double vc = scc - sc * sc / n, vr = srr - sr * sr / n;
  if (vc <= 1e-6 * n || vr <= 1e-6 * n) return 1;  // a plain picture: nothing to compare
  const double ncc = (scr - sc * sr / n) / std::sqrt(vc * vr);
  return ncc;
}

namespace {

// Per channel, the median ratio a/b over the sampled pixels: the global gain from b to a.
cv::Vec3f median_gain(const cv::Mat& a, const cv::Mat& b, const std::vector<uint32_t>& idx) {
  cv::Vec3f g(1, 1, 1);
  if (idx.empty()) return g;
  std::vector<float> r;
  r.reserve(idx.size());
  const auto* pa = a.ptr<cv::Vec3f>(0);
  const auto* pb = b.ptr<cv::Vec3f>(0);
  for (int c = 0; c < 3; ++c) {
    r.clear();
    for (uint32_t i : idx)
      if (pb[i][c] > 16.f) r.push_back(pa[i][c] / pb[i][c]);
    if (r.size() < 16) continue;
    auto mid = r.begin() + static_cast<long>(r.size() / 2);
    std::nth_element(r.begin(), mid, r.end());
    g[c] = std::clamp(*mid, 0.25f, 4.f);
  }
  return g;
}

// The share of the sampled pixels whose every channel changed from b to a by the gain g (within `tolerance` of
// it): a lamp changes the whole picture alike, an arm only the part it covers.
double gain_agreement(const cv::Mat& a, const cv::Mat& b, cv::Vec3f g, const std::vector<uint32_t>& idx,
                      double tolerance) {
  if (idx.empty()) return 0;
  const auto* pa = a.ptr<cv::Vec3f>(0);
  const auto* pb = b.ptr<cv::Vec3f>(0);
  size_t agree = 0;
  for (uint32_t i : idx) {
    bool all = true;
    for (int c = 0; c < 3 && all; ++c)
      all = std::abs(pa[i][c] / std::max(4.f, pb[i][c]) - g[c]) < static_cast<float>(tolerance) * g[c];
    agree += all;
  }
  return static_cast<double>(agree) / static_cast<double>(idx.size());
}

// max over channels of |a - g·b|, blurred 3×3.
void gained_difference(const cv::Mat& a, const cv::Mat& b, cv::Vec3f g, cv::Mat& out) {
  cv::Mat d(a.size(), CV_32F);
  for (int y = 0; y < a.rows; ++y) {
    const auto* pa = a.ptr<cv::Vec3f>(y);
    const auto* pb = b.ptr<cv::Vec3f>(y);
    float* o = d.ptr<float>(y);
    for (int x = 0; x < a.cols; ++x) {
      float m = std::abs(pa[x][0] - g[0] * pb[x][0]);
      m = std::max(m, std::abs(pa[x][1] - g[1] * pb[x][1]));
      m = std::max(m, std::abs(pa[x][2] - g[2] * pb[x][2]));
      o[x] = m;
    }
  }
  cv::blur(d, out, cv::Size(3, 3));
}

// The light between the settled scene and now, as a smooth gain per colour channel: g(x, y) quadratic over the
// image (a lamp switched on brightens one side more than the other, and warms or cools the colour). Fitted by
// least squares over the sampled pixels, then again without those the first fit explains worst (a hand, a
// moved piece's shadow), so the gain follows the light and not what stands in it.
struct GainField {
  std::array<cv::Vec<double, 6>, 3> coef{};
  static cv::Vec<double, 6> basis(double x, double y) { return {1, x, y, x * x, x * y, y * y}; }
  // The gain of each channel at (x, y) of the gate image, (sx, sy) its pixels' step in the field's [-1, 1].
  cv::Vec3d at(int x, int y, double sx, double sy) const {
    const cv::Vec<double, 6> phi = basis(x * sx - 1, y * sy - 1);
    return {coef[0].dot(phi), coef[1].dot(phi), coef[2].dot(phi)};
  }
};

GainField fit_gain_field(const cv::Mat& a, const cv::Mat& b, const std::vector<uint32_t>& idx) {
  GainField f;
  for (int c = 0; c < 3; ++c) f.coef[static_cast<size_t>(c)] = {1, 0, 0, 0, 0, 0};
  if (idx.size() < 64) return f;
  const auto* pa = a.ptr<cv::Vec3f>(0);
  const auto* pb = b.ptr<cv::Vec3f>(0);
  const double sx = 2.0 / std::max(1, a.cols - 1), sy = 2.0 / std::max(1, a.rows - 1);
  std::vector<cv::Vec<double, 6>> phi(idx.size());
  for (size_t k = 0; k < idx.size(); ++k) {
    const int x = static_cast<int>(idx[k] % static_cast<uint32_t>(a.cols)),
              y = static_cast<int>(idx[k] / static_cast<uint32_t>(a.cols));
    phi[k] = GainField::basis(x * sx - 1, y * sy - 1);
  }
  std::vector<double> residual(idx.size());
  std::vector<uint8_t> use(idx.size(), 1);
  for (int c = 0; c < 3; ++c) {
    cv::Vec<double, 6>& coef = f.coef[static_cast<size_t>(c)];
    std::fill(use.begin(), use.end(), uint8_t{1});
    for (int pass = 0; pass < 2; ++pass) {
      cv::Matx<double, 6, 6> ata = cv::Matx<double, 6, 6>::zeros();
      cv::Vec<double, 6> atb = cv::Vec<double, 6>::all(0);
      int n = 0;
      for (size_t k = 0; k < idx.size(); ++k) {
        if (!use[k]) continue;
        const double ref = pb[idx[k]][c];
        const cv::Vec<double, 6> row = phi[k] * ref;
        ata += row * row.t();
        atb += row * static_cast<double>(pa[idx[k]][c]);
        ++n;
      }
      if (n < 32) break;
      cv::Vec<double, 6> sol;
      if (!cv::solve(ata, atb, sol, cv::DECOMP_CHOLESKY)) break;
      coef = sol;
      if (pass == 1) break;
      for (size_t k = 0; k < idx.size(); ++k) residual[k] = std::abs(pa[idx[k]][c] - coef.dot(phi[k]) * pb[idx[k]][c]);
      std::vector<double> sorted = residual;
      const auto q = sorted.begin() + static_cast<long>(sorted.size() * 3 / 4);
      std::nth_element(sorted.begin(), q, sorted.end());
      const double cut = std::max(4.0, 2.0 * *q);
      for (size_t k = 0; k < idx.size(); ++k) use[k] = residual[k] <= cut;
    }
  }
  return f;
}

// max over channels of |a - g(x, y)·b|, blurred 3×3.
void field_difference(const cv::Mat& a, const cv::Mat& b, const GainField& g, cv::Mat& out) {
  cv::Mat d(a.size(), CV_32F);
  const double sx = 2.0 / std::max(1, a.cols - 1), sy = 2.0 / std::max(1, a.rows - 1);
  for (int y = 0; y < a.rows; ++y) {
    const auto* pa = a.ptr<cv::Vec3f>(y);
    const auto* pb = b.ptr<cv::Vec3f>(y);
    float* o = d.ptr<float>(y);
    for (int x = 0; x < a.cols; ++x) {
      const cv::Vec<double, 6> phi = GainField::basis(x * sx - 1, y * sy - 1);
      float m = 0;
      for (int c = 0; c < 3; ++c)
        m = std::max(m, std::abs(pa[x][c] - static_cast<float>(g.coef[static_cast<size_t>(c)].dot(phi)) * pb[x][c]));
      o[x] = m;
    }
  }
  cv::blur(d, out, cv::Size(3, 3));
}

// b lit by the gain field g: g(x, y)·b per channel.
void apply_field(const cv::Mat& b, const GainField& g, cv::Mat& out) {
  out.create(b.size(), CV_32FC3);
  const double sx = 2.0 / std::max(1, b.cols - 1), sy = 2.0 / std::max(1, b.rows - 1);
  for (int y = 0; y < b.rows; ++y) {
    const auto* pb = b.ptr<cv::Vec3f>(y);
    auto* o = out.ptr<cv::Vec3f>(y);
    for (int x = 0; x < b.cols; ++x) {
      const cv::Vec3d gain = g.at(x, y, sx, sy);
      for (int c = 0; c < 3; ++c) o[x][c] = static_cast<float>(gain[c]) * pb[x][c];
    }
  }
}

// Whether `now` is `before` (lit by the gain field's `g` there) in a shadow: darker in every channel, and by
// nearly the same share in each (within `tint`). A hand's skin or sleeve changes the colour as well.
bool shadow_like(const cv::Vec3f& now, const cv::Vec3f& before, const cv::Vec3d& g, double tint) {
  double lo = 1e9, hi = 0;
  for (int c = 0; c < 3; ++c) {
    // A few grey levels added to both so that the camera's noise on dark pixels does not decide.
    const double r = (now[c] + 8.0) / (g[c] * before[c] + 8.0);
    lo = std::min(lo, r), hi = std::max(hi, r);
  }
  return hi < 1 && hi <= tint * lo;
}

// How many of `mask`'s pixels changed between `before` and `now` (`gain`: the global gain between them) as no
// shadow does: a shadow falling or lifting darkens or lightens every channel by nearly the same share.
int skin_moving(const cv::Mat& now, const cv::Mat& before, const cv::Vec3f& gain, const cv::Mat& mask, double tint) {
  const cv::Vec3d g(gain[0], gain[1], gain[2]);
  const cv::Vec3d inverse(1.0 / std::max(1e-3, g[0]), 1.0 / std::max(1e-3, g[1]), 1.0 / std::max(1e-3, g[2]));
  int count = 0;
  for (int y = 0; y < mask.rows; ++y) {
    const uchar* m = mask.ptr<uchar>(y);
    const auto* pn = now.ptr<cv::Vec3f>(y);
    const auto* pb = before.ptr<cv::Vec3f>(y);
    for (int x = 0; x < mask.cols; ++x)
      if (m[x] && !shadow_like(pn[x], pb[x], g, tint) && !shadow_like(pb[x], pn[x], inverse, tint)) ++count;
  }
  return count;
}

// The changed pixels outside the zone that are a shadow on the settled scene (shadow_like; `light`: the gain field
// between them).
cv::Mat shadows_beside(const cv::Mat& changed, const cv::Mat& zone, const cv::Mat& cur, const cv::Mat& reference,
                       const GainField& light, double tint) {
  cv::Mat out = cv::Mat::zeros(changed.size(), CV_8U);
  const double sx = 2.0 / std::max(1, cur.cols - 1), sy = 2.0 / std::max(1, cur.rows - 1);
  for (int y = 0; y < changed.rows; ++y) {
    const uchar* c = changed.ptr<uchar>(y);
    const uchar* z = zone.ptr<uchar>(y);
    const auto* pc = cur.ptr<cv::Vec3f>(y);
    const auto* pr = reference.ptr<cv::Vec3f>(y);
    uchar* o = out.ptr<uchar>(y);
    for (int x = 0; x < changed.cols; ++x)
      if (c[x] && !z[x] && shadow_like(pc[x], pr[x], light.at(x, y, sx, sy), tint)) o[x] = 255;
  }
  return out;
}

// The pixels outside the zone that lie in a shadow against the settled scene as it stands, light field or not:
// darker in every channel by nearly the same share and by more than `min_drop` grey levels. A soft shadow wide
// enough bends the light field that is fitted to explain it (an arm's shadow across a quarter of a small board's
// gate image), and the field's change then falls below the threshold inside it: taken into the settled scene at
// a settle, it showed as a lightening once the arm had gone and held the board unsettled (morris3 seed 8822003,
// game 1: from 2.3 s to 41.8 s, the first two plies never recorded).
cv::Mat darkened_beside(const cv::Mat& zone, const cv::Mat& cur, const cv::Mat& reference, double min_drop,
                        double tint) {
  cv::Mat out = cv::Mat::zeros(cur.size(), CV_8U);
  const cv::Vec3d unlit{1, 1, 1};
  for (int y = 0; y < cur.rows; ++y) {
    const uchar* z = zone.ptr<uchar>(y);
    const auto* pc = cur.ptr<cv::Vec3f>(y);
    const auto* pr = reference.ptr<cv::Vec3f>(y);
    uchar* o = out.ptr<uchar>(y);
    for (int x = 0; x < cur.cols; ++x) {
      if (z[x]) continue;
      const double drop = (pr[x][0] + pr[x][1] + pr[x][2] - pc[x][0] - pc[x][1] - pc[x][2]) / 3;
      if (drop > min_drop && shadow_like(pc[x], pr[x], unlit, tint)) o[x] = 255;
    }
  }
  return out;
}

double sampled_median(const cv::Mat& f, const std::vector<uint32_t>& idx) {
  if (idx.empty()) return 0;
  std::vector<float> v;
  v.reserve(idx.size());
  const float* p = f.ptr<float>(0);
  for (uint32_t i : idx) v.push_back(p[i]);
  auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

cv::Mat MotionGate::edge_parts(const cv::Mat& changed) const {
  cv::Mat labels;
  const int n = cv::connectedComponents(changed, labels, 8, CV_32S);
  std::vector<uint8_t> from_edge(static_cast<size_t>(n), 0);
  for (int y = 0; y < labels.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    const uchar* edge = edge_.ptr<uchar>(y);
    for (int x = 0; x < labels.cols; ++x)
      if (l[x] && edge[x]) from_edge[static_cast<size_t>(l[x])] = 1;
  }
  cv::Mat out = cv::Mat::zeros(changed.size(), CV_8U);
  for (int y = 0; y < labels.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    uchar* o = out.ptr<uchar>(y);
    for (int x = 0; x < labels.cols; ++x) o[x] = from_edge[static_cast<size_t>(l[x])] && l[x] ? 255 : 0;
  }
  cv::dilate(out, out, cv::Mat(), cv::Point(-1, -1), 2);
  return out;
}

GateResult MotionGate::update(const cv::Mat& gate_bgr, int64_t t_ms) {
  GateResult r;
  cv::Mat cur;
  gate_bgr.convertTo(cur, CV_32FC3);
  cv::blur(cur, cur, cv::Size(3, 3));
  r.site_motion.assign(cells_.size(), 0.f);

  if (have_prev_ && prev_t_ms_ >= 0 && t_ms - prev_t_ms_ > params_.gap_ms) reset();
  prev_t_ms_ = t_ms;
  if (!have_prev_ || cur.size() != watch_.size()) {
    prev_ = cur;
    have_prev_ = true;
    lamp_reference_.release();
    prev_disturbed_ = true;
    prev_covered_ = covered(cur);
    last_motion_ms_ = t_ms;
    settled_ = false;
    r.disturbed = true;
    r.last_motion_ms = t_ms;
    r.noise = noise_;
    moving_ = cv::Mat::zeros(watch_.size(), CV_8U);
    diff_ = cv::Mat::zeros(watch_.size(), CV_32F);
    return r;
  }

  // An arm right before the camera darkens most of the view: a darkness that no still board shows. Against
  // the previous frame it looks like a lamp switched off, and then like stillness (morris12 seed 8712001: 78
  // frames settled so while the renderer's arm covered the picture). It is motion, and no lamp.
  const bool covered_now = covered(cur);
  r.covered = covered_now;

  // Temporal change, after the global gain between the frames is taken out.
  const cv::Vec3f gain = median_gain(cur, prev_, sample_idx_);
  gained_difference(cur, prev_, gain, diff_);
  // The noise: the median difference over the watched pixels (hands cover less than half of them), followed
  // slowly so that one busy frame does not raise the threshold. A covered frame, or the first after it, says
  // nothing about the camera's noise.
  if (!covered_now && !prev_covered_) {
    const double frame_noise = sampled_median(diff_, sample_idx_) / 0.6745;
    noise_ = std::clamp(0.9 * noise_ + 0.1 * frame_noise, 0.3, 40.0);
  }
  const double threshold = std::max(params_.min_threshold, params_.noise_k * noise_);
  cv::compare(diff_, threshold, moving_, cv::CMP_GT);
  // Anything moving in the gate image, outside the watched part too: an arm on its way in.
  const bool moved_anywhere = cv::countNonZero(moving_) >= params_.min_moving_px;
  moving_.setTo(0, ~watch_);
  // Only motion inside the zone disturbs: an arm passing outside it is not over the board. Skin moving right beside
  // it does too: a hand arriving moves there a frame before it moves in the zone (morris12 seed 8822016, games 5
  // and 10, cotulenh seed 8821005, game 19: that frame was settled while the renderer's truth had the hand over the
  // board). A shadow moving there (an arm's, beside a small board) does not.
  r.moving_px = cv::countNonZero(moving_ & zone_);
  if (r.moving_px < params_.min_moving_px && params_.motion_guard_px > 0) {
    const int skin = skin_moving(cur, prev_, gain, moving_ & motion_guard_, params_.shadow_tint);
    if (skin >= params_.guard_skin_px) r.moving_px += skin;
  }
  r.noise = noise_;
  r.threshold = threshold;
  r.disturbed = r.moving_px >= params_.min_moving_px || covered_now;
  for (size_t i = 0; i < cells_.size(); ++i) {
    const cv::Rect& c = cells_[i];
    if (c.area() > 0)
      r.site_motion[i] = static_cast<float>(cv::countNonZero(moving_(c))) / static_cast<float>(c.area());
  }
  if (r.disturbed) last_motion_ms_ = t_ms;
  // Covered and still for as long as a change takes to become part of the scene: not an arm but the light
  // (a lamp switched off in a dark room). The settled scene is dropped so that it can settle in the dark.
  if (covered_now && !moved_anywhere) {
    if (covered_still_since_ < 0) covered_still_since_ = t_ms;
    if (t_ms - covered_still_since_ >= params_.absorb_ms) {
      reference_.release();
      covered_still_since_ = -1;
      r.covered = false;
      r.disturbed = r.moving_px >= params_.min_moving_px;
    }
  } else {
    covered_still_since_ = -1;
  }
  // A lamp switched at the previous frame (see below) is taken only now that this frame is still: an arm coming
  // in also changes the frame's median, and carried over pixel by pixel it would become part of the settled
  // scene and never hold the board.
  if (!lamp_reference_.empty()) {
    if (!moved_anywhere && !r.covered) reference_ = lamp_reference_;
    lamp_reference_.release();
  }
  // A lamp switched on or off changes the whole picture between two frames, glare spots and the pieces' shadows
  // included, which no smooth gain field explains: the settled scene takes the same change, pixel by pixel, so
  // that what it shows stays comparable (morris6 seed 8400006, game 2: after a warm lamp from the side the
  // table's change reached from the image's edge over the board like an arm, and the board never settled again).
  // Only between still frames: a frame that moved, or one covered, is no picture of the light on the scene.
  // An arm in a sleeve of one colour that comes in over most of the view in one frame shifts the median as a
  // lamp does (cotulenh seed 8821005 game 9: a green sleeve, gains 0.51 / 0.77 / 0.46, no sampled pixel changed by
  // them); taken in as light, the sleeve stayed in the settled scene and held the board at every later move.
  if (!reference_.empty() && !r.covered && !prev_covered_ && !prev_disturbed_ &&
      std::max({std::abs(gain[0] - 1), std::abs(gain[1] - 1), std::abs(gain[2] - 1)}) > params_.light_step &&
      gain_agreement(cur, prev_, gain, sample_idx_, params_.lamp_tolerance) >= params_.lamp_agreement) {
    cv::Mat ratio, base;
    cv::max(prev_, 4.f, base);
    cv::divide(cur, base, ratio);
    cv::blur(ratio, ratio, cv::Size(3, 3));
    cv::min(ratio, 4.f, ratio);
    cv::Mat carried = reference_.mul(ratio);
    // The ratio tells the light on the settled scene only where the previous frame showed that scene: where
    // something foreign stood in it (an arm over the board, a piece moved since), the settled scene takes the
    // smooth gain field between the two frames instead; pixel by pixel it would take the arm's absence as light
    // and keep its ghost (static_change_ is still the previous frame's here).
    if (!static_change_.empty() && cv::countNonZero(static_change_) > 0) {
      cv::Mat foreign, by_field;
      cv::dilate(static_change_, foreign, cv::Mat(), cv::Point(-1, -1), 2);
      apply_field(reference_, fit_gain_field(cur, prev_, sample_idx_), by_field);
      by_field.copyTo(carried, foreign);
    }
    if (moved_anywhere)
      lamp_reference_ = carried;
    else
      reference_ = carried;
  }
  prev_ = cur;
  prev_disturbed_ = moved_anywhere || r.covered;
  prev_covered_ = r.covered;

  // Static check against the settled scene: something lying across the ring round the board zone.
  static_change_.release();
  holding_.release();
  GainField light;  // the static check's light on the settled scene
  if (!reference_.empty() && !r.disturbed) {
    cv::Mat s;
    light = fit_gain_field(cur, reference_, sample_idx_);
    field_difference(cur, reference_, light, s);
    cv::Mat& changed = static_change_;
    cv::compare(s, threshold * 1.5, changed, cv::CMP_GT);
    holding_ = cv::Mat::zeros(changed.size(), CV_8U);
    // An arm lies across the ring: a changed part that comes in from the gate image's edge (the player), crosses
    // the ring and reaches well into the board zone (the hand over the board), or into it at all with skin, not
    // shadow, at the zone's edge (fingertips resting there). A piece taken from or put down beside the board, even
    // at its very edge, does not reach from the image's edge to over the board: a man taken from a reserve lying
    // against the board's side changes the table within the zone's guard and joins the image's edge, but leaves
    // the zone as it was (morris6 seed 8822006, game 14: it held the board for three plies).
    int ring_changed = 0;
    if (cv::countNonZero(changed & ring_) >= params_.ring_foreign_px) {
      cv::Mat labels;
      const int n = cv::connectedComponents(changed, labels, 8, CV_32S);
      std::vector<uint8_t> from_edge(static_cast<size_t>(n), 0);
      std::vector<int> in_ring(static_cast<size_t>(n), 0), in_zone(static_cast<size_t>(n), 0),
          hand_near(static_cast<size_t>(n), 0);
      const double sx = 2.0 / std::max(1, cur.cols - 1), sy = 2.0 / std::max(1, cur.rows - 1);
      for (int y = 0; y < labels.rows; ++y) {
        const int* l = labels.ptr<int>(y);
        const uchar* z = zone_.ptr<uchar>(y);
        const uchar* near = near_zone_.ptr<uchar>(y);
        const uchar* ring = ring_.ptr<uchar>(y);
        const uchar* edge = edge_.ptr<uchar>(y);
        const auto* pc = cur.ptr<cv::Vec3f>(y);
        const auto* pr = reference_.ptr<cv::Vec3f>(y);
        for (int x = 0; x < labels.cols; ++x) {
          if (!l[x]) continue;
          const auto k = static_cast<size_t>(l[x]);
          if (z[x]) ++in_zone[k];
          if (ring[x]) ++in_ring[k];
          if (edge[x]) from_edge[k] = 1;
          if (near[x]) {
            if (!shadow_like(pc[x], pr[x], light.at(x, y, sx, sy), params_.shadow_tint)) ++hand_near[k];
          }
        }
      }
      for (size_t k = 1; k < static_cast<size_t>(n); ++k) {
        const bool over_zone =
            in_zone[k] >= params_.arm_zone_px || (in_zone[k] > 0 && hand_near[k] >= params_.hand_near_px);
        if (!from_edge[k] || !over_zone) continue;
        ring_changed += in_ring[k];
        holding_.setTo(255, labels == static_cast<int>(k));
      }
    }
    if (ring_changed >= params_.ring_foreign_px) {
      if (ring_blocked_since_ < 0) ring_blocked_since_ = t_ms;
      if (t_ms - ring_blocked_since_ >= params_.absorb_ms && t_ms - last_motion_ms_ >= params_.absorb_ms) {
        cur.copyTo(reference_, ring_ | holding_);  // it has stayed: it is part of the scene now
        ring_blocked_since_ = -1;
      } else {
        r.ring_blocked = true;
      }
    } else {
      ring_blocked_since_ = -1;
    }
  } else if (r.disturbed) {
    ring_blocked_since_ = -1;
  }

  // A frame that held the board keeps it unsettled for the stillness window after it, as motion does: an arm's
  // change at the threshold can fall short of holding it for a frame while nothing moves.
  if (r.ring_blocked) last_blocked_ms_ = t_ms;
  const bool still = t_ms - last_motion_ms_ >= params_.still_ms &&
                     (last_blocked_ms_ < 0 || t_ms - last_blocked_ms_ >= params_.still_ms);
  const bool now_settled = still && !r.ring_blocked;
  // The settled scene is the board and the table without hands: what changed since it was last taken comes into
  // it when the board settles, except a change that comes in from the gate image's edge (a hand resting beside
  // the board, its arm); while settled it follows the light only where nothing changed. A hand kept out of it
  // shows whole when it creeps over the board later (in it, only the hand's last few millimetres would), and its
  // absence is no change once it has gone.
  if (now_settled && !settled_) {
    r.just_settled = true;
    r.settle_latency_ms = t_ms - last_motion_ms_;
    if (reference_.empty() || static_change_.empty()) {
      reference_ = cur.clone();
    } else {
      // A shadow beside the board is the shadow of something over or near it (an arm reaching in from the side):
      // it must not come into the settled scene. On the dark table it darkens too little to join the arm's
      // change, so it is no edge part; taken in, it showed as a lightening when the arm left, which joined the
      // table's edge and held the board until the next knock of the camera (morris9 seed 8822009, game 19: 9 of
      // 13 hands never settled).
      cur.copyTo(reference_, ~(edge_parts(static_change_) |
                               shadows_beside(static_change_, zone_, cur, reference_, light, params_.shadow_tint) |
                               darkened_beside(zone_, cur, reference_, threshold * 1.5, params_.shadow_tint)));
    }
  } else if (now_settled) {
    cv::Mat followed;
    cv::addWeighted(reference_, 1 - params_.reference_follow, cur, params_.reference_follow, 0, followed);
    if (static_change_.empty()) {
      reference_ = followed;
    } else {
      cv::Mat keep;
      cv::dilate(static_change_, keep, cv::Mat(), cv::Point(-1, -1), 1);
      followed.copyTo(reference_, ~keep);
    }
  }
  settled_ = now_settled;
  r.settled = now_settled;
  r.last_motion_ms = last_motion_ms_;
  return r;
}

cv::Mat MotionGate::debug_image(const cv::Mat& gate_bgr, int scale) const {
  cv::Mat out;
  if (gate_bgr.empty()) return out;
  gate_bgr.convertTo(out, -1, 0.6);  // dimmed, so the marks stand out
  auto paint = [&](const cv::Mat& mask, cv::Scalar colour) {
    if (!mask.empty() && mask.size() == out.size()) out.setTo(colour, mask);
  };
  paint(static_change_, cv::Scalar(40, 40, 230));
  paint(holding_, cv::Scalar(230, 40, 230));
  paint(moving_, cv::Scalar(0, 230, 255));
  cv::resize(out, out, cv::Size(), scale, scale, cv::INTER_NEAREST);
  auto outline = [&](const cv::Mat& mask, cv::Scalar colour) {
    cv::Mat big;
    cv::resize(mask, big, out.size(), 0, 0, cv::INTER_NEAREST);
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(big, contours, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
    cv::drawContours(out, contours, -1, colour, 1);
  };
  outline(zone_, cv::Scalar(60, 200, 60));
  outline(ring_, cv::Scalar(230, 120, 40));
  // The plain gate image beside it, and the settled scene the static change is measured against.
  cv::Mat plain, ref;
  cv::resize(gate_bgr, plain, out.size(), 0, 0, cv::INTER_NEAREST);
  if (!reference_.empty() && reference_.size() == gate_bgr.size()) {
    reference_.convertTo(ref, CV_8UC3);
    cv::resize(ref, ref, out.size(), 0, 0, cv::INTER_NEAREST);
  } else {
    ref = cv::Mat::zeros(out.size(), CV_8UC3);
  }
  cv::hconcat(std::vector<cv::Mat>{out, plain, ref}, out);
  return out;
}

}  // namespace sb::vision
