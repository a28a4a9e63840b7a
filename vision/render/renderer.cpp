#include "vision/render/renderer.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <numeric>
#include <opencv2/imgproc.hpp>

#include "vision/render/board_art.h"
#include "vision/render/hand.h"
#include "vision/render/textures.h"

namespace sb::vision {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
constexpr int kShift = 4;
constexpr double kOne = 1 << kShift;
constexpr int kSmall = 4;                 // shadow and cover masks are drawn at 1/kSmall of the image size
constexpr double kMaxHandStreakPx = 100;  // the longest smear of a moving hand (a fast hand: ~50 px a frame)

cv::Point fixed(cv::Point2d p) {
  return {static_cast<int>(std::lround(p.x * kOne)), static_cast<int>(std::lround(p.y * kOne))};
}

void fill_convex(cv::Mat& img, const std::vector<cv::Point2d>& pts, const cv::Scalar& colour, int line = cv::LINE_AA) {
  std::vector<cv::Point> f;
  f.reserve(pts.size());
  for (const auto& p : pts) f.push_back(fixed(p));
  cv::fillConvexPoly(img, f.data(), static_cast<int>(f.size()), colour, line, kShift);
}

void fill_poly(cv::Mat& img, const std::vector<cv::Point2d>& pts, const cv::Scalar& colour, int line = cv::LINE_AA) {
  std::vector<cv::Point> f;
  f.reserve(pts.size());
  for (const auto& p : pts) f.push_back(fixed(p));
  const cv::Point* ptr = f.data();
  int n = static_cast<int>(f.size());
  cv::fillPoly(img, &ptr, &n, 1, colour, line, kShift);
}

// The outline of a tapered capsule seen in the image: two half circles joined by straight sides.
std::vector<cv::Point2d> capsule_outline(cv::Point2d a, double ra, cv::Point2d b, double rb) {
  cv::Point2d d = b - a;
  double theta = std::atan2(d.y, d.x);
  std::vector<cv::Point2d> pts;
  const int n = 10;
  for (int i = 0; i <= n; ++i) {
    double t = theta + kPi / 2 + kPi * i / n;
    pts.push_back(a + cv::Point2d(std::cos(t), std::sin(t)) * ra);
  }
  for (int i = 0; i <= n; ++i) {
    double t = theta - kPi / 2 + kPi * i / n;
    pts.push_back(b + cv::Point2d(std::cos(t), std::sin(t)) * rb);
  }
  return pts;
}

cv::Scalar lit(const Rgb& albedo, const cv::Vec3f& gain, double k = 1.0) {
  return cv::Scalar(std::clamp(albedo.b * gain[0] * k, 0.0, 1.0) * 255,
                    std::clamp(albedo.g * gain[1] * k, 0.0, 1.0) * 255,
                    std::clamp(albedo.r * gain[2] * k, 0.0, 1.0) * 255);
}

// Samples a float two-channel map on a coarse grid and interpolates it bilinearly to full size.
cv::Mat interpolate_grid(const cv::Mat& grid, int step, cv::Size size) {
  cv::Mat out(size, CV_32FC2);
  for (int y = 0; y < size.height; ++y) {
    double gy = static_cast<double>(y) / step;
    int y0 = std::min(static_cast<int>(gy), grid.rows - 2);
    float fy = static_cast<float>(gy - y0);
    const cv::Vec2f* r0 = grid.ptr<cv::Vec2f>(y0);
    const cv::Vec2f* r1 = grid.ptr<cv::Vec2f>(y0 + 1);
    cv::Vec2f* o = out.ptr<cv::Vec2f>(y);
    for (int x = 0; x < size.width; ++x) {
      double gx = static_cast<double>(x) / step;
      int x0 = std::min(static_cast<int>(gx), grid.cols - 2);
      float fx = static_cast<float>(gx - x0);
      o[x] = (r0[x0] * (1 - fx) + r0[x0 + 1] * fx) * (1 - fy) + (r1[x0] * (1 - fx) + r1[x0 + 1] * fx) * fy;
    }
  }
  return out;
}

// Cuts a capsule at the plane `near_mm` in front of the camera; false when it lies wholly behind. Without it a
// shoulder above a low camera would project to enormous polygons.
bool clip_to_camera(const Camera& cam, Capsule& c, double near_mm = 30) {
  double za = cam.to_camera(c.a)[2], zb = cam.to_camera(c.b)[2];
  if (za < near_mm && zb < near_mm) return false;
  if (za < near_mm || zb < near_mm) {
    double t = (near_mm - za) / (zb - za);  // where the segment crosses the plane
    cv::Vec3d p = c.a + (c.b - c.a) * t;
    double r = c.ra + (c.rb - c.ra) * t;
    if (za < near_mm) {
      c.a = p;
      c.ra = r;
    } else {
      c.b = p;
      c.rb = r;
    }
  }
  return true;
}

// Whether an image point is near enough to the picture to be worth drawing (huge coordinates make OpenCV's
// polygon filling crawl).
bool near_image(cv::Point2d p, cv::Size size) {
  return p.x > -2.0 * size.width && p.y > -2.0 * size.height && p.x < 3.0 * size.width && p.y < 3.0 * size.height;
}

// About a Gaussian blur of `sigma`, at a cost that does not grow with it: two box blurs.
void soft_blur(cv::Mat& m, double sigma) {
  int w = std::max(1, static_cast<int>(std::lround(std::sqrt(6 * sigma * sigma + 1))));
  if (w < 2) return;
  cv::blur(m, m, cv::Size(w, w), cv::Point(-1, -1), cv::BORDER_CONSTANT);
  cv::blur(m, m, cv::Size(w, w), cv::Point(-1, -1), cv::BORDER_CONSTANT);
}

double thread_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

}  // namespace

