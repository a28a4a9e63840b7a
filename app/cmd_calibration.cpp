// The calibration subcommands: print-board, calibrate, calibrate-lens (CONTRACT.md, Vision).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "app/args.h"
#include "app/commands.h"
#include "app/vision_setup.h"
#include "calibration/board_locator.h"
#include "calibration/board_model.h"
#include "calibration/calibration.h"
#include "calibration/corner_lens.h"
#include "calibration/lens.h"
#include "calibration/print_board.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

using nlohmann::json;

void write_json_file(const std::string& path, const json& j) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  out << j.dump(1) << "\n";
  if (!out) throw InputError("cannot write '" + path + "'");
}

json point_json(const cv::Point2d& p) {
  return json::array({p.x, p.y});
}

cv::Mat read_image(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("cannot read image '" + path + "': no such file");
  cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
  if (image.empty()) throw InputError("cannot read image '" + path + "'");
  return image;
}

calib::PrintOptions print_options(const Args& args) {
  calib::PrintOptions options;
  if (auto paper = args.value("--paper")) {
    options.paper = calib::paper_from_name(*paper);
    if (!options.paper) throw InputError("--paper: expected A4 or A3, got '" + *paper + "'");
  }
  options.dpi = args.int_value("--dpi", 300, 50, 600);
  return options;
}

bool ends_with_png(const std::string& path) {
  return path.size() >= 4 && (path.substr(path.size() - 4) == ".png" || path.substr(path.size() - 4) == ".PNG");
}

void write_truth(const std::string& path, const std::string& game, const calib::PrintedBoard& printed) {
  json sites = json::object();
  for (const auto& [name, p] : printed.site_pixels) sites[name] = point_json(p);
  write_json_file(path, {{"game", game},
                         {"image_size", {printed.image_size.width, printed.image_size.height}},
                         {"px_per_mm", printed.px_per_mm},
                         {"sites", sites}});
}

// "x,y,x,y,x,y,x,y": the four corners near-left, near-right, far-right, far-left.
std::array<cv::Point2d, 4> parse_corners(const std::string& text) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(parse_double(item, "--corners value '" + item + "'", -1e6, 1e6));
  if (v.size() != 8)
    throw InputError(
        "--corners: expected 8 numbers x,y,x,y,x,y,x,y (near-left, near-right, far-right, far-left), "
        "got " +
        std::to_string(v.size()));
  std::array<cv::Point2d, 4> corners;
  for (int k = 0; k < 4; ++k) corners[k] = {v[2 * k], v[2 * k + 1]};
  return corners;
}

// Which other boards' markers are in view: a likely wrong game id.
std::string other_boards_seen(const std::vector<int>& foreign_ids, const std::string& game) {
  std::string seen;
  for (const std::string& other : calib::board_games()) {
    if (other == game) continue;
    calib::BoardModel m = calib::load_board_model(other);
    int hits = 0;
    for (int id : foreign_ids) hits += m.markers.find(id) != nullptr;
    if (hits > 0) seen += (seen.empty() ? "" : ", ") + other;
  }
  return seen;
}

void draw_debug(cv::Mat& image, const calib::Calibration& c, const calib::BoardModel& model,
                const std::vector<calib::MarkerSighting>& sightings) {
  for (const auto& s : sightings)
    for (int k = 0; k < 4; ++k)
      cv::line(image, s.corners[k], s.corners[(k + 1) % 4], cv::Scalar(0, 200, 255), 1, cv::LINE_AA);
  const calib::Quad& q = model.playing_area_corners();
  std::vector<cv::Point2d> corners = c.image_points({q.begin(), q.end()});
  for (int k = 0; k < 4; ++k) cv::line(image, corners[k], corners[(k + 1) % 4], cv::Scalar(255, 0, 0), 1, cv::LINE_AA);
  std::vector<cv::Point2d> sites = c.site_points(model);
  for (size_t i = 0; i < sites.size(); ++i) {
    cv::circle(image, sites[i], 3, cv::Scalar(0, 0, 255), cv::FILLED, cv::LINE_AA);
    cv::putText(image, model.sites[i].name, sites[i] + cv::Point2d(4, -4), cv::FONT_HERSHEY_PLAIN, 0.8,
                cv::Scalar(0, 0, 255), 1, cv::LINE_AA);
  }
}

// What `calibrate` prints, saves (--save) and draws (--debug) for the calibration `c` of `image`; `note` (the lens
// estimated with --corners) is printed under the first line.
int print_calibration(const Args& args, const calib::Calibration& c, const calib::BoardModel& model,
                      const cv::Mat& image, const std::vector<calib::MarkerSighting>& sightings,
                      const std::string& note = "") {
  if (auto save = args.value("--save")) calib::save_calibration(c, model, *save);
  if (auto debug = args.value("--debug")) {
    cv::Mat shown = image.clone();
    draw_debug(shown, c, model, sightings);
    if (!cv::imwrite(*debug, shown)) throw InputError("--debug: cannot write '" + *debug + "'");
  }
  if (args.has("--json")) {
    // Exactly the contract's object, in its order; the saved file (--save) has the rest.
    json full = c.to_json(&model);
    nlohmann::ordered_json j;
    j["sites"] = full["sites"];
    j["reprojection_error_px"] = full["reprojection_error_px"];
    j["markers"] = full["markers"];
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::printf("%s: located by %s (%d markers), reprojection error %.3f px\n", c.game.c_str(), c.fit.method.c_str(),
              c.markers(), c.fit.reprojection_error_px);
  if (!note.empty()) std::printf("%s\n", note.c_str());
  std::vector<cv::Point2d> sites = c.site_points(model);
  for (size_t i = 0; i < sites.size(); ++i)
    std::printf("%s %.2f %.2f\n", model.sites[i].name.c_str(), sites[i].x, sites[i].y);
  return 0;
}

}  // namespace

