#include "vision/render/face_art.h"

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "vision/render/textures.h"

namespace sb::vision {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kShift = 4;
constexpr double kOne = 1 << kShift;

// Drawing in face units: the face's centre is (0, 0), its radius 1, y down (the owner reads it upright).
struct Pen {
  cv::Mat& img;
  double cx, cy, R;
  cv::Scalar colour;

  cv::Point at(double x, double y) const {
    return {static_cast<int>(std::lround((cx + x * R) * kOne)), static_cast<int>(std::lround((cy + y * R) * kOne))};
  }
  int len(double d) const { return std::max(1, static_cast<int>(std::lround(d * R * kOne))); }
  int thick(double w) const { return std::max(1, static_cast<int>(std::lround(w * R))); }
  void disc(double x, double y, double r) const {
    cv::circle(img, at(x, y), len(r), colour, cv::FILLED, cv::LINE_AA, kShift);
  }
  void ring(double x, double y, double r, double w) const {
    cv::circle(img, at(x, y), len(r), colour, thick(w), cv::LINE_AA, kShift);
  }
  void poly(const std::vector<cv::Point2d>& pts) const {
    std::vector<cv::Point> f;
    for (const auto& p : pts) f.push_back(at(p.x, p.y));
    const cv::Point* ptr = f.data();
    int n = static_cast<int>(f.size());
    cv::fillPoly(img, &ptr, &n, 1, colour, cv::LINE_AA, kShift);
  }
  // A thick line as a filled quadrilateral with round ends.
  void line(double x0, double y0, double x1, double y1, double w) const {
    double dx = x1 - x0, dy = y1 - y0, l = std::hypot(dx, dy);
    if (l < 1e-9) return disc(x0, y0, w / 2);
    double nx = -dy / l * w / 2, ny = dx / l * w / 2;
    poly({{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}});
    disc(x0, y0, w / 2);
    disc(x1, y1, w / 2);
  }
  void star(double x, double y, double r_out, double r_in, int points) const {
    std::vector<cv::Point2d> pts;
    for (int i = 0; i < 2 * points; ++i) {
      double a = -kPi / 2 + i * kPi / points, r = i % 2 ? r_in : r_out;
      pts.push_back({x + r * std::cos(a), y + r * std::sin(a)});
    }
    poly(pts);
  }
};

void draw_pictogram(const Pen& p, char letter) {
  const double w = 0.11;  // stroke width
  switch (letter) {
    case 'C':  // commander: a star
      p.star(0, 0.03, 0.62, 0.26, 5);
      break;
    case 'H':  // headquarters: a flag on its pole
      p.line(-0.3, 0.55, -0.3, -0.55, w);
      p.poly({{-0.3, -0.55}, {0.45, -0.3}, {-0.3, -0.05}});
      p.line(-0.5, 0.55, -0.1, 0.55, w);
      break;
    case 'I':  // infantry: a rank chevron
      p.line(-0.5, 0.25, 0, -0.3, w * 1.3);
      p.line(0, -0.3, 0.5, 0.25, w * 1.3);
      break;
    case 'E':  // engineer: a bridge
      p.line(-0.6, 0.05, 0.6, 0.05, w);
      p.line(-0.45, 0.05, -0.45, 0.5, w);
      p.line(0.45, 0.05, 0.45, 0.5, w);
      cv::ellipse(p.img, p.at(0, 0.05), cv::Size(p.len(0.45), p.len(0.45)), 0, 180, 360, p.colour, p.thick(w),
                  cv::LINE_AA, kShift);
      break;
    case 'T':  // tank: hull, turret, gun
      p.poly({{-0.6, 0.05}, {0.6, 0.05}, {0.5, 0.38}, {-0.5, 0.38}});
      p.poly({{-0.25, -0.22}, {0.2, -0.22}, {0.25, 0.05}, {-0.3, 0.05}});
      p.line(0.15, -0.1, 0.65, -0.22, w * 0.8);
      break;
    case 'A':  // artillery: a gun on a wheel
      p.ring(-0.1, 0.3, 0.25, w * 0.8);
      p.line(-0.25, 0.2, 0.55, -0.45, w * 1.2);
      p.line(-0.1, 0.3, -0.6, 0.5, w * 0.8);
      break;
    case 'G':  // anti-aircraft: twin barrels pointing up
      p.poly({{-0.35, 0.25}, {0.35, 0.25}, {0.35, 0.5}, {-0.35, 0.5}});
      p.line(-0.12, 0.25, -0.4, -0.5, w);
      p.line(0.12, 0.25, 0.4, -0.5, w);
      break;
    case 'S':  // missile: a rocket
      p.poly({{-0.14, 0.35}, {-0.14, -0.3}, {0, -0.62}, {0.14, -0.3}, {0.14, 0.35}});
      p.poly({{-0.14, 0.1}, {-0.38, 0.5}, {-0.14, 0.4}});
      p.poly({{0.14, 0.1}, {0.38, 0.5}, {0.14, 0.4}});
      break;
    case 'F':  // air force: an aeroplane
      p.line(0, -0.62, 0, 0.6, w * 1.2);
      p.poly({{-0.65, 0.0}, {0, -0.22}, {0.65, 0.0}, {0.65, 0.1}, {0, 0.0}, {-0.65, 0.1}});
      p.line(-0.25, 0.52, 0.25, 0.52, w);
      break;
    case 'N':  // navy: a ship with a mast
      p.poly({{-0.65, 0.15}, {0.65, 0.15}, {0.42, 0.45}, {-0.42, 0.45}});
      p.line(0, 0.15, 0, -0.55, w * 0.8);
      p.poly({{0.06, -0.5}, {0.45, 0.05}, {0.06, 0.05}});
      break;
    case 'M':  // militia: a trident
      p.line(0, -0.2, 0, 0.6, w);
      p.line(-0.35, -0.2, 0.35, -0.2, w);
      p.line(-0.35, -0.2, -0.35, -0.55, w);
      p.line(0.35, -0.2, 0.35, -0.55, w);
      p.line(0, -0.2, 0, -0.62, w);
      break;
    default:
      break;
  }
}

void draw_letter(const Pen& p, char letter) {
  std::string text(1, letter);
  int font = cv::FONT_HERSHEY_DUPLEX;
  int thickness = std::max(1, static_cast<int>(std::lround(p.R * 0.14)));
  int baseline = 0;
  cv::Size s = cv::getTextSize(text, font, 1.0, thickness, &baseline);
  double scale = 1.05 * p.R / std::max(s.width, s.height);
  s = cv::getTextSize(text, font, scale, thickness, &baseline);
  cv::Point org(static_cast<int>(std::lround(p.cx - s.width / 2.0)),
                static_cast<int>(std::lround(p.cy + s.height / 2.0)));
  cv::putText(p.img, text, org, font, scale, p.colour, thickness, cv::LINE_AA);
}

void draw_zero(const Pen& p, ZeroMark mark) {
  switch (mark) {
    case ZeroMark::Ring:
      p.ring(0, 0, 0.42, 0.12);
      break;
    case ZeroMark::Cross:
      p.line(-0.38, -0.38, 0.38, 0.38, 0.13);
      p.line(-0.38, 0.38, 0.38, -0.38, 0.13);
      break;
    case ZeroMark::Star:
      p.star(0, 0.03, 0.5, 0.2, 5);
      break;
    case ZeroMark::Blank:  // a double rim and nothing inside
      p.ring(0, 0, 0.78, 0.05);
      p.ring(0, 0, 0.66, 0.05);
      break;
  }
}

}  // namespace

