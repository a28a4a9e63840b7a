#include "vision/symbol_reader.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <opencv2/imgproc.hpp>

#include "vision/column_run.h"
#include "vision/render/face_art.h"

namespace sb::vision {

namespace {

// The marks that place the centre lie within this share of the face's radius of the centre found so far (the
// face's own at first), and within kMarksFaceRadius of the face's centre (inside its rim).
constexpr float kMarksCentreRadius = 0.78f;
constexpr float kMarksFaceRadius = 0.85f;

float bilinear(const cv::Mat& m, float x, float y) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  const float fx = x - static_cast<float>(x0), fy = y - static_cast<float>(y0);
  auto at = [&](int u, int v) { return m.at<float>(std::clamp(v, 0, m.rows - 1), std::clamp(u, 0, m.cols - 1)); };
  return (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
         fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
}

}  // namespace

cv::Point2f SymbolReader::marks_centre(const cv::Mat& marks, int passes) {
  const float c0 = (kFaceSize - 1) / 2.f;
  const float window2 = kMarksCentreRadius * kFaceRadius * kMarksCentreRadius * kFaceRadius;
  const float face2 = kMarksFaceRadius * kFaceRadius * kMarksFaceRadius * kFaceRadius;
  float cx = c0, cy = c0;
  for (int pass = 0; pass <= passes; ++pass) {
    double sx = 0, sy = 0, sw = 0;
    // Only the window's bounding box holds pixels within it.
    const float reach = kMarksCentreRadius * kFaceRadius;
    const int v0 = std::max(0, static_cast<int>(std::floor(cy - reach))),
              v1 = std::min(marks.rows - 1, static_cast<int>(std::ceil(cy + reach)));
    const int u0 = std::max(0, static_cast<int>(std::floor(cx - reach))),
              u1 = std::min(marks.cols - 1, static_cast<int>(std::ceil(cx + reach)));
    for (int v = v0; v <= v1; ++v) {
      const float* row = marks.ptr<float>(v);
      const float dv2 = (v - cy) * (v - cy), fv2 = (v - c0) * (v - c0);
      auto in_window = [&](int u) { return !((u - cx) * (u - cx) + dv2 > window2); };
      auto in_face = [&](int u) { return !((u - c0) * (u - c0) + fv2 > face2); };
      // Each test admits one run of columns (it grows with |u − cx|, |u − c0| however it rounds), so the row's
      // pixels are the columns both runs share, found with the tests themselves and summed in the same order.
      const ColumnRun w = run_of(u0, u1, cx, in_window), f = run_of(u0, u1, c0, in_face);
      for (int u = std::max(w.a, f.a); u <= std::min(w.b, f.b); ++u) {
        const double wt = std::clamp(row[u], 0.f, 1.f);
        sx += wt * u, sy += wt * v, sw += wt;
      }
    }
    // Too few marks to place a centre (a blank face): the face's own, or where the last pass left it.
    if (sw <= 4) break;
    cx = static_cast<float>(sx / sw), cy = static_cast<float>(sy / sw);
  }
  return {cx, cy};
}

Polar SymbolReader::picture_about(const cv::Mat& marks, cv::Point2f centre) {
  const float cx = centre.x, cy = centre.y;
  // Each sample's offset from the centre (the ring's radius times the angle's direction, as the samples were
  // always placed): the same for every picture, so worked out once.
  struct Offsets {
    float x[kRings * kAngles], y[kRings * kAngles];
  };
  static const Offsets offsets = [] {
    Offsets o{};
    for (int k = 0; k < kRings; ++k) {
      const float r = (k + 0.5f) / kRings * 0.9f * kFaceRadius;
      for (int j = 0; j < kAngles; ++j) {
        const double a = 2 * CV_PI * j / kAngles;
        const float dx = static_cast<float>(std::cos(a)), dy = static_cast<float>(std::sin(a));
        o.x[k * kAngles + j] = r * dx;
        o.y[k * kAngles + j] = r * dy;
      }
    }
    return o;
  }();
  std::vector<float> v(static_cast<size_t>(kRings * kAngles));
  for (int i = 0; i < kRings * kAngles; ++i) {
    const float x = cx + offsets.x[i], y = cy + offsets.y[i];
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    // Inside the map (nearly always): the four samples read directly, as bilinear()'s clamped reads would.
    if (x0 >= 0 && y0 >= 0 && x0 + 1 < marks.cols && y0 + 1 < marks.rows) {
      const float fx = x - static_cast<float>(x0), fy = y - static_cast<float>(y0);
      const float* r0 = marks.ptr<float>(y0) + x0;
      const float* r1 = marks.ptr<float>(y0 + 1) + x0;
      v[static_cast<size_t>(i)] = (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
    } else {
      v[static_cast<size_t>(i)] = bilinear(marks, x, y);
    }
  }
  return polar_from_values(std::move(v));
}

Polar SymbolReader::picture(const cv::Mat& marks, int passes) {
  const cv::Point2f centre = marks_centre(marks, passes);
  return picture_about(marks, centre);
}

std::vector<Polar> SymbolReader::pictures(const cv::Mat& marks) {
  const cv::Point2f centre = marks_centre(marks);
  return pictures_round(marks, centre, picture_about(marks, centre));
}

std::vector<Polar> SymbolReader::pictures_round(const cv::Mat& marks, cv::Point2f centre, Polar middle) {
  std::vector<Polar> out;
  out.reserve(9);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      out.push_back(dx == 0 && dy == 0
                        ? std::move(middle)
                        : picture_about(marks, {centre.x + dx * kShiftStep, centre.y + dy * kShiftStep}));
  return out;
}

SymbolReader::SymbolReader(std::string kinds) : kinds_(std::move(kinds)) {
  // Dark on ivory: mark_map normalises the contrast, so only the shapes matter.
  for (SymbolStyle style : {SymbolStyle::Letters, SymbolStyle::Pictograms}) {
    PieceLook look;
    look.face = FaceKind::Symbols;
    look.symbols = style;
    look.sides = {SideColours{'X', Rgb{0.93, 0.90, 0.82}, Rgb{0.15, 0.15, 0.15}}};
    FaceArt art(look, 96);
    for (char k : kinds_) {
      cv::Mat face = art.face(std::string("X") + k);
      cv::Mat bgr;
      cv::cvtColor(face, bgr, cv::COLOR_BGRA2BGR);
      Disc d;
      d.centre = {(face.cols - 1) / 2.f, (face.rows - 1) / 2.f};
      d.radius = face.cols / 2.f - 1;
      Face f = cut_face(bgr, d);
      KindModel m;
      m.token = std::string(1, '?') + k;
      m.polar = picture(mark_map(f, f.body, f.mark));
      m.exemplars = 1;
      m.marks_centred = true;
      defaults_.push_back(m);
    }
  }
}

Polar consensus_polar(const std::vector<Polar>& exemplars, std::vector<bool>* kept) {
  const size_t n = exemplars.size();
  if (kept) kept->assign(n, true);
  if (n == 0) return {};
  std::vector<std::vector<float>> sim(n, std::vector<float>(n, 1.f));
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b) sim[a][b] = sim[b][a] = rotational_match(exemplars[a], exemplars[b]);
  size_t ref = 0;
  float best = -1e9f;
  for (size_t a = 0; a < n; ++a) {
    float s = 0;
    for (size_t b = 0; b < n; ++b) s += a == b ? 0.f : sim[a][b];
    if (s > best) best = s, ref = a;
  }
  // With three or more, an exemplar is an outlier when it matches the reference far worse than the typical one.
  std::vector<bool> use(n, true);
  if (n >= 3) {
    std::vector<float> to_ref;
    for (size_t b = 0; b < n; ++b)
      if (b != ref) to_ref.push_back(sim[ref][b]);
    std::nth_element(to_ref.begin(), to_ref.begin() + static_cast<long>(to_ref.size() / 2), to_ref.end());
    const float typical = to_ref[to_ref.size() / 2];
    for (size_t b = 0; b < n; ++b)
      if (b != ref && sim[ref][b] < typical - 0.2f && sim[ref][b] < 0.6f) use[b] = false;
  }
  std::vector<float> sum(exemplars[ref].values);
  for (size_t b = 0; b < n; ++b) {
    if (b == ref || !use[b]) continue;
    int shift = 0;
    rotational_match(exemplars[ref], exemplars[b], &shift);
    const Polar turned = rotate_polar(exemplars[b], shift);
    for (size_t v = 0; v < sum.size(); ++v) sum[v] += turned.values[v];
  }
  if (kept) *kept = use;
  return polar_from_values(std::move(sum));
}

std::vector<KindScore> SymbolReader::rank(const Polar& marks, const PieceSet& set, char side) const {
  return rank(std::vector<Polar>{marks}, set, side);
}

std::vector<KindScore> SymbolReader::rank(const std::vector<Polar>& pictures, const PieceSet& set, char side,
                                          std::vector<float>* middle_matches) const {
  // A picture is matched only where its bound could beat the best so far for the kind (the same best, to the
  // bit): most pictures about the other centres cannot.
  std::vector<RingPower> power;
  if (pictures.size() > 1)
    for (const Polar& p : pictures) power.push_back(ring_power(p));
  // The middle picture's matches, one per reference in the order they are looked at: kept from a rank of the
  // middle picture alone, taken from there by a rank of the nine.
  const bool keep = middle_matches && pictures.size() == 1, reuse = middle_matches && pictures.size() > 1;
  if (keep) middle_matches->clear();
  size_t reference_index = 0;
  auto middle_match = [&](const Polar& middle, const Polar& reference) {
    const size_t at = reference_index;
    if (reuse && at < middle_matches->size()) return (*middle_matches)[at];
    const float m = rotational_match(middle, reference);
    if (keep) middle_matches->push_back(m);
    return m;
  };
  auto best_of = [&](const Polar& reference, float s = -2) {
    if (pictures.size() == 1) {
      s = std::max(s, middle_match(pictures[0], reference));
      ++reference_index;
      return s;
    }
    const RingPower rp = ring_power(reference);
    // From the middle one (pictures(): about the marks' centre), the likeliest best, on.
    for (size_t n = 0; n < pictures.size(); ++n) {
      const size_t i = (n + pictures.size() / 2) % pictures.size();
      if (match_bound(pictures[i], reference, power[i], rp) < s) continue;
      s = std::max(s, n == 0 ? middle_match(pictures[i], reference) : rotational_match(pictures[i], reference));
    }
    ++reference_index;
    return s;
  };
  std::map<char, float> learnt;
  for (const KindModel& k : set.kinds) {
    // A set saved before symbols were centred on their marks: its pictures are not comparable, the defaults serve.
    if (k.token.size() != 2 || k.polar.empty() || !k.marks_centred) continue;
    float s = -2;
    if (k.exemplar_pictures.empty()) {
      s = best_of(k.polar);
    } else {
      for (const Polar& e : k.exemplar_pictures) s = best_of(e, s);
    }
    s -= k.token[0] == side ? 0.f : 0.03f;
    auto it = learnt.find(k.token[1]);
    if (it == learnt.end() || s > it->second) learnt[k.token[1]] = s;
  }
  std::vector<KindScore> cand(learnt.begin(), learnt.end());
  std::string covered;
  for (const auto& [k, s] : learnt) covered += k;
  std::map<char, float> best;
  for (const KindModel& k : defaults_) {
    if (covered.find(k.token[1]) != std::string::npos) continue;
    const float s = best_of(k.polar) - (set.learnt ? 0.1f : 0.f);
    auto it = best.find(k.token[1]);
    if (it == best.end() || s > it->second) best[k.token[1]] = s;
  }
  for (const auto& [k, s] : best) cand.emplace_back(k, s);
  std::sort(cand.begin(), cand.end(), [](const KindScore& a, const KindScore& b) { return a.second > b.second; });
  return cand;
}

}  // namespace sb::vision
