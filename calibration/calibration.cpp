#include "calibration/calibration.h"

#include "calibration/json_reader.h"
#include "engines/common/errors.h"

namespace sb::calib {

CameraPose Calibration::pose() const {
  std::optional<cv::Matx33d> k;
  if (lens) k = lens->camera_matrix;
  return pose_from_homography(fit.board_to_ideal, image_size, k);
}

std::vector<cv::Point2d> Calibration::image_points(const std::vector<Vec2>& board_mm, double height_mm) const {
  cv::Matx33d h = height_mm == 0 ? fit.board_to_ideal : pose().plane_homography(height_mm);
  if (height_mm != 0) {
    // The pose reproduces the fit only up to scale; anchor it so height 0 gives exactly the fit.
    cv::Matx33d h0 = pose().plane_homography(0);
    h = fit.board_to_ideal * h0.inv() * h;
  }
  std::vector<cv::Point2d> ideal;
  for (const Vec2& p : board_mm) ideal.push_back(apply_homography(h, {p.x, p.y}));
  return lens ? lens->distort(ideal) : ideal;
}

cv::Point2d Calibration::image_point(Vec2 board_mm, double height_mm) const {
  return image_points({board_mm}, height_mm)[0];
}

std::vector<cv::Point2d> Calibration::site_points(const BoardModel& model, double height_mm) const {
  std::vector<Vec2> pts;
  for (const Site& s : model.sites) pts.push_back(s.centre);
  return image_points(pts, height_mm);
}

Vec2 Calibration::board_point(cv::Point2d image_px) const {
  cv::Point2d ideal = lens ? lens->undistort({image_px})[0] : image_px;
  cv::Point2d b = apply_homography(fit.board_to_ideal.inv(), ideal);
  return {b.x, b.y};
}

json Calibration::to_json(const BoardModel* model) const {
  json h = json::array();
  for (int r = 0; r < 3; ++r)
    h.push_back({fit.board_to_ideal(r, 0), fit.board_to_ideal(r, 1), fit.board_to_ideal(r, 2)});
  json j = {{"version", kCalibrationVersion},
            {"kind", "smartboard-calibration"},
            {"game", game},
            {"image_size", {image_size.width, image_size.height}},
            {"method", fit.method},
            {"board_to_image", h},
            {"markers", markers()},
            {"marker_ids", fit.marker_ids},
            {"points", fit.points},
            {"reprojection_error_px", fit.reprojection_error_px},
            {"lens", lens ? lens->to_json() : json(nullptr)}};
  if (model) {
    json sites = json::object();
    std::vector<cv::Point2d> pts = site_points(*model);
    for (size_t i = 0; i < pts.size(); ++i) sites[model->sites[i].name] = {pts[i].x, pts[i].y};
    j["sites"] = sites;
  }
  return j;
}

Calibration Calibration::from_json(const json& j, const std::string& where) {
  JsonReader r(where);
  if (!j.is_object()) r.fail("top level", "expected a JSON object");
  if (!j.contains("kind") || j["kind"] != "smartboard-calibration")
    r.fail("kind", "is not \"smartboard-calibration\": not a calibration file");
  int version = r.integer(r.field(j, "", "version"), "version", 0, 1000000);
  if (version != kCalibrationVersion)
    r.fail("version", "is " + std::to_string(version) + "; this program reads calibrations of version " +
                          std::to_string(kCalibrationVersion));
  Calibration c;
  c.game = r.string(r.field(j, "", "game"), "game");
  auto size = r.numbers(r.field(j, "", "image_size"), "image_size", 2);
  if (size[0] < 1 || size[1] < 1 || size[0] > 100000 || size[1] > 100000) r.fail("image_size", "out of range");
  c.image_size = {static_cast<int>(size[0]), static_cast<int>(size[1])};
  c.fit.method = r.string(r.field(j, "", "method"), "method");
  if (c.fit.method != "markers" && c.fit.method != "corners" && c.fit.method != "outline")
    r.fail("method", "expected markers, corners or outline");
  const json& h = r.field(j, "", "board_to_image");
  if (!h.is_array() || h.size() != 3) r.fail("board_to_image", "expected 3 rows of 3 numbers");
  for (int row = 0; row < 3; ++row) {
    auto v = r.numbers(h[row], "board_to_image[" + std::to_string(row) + "]", 3);
    for (int col = 0; col < 3; ++col) c.fit.board_to_ideal(row, col) = v[col];
  }
  if (std::abs(cv::determinant(c.fit.board_to_ideal)) < 1e-12) r.fail("board_to_image", "is singular");
  const json& ids = r.field(j, "", "marker_ids");
  if (!ids.is_array()) r.fail("marker_ids", "expected a list of marker ids");
  for (size_t i = 0; i < ids.size(); ++i)
    c.fit.marker_ids.push_back(r.integer(ids[i], "marker_ids[" + std::to_string(i) + "]", 0, 100000));
  c.fit.points = r.integer(r.field(j, "", "points"), "points", 0, 1000000);
  c.fit.reprojection_error_px = r.number(r.field(j, "", "reprojection_error_px"), "reprojection_error_px");
  const json& lens = r.field(j, "", "lens");
  if (!lens.is_null()) {
    c.lens = Lens::from_json(lens, where + ": lens");
    c.lens->check_image_size(c.image_size, where + ": image_size");
  }
  return c;
}

void save_calibration(const Calibration& c, const BoardModel& model, const std::filesystem::path& path) {
  write_json_file(path, c.to_json(&model), "calibration");
}

Calibration load_calibration(const std::filesystem::path& path, const std::optional<std::string>& game,
                             const std::optional<cv::Size>& image_size) {
  Calibration c = Calibration::from_json(read_json_file(path, "calibration"), path.string());
  if (game && c.game != *game)
    throw InputError(path.string() + ": is a calibration of '" + c.game + "', not '" + *game + "'");
  if (image_size && c.image_size != *image_size)
    throw InputError(path.string() + ": was made on " + std::to_string(c.image_size.width) + "x" +
                     std::to_string(c.image_size.height) + " images, these are " + std::to_string(image_size->width) +
                     "x" + std::to_string(image_size->height));
  return c;
}

}  // namespace sb::calib