bool FaceArt::has_pictogram(char letter) {
  return std::string("CHIETAGSFNM").find(letter) != std::string::npos;
}

std::vector<cv::Point2d> FaceArt::dot_layout(DotArrangement arrangement, int count, double dot_radius,
                                             uint64_t pattern_seed) {
  std::vector<cv::Point2d> pts;
  if (count <= 0) return pts;
  switch (arrangement) {
    case DotArrangement::Dice: {
      const double g = 0.42;
      auto at = [&](int col, int row) { pts.push_back({(col - 1) * g, (row - 1) * g}); };
      static const char* patterns[10] = {"",          "....x....", "x.......x", "x...x...x", "x.x...x.x",
                                         "x.x.x.x.x", "x.xx.xx.x", "x.xxxxx.x", "xxxx.xxxx", "xxxxxxxxx"};
      const char* pat = patterns[std::min(count, 9)];
      for (int i = 0; i < 9; ++i)
        if (pat[i] == 'x') at(i % 3, i / 3);
      break;
    }
    case DotArrangement::Ring: {
      if (count == 1) {
        pts.push_back({0, 0});
        break;
      }
      double r = count <= 4 ? 0.4 : 0.52;
      for (int i = 0; i < count; ++i) {
        double a = -kPi / 2 + 2 * kPi * i / count;
        pts.push_back({r * std::cos(a), r * std::sin(a)});
      }
      break;
    }
    case DotArrangement::Scattered: {
      Rng rng(pattern_seed * 131 + static_cast<uint64_t>(count));
      double limit = 0.72 - dot_radius;
      for (int attempt = 0; attempt < 20 && static_cast<int>(pts.size()) < count; ++attempt) {
        pts.clear();
        for (int tries = 0; tries < 4000 && static_cast<int>(pts.size()) < count; ++tries) {
          cv::Point2d c(rng.uniform(-limit, limit), rng.uniform(-limit, limit));
          if (std::hypot(c.x, c.y) > limit) continue;
          bool clear = true;
          for (const auto& q : pts) clear = clear && std::hypot(c.x - q.x, c.y - q.y) >= 2.7 * dot_radius;
          if (clear) pts.push_back(c);
        }
      }
      if (static_cast<int>(pts.size()) < count)
        return dot_layout(DotArrangement::Dice, count, dot_radius, pattern_seed);
      break;
    }
  }
  return pts;
}

