#include "vision/motion_streak.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <vector>

namespace sb::vision {

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr int kAngles = 90;  // directions searched, 2° apart

// The tiles' mean log power spectrum (tile × tile, CV_32F, DC at (0, 0)) of `region` (8-bit BGR) in grey, and
// the gradient moments (Σgx², Σgy², Σgx·gy) over the same tiles: the tiles stand for the region, at a fraction of
// its cost. Only the tiles are turned grey (each pixel as the whole region's conversion gives it).
cv::Mat mean_log_spectrum(const cv::Mat& region, const StreakParams& params, cv::Vec3d& moments) {
  const int t = params.tile;
  std::vector<cv::Point> corners;
  for (int y = 0; y + t <= region.rows; y += t / 2)
    for (int x = 0; x + t <= region.cols; x += t / 2) corners.emplace_back(x, y);
  if (corners.empty()) return {};
  // Spread the tiles kept over the whole region.
  if (static_cast<int>(corners.size()) > params.max_tiles) {
    std::vector<cv::Point> kept;
    for (int i = 0; i < params.max_tiles; ++i) kept.push_back(corners[i * corners.size() / params.max_tiles]);
    corners = std::move(kept);
  }
  cv::Mat window;
  cv::createHanningWindow(window, cv::Size(t, t), CV_32F);
  cv::Mat power = cv::Mat::zeros(t, t, CV_32F), grey, tile, spectrum, gx, gy;
  moments = {};
  for (const cv::Point& c : corners) {
    cv::cvtColor(region(cv::Rect(c.x, c.y, t, t)), grey, cv::COLOR_BGR2GRAY);
    grey.convertTo(tile, CV_32F);
    cv::Sobel(tile, gx, CV_32F, 1, 0, 1);
    cv::Sobel(tile, gy, CV_32F, 0, 1, 1);
    moments += cv::Vec3d(gx.dot(gx), gy.dot(gy), gx.dot(gy));
    tile -= cv::mean(tile)[0];
    tile = tile.mul(window);
    cv::dft(tile, spectrum, cv::DFT_COMPLEX_OUTPUT);
    for (int y = 0; y < t; ++y) {
      const cv::Vec2f* s = spectrum.ptr<cv::Vec2f>(y);
      float* p = power.ptr<float>(y);
      for (int x = 0; x < t; ++x) p[x] += s[x][0] * s[x][0] + s[x][1] * s[x][1];
    }
  }
  power /= static_cast<double>(corners.size());
  cv::Mat log_power;
  cv::log(power + 1e-6, log_power);
  return log_power;
}

// The frequencies the direction profiles take from a tile's spectrum (the upper half plane within tile / 2 bins of
// DC, the axes left out), in the order they are summed, and per direction each one's bin (|u| rounded) and each
// bin's count: the same for every picture.
struct ProfileTable {
  std::vector<cv::Point> freqs;  // (kx, ky)
  std::vector<uint16_t> bin;     // per direction, per frequency
  std::vector<int> count;        // per direction, per bin
};

ProfileTable make_profile_table(int t) {
  const int bins = t / 2;
  ProfileTable table;
  std::vector<float> cosines(kAngles), sines(kAngles);
  for (int a = 0; a < kAngles; ++a) cosines[a] = std::cos(a * kPi / kAngles), sines[a] = std::sin(a * kPi / kAngles);
  for (int ky = 1; ky < bins; ++ky)
    for (int kx = -bins + 1; kx < bins; ++kx)
      if (kx != 0 && kx * kx + ky * ky <= bins * bins) table.freqs.emplace_back(kx, ky);
  const size_t n = table.freqs.size();
  table.bin.resize(kAngles * n);
  table.count.assign(kAngles * (bins + 1), 0);
  for (int a = 0; a < kAngles; ++a)
    for (size_t i = 0; i < n; ++i) {
      const int kx = table.freqs[i].x, ky = table.freqs[i].y;
      const int b = static_cast<int>(std::abs(kx * cosines[a] + ky * sines[a]) + 0.5f);
      table.bin[a * n + i] = static_cast<uint16_t>(b);
      table.count[a * (bins + 1) + b] += 1;
    }
  return table;
}

// Worked out once per tile size for the whole process, not per thread: a live pipeline reads on a fresh worker
// thread every time (Pipeline's background reads).
const ProfileTable& profile_table(int t) {
  static std::mutex guard;
  static std::map<int, std::unique_ptr<const ProfileTable>> tables;
  const std::lock_guard<std::mutex> lock(guard);
  std::unique_ptr<const ProfileTable>& table = tables[t];
  if (!table) table = std::make_unique<const ProfileTable>(make_profile_table(t));
  return *table;
}
}  // namespace