Renderer::Renderer(calib::BoardModel model, Look look, cv::Size image_size, uint64_t seed)
    : model_(std::move(model)), look_(std::move(look)), seed_(seed) {
  camera_ = place_camera(model_, look_.camera, image_size);
  prepare();
}

Renderer::Renderer(calib::BoardModel model, Look look, Camera camera, uint64_t seed)
    : model_(std::move(model)), look_(std::move(look)), camera_(std::move(camera)), seed_(seed) {
  prepare();
}

void Renderer::set_camera(const Camera& camera) {
  camera_ = camera;
  prepare();
}

void Renderer::set_light(const LightLook& light) {
  look_.light = light;
  prepare();
}

void Renderer::prepare() {
  radius_mm_ = vision::piece_radius_mm(model_, look_.pieces);
  lighting_ = std::make_unique<Lighting>(look_.light, model_, camera_, look_.board.gloss, seed_ ^ 0x11u);
  sensor_ = std::make_unique<Sensor>(look_.sensor, camera_.image_size, seed_ ^ 0x22u);
  centre_px_per_mm_ = camera_.px_per_mm({model_.size_mm.x / 2, model_.size_mm.y / 2, 0});
  // Faces are drawn at about twice the size a piece's top has in the image, for clean sampling.
  double top_px = 2 * radius_mm_ * centre_px_per_mm_ * 1.4;
  int face_px = std::clamp(static_cast<int>(std::ceil(top_px * 2)), 32, 192);
  faces_ = std::make_unique<FaceArt>(look_.pieces, face_px);
  draw_backdrop();

  // The board's zone for the hand-cover test: the outline quad grown by half a pitch (pieces overhang it).
  cv::Size small(camera_.image_size.width / kSmall + 1, camera_.image_size.height / kSmall + 1);
  board_zone_small_ = cv::Mat(small, CV_8U, cv::Scalar(0));
  const auto& q = model_.outline_corners();
  double g = model_.pitch_mm / 2;
  calib::Vec2 grown[4] = {
      {q[0].x - g, q[0].y + g}, {q[1].x + g, q[1].y + g}, {q[2].x + g, q[2].y - g}, {q[3].x - g, q[3].y - g}};
  std::vector<cv::Point2d> outline;
  for (int side = 0; side < 4; ++side) {
    const calib::Vec2 &a = grown[side], &b = grown[(side + 1) % 4];
    for (int i = 0; i < 16; ++i) {
      double t = i / 16.0;
      outline.push_back(camera_.project(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, 0) * (1.0 / kSmall));
    }
  }
  fill_poly(board_zone_small_, outline, cv::Scalar(255), cv::LINE_8);
}

