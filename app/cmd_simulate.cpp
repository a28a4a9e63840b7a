// `smartboard simulate`: a whole game of legal moves played by hands in front of a synthetic camera, written
// as numbered frames (or an MP4) with a truth line per frame: the observation, whether it is stable, and the
// moves and faults with their times. Faults on request: an illegal move the player then corrects, a takeback,
// a knocked camera, a lamp switched on.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/videoio.hpp>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/move_plan.h"
#include "app/physical_board.h"
#include "app/render_setup.h"
#include "app/rules_setup.h"
#include "engines/common/errors.h"
#include "vision/render/renderer.h"
#include "vision/render/simulation.h"
#include "vision/render/truth.h"

namespace sb::cli {

namespace {

std::vector<OptionSpec> with(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Moves of a record: whitespace-separated, with move numbers ("12." "12...") , results and {comments} skipped.
std::vector<std::string> record_moves(const std::string& text) {
  std::string clean;
  int depth = 0;
  for (char c : text) {
    if (c == '{')
      ++depth;
    else if (c == '}')
      depth = std::max(0, depth - 1);
    else if (!depth)
      clean += c;
  }
  std::vector<std::string> out;
  std::istringstream in(clean);
  std::string w;
  while (in >> w) {
    if (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*" || w == "2-0" || w == "0-2" || w == "1-1") continue;
    auto dot = w.find_last_of('.');
    if (dot != std::string::npos && std::all_of(w.begin(), w.begin() + static_cast<long>(dot), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
        })) {
      w = w.substr(dot + 1);
      if (w.empty()) continue;
    }
    out.push_back(w);
  }
  return out;
}

std::set<std::string> parse_faults(const Args& args) {
  std::set<std::string> faults;
  for (const std::string& v : args.values("--faults")) {
    std::stringstream ss(v);
    std::string f;
    while (std::getline(ss, f, ',')) {
      if (f.empty()) continue;
      if (f != "illegal" && f != "takeback" && f != "nudge" && f != "light")
        throw InputError("simulate --faults: unknown fault '" + f + "' (illegal, takeback, nudge, light)");
      faults.insert(f);
    }
  }
  return faults;
}

// The camera knocked by a hand: turned by a degree or two about a random axis and shifted a few millimetres.
vision::Camera nudged(const vision::Camera& cam, vision::Rng& rng) {
  cv::Vec3d axis(rng.normal(), rng.normal(), rng.normal() * 0.5);
  axis = cv::normalize(axis) * (rng.uniform(0.6, 2.0) * 3.14159265358979 / 180);
  cv::Matx33d turn;
  cv::Rodrigues(axis, turn);
  vision::Camera out = cam;
  cv::Vec3d centre = cam.position() + cv::Vec3d(rng.normal(0, 4), rng.normal(0, 4), rng.normal(0, 2));
  out.R = turn * cam.R;
  out.t = -(out.R * centre);
  return out;
}

// A lamp switched on: brighter, a new direction and colour, perhaps a reflection on the board.
vision::LightLook lamp_on(vision::LightLook l, vision::Rng& rng) {
  l.exposure = std::min(2.5, l.exposure * rng.uniform(1.2, 1.45));
  l.directional = std::min(1.5, l.directional + rng.uniform(0.2, 0.5));
  l.azimuth_deg = rng.uniform(0, 360);
  l.elevation_deg = rng.uniform(35, 80);
  l.kelvin = rng.chance(0.5) ? rng.uniform(2700, 3500) : rng.uniform(5000, 6500);
  l.glare_spots = std::min(6, l.glare_spots + 1);
  l.gradient = std::min(0.8, l.gradient + rng.uniform(0, 0.2));
  return l;
}

struct Output {
  bool video = false;
  std::filesystem::path dir, video_path, truth_path, game_path;
  std::string ext = "jpg";
  cv::VideoWriter writer;
};

}  // namespace

int cmd_simulate(const Words& words) {
  Args args("simulate", words,
            with(with(rules_option_specs(), render_option_specs()), {{"--out"},
                                                                     {"--moves"},
                                                                     {"--fps"},
                                                                     {"--fen"},
                                                                     {"--play"},
                                                                     {"--record"},
                                                                     {"--faults", true, true},
                                                                     {"--format"},
                                                                     {"--pace"},
                                                                     {"--truth"}}),
            1, 1);
  const std::string game = args.positional()[0];
  calib::BoardModel model = board_model_for(game);
  auto out_arg = args.value("--out");
  if (!out_arg) throw InputError("simulate: --out DIR or --out FILE.mp4 is required");
  const int max_plies = args.int_value("--moves", 0, 0, 2000);
  const double fps = args.double_value("--fps", 30, 1, 240);
  const double pace = args.double_value("--pace", 1, 0.1, 20);
  const std::set<std::string> faults = parse_faults(args);
  const uint64_t seed = seed_option(args);
  const cv::Size size = size_option(args);
  if (args.has("--play") && args.has("--record")) throw InputError("simulate: give --play or --record, not both");

  Output out;
  std::string ext = std::filesystem::path(*out_arg).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out.video = ext == ".mp4" || ext == ".avi";
  out.ext = args.value_or("--format", "jpg");
  if (out.ext != "jpg" && out.ext != "png")
    throw InputError("simulate --format: expected jpg or png, got '" + out.ext + "'");
  if (out.video) {
    out.video_path = *out_arg;
    check_output_path(*out_arg);
    std::filesystem::path stem = out.video_path;
    stem.replace_extension();
    out.truth_path = args.value_or("--truth", stem.string() + ".truth.jsonl");
    out.game_path = stem.string() + ".game.json";
  } else {
    out.dir = *out_arg;
    std::error_code ec;
    std::filesystem::create_directories(out.dir, ec);
    if (!std::filesystem::is_directory(out.dir))
      throw InputError("simulate: cannot create directory '" + *out_arg + "'");
    out.truth_path = args.value_or("--truth", (out.dir / "truth.jsonl").string());
    out.game_path = out.dir / "game.json";
  }
  check_output_path(out.truth_path.string());

  // The game: the engine's moves, from a record or chosen at random.
  std::unique_ptr<Rules> rules = load_rules(game, args);
  State start = rules->start();
  if (auto fen = args.value("--fen")) start = rules->from_fen(*fen);
  std::vector<std::string> scripted;
  if (auto play = args.value("--play")) scripted = record_moves(*play);
  if (auto rec = args.value("--record")) scripted = record_moves(read_text_file(*rec));

  vision::GameArt art = vision::load_game_art(game);
  vision::Rng rng(seed);
  vision::LookRange range;
  range.any_azimuth = false;  // a camera set up for a game stands behind a player or to the side of the table
  range.jpeg = false;         // frames are compressed when they are written
  range.sensor_blur = false;  // motion blur comes from the scene, not a blurred lens
  vision::Look look = vision::sample_look(art, model, size, range, rng);
  if (rng.chance(0.5)) look.camera.azimuth_deg += rng.chance(0.5) ? 90 : -90;  // or at the side
  look.camera.px_per_pitch = std::min(look.camera.px_per_pitch, vision::max_px_per_pitch(model, look.camera, size));
  if (auto patch = look_patch_option(args)) look = vision::apply_look_patch(look, *patch, "simulate --look");
  vision::Renderer renderer(model, look, size, seed);

  vision::PhysicalBoard phys;
  phys.board = board_contents(*rules, start);
  OffBoard off = off_board(*rules, start);
  phys.pile = off.captured;
  phys.reserve = off.reserve;
  MovePlanner planner(*rules, phys);
  vision::SimulationOptions sim_options;
  sim_options.fps = fps;
  sim_options.pace = pace;
  vision::Simulation sim(model, look, renderer.camera(), phys, sim_options, seed ^ 0xABCDu);

  // Plan the whole game, fault turns included.
  vision::Rng plan_rng = rng.fork(77);
  int plies_wanted = max_plies > 0 ? max_plies : (scripted.empty() ? 300 : static_cast<int>(scripted.size()));
  if (!scripted.empty()) plies_wanted = std::min(plies_wanted, static_cast<int>(scripted.size()));
  std::map<std::string, int> fault_ply;
  for (const std::string& f : faults) fault_ply[f] = plan_rng.between(1, std::max(1, std::min(plies_wanted, 40) - 1));
  nlohmann::json moves_json = nlohmann::json::array(), faults_json = nlohmann::json::array();
  State s = start;
  int ply = 0;
  auto think = [&] { return plan_rng.uniform(0.8, 3.0); };
  vision::Camera camera = renderer.camera();
  vision::LightLook light = look.light;
  std::set<std::string> done_faults;
  while (ply < plies_wanted && !rules->outcome(s).over()) {
    const int player = rules->side_to_move(s) == Side::First ? 0 : 1;
    for (const std::string& f : {std::string("nudge"), std::string("light")}) {
      if (!faults.count(f) || done_faults.count(f) || fault_ply[f] > ply) continue;
      vision::Turn t;
      t.player = player;
      t.think_s = plan_rng.uniform(0.5, 1.5);
      if (f == "nudge") {
        camera = nudged(camera, plan_rng);
        t.actions = {vision::Action::nudge(camera)};
        t.event = {{"type", "camera_moved"}};
      } else {
        light = lamp_on(light, plan_rng);
        t.actions = {vision::Action::light_change(light)};
        t.event = {{"type", "light_on"}};
      }
      sim.add(t);
      faults_json.push_back(t.event);
      done_faults.insert(f);
    }
    if (faults.count("illegal") && !done_faults.count("illegal") && fault_ply["illegal"] <= ply) {
      if (auto shift = illegal_shift(*rules, s, model, plan_rng)) {
        vision::Turn wrong{player,
                           planner.shift(player, shift->first, shift->second),
                           think(),
                           {{"type", "illegal"}, {"from", shift->first}, {"to", shift->second}}};
        // The player notices (or is told) after a few seconds and puts the piece back.
        vision::Turn back{player,
                          planner.shift(player, shift->second, shift->first),
                          plan_rng.uniform(2.5, 4.0),
                          {{"type", "restored"}, {"from", shift->second}, {"to", shift->first}}};
        sim.add(wrong);
        sim.add(back);
        faults_json.push_back(wrong.event);
        done_faults.insert("illegal");
      }
    }
    std::vector<Move> legal = rules->legal_moves(s);
    Move m;
    if (!scripted.empty()) {
      try {
        m = rules->parse_move(s, scripted[static_cast<size_t>(ply)]);
      } catch (const InputError& e) {
        throw InputError("simulate: move " + std::to_string(ply + 1) + " of the record: " + e.what());
      }
    } else {
      m = legal[static_cast<size_t>(plan_rng.below(static_cast<int>(legal.size())))];
    }
    State next = rules->apply(s, m);
    std::string side = rules->side_name(rules->side_to_move(s));
    nlohmann::json captured = nlohmann::json::array();
    for (int c : m.captured) captured.push_back(rules->site_name(c));
    nlohmann::json ev = {
        {"type", "move"}, {"ply", ply + 1}, {"side", side}, {"notation", m.notation}, {"captured", captured}};
    sim.add({player, planner.move(s, m, next), think(), ev});
    moves_json.push_back(ev);
    // Never the move that ended the game (morris3's first mill): the referee has announced the result by then,
    // and a game over is not played on.
    if (faults.count("takeback") && !done_faults.count("takeback") && fault_ply["takeback"] <= ply &&
        scripted.empty() && !rules->outcome(next).over()) {
      // The same player takes the move back and plays another.
      vision::Turn undo{
          player, planner.restore(player, s, m), plan_rng.uniform(1.0, 2.0), {{"type", "takeback"}, {"ply", ply + 1}}};
      sim.add(undo);
      faults_json.push_back(undo.event);
      done_faults.insert("takeback");
      if (legal.size() > 1) {
        Move other = m;
        while (other.notation == m.notation)
          other = legal[static_cast<size_t>(plan_rng.below(static_cast<int>(legal.size())))];
        m = other;
        next = rules->apply(s, m);
        captured = nlohmann::json::array();
        for (int c : m.captured) captured.push_back(rules->site_name(c));
        ev = {{"type", "move"}, {"ply", ply + 1}, {"side", side}, {"notation", m.notation}, {"captured", captured}};
      }
      sim.add({player, planner.move(s, m, next), think(), ev});
      moves_json.push_back(ev);
    }
    s = next;
    ++ply;
  }
  for (const std::string& f : faults)
    if (!done_faults.count(f))
      std::fprintf(stderr, "simulate: fault '%s' found no place in this game (too short?)\n", f.c_str());

  // Render and write, frame by frame.
  std::ofstream truth(out.truth_path);
  if (!truth) throw InputError("simulate: cannot write '" + out.truth_path.string() + "'");
  if (out.video) {
    out.writer.open(out.video_path.string(), cv::VideoWriter::fourcc('m', 'p', '4', 'v'), fps, size);
    if (!out.writer.isOpened())
      throw InputError("simulate: cannot write video '" + out.video_path.string() +
                       "' (no MP4 encoder in this OpenCV build); give --out DIR for numbered frames");
  }
  vision::SimFrame frame;
  int frames = 0;
  nlohmann::json last_board;
  const double est_frames = 0;  // unknown in advance; progress shows the game time instead
  (void)est_frames;
  while (sim.next(frame)) {
    nlohmann::json line;
    line["t"] = frame.t_ms;
    if (frame.camera) renderer.set_camera(*frame.camera);
    if (frame.light) renderer.set_light(*frame.light);
    cv::Mat img = renderer.render(frame.scene, seed * 1000003u + static_cast<uint64_t>(frame.index), frame.extras);
    vision::HandCover cover = renderer.hand_cover(frame.scene);
    line["board"] = vision::board_json(frame.scene.pieces);
    line["stable"] = !cover.over_board && frame.extras.shake_px < 0.5;
    char name[40];
    std::snprintf(name, sizeof name, "frame_%06d.%s", frame.index, out.ext.c_str());
    if (out.video) {
      out.writer.write(img);
    } else {
      write_image((out.dir / name).string(), img, 90);
      line["frame"] = name;
    }
    line["hidden"] = cover.sites;
    line["holding"] = frame.holding;
    if (frame.camera) {
      nlohmann::json g = vision::geometry_json(renderer);
      line["sites"] = g["sites"];
      line["corners"] = g["corners"];
    }
    if (frame.light && frame.index > 0) line["light"] = nlohmann::json(renderer.look().to_json()["light"]);
    if (!frame.events.empty()) line["events"] = frame.events;
    truth << line.dump() << "\n";
    last_board = line["board"];
    ++frames;
    if (frames % 30 == 0)
      progress("simulate: game seconds", static_cast<int>(sim.time_s()), static_cast<int>(sim.time_s()));
  }
  if (out.video) out.writer.release();

  // The last settled board must be the engine's final position: a check that the hands did what the moves say.
  nlohmann::json expected = nlohmann::json::object();
  for (const auto& [site, layers] : board_contents(*rules, s)) expected[site] = layers.back();
  if (last_board != expected)
    throw std::logic_error("simulate: the final board differs from the engine's final position");

  nlohmann::json summary = {{"game", game},
                            {"seed", seed},
                            {"fps", fps},
                            {"moves_asked", max_plies},
                            {"faults_asked", faults},
                            {"frames", frames},
                            {"image_size", {size.width, size.height}},
                            {"start_fen", rules->fen(start)},
                            {"final_fen", rules->fen(s)},
                            {"result", rules->outcome(s).result()},
                            {"moves", moves_json},
                            {"faults", faults_json},
                            {"truth", out.truth_path.filename().string()},
                            {"look", look.to_json()}};
  write_json_file(out.game_path.string(), summary);
  std::fprintf(stderr, "simulate: %d frames, %d plies, %.1f s of play\n", frames, ply, sim.time_s());
  return 0;
}

}  // namespace sb::cli