MotionStreak estimate_streak(const cv::Mat& bgr, cv::Rect roi, const StreakParams& params) {
  MotionStreak out;
  roi &= cv::Rect(0, 0, bgr.cols, bgr.rows);
  if (roi.width < params.tile || roi.height < params.tile) return out;
  cv::Vec3d moments;
  const cv::Mat log_power = mean_log_spectrum(bgr(roi), params, moments);
  if (log_power.empty()) return out;

  // Per direction, the log power's mean over each line of frequencies u = k·d (|u| in bins of 1 / tile cycles
  // per pixel). The axes are left out: JPEG's 8-pixel blocks and the rows' own structure put lines there. A real
  // picture's spectrum is symmetric about DC, so the upper half plane holds it all.
  const int t = params.tile, bins = t / 2;
  const ProfileTable& table = profile_table(t);
  const size_t n = table.freqs.size();
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = log_power.at<float>(table.freqs[i].y, (table.freqs[i].x + t) % t);
  // Each bin's sum over its frequencies in the table's order, as when every frequency was added to every
  // direction's bin in turn.
  std::vector<float> sum(kAngles * (bins + 1), 0);
  const std::vector<int>& count = table.count;
  for (int a = 0; a < kAngles; ++a) {
    float* s = sum.data() + a * (bins + 1);
    const uint16_t* b = table.bin.data() + a * n;
    for (size_t i = 0; i < n; ++i) s[b[i]] += values[i];
  }
  auto profile = [&](int a, double b) {
    const int b0 = std::min(bins - 1, static_cast<int>(std::floor(b)));
    const double f = std::min(1.0, b - b0);
    auto at = [&](int i) {
      const int n = count[a * (bins + 1) + i];
      return n > 0 ? sum[a * (bins + 1) + i] / n : 0.0;
    };
    return (1 - f) * at(b0) + f * at(b0 + 1);
  };
  // A direction's notch for a length: the notch at 1/L against its neighbours at 0.6/L and 1.4/L, the
  // perpendicular direction's profile taken off (the picture's own fall of power with frequency); nullopt where
  // 1.4/L lies beyond the spectrum.
  auto notch_at = [&](int a, double length) -> std::optional<double> {
    const int across = (a + kAngles / 2) % kAngles;
    auto diff = [&](double b) { return profile(a, b) - profile(across, b); };
    const double b1 = t / length;
    if (1.4 * b1 > bins) return std::nullopt;
    return 0.5 * (diff(0.6 * b1) + diff(1.4 * b1)) - diff(b1);
  };
  double best = 0, best_angle = 0, best_length = 0;
  for (int a = 0; a < kAngles; ++a) {
    for (double length = params.min_length_px; length <= params.max_length_px + 1e-9; length += 0.25) {
      const std::optional<double> found = notch_at(a, length);
      if (!found) continue;
      const double notch = *found;
      if (notch > best) best = notch, best_angle = a * 180.0 / kAngles, best_length = length;
    }
  }
  // The gradient energy along a direction against across it.
  auto energy_ratio = [&](double angle_deg) {
    const double sxx = moments[0], syy = moments[1], sxy = moments[2];
    const double c = std::cos(angle_deg * kPi / 180), s = std::sin(angle_deg * kPi / 180);
    const double along = c * c * sxx + s * s * syy + 2 * c * s * sxy,
                 across = s * s * sxx + c * c * syy - 2 * c * s * sxy;
    return across > 0 ? along / across : 1.0;
  };
  if (best >= params.min_notch) {
    out.notch = best;
    out.energy_ratio = energy_ratio(best_angle);
    if (out.energy_ratio <= params.max_energy_ratio && out.notch - out.energy_ratio >= params.min_notch_over_ratio) {
      out.length_px = best_length;
      out.angle_deg = best_angle;
      return out;
    }
  }
  if (params.min_lobe_share <= 0) return out;
  // No notch: the main lobe. Blur and noise fill the notch (defocus takes the power there below the noise), while
  // the fall of the power along the streak towards it still shows. Along each ray from DC (2° apart, each the
  // mean of three rays 2° apart), the log power against the perpendicular ray's: the streak's kernel predicts
  // log(N + (P⊥ − N)·sinc²(u L)), N the noise floor (the outermost frequencies' median); the share of the
  // difference from the perpendicular ray's power that it explains (both up to a constant: a tilted board's
  // spectrum differs by direction, but smoothly) is the lobe's share. The rays cannot tell a direction a few degrees
  // off from the streak's (their sinc stretches by the cosine only), so the direction is the notch's best within ±30°
  // of the ray's, at lengths near the lobe's.
  const int last = bins - 4;  // rays' frequencies 1 … last
  std::vector<float> rays(kAngles * (last + 1), 0.f);
  auto sample = [&](double x, double y) {
    const double fx = std::floor(x), fy = std::floor(y);
    const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
    const double ax = x - fx, ay = y - fy;
    auto v = [&](int xx, int yy) { return log_power.at<float>(((yy % t) + t) % t, ((xx % t) + t) % t); };
    return (1 - ay) * ((1 - ax) * v(x0, y0) + ax * v(x0 + 1, y0)) +
           ay * ((1 - ax) * v(x0, y0 + 1) + ax * v(x0 + 1, y0 + 1));
  };
  for (int a = 0; a < kAngles; ++a)
    for (int spread = -1; spread <= 1; ++spread) {
      const double th = (a * 180.0 / kAngles + 2.0 * spread) * kPi / 180;
      for (int b = 1; b <= last; ++b)
        rays[a * (last + 1) + b] += static_cast<float>(sample(b * std::cos(th), b * std::sin(th)) / 3);
    }
  std::vector<float> outer;
  for (int a = 0; a < kAngles; ++a)
    for (int b = last - 4; b <= last; ++b) outer.push_back(rays[a * (last + 1) + b]);
  std::nth_element(outer.begin(), outer.begin() + outer.size() / 2, outer.end());
  const double floor_power = std::exp(static_cast<double>(outer[outer.size() / 2]));
  std::vector<double> excess(kAngles * (last + 1));  // per ray, the power above the floor
  for (size_t i = 0; i < excess.size(); ++i)
    excess[i] = std::max(0.0, std::exp(static_cast<double>(rays[i])) - floor_power);
  auto lobe_share = [&](int a, double length) {
    const int across = (a + kAngles / 2) % kAngles;
    const int top = std::min(last, static_cast<int>(1.6 * t / length));
    double s0 = 0, q0 = 0, s1 = 0, q1 = 0;
    int n = 0;
    for (int b = 3; b <= top; ++b) {
      const double x = kPi * b * length / t, sinc = std::sin(x) / x;
      const double along = rays[a * (last + 1) + b], flat = rays[across * (last + 1) + b];
      const double lobe = std::log(floor_power + excess[across * (last + 1) + b] * sinc * sinc);
      const double e0 = along - flat, e1 = along - lobe;
      s0 += e0, q0 += e0 * e0, s1 += e1, q1 += e1 * e1, ++n;
    }
    const double flat_var = q0 / n - (s0 / n) * (s0 / n), lobe_var = q1 / n - (s1 / n) * (s1 / n);
    if (n < 3 || flat_var < 0.05) return 0.0;
    return 1 - lobe_var / flat_var;
  };
  double lobe = 0, lobe_length = 0;
  int lobe_a = 0;
  for (int a = 0; a < kAngles; ++a)
    for (double length = params.min_length_px; length <= params.max_length_px + 1e-9; length += 0.5)
      if (const double g = lobe_share(a, length); g > lobe) lobe = g, lobe_a = a, lobe_length = length;
  for (double length = std::max(params.min_length_px, lobe_length - 0.5); length <= lobe_length + 0.5 + 1e-9;
       length += 0.25)
    if (const double g = lobe_share(lobe_a, length); g > lobe) lobe = g, lobe_length = length;
  out.lobe_share = lobe;
  if (lobe < params.min_lobe_share) return out;
  double angle_notch = -1e9, angle = lobe_a * 180.0 / kAngles;
  for (int a = 0; a < kAngles; ++a) {
    const double apart = std::abs(a - lobe_a) * 180.0 / kAngles;
    if (std::min(apart, 180 - apart) > 30) continue;
    for (double length = std::max(params.min_length_px, lobe_length - 1); length <= lobe_length + 1 + 1e-9;
         length += 0.25) {
      const std::optional<double> found = notch_at(a, length);
      if (!found) continue;
      const double notch = *found;
      if (notch > angle_notch) angle_notch = notch, angle = a * 180.0 / kAngles;
    }
  }
  out.notch = std::max(0.0, angle_notch);
  out.energy_ratio = energy_ratio(angle);
  if (out.energy_ratio > params.max_lobe_energy_ratio) return out;
  out.length_px = lobe_length;
  out.angle_deg = angle;
  return out;
}

