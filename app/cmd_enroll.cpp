// `smartboard enroll GAME IMAGE [--corners x,y,… | --calibration FILE.json] --out SET.json [--layout start|kinds]
// [--fen FEN]`: learns a piece set from one picture of a known layout and saves it, for games that do not begin
// from the standard start (a given FEN, Cờ tư lệnh's free setup): `read --set` and `referee --set` then read
// with it. The layouts (vision/enrollment.h): the standard start (default), each kind of each side shown once
// (`kinds`), or the position of --fen. The learnt set must read the layout right but for a few sites (they are
// listed); otherwise it is not saved and the command exits 2 saying which sites disagree.
#include <iostream>

#include "app/commands.h"
#include "app/render_setup.h"
#include "app/vision_setup.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "vision/enrollment.h"
#include "vision/game_vision.h"
#include "vision/piece_set.h"

namespace sb::cli {

namespace {

// Per site of the board model, the token the position shows there (the top piece of a stack).
std::vector<std::string> tokens_of(const Rules& rules, const State& state, const calib::BoardModel& model) {
  std::vector<std::string> tokens(model.sites.size());
  const Observation seen = rules.observe(state);
  for (int k = 0; k < rules.site_count(); ++k) {
    const int i = model.site_index(rules.site_name(k));
    if (i < 0) throw std::logic_error("board model of " + rules.id() + " has no site " + rules.site_name(k));
    tokens[static_cast<size_t>(i)] = seen.sites[static_cast<size_t>(k)].str();
  }
  return tokens;
}

}  // namespace

int cmd_enroll(const Words& words) {
  std::vector<OptionSpec> specs = vision_option_specs();
  specs.push_back({"--out"});
  specs.push_back({"--layout"});
  specs.push_back({"--fen"});
  Args args("enroll", words, specs, 2, 2);
  const std::string game = args.positional()[0];
  const auto out = args.value("--out");
  if (!out) throw InputError("enroll: --out SET.json is required");
  const std::string layout = args.value_or("--layout", args.has("--fen") ? "fen" : "start");
  if (args.has("--fen") && layout != "fen") throw InputError("enroll: --fen gives the layout; leave out --layout");
  if (layout != "start" && layout != "kinds" && layout != "fen")
    throw InputError("enroll: --layout must be start or kinds, not '" + layout + "'");
  check_output_path(*out);
  std::unique_ptr<Rules> rules = make_rules(game);
  VisionSetup setup(game, args);
  if (auto debug = args.value("--debug")) check_image_path(*debug);
  vision::Pipeline& pipeline = setup.pipeline();
  const calib::BoardModel& model = pipeline.model();
  std::vector<std::string> expected;
  if (layout == "kinds")
    expected = vision::kinds_layout(model, vision::vocabulary_for(game));
  else
    expected = tokens_of(*rules, layout == "fen" ? rules->from_fen(*args.value("--fen")) : rules->start(), model);

  cv::Mat image = read_image_file(args.positional()[1]);
  setup.start(image);
  const vision::BoardObservation obs = read_still_image(pipeline, image);
  if (auto debug = args.value("--debug")) write_image(*debug, pipeline.debug_image());
  if (!obs.located)
    throw InputError("no board of '" + game + "' found in '" + args.positional()[1] +
                     "' (no markers, no outline); give its corners with --corners x,y,x,y,x,y,x,y");
  if (!obs.read) throw std::runtime_error("the picture never settled");
  std::vector<std::string> problems;
  if (!pipeline.learn(expected, &problems)) {
    std::string list;
    for (size_t k = 0; k < problems.size() && k < 4; ++k) list += (k ? "; " : "") + problems[k];
    throw InputError("enroll: cannot learn the set from '" + args.positional()[1] + "' as the " + layout +
                     " layout: " + std::to_string(problems.size()) + " sites read wrong (" + list +
                     (problems.size() > 4 ? "; …" : "") + ")");
  }
  vision::save_piece_set(pipeline.piece_set(), *out);
  size_t pieces = 0;
  for (const std::string& t : expected) pieces += !t.empty();
  std::cout << "enroll: " << game << " set learnt from " << pieces << " pieces (" << layout << " layout), saved to "
            << *out;
  if (problems.empty())
    std::cout << "; it reads the layout right\n";
  else {
    std::cout << "; it still reads " << problems.size() << " sites of the layout wrong:";
    for (const std::string& p : problems) std::cout << ' ' << p << ';';
    std::cout << '\n';
  }
  return 0;
}

}  // namespace sb::cli
