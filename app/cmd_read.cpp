// `smartboard read GAME IMAGE [--calibration FILE.json] [--corners x,y,x,y,x,y,x,y] [--json]` (CONTRACT.md,
// Vision): finds the board in one image, reads every site and prints one observation line with "conf".
// More options: --lens FILE, --set FILE (a learnt piece set), --debug FILE.png (the pipeline's overlay). With
// --json the line also carries "located_by", "times" (ms per stage) and "levels" (stack heights read).
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/render_setup.h"
#include "app/vision_setup.h"
#include "engines/common/errors.h"
#include "vision/observation.h"

namespace sb::cli {

int cmd_read(const Words& words) {
  std::vector<OptionSpec> specs = vision_option_specs();
  specs.push_back({"--json", false});
  Args args("read", words, specs, 2, 2);
  const std::string game = args.positional()[0];
  VisionSetup setup(game, args);
  if (auto debug = args.value("--debug")) check_image_path(*debug);
  cv::Mat image = read_image_file(args.positional()[1]);
  setup.start(image);
  vision::Pipeline& pipeline = setup.pipeline();

  vision::BoardObservation obs = read_still_image(pipeline, image);
  if (auto debug = args.value("--debug")) write_image(*debug, pipeline.debug_image());
  if (!obs.located)
    throw InputError("no board of '" + game + "' found in '" + args.positional()[1] +
                     "' (no markers, no outline); give its corners with --corners x,y,x,y,x,y,x,y");
  if (!obs.read) throw std::runtime_error("the picture never settled");
  nlohmann::json line = vision::observation_json(pipeline.model(), obs);
  line["t"] = 0;
  if (args.has("--json")) {
    line["located_by"] = pipeline.calibration() ? pipeline.calibration()->fit.method : "";
    line["times"] = {{"locate_ms", obs.times.locate_ms},
                     {"rectify_ms", obs.times.rectify_ms},
                     {"gate_ms", obs.times.gate_ms},
                     {"read_ms", obs.times.read_ms}};
    nlohmann::json levels = nlohmann::json::object();
    for (size_t i = 0; i < obs.sites.size(); ++i)
      if (obs.sites[i].level > 1) levels[pipeline.model().sites[i].name] = obs.sites[i].level;
    line["levels"] = levels;
  }
  std::cout << line.dump() << '\n';
  return 0;
}

}  // namespace sb::cli