cv::Mat remove_streak(const cv::Mat& bgr, cv::Rect roi, const MotionStreak& streak, double noise_to_signal) {
  roi &= cv::Rect(0, 0, bgr.cols, bgr.rows);
  cv::Mat out = bgr.clone();
  if (!streak.found() || roi.empty()) return out;
  // Room round the region so that the filter's wrap-round falls outside it: the picture's own pixels where there
  // are, mirrored beyond its edge.
  const int margin = 2 * static_cast<int>(std::ceil(streak.length_px)) + 8;
  const cv::Rect grown = cv::Rect(roi.x - margin, roi.y - margin, roi.width + 2 * margin, roi.height + 2 * margin);
  const cv::Rect inside = grown & cv::Rect(0, 0, bgr.cols, bgr.rows);
  // The buffers are kept by the thread from one read to the next: fresh megabyte buffers cost page faults that
  // took longer than the transforms themselves.
  thread_local cv::Mat padded, filter, f, spectrum, sharp;
  thread_local std::vector<cv::Mat> channels;
  cv::copyMakeBorder(bgr(inside), padded, inside.y - grown.y, grown.br().y - inside.br().y, inside.x - grown.x,
                     grown.br().x - inside.br().x, cv::BORDER_REFLECT);
  const int w = cv::getOptimalDFTSize(padded.cols), h = cv::getOptimalDFTSize(padded.rows);
  cv::copyMakeBorder(padded, padded, 0, h - padded.rows, 0, w - padded.cols, cv::BORDER_REFLECT);

  // A straight streak of length L along d multiplies the spectrum by sinc(π u L), u = f·d the frequency along d
  // (real: the kernel is centred); the Wiener filter H / (H² + k) is real too and needs no kernel transformed.
  // The argument π u L is a column's part plus a row's, so its sine comes from their sines and cosines.
  const double c = std::cos(streak.angle_deg * kPi / 180), s = std::sin(streak.angle_deg * kPi / 180);
  const float k = static_cast<float>(noise_to_signal);
  const double L = streak.length_px;
  std::vector<float> col_arg(w), col_sin(w), col_cos(w);
  for (int x = 0; x < w; ++x) {
    col_arg[x] = static_cast<float>(kPi * L * c * (x <= w / 2 ? x : x - w) / w);
    col_sin[x] = std::sin(col_arg[x]), col_cos[x] = std::cos(col_arg[x]);
  }
  filter.create(h, w, CV_32F);
  for (int y = 0; y < h; ++y) {
    const double row = kPi * L * s * (y <= h / 2 ? y : y - h) / h;
    const float row_arg = static_cast<float>(row), row_sin = static_cast<float>(std::sin(row)),
                row_cos = static_cast<float>(std::cos(row));
    float* p = filter.ptr<float>(y);
    for (int x = 0; x < w; ++x) {
      const float arg = col_arg[x] + row_arg;
      const float H = std::abs(arg) < 1e-6f ? 1.f : (col_sin[x] * row_cos + col_cos[x] * row_sin) / arg;
      p[x] = H / (H * H + k);
    }
  }
  cv::split(padded, channels);
  for (cv::Mat& ch : channels) {
    ch.convertTo(f, CV_32F);
    cv::dft(f, spectrum, cv::DFT_COMPLEX_OUTPUT);
    for (int y = 0; y < h; ++y) {
      cv::Vec2f* p = spectrum.ptr<cv::Vec2f>(y);
      const float* q = filter.ptr<float>(y);
      for (int x = 0; x < w; ++x) p[x] *= q[x];
    }
    cv::dft(spectrum, sharp, cv::DFT_INVERSE | cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
    sharp.convertTo(ch, CV_8U);  // saturating
  }
  cv::Mat merged;
  cv::merge(channels, merged);
  merged(cv::Rect(roi.x - grown.x, roi.y - grown.y, roi.width, roi.height)).copyTo(out(roi));
  return out;
}

cv::Mat undo_motion_streak(const cv::Mat& bgr, cv::Rect roi, const StreakParams& params, MotionStreak* found) {
  const MotionStreak streak = estimate_streak(bgr, roi, params);
  if (found) *found = streak;
  if (!streak.found() || streak.length_px < params.min_undo_px) return bgr;
  return remove_streak(bgr, roi, streak, params.noise_to_signal);
}

}  // namespace sb::vision
