#include "calibration/lens.h"

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/board_drawing.h"
#include "calibration/json_reader.h"
#include "calibration/markers.h"
#include "engines/common/errors.h"

namespace sb::calib {

namespace {

constexpr int kMinCornersPerView = 8;
constexpr int kMinViews = 4;

cv::Mat to_gray(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat gray;
  cv::cvtColor(image, gray, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return gray;
}

}  // namespace

cv::Ptr<cv::aruco::CharucoBoard> LensTarget::board() const {
  return cv::aruco::CharucoBoard::create(squares_x, squares_y, static_cast<float>(square_mm),
                                         static_cast<float>(marker_mm), aruco_dictionary(dictionary));
}

std::vector<Site> LensTarget::corners() const {
  auto b = board();
  std::vector<Site> out;
  for (size_t i = 0; i < b->chessboardCorners.size(); ++i)
    out.push_back({std::to_string(i), {b->chessboardCorners[i].x, b->chessboardCorners[i].y}});
  return out;
}

void LensTarget::draw(cairo_t* cr) const {
  cairo_save(cr);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_rectangle(cr, 0, 0, size_mm().x, size_mm().y);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  // OpenCV's layout: square (0, 0) at the far left is black, markers sit in the white squares.
  for (int y = 0; y < squares_y; ++y)
    for (int x = 0; x < squares_x; ++x)
      if ((x + y) % 2 == 0) cairo_rectangle(cr, x * square_mm, y * square_mm, square_mm, square_mm);
  cairo_fill(cr);
  auto b = board();
  auto dict = aruco_dictionary(dictionary);
  for (size_t i = 0; i < b->ids.size(); ++i) {
    MarkerCells cells = marker_cells(*dict, b->ids[i]);
    const auto& c = b->objPoints[i];  // top-left, top-right, bottom-right, bottom-left, y down
    double cell = marker_mm / cells.cells;
    for (int r = 0; r < cells.cells; ++r)
      for (int k = 0; k < cells.cells; ++k)
        if (cells.at(r, k)) cairo_rectangle(cr, c[0].x + k * cell, c[0].y + r * cell, cell, cell);
  }
  cairo_fill(cr);
  cairo_restore(cr);
}

cv::Mat LensTarget::image(double px_per_mm) const {
  return draw_to_image(size_mm(), px_per_mm, [this](cairo_t* cr) { draw(cr); });
}

json LensTarget::to_json() const {
  return {{"squares", {squares_x, squares_y}},
          {"square_mm", square_mm},
          {"marker_mm", marker_mm},
          {"dictionary", dictionary}};
}

std::vector<cv::Point2d> Lens::undistort(const std::vector<cv::Point2d>& image_px) const {
  if (image_px.empty()) return {};
  std::vector<cv::Point2d> out;
  cv::undistortPoints(image_px, out, camera_matrix, distortion, cv::noArray(), camera_matrix,
                      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 40, 1e-9));
  return out;
}

std::vector<cv::Point2d> Lens::distort(const std::vector<cv::Point2d>& ideal_px) const {
  if (ideal_px.empty()) return {};
  std::vector<cv::Point3d> rays;
  for (const auto& p : ideal_px)
    rays.emplace_back((p.x - camera_matrix(0, 2)) / camera_matrix(0, 0),
                      (p.y - camera_matrix(1, 2)) / camera_matrix(1, 1), 1.0);
  std::vector<cv::Point2d> out;
  cv::projectPoints(rays, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), camera_matrix, distortion, out);
  return out;
}

void Lens::check_image_size(cv::Size size, const std::string& what) const {
  if (size != image_size)
    throw InputError(what + " is " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                     " but the lens was calibrated on " + std::to_string(image_size.width) + "x" +
                     std::to_string(image_size.height) + " images");
}

json Lens::to_json() const {
  json k = json::array();
  for (int r = 0; r < 3; ++r) k.push_back({camera_matrix(r, 0), camera_matrix(r, 1), camera_matrix(r, 2)});
  return {{"version", kLensVersion}, {"kind", "smartboard-lens"}, {"image_size", {image_size.width, image_size.height}},
          {"camera_matrix", k},      {"distortion", distortion},  {"rms_px", rms_px},
          {"views", views}};
}

