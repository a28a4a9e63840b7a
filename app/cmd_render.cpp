// `smartboard render`: one synthetic photo of a position, with its truth. `smartboard dataset`: many settled
// photos of random positions across the whole range of looks, each with its truth, for evaluating readers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <sstream>

#include "app/commands.h"
#include "app/physical_board.h"
#include "app/render_setup.h"
#include "app/rules_setup.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "vision/render/hand.h"
#include "vision/render/renderer.h"
#include "vision/render/truth.h"

namespace sb::cli {

namespace {

std::vector<OptionSpec> with(std::vector<OptionSpec> a, const std::vector<OptionSpec>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

vision::Look make_look(const vision::GameArt& art, const calib::BoardModel& model, cv::Size size, const Args& args,
                       vision::Rng& rng, const vision::LookRange& range = {}) {
  vision::Look look = vision::sample_look(art, model, size, range, rng);
  if (auto patch = look_patch_option(args)) look = vision::apply_look_patch(look, *patch, args.command() + " --look");
  return look;
}

void check_contents(const vision::GameArt& art, const vision::BoardContents& contents, const OffBoard& off) {
  for (const auto& [site, layers] : contents)
    for (const auto& t : layers) check_token_fits(art, t, "site " + site);
  for (int p = 0; p < 2; ++p) {
    for (const auto& t : off.captured[p]) check_token_fits(art, t, "captured piece");
    for (const auto& t : off.reserve[p]) check_token_fits(art, t, "piece in hand");
  }
}

// A hand reaching in over a random site, for stills of a board that is not settled.
vision::HandPose reaching_hand(const calib::BoardModel& model, const vision::Look& look, vision::Rng& rng) {
  vision::HandPose h;
  h.player = rng.below(2);
  h.shoulder = vision::shoulder_of(h.player, model, look.hands, rng.uniform(-60, 60));
  const calib::Site& s = model.sites[rng.below(static_cast<int>(model.sites.size()))];
  h.grip = {s.centre.x + rng.normal(0, 5), s.centre.y + rng.normal(0, 5), -rng.uniform(12, 60)};
  h.pinch = rng.uniform(0, 1);
  return h;
}

}  // namespace

int cmd_render(const Words& words) {
  Args args("render", words,
            with(with(rules_option_specs(), render_option_specs()),
                 {{"--fen"}, {"--play"}, {"--out"}, {"--truth"}, {"--board"}, {"--hand", false}}),
            1, 1);
  const std::string game = args.positional()[0];
  calib::BoardModel model = board_model_for(game);
  auto out = args.value("--out");
  if (!out) throw InputError("render: --out FILE.png is required");
  check_image_path(*out);
  if (auto truth = args.value("--truth")) check_output_path(*truth);

  vision::GameArt art = vision::load_game_art(game);
  vision::BoardContents contents;
  OffBoard off;
  std::optional<std::string> fen;
  if (auto board = args.value("--board")) {
    if (args.has("--fen") || args.has("--play"))
      throw InputError("render: --board cannot be combined with --fen or --play");
    std::unique_ptr<Rules> rules;
    try {
      rules = load_rules(game, args);
    } catch (const InputError&) {
      rules = nullptr;  // no engine for this game yet: the board is checked against the piece set only
    }
    contents = parse_board_json(*board, model, rules.get());
  } else {
    std::unique_ptr<Rules> rules = load_rules(game, args);
    State state = load_state(*rules, args);
    contents = board_contents(*rules, state);
    off = off_board(*rules, state);
    fen = rules->fen(state);
  }
  check_contents(art, contents, off);

  const uint64_t seed = seed_option(args);
  const cv::Size size = size_option(args);
  vision::Rng rng(seed);
  vision::Look look = make_look(art, model, size, args, rng);
  vision::Renderer renderer(model, look, size, seed);
  vision::Rng place = rng.fork(100);
  vision::Scene scene = still_scene(model, look, contents, off, place);
  if (args.has("--hand")) scene.hands.push_back(reaching_hand(model, look, place));
  cv::Mat img = renderer.render(scene, seed);
  write_image(*out, img);
  if (auto truth = args.value("--truth")) {
    nlohmann::json t = vision::still_truth(renderer, scene, seed);
    if (fen) t["fen"] = *fen;
    t["image"] = std::filesystem::path(*out).filename().string();
    write_json_file(*truth, t);
  }
  return 0;
}

int cmd_dataset(const Words& words) {
  Args args(
      "dataset", words,
      with(with(rules_option_specs(), render_option_specs()), {{"--out"}, {"--images"}, {"--format"}, {"--max-plies"}}),
      1, 1);
  const std::string game = args.positional()[0];
  calib::BoardModel model = board_model_for(game);
  auto dir = args.value("--out");
  if (!dir) throw InputError("dataset: --out DIR is required");
  const int images = args.int_value("--images", 100, 1, 1000000);
  const int max_plies = args.int_value("--max-plies", 80, 0, 1000);
  const std::string format = args.value_or("--format", "png");
  if (format != "png" && format != "jpg")
    throw InputError("dataset --format: expected png or jpg, got '" + format + "'");
  std::unique_ptr<Rules> rules = load_rules(game, args);
  vision::GameArt art = vision::load_game_art(game);
  const uint64_t seed = seed_option(args);
  const cv::Size size = size_option(args);
  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  if (!std::filesystem::is_directory(*dir)) throw InputError("dataset: cannot create directory '" + *dir + "'");
  std::ofstream index(std::filesystem::path(*dir) / "index.jsonl");
  if (!index) throw InputError("dataset: cannot write '" + *dir + "/index.jsonl'");

  for (int i = 0; i < images; ++i) {
    vision::Rng rng(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(i) + 1);
    // A fifth of the pictures show the start (what a reader learns the set from); the rest a random game.
    State state = rules->start();
    if (!rng.chance(0.2)) {
      int plies = rng.between(1, std::max(1, max_plies));
      for (int k = 0; k < plies; ++k) {
        std::vector<Move> moves = rules->legal_moves(state);
        if (moves.empty()) break;
        state = rules->apply(state, moves[rng.below(static_cast<int>(moves.size()))]);
      }
    }
    vision::BoardContents contents = board_contents(*rules, state);
    OffBoard off = off_board(*rules, state);
    check_contents(art, contents, off);
    uint64_t image_seed = rng.next() >> 11;
    vision::Rng look_rng(image_seed);
    vision::Look look = make_look(art, model, size, args, look_rng);
    vision::Renderer renderer(model, look, size, image_seed);
    vision::Rng place = look_rng.fork(100);
    vision::Scene scene = still_scene(model, look, contents, off, place);
    cv::Mat img = renderer.render(scene, image_seed);
    char name[32];
    std::snprintf(name, sizeof name, "%06d", i);
    std::string image_name = std::string(name) + "." + format, truth_name = std::string(name) + ".json";
    write_image((std::filesystem::path(*dir) / image_name).string(), img);
    nlohmann::json t = vision::still_truth(renderer, scene, image_seed);
    t["fen"] = rules->fen(state);
    t["image"] = image_name;
    write_json_file((std::filesystem::path(*dir) / truth_name).string(), t, false);
    index << nlohmann::json{{"image", image_name},
                            {"truth", truth_name},
                            {"fen", rules->fen(state)},
                            {"board", t["board"]}}
                 .dump()
          << "\n";
    progress("dataset", i + 1, images);
  }
  return 0;
}

}  // namespace sb::cli

namespace sb::cli {

namespace {
// CPU time of this thread in milliseconds: the machine is shared, and wall time would count other people's work.
double thread_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
}  // namespace

// `smartboard bench render`: the time to draw one frame of a game in progress (pieces, a hand, shadows,
// sensor) after the backdrop is drawn, and the time to draw the backdrop for a new camera pose, on one core.
int bench_render(const Args& args) {
  const std::vector<std::string> games_in = args.list_value("--games", {});
  const std::optional<std::string> report = args.value("--report");
  const int frames = args.int_value("--frames", 20, 1, 10000);
  cv::setNumThreads(0);  // one core: OpenCV's own threads would hide the per-frame cost
  std::vector<std::string> games = games_in.empty() ? game_ids() : games_in;
  struct Row {
    std::string game;
    double backdrop_ms, frame_ms;
    vision::RenderTiming stages;
  };
  std::vector<Row> rows;
  std::vector<double> all_frames;
  cv::Mat last_frame;
  uint64_t signature = 0;
  std::printf("%-14s %12s %12s %8s %8s %8s %8s %8s\n", "game", "backdrop ms", "frame ms", "copy", "shadows", "pieces",
              "hands", "sensor");
  for (const std::string& game : games) {
    calib::BoardModel model = board_model_for(game);
    vision::GameArt art = vision::load_game_art(game);
    std::vector<double> backdrop, frame;
    std::vector<vision::RenderTiming> stages;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      vision::Rng rng(seed);
      vision::Look look = vision::sample_look(art, model, {1280, 720}, {}, rng);
      look.sensor.jpeg_quality = 0;  // a video's frames are compressed when written, not in the renderer
      double t0 = thread_ms();
      vision::Renderer renderer(model, look, cv::Size(1280, 720), seed);
      backdrop.push_back(thread_ms() - t0);
      // Every site but a few occupied, a hand carrying a piece over the board.
      vision::BoardContents board;
      for (size_t i = 0; i < model.sites.size(); ++i) {
        if (i % 3 == 2) continue;
        const auto& side = look.pieces.sides[i % 2];
        std::string t(1, side.side);
        if (look.pieces.face == vision::FaceKind::Dots) t += static_cast<char>('0' + i % 10);
        if (look.pieces.face == vision::FaceKind::Symbols) t += "CHIETAGSFNM"[i % 11];
        board[model.sites[i].name] = {t};
      }
      vision::Scene scene;
      scene.pieces = vision::place_pieces(model, look.pieces, board, rng);
      vision::HandPose hand;
      hand.shoulder = vision::shoulder_of(0, model, look.hands);
      for (int f = 0; f < frames; ++f) {
        const auto& site = model.sites[static_cast<size_t>(f * 7) % model.sites.size()];
        hand.grip = {site.centre.x, site.centre.y, -30.0 - f % 10};
        hand.motion = f % 2 ? cv::Vec3d(6, 3, 0) : cv::Vec3d(0, 0, 0);  // half the frames catch it moving
        hand.held = scene.pieces.front();
        hand.held->site.clear();
        hand.held->xy = {site.centre.x, site.centre.y};
        hand.held->base_mm = 25;
        scene.hands = {hand};
        double t1 = thread_ms();
        last_frame = renderer.render(scene, static_cast<uint64_t>(f));
        frame.push_back(thread_ms() - t1);
        // The drawing is deterministic: the frames' channel sums change only when what is drawn does.
        cv::Scalar sum = cv::sum(last_frame);
        signature = signature * 1000003 + static_cast<uint64_t>(sum[0] + 7 * sum[1] + 13 * sum[2]);
        stages.push_back(renderer.last_timing());
      }
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    all_frames.insert(all_frames.end(), frame.begin(), frame.end());
    auto stage = [&](double vision::RenderTiming::*f) {
      std::vector<double> v;
      for (const auto& s : stages) v.push_back(s.*f);
      return median(v);
    };
    vision::RenderTiming st{stage(&vision::RenderTiming::copy), stage(&vision::RenderTiming::shadows),
                            stage(&vision::RenderTiming::pieces), stage(&vision::RenderTiming::hands),
                            stage(&vision::RenderTiming::sensor)};
    rows.push_back({game, median(backdrop), median(frame), st});
    std::printf("%-14s %12.1f %12.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n", game.c_str(), rows.back().backdrop_ms,
                rows.back().frame_ms, st.copy, st.shadows, st.pieces, st.hands, st.sensor);
    std::fflush(stdout);
  }
  std::sort(all_frames.begin(), all_frames.end());
  double med = all_frames[all_frames.size() / 2];
  std::printf("render frame 1280x720 median %.2f ms (%zu frames, one core)\n", med, all_frames.size());
  // Stills (`render`, `dataset`) may ask the renderer itself for JPEG artefacts; what that adds to a frame:
  double jpeg_ms = 0;
  {
    std::vector<double> extra;
    const cv::Mat& img = last_frame;
    for (int i = 0; i < 9; ++i) {
      double t0 = thread_ms();
      std::vector<uchar> buf;
      cv::imencode(".jpg", img, buf, {cv::IMWRITE_JPEG_QUALITY, 75});
      cv::Mat back = cv::imdecode(buf, cv::IMREAD_COLOR);
      extra.push_back(thread_ms() - t0);
    }
    std::sort(extra.begin(), extra.end());
    jpeg_ms = extra[extra.size() / 2];
  }
  std::printf("JPEG artefacts (stills only) add %.2f ms per frame\n", jpeg_ms);
  std::printf("signature %llu\n", static_cast<unsigned long long>(signature % 1000000007ull));
  if (report) {
    std::ofstream out(*report);
    if (!out) throw InputError("bench: cannot write report '" + *report + "'");
    out << "<!doctype html><meta charset=utf-8><title>smartboard bench render</title>"
           "<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}td:first-child{text-align:left}"
           ".bar{background:#4a7;height:12px;display:inline-block}</style><h1>bench render</h1>"
           "<p>1280×720 frames with pieces on two thirds of the sites and a hand carrying a piece (moving, so "
           "motion-blurred, in half of them); one core. Target: "
           "20 ms per frame. Times are the thread's CPU time.</p><table><tr><th>game<th>backdrop ms<th>frame "
           "ms<th>copy<th>shadows<th>pieces<th>hands<th>sensor<th></tr>";
    for (const Row& r : rows) {
      char buf[480];
      std::snprintf(buf, sizeof buf,
                    "<tr><td>%s<td>%.1f<td>%.2f<td>%.2f<td>%.2f<td>%.2f<td>%.2f<td>%.2f<td style=text-align:left><span "
                    "class=bar style=width:%dpx></span></tr>",
                    r.game.c_str(), r.backdrop_ms, r.frame_ms, r.stages.copy, r.stages.shadows, r.stages.pieces,
                    r.stages.hands, r.stages.sensor, static_cast<int>(r.frame_ms * 10));
      out << buf;
    }
    out << "</table><p>median frame " << med << " ms; JPEG artefacts (stills only) add " << jpeg_ms
        << " ms per frame</p><p>signature " << signature % 1000000007ull << "</p>\n";
  }
  return 0;
}

}  // namespace sb::cli
