// A warm lamp switched on after a Morris set was learnt: ivory men on cream card lose their rims, the best circle
// near each is its own shadow's, and the face cut there is far darker than any white man. A face cut round the
// site's centre is off the learnt colours too (the lamp's colour), but far nearer them than the shadow's: it is
// the man's face.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/corner_lens.h"
#include "still_board.h"
#include "vision/game_vision.h"

namespace sb::vision {
namespace {

namespace fs = std::filesystem;

const fs::path kFrames = fs::path(SMARTBOARD_SOURCE_DIR) / "tests/data/morris3-warm-lamp";

struct Shown {
  cv::Mat image;  // the whole camera picture
  std::array<cv::Point2d, 4> corners;
  std::map<std::string, std::string> board;
};

// The frames kept of the game (the board's part of each picture; the rest of the picture is that part's edge
// drawn outwards).
std::vector<Shown> frames_of_the_game() {
  std::ifstream in(kFrames / "truth.json");
  const nlohmann::json truth = nlohmann::json::parse(in);
  const cv::Size size(truth["image_size"][0].get<int>(), truth["image_size"][1].get<int>());
  const int x0 = truth["crop_origin"][0].get<int>(), y0 = truth["crop_origin"][1].get<int>();
  std::vector<Shown> out;
  for (const auto& f : truth["frames"]) {
    const cv::Mat part = cv::imread((kFrames / f["file"].get<std::string>()).string(), cv::IMREAD_COLOR);
    if (part.empty()) return {};
    Shown s;
    cv::copyMakeBorder(part, s.image, y0, size.height - y0 - part.rows, x0, size.width - x0 - part.cols,
                       cv::BORDER_REPLICATE);
    for (size_t k = 0; k < 4; ++k) s.corners[k] = {f["corners"][k][0].get<double>(), f["corners"][k][1].get<double>()};
    s.board = f["board"].get<std::map<std::string, std::string>>();
    out.push_back(std::move(s));
  }
  return out;
}

// The sites of the last frame read wrong with `reader`, the set learnt as the referee learns it (the empty board,
// then each side's first placement), the board given by its corners (as eval-vision does from the truth) and
// given again after the knock.
std::vector<std::string> wrong_after_the_lamp_and_the_knock(const ReaderParams& reader) {
  const std::vector<Shown> frames = frames_of_the_game();
  if (frames.size() != 4) return {"(frames not read from " + kFrames.string() + ")"};
  PipelineParams params;
  params.reader = reader;
  Pipeline p = make_pipeline("morris3", params);
  const calib::BoardModel& model = p.model();
  auto fit = [&](const Shown& s) {
    const calib::CornerLens est = calib::fit_corners_with_lens(model, s.image, s.corners);
    p.use_fit(est.fit, s.image.size(), est.lens);
  };
  fit(frames[0]);
  int64_t t = 0;
  for (size_t k = 0; k + 1 < frames.size(); ++k) {
    if (!testing::read_still(p, frames[k].image, t).read) return {"(frame " + std::to_string(k) + " not read)"};
    t += 10000;
    if (!p.learn(testing::tokens_of(model, frames[k].board), nullptr))
      return {"(set not learnt at frame " + std::to_string(k) + ")"};
  }
  fit(frames.back());
  const BoardObservation obs = testing::read_still(p, frames.back().image, t);
  if (!obs.read) return {"(last frame not read)"};
  return testing::misreads(model, obs, frames.back().board);
}

// morris3 seed 8822003 game 1: after the lamp (2,718 K, half as much light again) and the knock, the ivory men on
// a3 and b2 were read black with confidence 1.0 and the referee recorded nothing from ply 5 on. With the centre's
// face held to the disc's bound the frame shows that fault again.
TEST(StrayDisc, IvoryMenUnderAWarmLampThatHidesTheirRimsAreReadWhite) {
  ReaderParams tight;
  tight.stray_centre_fit_sd = tight.stray_disc_fit_sd;
  const std::vector<std::string> before = wrong_after_the_lamp_and_the_knock(tight);
  EXPECT_FALSE(before.empty()) << "this frame no longer shows the fault: the test proves nothing";
  const std::vector<std::string> after = wrong_after_the_lamp_and_the_knock(ReaderParams{});
  EXPECT_TRUE(after.empty()) << testing::listed(after);
}

}  // namespace
}  // namespace sb::vision