void Renderer::draw_backdrop() {
  const cv::Size size = camera_.image_size;
  const double T = look_.board.thickness_mm;
  Rng rng(seed_ ^ 0x5eedu);

  // Board-frame coordinates seen at each pixel, on the board's surface (z = 0) and on the table (z = T).
  const int step = 4;
  int gw = size.width / step + 2, gh = size.height / step + 2;
  cv::Mat grid_board(gh, gw, CV_32FC2), grid_table(gh, gw, CV_32FC2);
  for (int gy = 0; gy < gh; ++gy)
    for (int gx = 0; gx < gw; ++gx) {
      cv::Point2d px(gx * step, gy * step), xy;
      for (int plane = 0; plane < 2; ++plane) {
        bool hit = camera_.pixel_to_plane(px, plane ? T : 0.0, xy);
        if (!hit || std::fabs(xy.x) > 1e5 || std::fabs(xy.y) > 1e5) xy = {1e5, 1e5};
        (plane ? grid_table : grid_board).at<cv::Vec2f>(gy, gx) =
            cv::Vec2f(static_cast<float>(xy.x), static_cast<float>(xy.y));
      }
    }
  cv::Mat map_board = interpolate_grid(grid_board, step, size);
  cv::Mat map_table = interpolate_grid(grid_table, step, size);

  // Table texture covering what the camera sees of the table, clamped to a sensible area around the board.
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (int gy = 0; gy < gh; ++gy)
    for (int gx = 0; gx < gw; ++gx) {
      cv::Vec2f v = grid_table.at<cv::Vec2f>(gy, gx);
      x0 = std::min<double>(x0, v[0]);
      x1 = std::max<double>(x1, v[0]);
      y0 = std::min<double>(y0, v[1]);
      y1 = std::max<double>(y1, v[1]);
    }
  const double reach = 1200;
  x0 = std::max(x0, -reach);
  y0 = std::max(y0, -reach);
  x1 = std::min(x1, model_.size_mm.x + reach);
  y1 = std::min(y1, model_.size_mm.y + reach);
  double extent = std::max({x1 - x0, y1 - y0, 1.0});
  double table_ppm = std::clamp(std::min(centre_px_per_mm_ * 0.8, 1400.0 / extent), 0.2, 8.0);
  cv::Size table_size(std::max(2, static_cast<int>(std::ceil((x1 - x0) * table_ppm)) + 2),
                      std::max(2, static_cast<int>(std::ceil((y1 - y0) * table_ppm)) + 2));
  cv::Mat table_tex = table_texture(look_.table, table_size, table_ppm, rng);

  // Board texture at a little more than the largest scale the image shows it at.
  double board_ppm = 0;
  for (double fx : {0.0, 0.5, 1.0})
    for (double fy : {0.0, 0.5, 1.0})
      board_ppm = std::max(board_ppm, camera_.px_per_mm({model_.size_mm.x * fx, model_.size_mm.y * fy, 0}));
  board_ppm = std::clamp(board_ppm * 1.1, 1.0, 2400.0 / std::max(model_.size_mm.x, model_.size_mm.y));
  BoardTexture board = paint_board(model_, look_.board, board_ppm, rng);

  cv::Mat table_x(size, CV_32F), table_y(size, CV_32F), board_x(size, CV_32F), board_y(size, CV_32F);
  for (int y = 0; y < size.height; ++y) {
    const cv::Vec2f* mt = map_table.ptr<cv::Vec2f>(y);
    const cv::Vec2f* mb = map_board.ptr<cv::Vec2f>(y);
    for (int x = 0; x < size.width; ++x) {
      table_x.at<float>(y, x) = static_cast<float>((mt[x][0] - x0) * table_ppm);
      table_y.at<float>(y, x) = static_cast<float>((mt[x][1] - y0) * table_ppm);
      cv::Point2d b = board.to_px(mb[x][0], mb[x][1]);
      board_x.at<float>(y, x) = static_cast<float>(std::clamp(b.x, -10.0, 1e5));
      board_y.at<float>(y, x) = static_cast<float>(std::clamp(b.y, -10.0, 1e5));
    }
  }
  cv::Mat table_img, board_img, board_alpha;
  cv::remap(table_tex, table_img, table_x, table_y, cv::INTER_LINEAR, cv::BORDER_REFLECT);
  cv::remap(board.bgr, board_img, board_x, board_y, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::remap(board.alpha, board_alpha, board_x, board_y, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));

  // The board's shadow and contact darkening on the table.
  cv::Mat table_shade(size, CV_8U, cv::Scalar(0));
  {
    const cv::Vec3d& L = lighting_->towards_light();
    double s = T / std::max(-L[2], 0.05);
    cv::Point2d shift(-L[0] * s, -L[1] * s);
    std::vector<cv::Point2d> foot, cast;
    const double g = 3.0;  // contact darkening reaches a few millimetres beyond the edge
    calib::Vec2 corners[4] = {
        {-g, -g}, {model_.size_mm.x + g, -g}, {model_.size_mm.x + g, model_.size_mm.y + g}, {-g, model_.size_mm.y + g}};
    for (int side = 0; side < 4; ++side) {
      const calib::Vec2 &a = corners[side], &b = corners[(side + 1) % 4];
      for (int i = 0; i < 16; ++i) {
        double t = i / 16.0;
        foot.push_back(camera_.project(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, -T));
        cast.push_back(camera_.project(a.x + (b.x - a.x) * t + shift.x, a.y + (b.y - a.y) * t + shift.y, -T));
      }
    }
    fill_poly(table_shade, foot, cv::Scalar(110));
    cv::Mat cast_mask(size, CV_8U, cv::Scalar(0));
    fill_poly(cast_mask, cast, cv::Scalar(255 * lighting_->shadow_depth()));
    table_shade = cv::max(table_shade, cast_mask);
    double sigma = std::max(0.8, (2.0 + T * 0.3) * centre_px_per_mm_);
    cv::GaussianBlur(table_shade, table_shade, cv::Size(0, 0), sigma);
  }

  // Light the table.
  backdrop_ = cv::Mat(size, CV_8UC3);
  for (int y = 0; y < size.height; ++y) {
    const cv::Vec3b* t = table_img.ptr<cv::Vec3b>(y);
    const uchar* sh = table_shade.ptr<uchar>(y);
    const cv::Vec2f* mt = map_table.ptr<cv::Vec2f>(y);
    cv::Vec3b* o = backdrop_.ptr<cv::Vec3b>(y);
    for (int x = 0; x < size.width; ++x) {
      cv::Vec3f g = lighting_->flat_gain({mt[x][0], mt[x][1]}, {static_cast<double>(x), static_cast<double>(y)});
      float k = 1.0f - sh[x] / 255.0f;
      for (int c = 0; c < 3; ++c) o[x][c] = cv::saturate_cast<uchar>(t[x][c] * g[c] * k);
    }
  }

  // The sheet's cut edges that face the camera.
  if (T > 0.05) {
    cv::Vec3d cam = camera_.position();
    calib::Vec2 c[4] = {{0, 0}, {model_.size_mm.x, 0}, {model_.size_mm.x, model_.size_mm.y}, {0, model_.size_mm.y}};
    cv::Vec3d normals[4] = {{0, -1, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}};
    for (int side = 0; side < 4; ++side) {
      const calib::Vec2 &a = c[side], &b = c[(side + 1) % 4];
      cv::Vec3d mid((a.x + b.x) / 2, (a.y + b.y) / 2, T / 2);
      if (normals[side].dot(cam - mid) <= 0) continue;
      std::vector<cv::Point2d> face;
      for (int i = 0; i <= 24; ++i) {
        double t = i / 24.0;
        face.push_back(camera_.project(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, 0));
      }
      for (int i = 24; i >= 0; --i) {
        double t = i / 24.0;
        face.push_back(camera_.project(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, -T));
      }
      cv::Point2d px = camera_.project(mid[0], mid[1], -T / 2);
      fill_poly(backdrop_, face, lit(look_.board.edge, lighting_->gain(normals[side], {mid[0], mid[1]}, px)));
    }
  }

  // Light the board and lay it over the table.
  for (int y = 0; y < size.height; ++y) {
    const cv::Vec3b* b = board_img.ptr<cv::Vec3b>(y);
    const uchar* a = board_alpha.ptr<uchar>(y);
    const cv::Vec2f* mb = map_board.ptr<cv::Vec2f>(y);
    cv::Vec3b* o = backdrop_.ptr<cv::Vec3b>(y);
    for (int x = 0; x < size.width; ++x) {
      if (!a[x]) continue;
      cv::Point2d xy(mb[x][0], mb[x][1]);
      cv::Vec3f g = lighting_->flat_gain(xy, {static_cast<double>(x), static_cast<double>(y)});
      cv::Vec3f glare = lighting_->glare(xy) * 255.0f;
      float al = a[x] / 255.0f;
      for (int c = 0; c < 3; ++c) {
        float v = b[x][c] * g[c] + glare[c];
        o[x][c] = cv::saturate_cast<uchar>(o[x][c] * (1 - al) + v * al);
      }
    }
  }
}

