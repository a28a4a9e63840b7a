#include "calibration/camera_pose.h"

#include <cmath>

namespace sb::calib {

cv::Matx33d CameraPose::plane_homography(double height_mm) const {
  // The plane z = -h: K [r1 r2 (t - h r3)].
  cv::Vec3d t = translation - height_mm * cv::Vec3d(rotation(0, 2), rotation(1, 2), rotation(2, 2));
  cv::Matx33d m(rotation(0, 0), rotation(0, 1), t[0], rotation(1, 0), rotation(1, 1), t[1], rotation(2, 0),
                rotation(2, 1), t[2]);
  return camera_matrix * m;
}

cv::Vec3d CameraPose::camera_position() const {
  return -(rotation.t() * translation);
}

std::optional<double> focal_from_homography(const cv::Matx33d& board_to_image, cv::Point2d principal,
                                            cv::Size image_size) {
  // Move the principal point to the origin; then H = diag(f, f, 1) [r1 r2 t] up to scale, and r1 ⟂ r2,
  // |r1| = |r2| give two equations a_i / f² + b_i = 0, solved together by least squares.
  cv::Matx33d shift(1, 0, -principal.x, 0, 1, -principal.y, 0, 0, 1);
  cv::Matx33d h = shift * board_to_image;
  h *= 1.0 / cv::norm(h);
  double a1 = h(0, 0) * h(0, 1) + h(1, 0) * h(1, 1), b1 = h(2, 0) * h(2, 1);
  double a2 = h(0, 0) * h(0, 0) + h(1, 0) * h(1, 0) - h(0, 1) * h(0, 1) - h(1, 1) * h(1, 1);
  double b2 = h(2, 0) * h(2, 0) - h(2, 1) * h(2, 1);
  double aa = a1 * a1 + a2 * a2;
  if (aa <= 0) return std::nullopt;
  double inv_f2 = -(a1 * b1 + a2 * b2) / aa;
  if (!(inv_f2 > 0)) return std::nullopt;
  double f = 1 / std::sqrt(inv_f2);
  // How much perspective there is to read: the third row against the first two, in units of the image. A
  // straight-down view has none and its focal length cannot be told from the board.
  double perspective = std::hypot(h(2, 0), h(2, 1)) / std::hypot(h(0, 0), h(1, 0)) * image_size.width;
  if (perspective < 0.05) return std::nullopt;
  double w = image_size.width;
  double fov = 2 * std::atan(w / (2 * f)) * 180 / CV_PI;
  if (fov < 15 || fov > 150) return std::nullopt;
  return f;
}

CameraPose pose_from_homography(const cv::Matx33d& board_to_image, cv::Size image_size,
                                const std::optional<cv::Matx33d>& camera_matrix) {
  CameraPose pose;
  if (camera_matrix) {
    pose.camera_matrix = *camera_matrix;
  } else {
    cv::Point2d c((image_size.width - 1) / 2.0, (image_size.height - 1) / 2.0);
    auto f = focal_from_homography(board_to_image, c, image_size);
    if (!f) {
      f = image_size.width / (2 * std::tan(65.0 / 2 * CV_PI / 180));
      pose.focal_assumed = true;
    }
    pose.camera_matrix = cv::Matx33d(*f, 0, c.x, 0, *f, c.y, 0, 0, 1);
  }
  cv::Matx33d m = pose.camera_matrix.inv() * board_to_image;
  cv::Vec3d m1(m(0, 0), m(1, 0), m(2, 0)), m2(m(0, 1), m(1, 1), m(2, 1)), m3(m(0, 2), m(1, 2), m(2, 2));
  double scale = 2 / (cv::norm(m1) + cv::norm(m2));
  if (m3[2] < 0) scale = -scale;  // the board lies in front of the camera
  cv::Vec3d r1 = m1 * scale, r2 = m2 * scale, r3 = r1.cross(r2);
  cv::Matx33d r(r1[0], r2[0], r3[0], r1[1], r2[1], r3[1], r1[2], r2[2], r3[2]);
  // The nearest true rotation (noise leaves r1, r2 slightly off orthonormal).
  cv::SVD svd(cv::Mat(r), cv::SVD::FULL_UV);
  cv::Mat rot = svd.u * svd.vt;
  pose.rotation = cv::Matx33d(rot);
  pose.translation = m3 * scale;
  return pose;
}

}  // namespace sb::calib