int cmd_print_board(const Words& words) {
  Args args("print-board", words, {{"--out"}, {"--paper"}, {"--dpi"}, {"--truth"}}, 1, 1);
  auto out = args.value("--out");
  if (!out) throw InputError("--out FILE.png|.pdf|.svg is required");
  calib::BoardModel model = calib::load_board_model(args.positional()[0]);
  calib::PrintOptions options = print_options(args);
  auto truth = args.value("--truth");
  if (truth && !ends_with_png(*out)) throw InputError("--truth: site positions are written for a .png output only");
  calib::PrintedBoard printed = calib::print_board(model, *out, options);
  if (truth) write_truth(*truth, model.game, printed);
  std::cerr << "print-board: " << model.title << " on " << calib::paper_name(printed.layout.paper) << " -> " << *out
            << "\n";
  return 0;
}

int cmd_calibrate(const Words& words) {
  Args args("calibrate", words,
            {{"--corners"}, {"--lens"}, {"--json", false}, {"--save"}, {"--debug"}, {"--calibration"}}, 2, 2);
  const std::string& game = args.positional()[0];
  const std::string& image_path = args.positional()[1];
  calib::BoardModel model = calib::load_board_model(game);
  auto saved = args.value("--calibration");
  if (saved && (args.has("--corners") || args.has("--lens")))
    throw InputError("--calibration: the saved calibration gives the board and its lens; drop --corners and --lens");
  std::optional<calib::Lens> lens;
  if (auto path = args.value("--lens")) lens = calib::load_lens(*path);
  std::optional<std::array<cv::Point2d, 4>> corners;
  if (auto text = args.value("--corners")) corners = parse_corners(*text);
  cv::Mat image = read_image(image_path);
  if (lens) lens->check_image_size(image.size(), "image '" + image_path + "'");
  if (saved) return print_calibration(args, calib::load_calibration(*saved, game, image.size()), model, image, {});

  calib::BoardLocator locator(model, {}, lens);
  calib::Calibration c;
  c.game = game;
  c.image_size = image.size();
  c.lens = lens;
  std::vector<calib::MarkerSighting> sightings;
  std::string lens_note;
  if (corners && lens) {
    c.fit = locator.from_corners(*corners);
  } else if (corners) {
    // No lens calibration: its radial distortion is estimated from the board (saved with --save).
    const calib::CornerLens est = calib::fit_corners_with_lens(model, image, *corners);
    c.fit = est.fit;
    c.lens = est.lens;
    lens_note = corner_lens_note(est);
  } else {
    std::vector<int> foreign;
    cv::Mat gray = calib::gray_of(image);
    sightings = locator.detect(gray, &foreign);
    std::optional<calib::BoardFit> fit = locator.fit(sightings);
    if (fit) fit = locator.refine(gray, *fit, sightings).value_or(*fit);
    if (!fit) fit = locator.find_outline(gray);
    if (!fit) {
      std::string others = other_boards_seen(foreign, game);
      throw InputError("no " + game + " board found in '" + image_path + "': " + std::to_string(sightings.size()) +
                       " of its " + std::to_string(model.markers.markers.size()) +
                       " markers seen and no board outline" +
                       (others.empty() ? "" : "; markers of " + others + " are in view (is the game right?)") +
                       "; give the corners with --corners x,y,x,y,x,y,x,y");
    }
    c.fit = *fit;
  }
  return print_calibration(args, c, model, image, sightings, lens_note);
}

int cmd_calibrate_lens(const Words& words) {
  Args args("calibrate-lens", words, {{"--out"}, {"--json", false}, {"--sheet"}, {"--paper"}, {"--dpi"}, {"--truth"}},
            0, 1000);
  calib::LensTarget target;
  if (auto sheet = args.value("--sheet")) {
    if (!args.positional().empty()) throw InputError("--sheet: takes no images");
    auto truth = args.value("--truth");
    if (truth && !ends_with_png(*sheet))
      throw InputError("--truth: corner positions are written for a .png sheet only");
    calib::PrintedBoard printed = calib::print_lens_sheet(target, *sheet, print_options(args));
    if (truth) write_truth(*truth, "charuco", printed);
    std::cerr << "calibrate-lens: ChArUco sheet on " << calib::paper_name(printed.layout.paper) << " -> " << *sheet
              << "\n";
    return 0;
  }
  auto out = args.value("--out");
  if (!out) throw InputError("--out LENS.json is required (or --sheet FILE to print the sheet)");
  if (args.positional().empty()) throw InputError("give the images of the ChArUco sheet");
  std::vector<cv::Mat> images;
  for (const std::string& path : args.positional()) images.push_back(read_image(path));
  calib::LensCalibration result = calib::calibrate_lens(images, args.positional(), target);
  calib::save_lens(result.lens, *out);
  if (args.has("--json")) {
    json views = json::array();
    for (const auto& v : result.views) views.push_back({{"image", v.name}, {"corners", v.corners}, {"used", v.used}});
    json j = result.lens.to_json();
    j["images"] = views;
    std::cout << j.dump() << "\n";
    return 0;
  }
  for (const auto& v : result.views)
    std::printf("%s: %d corners%s\n", v.name.c_str(), v.corners, v.used ? "" : " (not used)");
  std::printf("rms %.3f px from %d views; focal %.1f px; saved %s\n", result.lens.rms_px, result.lens.views,
              result.lens.camera_matrix(0, 0), out->c_str());
  return 0;
}

}  // namespace sb::cli