cv::Point2d Renderer::site_pixel(const std::string& site) const {
  const calib::Site& s = model_.site(site);
  return camera_.project(s.centre.x, s.centre.y, 0);
}

cv::Point2d Renderer::top_pixel(const PieceInstance& p) const {
  double top = p.base_mm + look_.pieces.height_mm * static_cast<double>(p.layers.size());
  return camera_.project(p.xy.x, p.xy.y, top);
}

void Renderer::draw_shadows(cv::Mat& img, const Scene& scene) const {
  cv::Size small(img.cols / kSmall + 1, img.rows / kSmall + 1);
  const cv::Vec3d& L = lighting_->towards_light();
  const double lz = std::max(-L[2], 0.08);
  const double h = look_.pieces.height_mm;
  auto cast = [&](const cv::Vec3d& p, double plane_z) {
    // Along the light from p down to the plane z = plane_z.
    double s = (plane_z - p[2]) / lz;
    return camera_.project(cv::Vec3d(p[0] - L[0] * s, p[1] - L[1] * s, plane_z)) * (1.0 / kSmall);
  };

  cv::Mat pieces_mask(small, CV_8U, cv::Scalar(0));
  std::vector<const PieceInstance*> all;
  for (const auto& p : scene.pieces) all.push_back(&p);
  for (const auto& hnd : scene.hands)
    if (hnd.held) all.push_back(&*hnd.held);
  for (const PieceInstance* p : all) {
    double plane_z = p->base_mm >= 0 ? 0.0 : -p->base_mm;
    double z_base = -p->base_mm, z_top = -(p->base_mm + h * static_cast<double>(p->layers.size()));
    std::vector<cv::Point2f> pts;
    for (int i = 0; i < 12; ++i) {
      double a = i * kPi / 6;
      double x = p->xy.x + radius_mm_ * std::cos(a), y = p->xy.y + radius_mm_ * std::sin(a);
      pts.push_back(cast({x, y, z_base}, plane_z));
      pts.push_back(cast({x, y, z_top}, plane_z));
    }
    std::vector<cv::Point2f> hull;
    cv::convexHull(pts, hull);
    std::vector<cv::Point2d> hd(hull.begin(), hull.end());
    fill_convex(pieces_mask, hd, cv::Scalar(255));
  }
  cv::Mat hands_mask(small, CV_8U, cv::Scalar(0));
  for (const HandPose& hand : scene.hands) {
    HandSolids solids = pose_hand(hand, look_.hands);
    std::vector<Capsule> caps = solids.arm;
    caps.insert(caps.end(), solids.fingers.begin(), solids.fingers.end());
    for (size_t i = 0; i < solids.palm.size(); ++i)
      caps.push_back({solids.palm[i], solids.palm[(i + 1) % solids.palm.size()], 10, 10, false});
    for (const Capsule& c : caps) {
      cv::Point2d a = cast(c.a, 0), b = cast(c.b, 0);
      if (!near_image(a * kSmall, img.size()) || !near_image(b * kSmall, img.size())) continue;
      double ppm = centre_px_per_mm_ / kSmall;
      fill_poly(hands_mask, capsule_outline(a, c.ra * ppm, b, c.rb * ppm), cv::Scalar(255));
    }
    std::vector<cv::Point2d> palm;
    bool palm_near = true;
    for (const auto& v : solids.palm) {
      palm.push_back(cast(v, 0));
      palm_near = palm_near && near_image(palm.back() * kSmall, img.size());
    }
    if (palm_near) fill_convex(hands_mask, palm, cv::Scalar(255));
  }

  double ppm_small = centre_px_per_mm_ / kSmall;
  double sigma_p = std::max(0.5, look_.light.shadow_softness_mm * ppm_small);
  soft_blur(pieces_mask, sigma_p);
  bool any_hand = !scene.hands.empty();
  if (any_hand) {
    // A hand is high above the board: its shadow is much softer.
    soft_blur(hands_mask, std::max(1.0, (look_.light.shadow_softness_mm * 3 + 6) * ppm_small));
    pieces_mask = cv::max(pieces_mask, hands_mask);
  }
  // Only the part of the picture that has a shadow is touched: the small mask's box (grown by two small pixels,
  // which are empty, so the crop's borders do not change the interpolation) is enlarged to full size.
  cv::Rect small_box = cv::boundingRect(pieces_mask);
  if (small_box.empty()) return;
  small_box = cv::Rect(small_box.x - 2, small_box.y - 2, small_box.width + 4, small_box.height + 4) &
              cv::Rect(0, 0, pieces_mask.cols, pieces_mask.rows);
  cv::Mat grown;
  cv::resize(pieces_mask(small_box), grown, cv::Size(small_box.width * kSmall, small_box.height * kSmall), 0, 0,
             cv::INTER_LINEAR);
  cv::Rect box =
      cv::Rect(small_box.x * kSmall, small_box.y * kSmall, grown.cols, grown.rows) & cv::Rect(0, 0, img.cols, img.rows);
  if (box.empty()) return;
  cv::Mat full = grown(cv::Rect(0, 0, box.width, box.height));
  // Even an ambient-only room darkens under and around a piece a little.
  const float depth = static_cast<float>(0.18 + 0.8 * lighting_->shadow_depth());
  for (int y = 0; y < box.height; ++y) {
    const uchar* m = full.ptr<uchar>(y);
    uchar* o = img.ptr<uchar>(box.y + y) + 3 * box.x;
    for (int x = 0; x < box.width; ++x) {
      if (!m[x]) continue;
      float k = 1.0f - depth * m[x] / 255.0f;
      o[3 * x] = static_cast<uchar>(o[3 * x] * k);
      o[3 * x + 1] = static_cast<uchar>(o[3 * x + 1] * k);
      o[3 * x + 2] = static_cast<uchar>(o[3 * x + 2] * k);
    }
  }
}