FaceArt::FaceArt(const PieceLook& look, int size_px) : look_(look), size_(std::max(16, size_px)) {}

const cv::Mat& FaceArt::face(const std::string& token) {
  auto it = cache_.find(token);
  if (it == cache_.end()) it = cache_.emplace(token, draw(token)).first;
  return it->second;
}

cv::Mat FaceArt::draw(const std::string& token) const {
  const SideColours& colours = look_.colours(token.empty() ? '?' : token[0]);
  char identity = token.size() > 1 ? token[1] : 0;
  int S = size_;
  double c = (S - 1) / 2.0, R = S / 2.0 - 1;
  cv::Mat bgr(S, S, CV_8UC3, colours.body.bgr255());

  // Material: grain for wood, veins for stone, a soft sheen for plastic.
  Rng rng(look_.pattern_seed * 7919 + static_cast<uint64_t>(static_cast<unsigned char>(token[0])) * 31 +
          static_cast<uint64_t>(static_cast<unsigned char>(identity)));
  cv::Mat pattern;
  switch (look_.material) {
    case PieceMaterial::Wood:
      pattern = 0.75 + 0.35 * (1.0 - wood_pattern(cv::Size(S, S), S / 9.0, rng.uniform(0, 180), rng));
      break;
    case PieceMaterial::Stone:
      pattern = 1.0 + 0.12 * fractal_noise(cv::Size(S, S), S / 3.0, 3, rng);
      break;
    case PieceMaterial::Plastic:
      pattern = cv::Mat(S, S, CV_32F, cv::Scalar(1.0));
      break;
  }
  for (int y = 0; y < S; ++y) {
    const float* f = pattern.ptr<float>(y);
    cv::Vec3b* o = bgr.ptr<cv::Vec3b>(y);
    for (int x = 0; x < S; ++x) {
      double r = std::hypot(x - c, y - c) / R;
      // Discs have a narrow chamfer at the rim; stones darken towards their rounded edge.
      double edge = look_.shape == PieceShape::Stone
                        ? 1.0 - 0.35 * std::clamp(r, 0.0, 1.0) * std::clamp(r, 0.0, 1.0) * std::clamp(r, 0.0, 1.0)
                        : (r > 0.9 ? 0.82 : 1.0);
      for (int k = 0; k < 3; ++k) o[x][k] = cv::saturate_cast<uchar>(o[x][k] * f[x] * edge);
    }
  }

  Pen pen{bgr, c, c, R, colours.mark.bgr255()};
  switch (look_.face) {
    case FaceKind::Plain:
      break;
    case FaceKind::Grooves:
      for (int g = 0; g < look_.grooves; ++g) pen.ring(0, 0, 0.78 - g * 0.22, 0.05);
      break;
    case FaceKind::Dots: {
      int count = identity >= '0' && identity <= '9' ? identity - '0' : -1;
      if (count == 0) {
        draw_zero(pen, look_.zero);
      } else if (count > 0) {
        double dr = look_.dot_size;
        if (look_.dots == DotArrangement::Ring && count > 4) dr = std::min(dr, 0.52 * std::sin(kPi / count) / 1.25);
        if (look_.dots == DotArrangement::Dice) dr = std::min(dr, 0.17);
        if (look_.dots == DotArrangement::Scattered) dr = std::min(dr, 0.12);
        for (const auto& d : dot_layout(look_.dots, count, dr, look_.pattern_seed)) pen.disc(d.x, d.y, dr);
      }
      break;
    }
    case FaceKind::Symbols:
      pen.ring(0, 0, 0.84, 0.05);
      if (identity) {
        if (look_.symbols == SymbolStyle::Pictograms && has_pictogram(identity))
          draw_pictogram(pen, identity);
        else
          draw_letter(pen, identity);
      }
      break;
  }

  cv::Mat alpha(S, S, CV_8U, cv::Scalar(0));
  cv::circle(alpha, cv::Point(static_cast<int>(std::lround(c * kOne)), static_cast<int>(std::lround(c * kOne))),
             static_cast<int>(std::lround(R * kOne)), cv::Scalar(255), cv::FILLED, cv::LINE_AA, kShift);
  cv::Mat out;
  std::vector<cv::Mat> ch;
  cv::split(bgr, ch);
  ch.push_back(alpha);
  cv::merge(ch, out);
  return out;
}

}  // namespace sb::vision
