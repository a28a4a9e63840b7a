#include "vision/render/camera.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engines/common/errors.h"

namespace sb::vision {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

double num(const nlohmann::json& j, const char* key, const std::string& where, double fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number()) throw InputError(where + ": \"" + key + "\" must be a number");
  double d = v.get<double>();
  if (!std::isfinite(d)) throw InputError(where + ": \"" + key + "\" must be finite");
  return d;
}

}  // namespace

cv::Point2d Camera::distort_normalised(double x, double y) const {
  const auto& d = distortion;
  double r2 = x * x + y * y;
  double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
  double xd = x * radial + 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
  double yd = y * radial + d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
  return {K(0, 0) * xd + K(0, 1) * yd + K(0, 2), K(1, 1) * yd + K(1, 2)};
}

cv::Point2d Camera::project(const cv::Vec3d& world) const {
  cv::Vec3d c = to_camera(world);
  double z = c[2];
  if (z < 1e-6) z = 1e-6;  // behind the camera: far off the image
  return distort_normalised(c[0] / z, c[1] / z);
}

cv::Point2d Camera::undistort_pixel(cv::Point2d px) const {
  double yd = (px.y - K(1, 2)) / K(1, 1);
  double xd = (px.x - K(0, 2) - K(0, 1) * yd) / K(0, 0);
  if (!has_distortion()) return {xd, yd};
  const auto& d = distortion;
  double x = xd, y = yd;
  for (int i = 0; i < 30; ++i) {
    double r2 = x * x + y * y;
    double radial = 1 + r2 * (d[0] + r2 * (d[1] + r2 * d[4]));
    double dx = 2 * d[2] * x * y + d[3] * (r2 + 2 * x * x);
    double dy = d[2] * (r2 + 2 * y * y) + 2 * d[3] * x * y;
    double nx = (xd - dx) / radial, ny = (yd - dy) / radial;
    if (std::fabs(nx - x) < 1e-12 && std::fabs(ny - y) < 1e-12) {
      x = nx;
      y = ny;
      break;
    }
    x = nx;
    y = ny;
  }
  return {x, y};
}

bool Camera::pixel_to_plane(cv::Point2d px, double plane_z, cv::Point2d& board_xy) const {
  cv::Point2d n = undistort_pixel(px);
  cv::Vec3d ray_cam(n.x, n.y, 1.0);
  cv::Vec3d ray = R.t() * ray_cam;
  cv::Vec3d c = position();
  if (std::fabs(ray[2]) < 1e-12) return false;
  double s = (plane_z - c[2]) / ray[2];
  if (s <= 0) return false;
  board_xy = {c[0] + s * ray[0], c[1] + s * ray[1]};
  return true;
}

cv::Vec3d Camera::position() const {
  return -(R.t() * t);
}

double Camera::px_per_mm(const cv::Vec3d& world) const {
  cv::Point2d a = project(world), b = project(world + cv::Vec3d(1, 0, 0)), c = project(world + cv::Vec3d(0, 1, 0));
  return std::sqrt(std::max(cv::norm(b - a), 1e-9) * std::max(cv::norm(c - a), 1e-9));
}

bool Camera::has_distortion() const {
  for (int i = 0; i < 5; ++i)
    if (distortion[i] != 0) return true;
  return false;
}

nlohmann::json Camera::to_json() const {
  nlohmann::json j;
  j["image_size"] = {image_size.width, image_size.height};
  j["camera_matrix"] = {{K(0, 0), K(0, 1), K(0, 2)}, {K(1, 0), K(1, 1), K(1, 2)}, {K(2, 0), K(2, 1), K(2, 2)}};
  j["distortion"] = {distortion[0], distortion[1], distortion[2], distortion[3], distortion[4]};
  j["rotation"] = {{R(0, 0), R(0, 1), R(0, 2)}, {R(1, 0), R(1, 1), R(1, 2)}, {R(2, 0), R(2, 1), R(2, 2)}};
  j["translation_mm"] = {t[0], t[1], t[2]};
  return j;
}