void Renderer::draw_top(cv::Mat& img, const PieceInstance& p, double top_mm, double radius_mm) const {
  const cv::Mat& face = faces_->face(p.top());
  const int S = face.cols;
  const double ct = (S - 1) / 2.0, Rt = S / 2.0 - 1;
  const double rot = p.turn_deg * kDeg;
  cv::Vec3d C(p.xy.x, p.xy.y, -top_mm), e1(std::cos(rot), std::sin(rot), 0), e2(-std::sin(rot), std::cos(rot), 0);

  cv::Point2f img_pts[4], tex_pts[4];
  const double uv[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (int i = 0; i < 4; ++i) {
    img_pts[i] = camera_.project(C + radius_mm * (uv[i][0] * e1 + uv[i][1] * e2));
    tex_pts[i] = cv::Point2f(static_cast<float>(ct + Rt * uv[i][0]), static_cast<float>(ct + Rt * uv[i][1]));
  }
  cv::Matx33d Hinv = cv::getPerspectiveTransform(img_pts, tex_pts);

  double xmin = 1e9, ymin = 1e9, xmax = -1e9, ymax = -1e9;
  for (int i = 0; i < 16; ++i) {
    double a = i * kPi / 8;
    cv::Point2d q = camera_.project(C + radius_mm * (std::cos(a) * e1 + std::sin(a) * e2));
    xmin = std::min(xmin, q.x);
    xmax = std::max(xmax, q.x);
    ymin = std::min(ymin, q.y);
    ymax = std::max(ymax, q.y);
  }
  int x0 = std::max(0, static_cast<int>(std::floor(xmin)) - 1),
      x1 = std::min(img.cols - 1, static_cast<int>(std::ceil(xmax)) + 1);
  int y0 = std::max(0, static_cast<int>(std::floor(ymin)) - 1),
      y1 = std::min(img.rows - 1, static_cast<int>(std::ceil(ymax)) + 1);
  if (x0 > x1 || y0 > y1) return;

  cv::Point2d centre_px = camera_.project(C);
  cv::Vec3f gain = lighting_->flat_gain({p.xy.x, p.xy.y}, centre_px) * static_cast<float>(p.shade);
  // A glossy top shows the lamp as a soft highlight on the side it comes from.
  const cv::Vec3d& L = lighting_->towards_light();
  double lxy = std::hypot(L[0], L[1]);
  cv::Point2d hl(ct, ct);
  if (lxy > 1e-6) hl += cv::Point2d(L[0] * e1[0] + L[1] * e1[1], L[0] * e2[0] + L[1] * e2[1]) * (0.55 * Rt / lxy);
  const double spec = 255.0 * look_.pieces.gloss * 0.45 * look_.light.directional * look_.light.exposure;
  const double hs2 = 2 * (0.28 * Rt) * (0.28 * Rt);
  const cv::Vec3f lc = lighting_->colour_bgr();

  for (int y = y0; y <= y1; ++y) {
    cv::Vec3b* o = img.ptr<cv::Vec3b>(y);
    for (int x = x0; x <= x1; ++x) {
      double w = Hinv(2, 0) * x + Hinv(2, 1) * y + Hinv(2, 2);
      double u = (Hinv(0, 0) * x + Hinv(0, 1) * y + Hinv(0, 2)) / w;
      double v = (Hinv(1, 0) * x + Hinv(1, 1) * y + Hinv(1, 2)) / w;
      if (u < 0 || v < 0 || u >= S - 1 || v >= S - 1) continue;
      if ((u - ct) * (u - ct) + (v - ct) * (v - ct) > (Rt + 1.5) * (Rt + 1.5)) continue;
      int iu = static_cast<int>(u), iv = static_cast<int>(v);
      float fu = static_cast<float>(u - iu), fv = static_cast<float>(v - iv);
      const cv::Vec4b* r0 = face.ptr<cv::Vec4b>(iv) + iu;
      const cv::Vec4b* r1 = face.ptr<cv::Vec4b>(iv + 1) + iu;
      float wa = (1 - fu) * (1 - fv), wb = fu * (1 - fv), wc = (1 - fu) * fv, wd = fu * fv;
      float alpha = (r0[0][3] * wa + r0[1][3] * wb + r1[0][3] * wc + r1[1][3] * wd) / 255.0f;
      if (alpha <= 0.002f) continue;
      double du = u - hl.x, dv = v - hl.y, d2 = (du * du + dv * dv) / hs2;
      float hi = spec > 0.5 && d2 < 6 ? static_cast<float>(spec * std::exp(-d2)) : 0.0f;
      for (int c = 0; c < 3; ++c) {
        // Premultiplied by alpha in the texture's own sense: colours are meaningful where alpha > 0.
        float col = (r0[0][c] * r0[0][3] * wa + r0[1][c] * r0[1][3] * wb + r1[0][c] * r1[0][3] * wc +
                     r1[1][c] * r1[1][3] * wd) /
                    (alpha * 255.0f);
        float val = col * gain[c] + hi * lc[c];
        o[x][c] = cv::saturate_cast<uchar>(o[x][c] * (1 - alpha) + val * alpha);
      }
    }
  }
}

void Renderer::draw_piece(cv::Mat& img, const PieceInstance& p) const {
  const double r = radius_mm_, h = look_.pieces.height_mm;
  const cv::Vec3d cam = camera_.position();
  const cv::Point2d centre_px = camera_.project(p.xy.x, p.xy.y, p.base_mm);
  const double ppm = camera_.px_per_mm({p.xy.x, p.xy.y, -p.base_mm});
  const int segs = std::clamp(static_cast<int>(r * ppm * 0.7), 12, 48);
  const bool stone = look_.pieces.shape == PieceShape::Stone;
  const size_t n = p.layers.size();
  double top_radius = r;

  for (size_t i = 0; i < n; ++i) {
    const Rgb body = look_.pieces.colours(p.layers[i].empty() ? '?' : p.layers[i][0]).body * p.shade;
    double z0 = p.base_mm + h * static_cast<double>(i), z1 = z0 + h;
    // Bands of the side: a disc is one upright band; a stone's top layer rounds in towards its top.
    struct Band {
      double za, zb, ra, rb;
    };
    std::vector<Band> bands;
    if (stone && i + 1 == n) {
      bands.push_back({z0, z0 + 0.5 * h, r, r});
      bands.push_back({z0 + 0.5 * h, z0 + 0.8 * h, r, 0.93 * r});
      bands.push_back({z0 + 0.8 * h, z1, 0.93 * r, 0.78 * r});
      top_radius = 0.78 * r;
    } else {
      bands.push_back({z0, z1, r, r});
    }
    for (const Band& b : bands) {
      double slope = (b.ra - b.rb) / std::max(b.zb - b.za, 1e-6);
      for (int k = 0; k < segs; ++k) {
        double a0 = 2 * kPi * k / segs, a1 = 2 * kPi * (k + 1) / segs, am = (a0 + a1) / 2;
        cv::Vec3d nrm = cv::normalize(cv::Vec3d(std::cos(am), std::sin(am), -slope));
        cv::Vec3d mid(p.xy.x + (b.ra + b.rb) / 2 * std::cos(am), p.xy.y + (b.ra + b.rb) / 2 * std::sin(am),
                      -(b.za + b.zb) / 2);
        if (nrm.dot(cam - mid) <= 0) continue;
        // Overlap neighbouring quads by a hair so no seam of background shows between them.
        double e = 0.02;
        std::vector<cv::Point2d> quad = {
            camera_.project(p.xy.x + b.ra * std::cos(a0 - e), p.xy.y + b.ra * std::sin(a0 - e), b.za),
            camera_.project(p.xy.x + b.ra * std::cos(a1 + e), p.xy.y + b.ra * std::sin(a1 + e), b.za),
            camera_.project(p.xy.x + b.rb * std::cos(a1 + e), p.xy.y + b.rb * std::sin(a1 + e), b.zb),
            camera_.project(p.xy.x + b.rb * std::cos(a0 - e), p.xy.y + b.rb * std::sin(a0 - e), b.zb)};
        cv::Vec3f g = lighting_->gain(nrm, {p.xy.x, p.xy.y}, centre_px);
        fill_convex(img, quad, lit(body, g, 0.92));
      }
    }
    // The seam between two stacked pieces.
    if (i > 0) {
      std::vector<cv::Point> seam;
      for (int k = 0; k <= segs; ++k) {
        double a = 2 * kPi * k / segs;
        cv::Vec3d nrm(std::cos(a), std::sin(a), 0);
        cv::Vec3d pt(p.xy.x + r * std::cos(a), p.xy.y + r * std::sin(a), -z0);
        if (nrm.dot(cam - pt) <= 0) {
          if (seam.size() > 1)
            cv::polylines(img, seam, false, lit(body, lighting_->colour_bgr(), 0.3), 1, cv::LINE_AA, kShift);
          seam.clear();
          continue;
        }
        seam.push_back(fixed(camera_.project(pt)));
      }
      if (seam.size() > 1)
        cv::polylines(img, seam, false, lit(body, lighting_->colour_bgr(), 0.3), 1, cv::LINE_AA, kShift);
    }
  }
  draw_top(img, p, p.base_mm + h * static_cast<double>(n), top_radius);
}

void Renderer::draw_hand(cv::Mat& img, const HandPose& hand) const {
  HandSolids solids = pose_hand(hand, look_.hands);
  const Rgb skin = look_.hands.skin[hand.player & 1], sleeve = look_.hands.sleeve[hand.player & 1];
  const cv::Vec3d cam = camera_.position();
  const cv::Vec3d& L = lighting_->towards_light();

  struct Part {
    double depth;
    std::vector<Capsule> caps;
    std::vector<cv::Vec3d> plate;
  };
  std::vector<Part> parts;
  for (Capsule c : solids.arm)
    if (clip_to_camera(camera_, c)) parts.push_back({cv::norm(cam - (c.a + c.b) * 0.5), {c}, {}});
  cv::Vec3d palm_centre(0, 0, 0);
  for (const auto& v : solids.palm) palm_centre += v * (1.0 / solids.palm.size());
  Part palm{cv::norm(cam - palm_centre), {}, solids.palm};
  for (size_t i = 0; i < solids.palm.size(); ++i)
    palm.caps.push_back({solids.palm[i], solids.palm[(i + 1) % solids.palm.size()], 13 * look_.hands.size,
                         13 * look_.hands.size, false});
  parts.push_back(palm);
  for (Capsule c : solids.fingers)
    if (clip_to_camera(camera_, c)) parts.push_back({cv::norm(cam - (c.a + c.b) * 0.5), {c}, {}});
  std::stable_sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.depth > b.depth; });

  for (const Part& part : parts) {
    for (Capsule c : part.caps) {
      if (!clip_to_camera(camera_, c)) continue;
      cv::Point2d pa = camera_.project(c.a), pb = camera_.project(c.b);
      double ra = c.ra * camera_.px_per_mm(c.a), rb = c.rb * camera_.px_per_mm(c.b);
      cv::Vec3d mid = (c.a + c.b) * 0.5;
      cv::Vec3f g = lighting_->flat_gain({mid[0], mid[1]}, (pa + pb) * 0.5);
      const Rgb& albedo = c.sleeve ? sleeve : skin;
      // Rounded look: nested outlines from a darker rim to a light band on the side the lamp is on.
      cv::Point2d toward_light = camera_.project(mid + cv::Vec3d(L[0], L[1], 0) * 10.0) - camera_.project(mid);
      double tl = std::hypot(toward_light.x, toward_light.y);
      cv::Point2d off = tl > 1e-6 ? toward_light * (1.0 / tl) : cv::Point2d(0, 0);
      static const double kScale[] = {1.0, 0.86, 0.72, 0.58, 0.44, 0.3};
      static const double kShade[] = {0.70, 0.79, 0.86, 0.92, 0.97, 1.01};
      for (int band = 0; band < 6; ++band) {
        double k = kScale[band], shift = (1 - k) * 0.55;
        fill_poly(img, capsule_outline(pa + off * (shift * ra), ra * k, pb + off * (shift * rb), rb * k),
                  lit(albedo, g, kShade[band]));
      }
    }
    if (!part.plate.empty()) {
      std::vector<cv::Point2d> pts;
      bool in_front = true;
      for (const auto& v : part.plate) {
        in_front = in_front && camera_.to_camera(v)[2] > 30;
        pts.push_back(camera_.project(v));
      }
      if (!in_front) continue;
      cv::Vec3f g = lighting_->flat_gain({palm_centre[0], palm_centre[1]}, camera_.project(palm_centre));
      fill_poly(img, pts, lit(skin, g, 0.93));
    }
  }
}