Lens Lens::from_json(const json& j, const std::string& where) {
  JsonReader r(where);
  if (!j.is_object()) r.fail("top level", "expected a JSON object");
  if (!j.contains("kind") || j["kind"] != "smartboard-lens")
    r.fail("kind", "is not \"smartboard-lens\": not a lens file");
  int version = r.integer(r.field(j, "", "version"), "version", 0, 1000000);
  if (version != kLensVersion)
    r.fail("version", "is " + std::to_string(version) + "; this program reads lens files of version " +
                          std::to_string(kLensVersion));
  Lens lens;
  auto size = r.numbers(r.field(j, "", "image_size"), "image_size", 2);
  if (size[0] < 1 || size[1] < 1 || size[0] > 100000 || size[1] > 100000) r.fail("image_size", "out of range");
  lens.image_size = {static_cast<int>(size[0]), static_cast<int>(size[1])};
  const json& k = r.field(j, "", "camera_matrix");
  if (!k.is_array() || k.size() != 3) r.fail("camera_matrix", "expected 3 rows of 3 numbers");
  for (int row = 0; row < 3; ++row) {
    auto v = r.numbers(k[row], "camera_matrix[" + std::to_string(row) + "]", 3);
    for (int c = 0; c < 3; ++c) lens.camera_matrix(row, c) = v[c];
  }
  if (lens.camera_matrix(0, 0) <= 0 || lens.camera_matrix(1, 1) <= 0 || lens.camera_matrix(2, 2) != 1)
    r.fail("camera_matrix", "is not a camera matrix (positive focal lengths, last row 0 0 1)");
  const json& d = r.field(j, "", "distortion");
  if (!d.is_array() || !(d.size() == 4 || d.size() == 5 || d.size() == 8 || d.size() == 12 || d.size() == 14))
    r.fail("distortion", "expected 4, 5, 8, 12 or 14 coefficients");
  for (size_t i = 0; i < d.size(); ++i)
    lens.distortion.push_back(r.number(d[i], "distortion[" + std::to_string(i) + "]"));
  lens.rms_px = r.number(r.field(j, "", "rms_px"), "rms_px");
  lens.views = r.integer(r.field(j, "", "views"), "views", 0, 100000);
  return lens;
}

void save_lens(const Lens& lens, const std::filesystem::path& path) {
  write_json_file(path, lens.to_json(), "lens file");
}

Lens load_lens(const std::filesystem::path& path) {
  return Lens::from_json(read_json_file(path, "lens file"), path.string());
}

LensCalibration calibrate_lens(const std::vector<cv::Mat>& images, const std::vector<std::string>& names,
                               const LensTarget& target) {
  if (images.empty()) throw InputError("lens calibration: no images");
  auto board = target.board();
  auto dict = aruco_dictionary(target.dictionary);
  auto params = cv::aruco::DetectorParameters::create();
  params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;  // the ChArUco corners are refined instead
  LensCalibration result;
  cv::Size size = images[0].size();
  std::vector<cv::Mat> all_corners, all_ids;
  for (size_t i = 0; i < images.size(); ++i) {
    LensView view;
    view.name = i < names.size() ? names[i] : "image " + std::to_string(i + 1);
    if (images[i].size() != size)
      throw InputError("lens calibration: " + view.name + " is " + std::to_string(images[i].cols) + "x" +
                       std::to_string(images[i].rows) + ", the first image " + std::to_string(size.width) + "x" +
                       std::to_string(size.height) + "; all views must come from one camera mode");
    cv::Mat gray = to_gray(images[i]);
    std::vector<std::vector<cv::Point2f>> marker_corners;
    std::vector<int> marker_ids;
    cv::aruco::detectMarkers(gray, dict, marker_corners, marker_ids, params);
    if (!marker_ids.empty()) {
      cv::Mat corners, ids;
      cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, gray, board, corners, ids);
      view.corners = ids.rows;
      if (ids.rows >= kMinCornersPerView) {
        view.used = true;
        all_corners.push_back(corners);
        all_ids.push_back(ids);
      }
    }
    result.views.push_back(view);
  }
  int used = static_cast<int>(all_corners.size());
  if (used < kMinViews)
    throw InputError("lens calibration: only " + std::to_string(used) + " of " + std::to_string(images.size()) +
                     " images show the ChArUco sheet well enough (at least " + std::to_string(kMinCornersPerView) +
                     " corners); need " + std::to_string(kMinViews) + " views from different angles");
  cv::Mat k, d;
  // k1, k2 and the tangential terms; k3 lets the polynomial run wild outside the parts of the frame the views
  // covered, and webcams do not need it.
  double rms = cv::aruco::calibrateCameraCharuco(all_corners, all_ids, board, size, k, d, cv::noArray(), cv::noArray(),
                                                 cv::CALIB_FIX_K3);
  if (!std::isfinite(rms))
    throw InputError("lens calibration: the calibration did not converge; use more varied views");
  Lens& lens = result.lens;
  lens.image_size = size;
  lens.camera_matrix = cv::Matx33d(k);
  lens.distortion.assign(d.begin<double>(), d.end<double>());
  lens.rms_px = rms;
  lens.views = used;
  return result;
}

}  // namespace sb::calib
