// A pinhole camera over the board, recovered from the board's homography: what lets calibration map the plane
// at a given height above the board (the top faces of pieces 5–10 mm tall) into the image.
#pragma once

#include <opencv2/core.hpp>
#include <optional>

namespace sb::calib {

// ideal image pixels ~ K (R · (x, y, z) + t) for a board point (x, y) mm, z mm into the table (the board frame
// is x right, y towards the first player, so z = x × y points down). A point h mm above the board has z = -h.
struct CameraPose {
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  cv::Matx33d rotation = cv::Matx33d::eye();
  cv::Vec3d translation;
  bool focal_assumed = false;  // true when neither a lens nor the view's tilt gave the focal length

  // The homography from the plane `height_mm` above the board (board x, y in mm) to ideal image pixels.
  cv::Matx33d plane_homography(double height_mm) const;
  // Where the camera is, in the board frame (mm; its z is negative: above the board).
  cv::Vec3d camera_position() const;
};

// The focal length (pixels) that makes `board_to_image` a rotation seen by a camera with square pixels and
// principal point `principal`; nullopt when the view is too close to straight-down to tell, or the answer is
// not a plausible camera (field of view 15°–150°).
std::optional<double> focal_from_homography(const cv::Matx33d& board_to_image, cv::Point2d principal,
                                            cv::Size image_size);

// The camera pose that explains `board_to_image` (board mm → ideal pixels). With `camera_matrix` (from a lens
// calibration) it is used as is; without, the principal point is the image centre and the focal length comes
// from focal_from_homography, or a 65° horizontal field of view (a typical webcam) when that cannot tell.
CameraPose pose_from_homography(const cv::Matx33d& board_to_image, cv::Size image_size,
                                const std::optional<cv::Matx33d>& camera_matrix = std::nullopt);

}  // namespace sb::calib