void Renderer::hand_silhouette(cv::Mat& mask, const HandPose& hand, double scale) const {
  HandSolids solids = pose_hand(hand, look_.hands);
  std::vector<Capsule> caps = solids.arm;
  caps.insert(caps.end(), solids.fingers.begin(), solids.fingers.end());
  for (size_t i = 0; i < solids.palm.size(); ++i)
    caps.push_back({solids.palm[i], solids.palm[(i + 1) % solids.palm.size()], 11 * look_.hands.size,
                    11 * look_.hands.size, false});
  for (Capsule c : caps) {
    if (!clip_to_camera(camera_, c)) continue;
    double ra = c.ra * camera_.px_per_mm(c.a) * scale, rb = c.rb * camera_.px_per_mm(c.b) * scale;
    fill_poly(mask, capsule_outline(camera_.project(c.a) * scale, ra, camera_.project(c.b) * scale, rb),
              cv::Scalar(255), cv::LINE_8);
  }
  std::vector<cv::Point2d> palm;
  bool in_front = true;
  for (const auto& v : solids.palm) {
    in_front = in_front && camera_.to_camera(v)[2] > 30;
    palm.push_back(camera_.project(v) * scale);
  }
  if (in_front) fill_convex(mask, palm, cv::Scalar(255), cv::LINE_8);
  if (hand.held) {
    cv::Point2d c = camera_.project(hand.held->xy.x, hand.held->xy.y, hand.held->base_mm) * scale;
    double rr = radius_mm_ * camera_.px_per_mm({hand.held->xy.x, hand.held->xy.y, -hand.held->base_mm}) * scale * 1.3;
    cv::circle(mask, fixed(c), static_cast<int>(rr * kOne), cv::Scalar(255), cv::FILLED, cv::LINE_8, kShift);
  }
}