Camera Camera::from_json(const nlohmann::json& j, const std::string& where) {
  auto matrix = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_array() || j[key].size() != 3)
      throw InputError(where + ": \"" + std::string(key) + "\" must be a 3×3 array");
    cv::Matx33d m;
    for (int r = 0; r < 3; ++r) {
      const auto& row = j[key][r];
      if (!row.is_array() || row.size() != 3) throw InputError(where + ": \"" + std::string(key) + "\" must be 3×3");
      for (int c = 0; c < 3; ++c) {
        if (!row[c].is_number()) throw InputError(where + ": \"" + std::string(key) + "\" must hold numbers");
        m(r, c) = row[c].get<double>();
      }
    }
    return m;
  };
  Camera cam;
  if (!j.is_object()) throw InputError(where + ": camera must be an object");
  const auto& size = j.value("image_size", nlohmann::json::array());
  if (!size.is_array() || size.size() != 2 || !size[0].is_number_integer() || !size[1].is_number_integer())
    throw InputError(where + ": \"image_size\" must be [width, height]");
  cam.image_size = {size[0].get<int>(), size[1].get<int>()};
  cam.K = matrix("camera_matrix");
  cam.R = matrix("rotation");
  const auto& d = j.value("distortion", nlohmann::json::array());
  if (!d.is_array() || d.size() != 5) throw InputError(where + ": \"distortion\" must be [k1, k2, p1, p2, k3]");
  for (int i = 0; i < 5; ++i) cam.distortion[i] = d[i].get<double>();
  const auto& tv = j.value("translation_mm", nlohmann::json::array());
  if (!tv.is_array() || tv.size() != 3) throw InputError(where + ": \"translation_mm\" must be [x, y, z]");
  for (int i = 0; i < 3; ++i) cam.t[i] = tv[i].get<double>();
  return cam;
}

nlohmann::json CameraPlacement::to_json() const {
  return {{"tilt_deg", tilt_deg},
          {"azimuth_deg", azimuth_deg},
          {"roll_deg", roll_deg},
          {"px_per_pitch", px_per_pitch},
          {"hfov_deg", hfov_deg},
          {"k1", k1},
          {"k2", k2},
          {"aim_offset_mm", {aim_offset_mm.x, aim_offset_mm.y}}};
}

CameraPlacement CameraPlacement::from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": camera placement must be an object");
  CameraPlacement p;
  p.tilt_deg = num(j, "tilt_deg", where, p.tilt_deg);
  p.azimuth_deg = num(j, "azimuth_deg", where, p.azimuth_deg);
  p.roll_deg = num(j, "roll_deg", where, p.roll_deg);
  p.px_per_pitch = num(j, "px_per_pitch", where, p.px_per_pitch);
  p.hfov_deg = num(j, "hfov_deg", where, p.hfov_deg);
  p.k1 = num(j, "k1", where, p.k1);
  p.k2 = num(j, "k2", where, p.k2);
  if (j.contains("aim_offset_mm")) {
    const auto& a = j["aim_offset_mm"];
    if (!a.is_array() || a.size() != 2 || !a[0].is_number() || !a[1].is_number())
      throw InputError(where + ": \"aim_offset_mm\" must be [x, y]");
    p.aim_offset_mm = {a[0].get<double>(), a[1].get<double>()};
  }
  if (p.tilt_deg < 0 || p.tilt_deg > 70) throw InputError(where + ": tilt_deg must be from 0 to 70");
  if (p.px_per_pitch < 5 || p.px_per_pitch > 400) throw InputError(where + ": px_per_pitch must be from 5 to 400");
  if (p.hfov_deg < 20 || p.hfov_deg > 120) throw InputError(where + ": hfov_deg must be from 20 to 120");
  if (std::fabs(p.k1) > 0.5 || std::fabs(p.k2) > 0.5) throw InputError(where + ": k1, k2 must be within ±0.5");
  return p;
}