HandCover Renderer::hand_cover(const Scene& scene) const {
  HandCover cover;
  if (scene.hands.empty()) return cover;
  cv::Mat mask(board_zone_small_.size(), CV_8U, cv::Scalar(0));
  for (const HandPose& h : scene.hands) hand_silhouette(mask, h, 1.0 / kSmall);
  cv::Mat both;
  cv::bitwise_and(mask, board_zone_small_, both);
  cover.over_board = cv::countNonZero(both) > 0;
  auto covered = [&](cv::Point2d px) {
    int x = static_cast<int>(px.x / kSmall), y = static_cast<int>(px.y / kSmall);
    return x >= 0 && y >= 0 && x < mask.cols && y < mask.rows && mask.at<uchar>(y, x);
  };
  std::map<std::string, cv::Point2d> where;
  for (const auto& s : model_.sites) where[s.name] = site_pixel(s.name);
  for (const PieceInstance& p : scene.pieces)
    if (!p.site.empty() && p.base_mm == 0) where[p.site] = top_pixel(p);
  for (const auto& s : model_.sites)
    if (covered(where[s.name])) cover.sites.push_back(s.name);
  return cover;
}

cv::Mat Renderer::render(const Scene& scene, uint64_t frame_seed, const FrameExtras& extras) const {
  double t0 = thread_ms();
  cv::Mat img = backdrop_.clone();
  double t1 = thread_ms();
  draw_shadows(img, scene);
  double t2 = thread_ms();
  std::vector<const PieceInstance*> order;
  for (const auto& p : scene.pieces) order.push_back(&p);
  auto depth_of = [&](const PieceInstance& p) { return camera_.to_camera({p.xy.x, p.xy.y, -p.base_mm})[2]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](const PieceInstance* a, const PieceInstance* b) { return depth_of(*a) > depth_of(*b); });
  for (const PieceInstance* p : order) draw_piece(img, *p);
  double t3 = thread_ms();
  for (const HandPose& h : scene.hands) {
    cv::Point2d streak = camera_.project(h.grip) - camera_.project(h.grip - h.motion);
    double length = std::hypot(streak.x, streak.y);
    // No exposure smears a hand further: a grip whose place a frame ago projects far off (near the camera's
    // plane) made a kernel thousands of pixels wide, ten seconds a frame (simulate brazilian, eval-vision seed
    // 8822012, game 18).
    if (length > kMaxHandStreakPx) {
      streak *= kMaxHandStreakPx / length;
      length = kMaxHandStreakPx;
    }
    if (length < 1.5) {
      if (h.held) draw_piece(img, *h.held);
      draw_hand(img, h);
      continue;
    }
    // A moving hand is drawn on a copy, smeared along its motion, and laid over the frame through its
    // equally smeared outline.
    cv::Mat layer = img.clone();
    if (h.held) draw_piece(layer, *h.held);
    draw_hand(layer, h);
    cv::Mat mask(img.size(), CV_8U, cv::Scalar(0));
    hand_silhouette(mask, h, 1.0);
    cv::Rect box = cv::boundingRect(mask);
    int pad = static_cast<int>(std::ceil(length)) + 2;
    box = cv::Rect(box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad) &
          cv::Rect(0, 0, img.cols, img.rows);
    if (box.empty()) continue;
    cv::Mat kernel = motion_kernel(length, std::atan2(streak.y, streak.x) * 180 / kPi);
    cv::Mat smeared, alpha;
    cv::filter2D(layer(box), smeared, -1, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
    cv::filter2D(mask(box), alpha, -1, kernel, cv::Point(-1, -1), 0, cv::BORDER_CONSTANT);
    for (int y = 0; y < box.height; ++y) {
      cv::Vec3b* o = img.ptr<cv::Vec3b>(box.y + y) + box.x;
      const cv::Vec3b* sm = smeared.ptr<cv::Vec3b>(y);
      const uchar* a = alpha.ptr<uchar>(y);
      for (int x = 0; x < box.width; ++x) {
        if (!a[x]) continue;
        float k = a[x] / 255.0f;
        for (int c = 0; c < 3; ++c) o[x][c] = cv::saturate_cast<uchar>(o[x][c] * (1 - k) + sm[x][c] * k);
      }
    }
  }
  double t4 = thread_ms();
  sensor_->apply(img, frame_seed, extras.shake_px, extras.shake_angle_deg);
  double t5 = thread_ms();
  timing_ = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4};
  return img;
}

}  // namespace sb::vision