Camera place_camera(const calib::BoardModel& model, const CameraPlacement& p, cv::Size image_size) {
  const auto& q = model.playing_area_corners();
  cv::Vec3d aim((q[0].x + q[1].x + q[2].x + q[3].x) / 4 + p.aim_offset_mm.x,
                (q[0].y + q[1].y + q[2].y + q[3].y) / 4 + p.aim_offset_mm.y, 0);
  Camera cam;
  cam.image_size = image_size;
  double f = image_size.width / 2.0 / std::tan(p.hfov_deg * kDeg / 2);
  cam.K = cv::Matx33d(f, 0, image_size.width / 2.0 - 0.5, 0, f, image_size.height / 2.0 - 0.5, 0, 0, 1);
  cam.distortion = cv::Vec<double, 5>(p.k1, p.k2, 0, 0, 0);

  double distance = f * model.pitch_mm / p.px_per_pitch;
  double tilt = p.tilt_deg * kDeg, az = p.azimuth_deg * kDeg, roll = p.roll_deg * kDeg;
  // The direction on the table from the aim point to the camera's foot: azimuth 0 is towards the first player.
  cv::Vec3d towards(std::sin(az), std::cos(az), 0);
  cv::Vec3d up(0, 0, -1);
  cv::Vec3d centre = aim + distance * (std::sin(tilt) * towards + std::cos(tilt) * up);
  cv::Vec3d z = cv::normalize(aim - centre);
  // Image "down" is the direction towards the camera's foot, so the near side of the board (as the camera
  // stands) is at the bottom of the picture.
  cv::Vec3d y = towards - z * towards.dot(z);
  y = cv::normalize(y);
  cv::Vec3d x = y.cross(z);
  // Roll about the optical axis.
  cv::Vec3d xr = std::cos(roll) * x + std::sin(roll) * y;
  cv::Vec3d yr = -std::sin(roll) * x + std::cos(roll) * y;
  cam.R = cv::Matx33d(xr[0], xr[1], xr[2], yr[0], yr[1], yr[2], z[0], z[1], z[2]);
  cam.t = -(cam.R * centre);
  return cam;
}

double max_px_per_pitch(const calib::BoardModel& model, CameraPlacement p, cv::Size image_size, double margin_pitches,
                        double border_px) {
  const auto& q = model.playing_area_corners();
  double m = margin_pitches * model.pitch_mm;
  double x0 = std::min(q[0].x, q[3].x) - m, x1 = std::max(q[1].x, q[2].x) + m;
  double y0 = std::min(q[2].y, q[3].y) - m, y1 = std::max(q[0].y, q[1].y) + m;
  auto fits = [&](double scale) {
    p.px_per_pitch = scale;
    Camera cam = place_camera(model, p, image_size);
    for (double h : {0.0, 20.0})
      for (int i = 0; i <= 8; ++i) {
        double s = i / 8.0;
        for (cv::Vec3d w : {cv::Vec3d(x0 + (x1 - x0) * s, y0, -h), cv::Vec3d(x0 + (x1 - x0) * s, y1, -h),
                            cv::Vec3d(x0, y0 + (y1 - y0) * s, -h), cv::Vec3d(x1, y0 + (y1 - y0) * s, -h)}) {
          if (cam.to_camera(w)[2] <= 1) return false;
          cv::Point2d px = cam.project(w);
          if (px.x < border_px || px.y < border_px || px.x > image_size.width - 1 - border_px ||
              px.y > image_size.height - 1 - border_px)
            return false;
        }
      }
    return true;
  };
  double lo = 1, hi = 1000;
  if (!fits(lo)) return lo;
  for (int i = 0; i < 40; ++i) {
    double mid = std::sqrt(lo * hi);
    if (fits(mid))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace sb::vision
