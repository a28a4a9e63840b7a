// `smartboard eval-vision GAME --dataset DIR [--report FILE.html]`: the vision pipeline's accuracy against the
// renderer's truth (issue 8's targets).
//
// - --dataset DIR (from `smartboard dataset`): every settled still read, site by site against its truth: per-site
//   error, side error, dot count (Cờ toán) and symbol (Cờ tư lệnh) accuracy, a confusion table, and the error
//   rate per kind of look.
// - --videos DIR (repeatable, from `smartboard simulate --out DIR`): the motion gate frame by frame against the
//   truth's "stable" flags (settled never while a hand is over the board; the latency from the hand leaving to
//   the settled observation), and the settled reads against the truth board; --trace FILE.jsonl writes one
//   line per frame (truth stable, settled, read, sites wrong; each wrong site with the truth, the reading and the
//   reader's evidence: disc score, foreign share, occupancy logit) to see where and why; --gate-debug DIR writes
//   the gate's debug image (MotionGate::debug_image) of every frame held unsettled by a change across the board's edge
//   while the truth says nothing is over the board, and of every frame settled while the truth says a hand is
//   over it (`…_settled_under_hand.png`).
// - --simulations N: N games simulated with fault injections (in --work DIR), each evaluated as --videos and
//   then refereed through the whole pipeline (`smartboard referee GAME --source DIR --corners …`); the recorded
//   moves are compared with the simulation's, and every illegal-move announcement beyond the injected ones
//   counts as false. A game folder kept in --work from an earlier run is scored again only when it is the game
//   asked for (game, seed, fps, --moves, --faults); another is refused with the advice to give a fresh folder.
//
// How the board is found in the stills (--fit): "truth" (default) gives the reader the renderer's exact camera,
// as a lens calibration plus a board fit would, so the figures are the reader's own; "corners" gives the four
// playing-area corners only (--corners, no lens calibration: what a phone user types; the lens's radial distortion
// is estimated from the board as `read --corners` does); "locate" lets the pipeline find the board itself
// (markers, else the drawn outline). The set is learnt before each still from the start position
// drawn under that still's look, as the referee learns it when a game starts (every image of a dataset has a
// look of its own, often a set whose colours no default knows); --no-learn reads with the defaults only.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "app/commands.h"
#include "app/physical_board.h"
#include "app/render_setup.h"
#include "app/vision_eval_setup.h"
#include "calibration/board_locator.h"
#include "calibration/corner_lens.h"
#include "engines/common/errors.h"
#include "engines/registry.h"
#include "vision/eval/eval_report.h"
#include "vision/eval/gate_tally.h"
#include "vision/eval/read_tally.h"
#include "vision/first_placements.h"
#include "vision/pipeline.h"
#include "vision/render/camera.h"
#include "vision/render/renderer.h"

namespace sb::cli {

namespace {

namespace fs = std::filesystem;

bool stderr_tty() {
  static const bool tty = ::isatty(STDERR_FILENO);
  return tty;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw InputError("eval-vision: cannot read '" + path.string() + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError("eval-vision: " + path.string() + ": not JSON (" + e.what() + ")");
  }
}

std::array<cv::Point2d, 4> corners_of(const nlohmann::json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 4) throw InputError(where + ": \"corners\" must hold four points");
  std::array<cv::Point2d, 4> c;
  for (size_t i = 0; i < 4; ++i) {
    if (!j[i].is_array() || j[i].size() != 2 || !j[i][0].is_number() || !j[i][1].is_number())
      throw InputError(where + ": \"corners\" point " + std::to_string(i + 1) + " must be [x, y]");
    c[i] = {j[i][0].get<double>(), j[i][1].get<double>()};
  }
  return c;
}

std::string corners_option(const std::array<cv::Point2d, 4>& c) {
  std::string s;
  char buf[64];
  for (const auto& p : c) {
    std::snprintf(buf, sizeof buf, "%s%.2f,%.2f", s.empty() ? "" : ",", p.x, p.y);
    s += buf;
  }
  return s;
}

TrueFit true_fit_of(const nlohmann::json& camera_json, const std::string& where) {
  return true_fit(vision::Camera::from_json(camera_json, where + " camera"));
}

// A still has no motion: the same image is fed as frames 100 ms apart until the gate settles and the reader
// reads it (the reads of `smartboard read` are the same stages).
const vision::BoardObservation* read_still(vision::Pipeline& p, const cv::Mat& img, vision::BoardObservation& obs,
                                           int64_t& t_ms) {
  for (int k = 0; k < 20; ++k) {
    vision::Frame f;
    f.image = img;
    f.t_ms = t_ms;
    f.index = t_ms / 100;
    t_ms += 100;
    obs = p.process(f);
    if (obs.read) return &obs;
  }
  return nullptr;
}

// What the referee does when a game starts: the set is learnt from the start position. The dataset's images
// each have a look of their own, so the start is drawn again under the same look and camera (other piece
// placements, other sensor noise) and the pipeline learns from it before it reads the image. When the start
// shows no piece (Morris: every piece in hand), the referee names the colours by the first placements
// (vision/first_placements.h): the game is played on from the start by two random legal placements, each drawn
// under the same look, read, and learnt from as the referee would — the new piece the reading shows is the
// placing side's; the evaluated image's own truth is never used. `pipeline` is replaced by a fresh one for each
// picture (going from one picture to another at once is not a hand's move, and the gate would rightly wait);
// it ends with the learnt set. Returns an empty string, or why the set could not be learnt (the pipeline then
// reads with what it has).
std::string learn_from_start(std::unique_ptr<vision::Pipeline>& pipeline,
                             const std::function<std::unique_ptr<vision::Pipeline>()>& fresh, const GameVision& gv,
                             const Rules& rules, const nlohmann::json& truth, const std::string& where, cv::Size size) {
  const vision::Look look = vision::Look::from_json(truth.at("look"), where + " look");
  const vision::Camera camera = vision::Camera::from_json(truth.at("camera"), where + " camera");
  const uint64_t seed = truth.value("seed", uint64_t{1});
  vision::Renderer renderer(gv.model, look, camera, seed);
  vision::Rng place(seed ^ 0x5EED5EEDull);
  auto tokens_of = [&](const vision::BoardContents& contents) {
    std::vector<std::string> tokens(gv.model.sites.size());
    for (size_t i = 0; i < gv.model.sites.size(); ++i) {
      auto it = contents.find(gv.model.sites[i].name);
      if (it != contents.end() && !it->second.empty()) tokens[i] = it->second.back();
    }
    return tokens;
  };
  // Draws `state` and reads it with a fresh pipeline holding the set learnt so far.
  vision::BoardObservation obs;
  uint64_t picture = 0;
  auto read_state = [&](const State& state) -> bool {
    const vision::BoardContents contents = board_contents(rules, state);
    const vision::Scene scene = still_scene(gv.model, look, contents, off_board(rules, state), place);
    cv::Mat img = renderer.render(scene, seed ^ (0xC0FFEEull + picture++));
    if (img.size() != size) return false;
    vision::PieceSet set = pipeline->piece_set();
    pipeline = fresh();
    pipeline->set_piece_set(std::move(set));
    int64_t t_ms = 0;
    return read_still(*pipeline, img, obs, t_ms) != nullptr;
  };
  State state = rules.start();
  const std::vector<std::string> expected = tokens_of(board_contents(rules, state));
  if (!read_state(state)) return "the start position was not read";
  std::vector<std::string> problems;
  if (!pipeline->learn(expected, &problems))
    return "learning failed: " + (problems.empty() ? std::string("?") : problems.front()) +
           (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : "");
  vision::FirstPlacements placements(expected, gv.vocab.sides);
  while (placements.pending()) {
    const std::vector<Move> moves = rules.legal_moves(state);
    if (moves.empty()) return "no placement to learn the colours from";
    state = rules.apply(state, moves[static_cast<size_t>(place.below(static_cast<int>(moves.size())))]);
    if (!read_state(state)) return "a placement was not read";
    const std::optional<std::vector<std::string>> board = placements.board_to_learn(obs.sites);
    if (!board) return "the first placements' reading did not show one new piece";
    if (!pipeline->learn(*board, &problems))
      return "learning the colours from a placement failed: " +
             (problems.empty() ? std::string("?") : problems.front());
    placements.learnt(*board);
  }
  return "";
}

std::vector<vision::SiteComparison> compare(const calib::BoardModel& model, const nlohmann::json& truth_board,
                                            const std::vector<vision::SiteReading>& read,
                                            const nlohmann::json& hidden = nlohmann::json::array()) {
  std::vector<vision::SiteComparison> out;
  for (size_t i = 0; i < model.sites.size(); ++i) {
    const std::string& name = model.sites[i].name;
    if (hidden.is_array() && std::find(hidden.begin(), hidden.end(), name) != hidden.end()) continue;
    vision::SiteComparison c;
    c.site = name;
    if (truth_board.contains(name)) c.truth = truth_board[name].get<std::string>();
    if (i < read.size()) {
      c.read = read[i].token;
      c.conf = read[i].conf;
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ---- the look of a still, for the breakdowns ----

double num(const nlohmann::json& j, std::initializer_list<const char*> path, double fallback = 0) {
  const nlohmann::json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return fallback;
    p = &(*p)[k];
  }
  return p->is_number() ? p->get<double>() : fallback;
}
std::string str(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return "?";
    p = &(*p)[k];
  }
  if (p->is_string()) return p->get<std::string>();
  if (p->is_boolean()) return p->get<bool>() ? "yes" : "no";
  return p->dump();
}

std::string band(double v, std::initializer_list<double> edges, const char* unit) {
  double lo = 0;
  char buf[64];
  for (double e : edges) {
    if (v < e) {
      std::snprintf(buf, sizeof buf, "%g–%g%s", lo, e, unit);
      return buf;
    }
    lo = e;
  }
  std::snprintf(buf, sizeof buf, "≥ %g%s", lo, unit);
  return buf;
}

struct LookKey {
  std::string title;
  std::function<std::string(const nlohmann::json& look)> bucket;
};

std::vector<LookKey> look_keys(const vision::PieceVocabulary& vocab, const vision::GameArt& art) {
  std::vector<LookKey> keys = {
      {"camera tilt",
       [](const nlohmann::json& l) {
         return band(num(l, {"camera", "tilt_deg"}), {15, 30, 40}, "°");
       }},
      {"resolution (pixels per site pitch)",
       [](const nlohmann::json& l) {
         return band(num(l, {"camera", "px_per_pitch"}), {35, 50, 70}, " px");
       }},
      {"lens distortion |k1|",
       [](const nlohmann::json& l) {
         return band(std::abs(num(l, {"camera", "k1"})), {0.05, 0.15}, "");
       }},
      {"glare spots",
       [](const nlohmann::json& l) {
         return band(num(l, {"light", "glare_spots"}), {1, 3}, "");
       }},
      {"exposure",
       [](const nlohmann::json& l) {
         return band(num(l, {"light", "exposure"}), {0.7, 0.9, 1.1}, "");
       }},
      {"sensor blur",
       [](const nlohmann::json& l) {
         const double d = num(l, {"sensor", "defocus_px"}), m = num(l, {"sensor", "motion_px"});
         return d > 0 && m > 0 ? std::string("defocus + motion") : d > 0 ? "defocus" : m > 0 ? "motion" : "none";
       }},
      {"JPEG",
       [](const nlohmann::json& l) {
         const double q = num(l, {"sensor", "jpeg_quality"});
         return q <= 0 ? std::string("none") : band(q, {60, 80}, " quality");
       }},
      {"piece material",
       [](const nlohmann::json& l) {
         return str(l, {"pieces", "material"});
       }},
      {"board markers",
       [](const nlohmann::json& l) {
         return str(l, {"board", "markers"});
       }},
  };
  // Whether the set's colours are the config's (the defaults a reader knows) or another set's.
  nlohmann::json config_colours = art.to_json()["pieces"]["sides"];
  keys.push_back({"set colours", [config_colours](const nlohmann::json& l) {
                    return l.contains("pieces") && l["pieces"].contains("sides") &&
                                   l["pieces"]["sides"] == config_colours
                               ? std::string("the config's")
                               : std::string("another set's");
                  }});
  if (vocab.face == vision::PieceVocabulary::Face::Dots) {
    keys.push_back({"dot arrangement", [](const nlohmann::json& l) { return str(l, {"pieces", "dots"}); }});
    keys.push_back({"zero mark", [](const nlohmann::json& l) { return str(l, {"pieces", "zero"}); }});
  }
  if (vocab.face == vision::PieceVocabulary::Face::Symbols)
    keys.push_back({"symbol style", [](const nlohmann::json& l) { return str(l, {"pieces", "symbols"}); }});
  return keys;
}

std::string look_note(const nlohmann::json& l) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "tilt %.0f°, %.0f px/pitch, k1 %.2f, exposure %.2f, glare %d, blur %.1f/%.1f px, jpeg %d",
                num(l, {"camera", "tilt_deg"}), num(l, {"camera", "px_per_pitch"}), num(l, {"camera", "k1"}),
                num(l, {"light", "exposure"}), static_cast<int>(num(l, {"light", "glare_spots"})),
                num(l, {"sensor", "defocus_px"}), num(l, {"sensor", "motion_px"}),
                static_cast<int>(num(l, {"sensor", "jpeg_quality"})));
  std::string s = buf;
  s += ", " + str(l, {"pieces", "material"});
  if (l.contains("pieces") && l["pieces"].contains("dots")) s += ", dots " + str(l, {"pieces", "dots"});
  if (l.contains("pieces") && l["pieces"].contains("symbols")) s += ", symbols " + str(l, {"pieces", "symbols"});
  return s;
}

// ---- the dataset ----

// --fit corners: how far the fit puts the sites from the truth's, per image the worst site, plain homography and
// the fit through the lens estimated from the board, by the look's |k1| (the breakdown's bands; a straight camera,
// k1 = k2 = 0, apart).
struct CornerFitTally {
  struct Band {
    std::vector<double> plain_worst, fitted_worst;
    int lens_kept = 0;
  };
  std::map<std::string, Band> bands;
  std::vector<double> estimate_ms;
};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct DatasetResult {
  CornerFitTally corner_fit;
  vision::ReadTally tally;
  std::vector<vision::Breakdown> breakdowns;
  int unread = 0;      // images where the board was not found or the gate never settled
  int not_learnt = 0;  // images whose set could not be learnt from the start
  std::vector<std::string> notes;
};

// The reader's evidence at one site (for --trace).
nlohmann::json site_evidence(const vision::SiteDetail& d) {
  auto r3 = [](float v) { return std::round(v * 1000) / 1000; };
  return {{"disc", r3(d.disc.score)},
          {"r", r3(d.disc.radius)},
          {"foreign", r3(d.foreign)},
          {"body", r3(d.body)},
          {"texture", r3(d.texture)},
          {"illum", r3(d.illum)},
          {"logit", r3(d.occupancy_logit)},
          {"empty_likeness", r3(d.empty_likeness)},
          {"side", d.side},
          {"side_p", r3(d.side_p)},
          {"body_rel", {r3(d.body_rel[0]), r3(d.body_rel[1]), r3(d.body_rel[2])}},
          {"mark_rel", {r3(d.mark_rel[0]), r3(d.mark_rel[1]), r3(d.mark_rel[2])}}};
}

DatasetResult evaluate_dataset(const std::string& game, const fs::path& dir, const std::string& fit_mode, int limit,
                               bool learn, std::ostream* trace) {
  const fs::path index_path = dir / "index.jsonl";
  std::ifstream index(index_path);
  if (!index)
    throw InputError("eval-vision --dataset: no index.jsonl in '" + dir.string() +
                     "' (make one with smartboard dataset)");
  std::vector<nlohmann::json> entries;
  std::string line;
  int line_no = 0;
  while (std::getline(index, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      entries.push_back(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception&) {
      throw InputError("eval-vision --dataset: " + index_path.string() + " line " + std::to_string(line_no) +
                       ": not JSON");
    }
    if (!entries.back().contains("image") || !entries.back().contains("truth"))
      throw InputError("eval-vision --dataset: " + index_path.string() + " line " + std::to_string(line_no) +
                       ": needs \"image\" and \"truth\"");
    if (limit > 0 && static_cast<int>(entries.size()) >= limit) break;
  }
  if (entries.empty()) throw InputError("eval-vision --dataset: '" + index_path.string() + "' lists no images");

  const GameVision gv = game_vision(game);
  const std::unique_ptr<Rules> rules = make_rules(game);
  const std::vector<LookKey> keys = look_keys(gv.vocab, gv.art);
  std::vector<std::map<std::string, vision::ReadTally>> by_key(keys.size());
  DatasetResult out;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t n = 0; n < entries.size(); ++n) {
    const nlohmann::json& e = entries[n];
    const fs::path truth_path = dir / e["truth"].get<std::string>();
    const nlohmann::json truth = read_json(truth_path);
    if (truth.contains("game") && truth["game"] != game)
      throw InputError("eval-vision --dataset: " + truth_path.string() + " is a " + truth["game"].get<std::string>() +
                       " image, not " + game);
    const fs::path image_path = dir / e["image"].get<std::string>();
    cv::Mat img = cv::imread(image_path.string(), cv::IMREAD_COLOR);
    if (img.empty()) throw InputError("eval-vision --dataset: cannot read image '" + image_path.string() + "'");
    if (truth.contains("stable") && !truth["stable"].get<bool>()) continue;  // not a settled picture

    std::optional<calib::Lens> lens;
    std::optional<calib::BoardFit> fit;
    if (fit_mode == "truth") {
      TrueFit tf = true_fit_of(truth.at("camera"), truth_path.string());
      lens = tf.lens;
      fit = tf.fit;
    } else if (fit_mode == "corners") {
      // As `read --corners` does: the lens's distortion estimated from the board in this image.
      const std::array<cv::Point2d, 4> corners = corners_of(truth.at("corners"), truth_path.string());
      const calib::CornerLens est = calib::fit_corners_with_lens(gv.model, img, corners);
      lens = est.lens;
      fit = est.fit;
      if (truth.contains("sites")) {
        const calib::Calibration plain{game, img.size(), calib::BoardLocator(gv.model).from_corners(corners), {}};
        const calib::Calibration fitted{game, img.size(), est.fit, est.lens};
        const std::vector<cv::Point2d> p = plain.site_points(gv.model), q = fitted.site_points(gv.model);
        double plain_worst = 0, fitted_worst = 0;
        for (size_t i = 0; i < gv.model.sites.size(); ++i) {
          const nlohmann::json& t = truth["sites"].value(gv.model.sites[i].name, nlohmann::json());
          if (!t.is_array() || t.size() != 2) continue;
          const cv::Point2d at(t[0].get<double>(), t[1].get<double>());
          plain_worst = std::max(plain_worst, cv::norm(p[i] - at));
          fitted_worst = std::max(fitted_worst, cv::norm(q[i] - at));
        }
        const nlohmann::json look = truth.value("look", nlohmann::json::object());
        const double k1 = std::abs(num(look, {"camera", "k1"})), k2 = std::abs(num(look, {"camera", "k2"}));
        CornerFitTally::Band& b = out.corner_fit.bands[k1 == 0 && k2 == 0 ? "0 (none)" : band(k1, {0.05, 0.15}, "")];
        b.plain_worst.push_back(plain_worst);
        b.fitted_worst.push_back(fitted_worst);
        b.lens_kept += est.lens.has_value();
      }
      out.corner_fit.estimate_ms.push_back(est.ms);
    }
    std::unique_ptr<vision::Pipeline> made = eval_pipeline(gv, lens);
    if (fit) made->use_fit(*fit, img.size());
    vision::BoardObservation obs;
    const nlohmann::json look = truth.value("look", nlohmann::json::object());
    int64_t t_ms = 0;
    std::string not_learnt_why;
    if (learn) {
      auto fresh = [&] {
        std::unique_ptr<vision::Pipeline> p = eval_pipeline(gv, lens);
        if (fit) p->use_fit(*fit, img.size());
        return p;
      };
      const std::string why = learn_from_start(made, fresh, gv, *rules, truth, truth_path.string(), img.size());
      not_learnt_why = why;
      if (!why.empty()) {
        ++out.not_learnt;
        if (out.notes.size() < 20)
          out.notes.push_back(e["image"].get<std::string>() + ": " + why + "; read with what was learnt");
      }
      // The image is read by a fresh pipeline with that set (see learn_from_start).
      vision::PieceSet set = made->piece_set();
      made = fresh();
      made->set_piece_set(std::move(set));
    }
    vision::Pipeline& pipeline = *made;
    std::vector<vision::SiteReading> sites;
    if (read_still(pipeline, img, obs, t_ms)) {
      sites = obs.sites;
    } else {
      ++out.unread;
      if (out.notes.size() < 20)
        out.notes.push_back(e["image"].get<std::string>() + ": not read (" +
                            (obs.located ? "the gate never settled" : "board not found") +
                            "); every site counts as empty");
    }
    std::vector<vision::SiteComparison> cmp = compare(gv.model, truth.at("board"), sites);
    out.tally.add_image(e["image"].get<std::string>(), cmp, look_note(look));
    if (trace) {
      // Per image: the sites read wrong with the reader's evidence, and the margins the right ones left (the
      // lowest occupancy log-odds of a piece, the highest of an empty site, and where).
      const std::vector<vision::SiteDetail>& det = pipeline.last_read().details;
      nlohmann::json tr = {{"image", e["image"]}, {"look", look_note(look)}};
      nlohmann::json wrong = nlohmann::json::array();
      size_t lowest = det.size(), highest = det.size();
      for (size_t i = 0; i < cmp.size() && i < det.size(); ++i) {
        const bool piece = !cmp[i].truth.empty();
        if (cmp[i].truth != cmp[i].read)
          wrong.push_back({{"site", cmp[i].site},
                           {"truth", cmp[i].truth},
                           {"read", cmp[i].read},
                           {"detail", site_evidence(det[i])}});
        else if (piece && (lowest == det.size() || det[i].occupancy_logit < det[lowest].occupancy_logit))
          lowest = i;
        else if (!piece && (highest == det.size() || det[i].occupancy_logit > det[highest].occupancy_logit))
          highest = i;
      }
      // The empty site least like the kept empty board and the piece most like it (SiteDetail::empty_likeness).
      size_t unlike = det.size(), like = det.size();
      for (size_t i = 0; i < cmp.size() && i < det.size(); ++i) {
        if (det[i].empty_likeness == 0) continue;
        if (cmp[i].truth.empty() && (unlike == det.size() || det[i].empty_likeness < det[unlike].empty_likeness))
          unlike = i;
        if (!cmp[i].truth.empty() && (like == det.size() || det[i].empty_likeness > det[like].empty_likeness)) like = i;
      }
      nlohmann::json all = nlohmann::json::array();  // per site: piece?, read occupied?, log-odds, likeness
      for (size_t i = 0; i < cmp.size() && i < det.size(); ++i)
        all.push_back({!cmp[i].truth.empty(), det[i].occupied, std::round(det[i].occupancy_logit * 100) / 100,
                       std::round(det[i].empty_likeness * 1000) / 1000});
      tr["sites"] = all;
      if (unlike < det.size()) tr["empty_least_like"] = {cmp[unlike].site, site_evidence(det[unlike])};
      if (like < det.size()) tr["piece_most_like"] = {cmp[like].site, site_evidence(det[like])};
      if (lowest < det.size()) tr["lowest_piece"] = {cmp[lowest].site, site_evidence(det[lowest])};
      if (highest < det.size()) tr["highest_empty"] = {cmp[highest].site, site_evidence(det[highest])};
      tr["wrong"] = wrong;
      const vision::PieceSet& set = pipeline.piece_set();
      tr["set"] = {{"radius_mm", set.radius_mm},
                   {"occupancy", {set.occupancy[0], set.occupancy[1], set.occupancy[2]}},
                   {"sides", nlohmann::json::array()}};
      for (const vision::SideModel& m : set.sides)
        tr["set"]["sides"].push_back({{"side", std::string(1, m.side)},
                                      {"body", {m.body[0], m.body[1], m.body[2]}},
                                      {"mark", {m.mark[0], m.mark[1], m.mark[2]}},
                                      {"body_sd", {m.body_sd[0], m.body_sd[1], m.body_sd[2]}},
                                      {"exemplars", m.exemplars}});
      if (!not_learnt_why.empty()) tr["not_learnt"] = not_learnt_why;
      *trace << tr.dump() << "\n";
    }
    for (size_t k = 0; k < keys.size(); ++k)
      by_key[k][keys[k].bucket(look)].add_image(e["image"].get<std::string>(), cmp);

    if (stderr_tty()) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const auto f = out.tally.figures();
      std::fprintf(stderr, "\reval-vision: %zu/%zu images, %lld sites wrong, %.1f s", n + 1, entries.size(),
                   static_cast<long long>(f.site_errors), s);
      std::fflush(stderr);
    }
  }
  if (stderr_tty()) std::fprintf(stderr, "\n");
  for (size_t k = 0; k < keys.size(); ++k) {
    vision::Breakdown b{keys[k].title, {}};
    for (const auto& [bucket, tally] : by_key[k]) b.buckets.emplace_back(bucket, tally.figures());
    out.breakdowns.push_back(std::move(b));
  }
  return out;
}

// ---- simulated videos ----

// Game i's seed. The renderer's random stream (vision/render/rng.h) starts seed + 1 one draw after seed on the
// same sequence, so games seeded S, S + 1, … were planned alike (morris3 8713011 and 8713012: the same nine moves,
// looks a draw apart). The first game keeps S, so a one-game run is the game `simulate --seed S` makes; the others
// are spread by a hash of their number (below 2^53, so that JSON readers keep them exact).
uint64_t simulation_seed(uint64_t seed, int i) {
  if (i == 0) return seed;
  uint64_t z = seed ^ (static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) >> 11;
}

struct VideoResult {
  vision::GateTally gate{1000};
  vision::ReadTally reads;
  // The reads made with a set learnt before them: the referee plays on these, while the reads before (the start
  // read with the defaults, a set that looks nothing like the renderer's) only serve to learn from.
  vision::ReadTally reads_learnt;
  int learnt = 0;  // videos whose set was learnt from the start
};

// One simulation folder: every frame through the pipeline (located from the first frame's corners, tracked by
// markers when the board has them), the gate against "stable", and every settled read against the board.
void evaluate_video(const std::string& game, const fs::path& dir, VideoResult& result, std::ostream* trace,
                    const std::optional<fs::path>& gate_debug) {
  const nlohmann::json summary = read_json(dir / "game.json");
  if (summary.value("game", game) != game)
    throw InputError("eval-vision --videos: '" + dir.string() + "' is a simulation of " + summary.value("game", "?"));
  const fs::path truth_path = dir / summary.value("truth", "truth.jsonl");
  std::ifstream truth(truth_path);
  if (!truth) throw InputError("eval-vision --videos: cannot read '" + truth_path.string() + "'");
  const GameVision gv = game_vision(game);
  std::unique_ptr<vision::Pipeline> made = eval_pipeline(gv);
  vision::Pipeline& pipeline = *made;
  // As the referee does: the set is learnt from the start position at the first settled reads.
  const std::unique_ptr<Rules> rules = make_rules(game);
  const State start =
      summary.contains("start_fen") ? rules->from_fen(summary["start_fen"].get<std::string>()) : rules->start();
  const vision::BoardContents start_contents = board_contents(*rules, start);
  std::vector<std::string> start_tokens(gv.model.sites.size());
  for (size_t i = 0; i < gv.model.sites.size(); ++i) {
    auto it = start_contents.find(gv.model.sites[i].name);
    if (it != start_contents.end() && !it->second.empty()) start_tokens[i] = it->second.back();
  }
  bool learnt = false;
  int unconfirmed_tries = 0;  // as the referee counts them (app/vision_input.cpp)
  // When the start shows no piece of a side (Morris), the referee then names the colours by the first placements
  // (VisionInput::try_learn_placement); the readings scored here are named as the referee's are.
  std::optional<vision::FirstPlacements> placements;
  result.gate.begin_video();
  std::string line;
  int n = 0;
  bool fitted = false;
  nlohmann::json truth_sites;  // the sites where the renderer drew them, as of the latest camera
  while (std::getline(truth, line)) {
    if (line.empty()) continue;
    ++n;
    const std::string where = truth_path.string() + " line " + std::to_string(n);
    nlohmann::json t;
    try {
      t = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw InputError("eval-vision --videos: " + where + ": not JSON");
    }
    if (!t.contains("frame"))
      throw InputError("eval-vision --videos: " + where + ": no \"frame\" (simulate --out DIR writes frames)");
    cv::Mat img = cv::imread((dir / t["frame"].get<std::string>()).string(), cv::IMREAD_COLOR);
    if (img.empty())
      throw InputError("eval-vision --videos: cannot read frame '" + (dir / t["frame"].get<std::string>()).string() +
                       "'");
    if (!fitted) {
      const calib::CornerLens est = calib::fit_corners_with_lens(gv.model, img, corners_of(t.at("corners"), where));
      pipeline.use_fit(est.fit, img.size(), est.lens);
      fitted = true;
    }
    if (t.contains("sites")) truth_sites = t["sites"];  // written when the camera moves
    vision::Frame f;
    f.image = img;
    f.t_ms = t.at("t").get<int64_t>();
    f.index = n - 1;
    const vision::BoardObservation obs = pipeline.process(f);
    const bool stable = t.value("stable", true);
    const bool read_with_learnt_set = learnt;
    if (obs.read && !learnt) {
      // The referee's rule (app/vision_input.cpp): learn from the first settled reading that the set in use reads
      // as the start (vision::looks_like_start), or that the learnt set confirms is (Pipeline::learn_start).
      if (vision::looks_like_start(start_tokens, obs.sites) ||
          ++unconfirmed_tries <= vision::Pipeline::kUnconfirmedStartTries) {
        std::vector<std::string> problems;
        learnt = pipeline.learn_start(start_tokens, obs.sites, &problems);
        if (learnt) {
          ++result.learnt;
          placements.emplace(start_tokens, gv.vocab.sides);
        }
      }
    } else if (obs.read && placements && placements->pending()) {
      if (placements->gone_past(obs.sites)) {
        placements->give_up();
      } else if (const std::optional<std::vector<std::string>> board = placements->board_to_learn(obs.sites)) {
        std::vector<std::string> problems;
        if (pipeline.learn(*board, &problems)) placements->learnt(*board);
      }
    }
    result.gate.add_frame(f.t_ms, stable, obs.settled);
    int wrong = -1;
    std::pair<std::string, float> piece_likeness;
    nlohmann::json wrong_list = nlohmann::json::array();
    if (obs.read && stable) {
      const auto cmp = compare(gv.model, t.at("board"), obs.sites, t.value("hidden", nlohmann::json::array()));
      wrong = static_cast<int>(std::count_if(cmp.begin(), cmp.end(), [](const auto& c) { return c.truth != c.read; }));
      for (const auto& c : cmp)
        if (c.truth != c.read) {
          nlohmann::json w = {{"site", c.site}, {"truth", c.truth}, {"read", c.read}, {"conf", c.conf}};
          const auto& det = pipeline.last_read().details;
          for (size_t i = 0; i < gv.model.sites.size() && i < det.size(); ++i)
            if (gv.model.sites[i].name == c.site)
              w["detail"] = {{"disc", det[i].disc.score},
                             {"r", det[i].disc.radius},
                             {"foreign", det[i].foreign},
                             {"body", det[i].body},
                             {"illum", det[i].illum},
                             {"logit", det[i].occupancy_logit},
                             {"empty_likeness", det[i].empty_likeness}};
          wrong_list.push_back(w);
        }
      const std::string image = dir.filename().string() + "/" + t["frame"].get<std::string>();
      result.reads.add_image(image, cmp);
      if (read_with_learnt_set) result.reads_learnt.add_image(image, cmp);
      // The pieces' likeness to the empty board (SiteDetail::empty_likeness): how near a real piece comes to
      // being taken for the empty board's drawing.
      const auto& det = pipeline.last_read().details;
      float most = -1;
      std::string most_site;
      for (size_t i = 0; i < gv.model.sites.size() && i < det.size(); ++i)
        if (t.at("board").contains(gv.model.sites[i].name) && det[i].empty_likeness > most)
          most = det[i].empty_likeness, most_site = gv.model.sites[i].name;
      if (!most_site.empty()) piece_likeness = {most_site, most};
    }
    if (gate_debug && ((obs.edge_blocked && stable) || (obs.settled && !stable))) {
      // The frames the gate holds unsettled for a change across the board's edge while nothing is over it, and
      // those it calls settled while a hand is over the board.
      char name[96];
      std::snprintf(name, sizeof name, "%s_%08lld%s.png", dir.filename().c_str(), static_cast<long long>(f.t_ms),
                    stable ? "" : "_settled_under_hand");
      write_image((*gate_debug / name).string(), pipeline.gate_debug_image());
    }
    if (trace) {
      nlohmann::json tr = {{"video", dir.filename().string()},
                           {"t", f.t_ms},
                           {"stable", stable},
                           {"settled", obs.settled},
                           {"located", obs.located},
                           {"state", obs.board_state},
                           {"read", obs.read},
                           {"ms", obs.times.total_ms}};
      if (obs.edge_blocked) tr["edge_blocked"] = true;
      // How far the fit in use puts the sites from where the renderer drew them (a knocked camera's new fit may be
      // off where the markers that made it are few).
      if (!truth_sites.is_null() && pipeline.calibration()) {
        const std::vector<cv::Point2d> fitted = pipeline.calibration()->site_points(gv.model);
        double worst = 0;
        std::string worst_site;
        for (size_t i = 0; i < gv.model.sites.size(); ++i) {
          const auto it = truth_sites.find(gv.model.sites[i].name);
          if (it == truth_sites.end()) continue;
          const double e = cv::norm(fitted[i] - cv::Point2d((*it)[0].get<double>(), (*it)[1].get<double>()));
          if (e > worst) worst = e, worst_site = gv.model.sites[i].name;
        }
        tr["fit_error_px"] = std::round(worst * 100) / 100;
        tr["fit_error_site"] = worst_site;
      }
      float disturbed = 0;
      for (const auto& site : obs.sites) disturbed = std::max(disturbed, site.disturbed);
      tr["max_site_motion"] = disturbed;  // the gate's motion share of the most disturbed site
      if (wrong >= 0) tr["wrong_sites"] = wrong;
      if (!piece_likeness.first.empty())
        tr["piece_likeness_max"] = {piece_likeness.first, std::round(piece_likeness.second * 1000) / 1000};
      if (!wrong_list.empty()) tr["wrong"] = wrong_list;  // site, truth, read, confidence, the reader's evidence
      if (t.contains("events")) tr["events"] = t["events"];
      *trace << tr.dump() << "\n";
    }
    if (stderr_tty() && n % 30 == 0) {
      std::fprintf(stderr, "\reval-vision: %s frame %d", dir.filename().c_str(), n);
      std::fflush(stderr);
    }
  }
  result.gate.end_video();
  if (stderr_tty()) std::fprintf(stderr, "\n");
}

// ---- the whole pipeline: referee --source ----

vision::GameCheck referee_check(const std::string& game, const fs::path& dir) {
  const nlohmann::json summary = read_json(dir / "game.json");
  vision::GameCheck c;
  c.name = dir.filename().string();
  std::vector<std::string> truth_moves;
  for (const auto& m : summary.at("moves")) {
    const size_t ply = m.at("ply").get<size_t>();
    truth_moves.resize(ply - 1);
    truth_moves.push_back(m.at("notation").get<std::string>());
  }
  for (const auto& f : summary.value("faults", nlohmann::json::array())) {
    const std::string type = f.value("type", "");
    if (type == "illegal") ++c.illegal_injected;
    if (type != "restored") c.faults += (c.faults.empty() ? "" : ",") + type;
  }
  c.true_plies = static_cast<int>(truth_moves.size());

  // The first frame's corners, as an operator would give them; and when the injected illegal positions stood on
  // the board: from the illegal move's start to the end of the move that restored it (an announcement in such a
  // window is the referee doing its job; any other is false).
  std::ifstream truth(dir / summary.value("truth", "truth.jsonl"));
  std::string first;
  std::getline(truth, first);
  const nlohmann::json t0 = nlohmann::json::parse(first);
  std::vector<std::pair<int64_t, int64_t>> illegal_windows;
  auto scan = [&](const std::string& l) {
    if (l.find("\"events\"") == std::string::npos) return;
    const nlohmann::json t = nlohmann::json::parse(l);
    for (const auto& e : t["events"]) {
      const std::string type = e.value("type", "");
      if (type == "illegal")
        illegal_windows.emplace_back(e.value("t_start", int64_t{0}), std::numeric_limits<int64_t>::max());
      if (type == "restored" && !illegal_windows.empty())
        illegal_windows.back().second = e.value("t_end", int64_t{0}) + 1000;
    }
  };
  scan(first);
  for (std::string l; std::getline(truth, l);) scan(l);
  const fs::path events_path = dir / "referee_events.jsonl";
  Words words = {game,
                 "--source",
                 dir.string(),
                 "--corners",
                 corners_option(corners_of(t0.at("corners"), "truth")),
                 "--fps",
                 std::to_string(summary.value("fps", 30.0)),
                 "--events",
                 events_path.string()};
  try {
    cmd_referee(words);
  } catch (const std::exception& e) {
    c.note = std::string("referee failed: ") + e.what();
    c.first_wrong_ply = 1;
    return c;
  }
  std::ifstream events(events_path);
  std::vector<std::string> recorded;
  std::string line;
  while (std::getline(events, line)) {
    if (line.empty()) continue;
    const nlohmann::json e = nlohmann::json::parse(line);
    const std::string type = e.value("type", "");
    if (type == "move") {
      const size_t ply = e.value("ply", 0);
      if (ply >= 1) recorded.resize(ply - 1);
      recorded.push_back(e.value("notation", ""));
    } else if (type == "takeback") {
      recorded.resize(std::min(recorded.size(), static_cast<size_t>(std::max(0, e.value("ply", 0)))));
    } else if (type == "illegal") {
      ++c.illegal_announced;
      const int64_t at = e.value("t", int64_t{0});
      const bool during = std::any_of(illegal_windows.begin(), illegal_windows.end(),
                                      [&](const auto& w) { return at >= w.first && at <= w.second; });
      if (!during) {
        ++c.false_illegal;
        if (c.note.empty()) c.note = "illegal announced at " + std::to_string(at) + " ms: " + e.value("reason", "");
      }
    } else if (type == "unclear") {
      ++c.unclear;
    }
  }
  c.recorded_plies = static_cast<int>(recorded.size());
  for (size_t i = 0; i < std::max(recorded.size(), truth_moves.size()); ++i) {
    const std::string a = i < truth_moves.size() ? truth_moves[i] : "(none)";
    const std::string b = i < recorded.size() ? recorded[i] : "(none)";
    if (a != b) {
      c.first_wrong_ply = static_cast<int>(i + 1);
      c.note =
          (c.note.empty() ? "" : c.note + "; ") + "ply " + std::to_string(i + 1) + ": played " + a + ", recorded " + b;
      break;
    }
  }
  return c;
}

std::string pct(double v, int decimals = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f %%", decimals, 100 * v);
  return buf;
}

void print_targets(const std::vector<vision::TargetLine>& lines) {
  for (const auto& t : lines)
    std::printf("%-44s %14s   %-10s %s\n", t.name.c_str(), t.value.c_str(), t.target.c_str(),
                t.target.empty() ? ""
                : t.met          ? "met"
                                 : "MISSED");
}

}  // namespace

int cmd_eval_vision(const Words& words) {
  Args args("eval-vision", words,
            {{"--dataset"},
             {"--report"},
             {"--limit"},
             {"--fit"},
             {"--videos", true, true},
             {"--simulations"},
             {"--work"},
             {"--seed"},
             {"--moves"},
             {"--fps"},
             {"--faults"},
             {"--no-referee", false},
             {"--no-learn", false},
             {"--trace"},
             {"--gate-debug"}},
            1, 1);
  const std::string game = args.positional()[0];
  calib::BoardModel model = board_model_for(game);  // an unknown game fails here, before any work
  const std::string fit_mode = args.value_or("--fit", "truth");
  if (fit_mode != "truth" && fit_mode != "corners" && fit_mode != "locate")
    throw InputError("eval-vision --fit: expected truth, corners or locate, got '" + fit_mode + "'");
  const int limit = args.int_value("--limit", 0, 0, 10000000);
  const int simulations = args.int_value("--simulations", 0, 0, 1000);
  const std::vector<std::string> videos_in = args.values("--videos");
  if (!args.has("--dataset") && videos_in.empty() && simulations == 0)
    throw InputError("eval-vision: give --dataset DIR, --videos DIR or --simulations N");
  if (auto report = args.value("--report")) check_output_path(*report);
  if (auto d = args.value("--dataset"); d && !fs::is_directory(*d))
    throw InputError("eval-vision --dataset: no directory '" + *d + "'");
  for (const std::string& v : videos_in)
    if (!fs::is_regular_file(fs::path(v) / "game.json"))
      throw InputError("eval-vision --videos: '" + v + "' is not a simulation folder (no game.json)");
  cv::setNumThreads(1);

  vision::EvalReport report;
  report.game = game;
  report.command = "smartboard eval-vision";
  for (const std::string& w : words) report.command += " " + w;
  const GameVision gv = game_vision(game);
  const bool dots = gv.vocab.face == vision::PieceVocabulary::Face::Dots;
  const bool symbols = gv.vocab.face == vision::PieceVocabulary::Face::Symbols;

  if (auto dir = args.value("--dataset")) {
    const bool learn = !args.has("--no-learn");
    std::ofstream trace_file;
    if (auto path = args.value("--trace")) {
      trace_file.open(*path);
      if (!trace_file) throw InputError("eval-vision --trace: cannot write '" + *path + "'");
    }
    DatasetResult r =
        evaluate_dataset(game, *dir, fit_mode, limit, learn, trace_file.is_open() ? &trace_file : nullptr);
    const vision::ReadFigures f = r.tally.figures();
    report.data = "dataset " + *dir + " (" + std::to_string(f.images) + " settled images, board given by --fit " +
                  fit_mode +
                  (learn ? ", set learnt from the start drawn under each image's look"
                         : ", the reader's defaults, no set learnt") +
                  ")";
    auto& T = report.targets;
    T.push_back({"settled images", std::to_string(f.images), "≥ 2000", f.images >= 2000});
    T.push_back({"per-site error", pct(f.site_error_rate()), "≤ 0.1 %", f.site_error_rate() <= 0.001});
    T.push_back({"  pieces missed / seen on empty sites", std::to_string(f.missed) + " / " + std::to_string(f.phantom),
                 "", true});
    T.push_back({"side error (sites with a piece read)", pct(f.side_error_rate()), "", true});
    if (dots)
      T.push_back({"dot count accuracy", pct(f.identity_accuracy()), "≥ 99.8 %", f.identity_accuracy() >= 0.998});
    if (symbols)
      T.push_back({"symbol accuracy", pct(f.identity_accuracy()), "≥ 99.5 %", f.identity_accuracy() >= 0.995});
    T.push_back({"images read entirely right", std::to_string(f.images_all_right) + " / " + std::to_string(f.images),
                 "", true});
    T.push_back({"errors the reader doubted (conf < 0.8)",
                 std::to_string(f.errors_doubted) + " / " + std::to_string(f.site_errors), "", true});
    if (r.unread) T.push_back({"images not read (no fit / never settled)", std::to_string(r.unread), "", true});
    if (learn) T.push_back({"images whose set could not be learnt", std::to_string(r.not_learnt), "", true});
    std::printf("eval-vision %s: %s\n", game.c_str(), report.data.c_str());
    print_targets(T);
    std::printf("confusion (rows truth, columns read, . empty):\n%s", vision::confusion_text(r.tally).c_str());
    auto top = r.tally.top_errors(10);
    if (!top.empty()) {
      std::printf("most frequent errors:");
      for (const auto& [pair, n] : top)
        std::printf(" %s→%s ×%lld", pair.first.empty() ? "." : pair.first.c_str(),
                    pair.second.empty() ? "." : pair.second.c_str(), static_cast<long long>(n));
      std::printf("\n");
    }
    if (!r.corner_fit.bands.empty()) {
      std::printf(
          "sites placed by --fit corners (each image's worst site, px from the truth: median / largest over "
          "images):\n");
      for (const auto& [name, b] : r.corner_fit.bands)
        std::printf(
            "  |k1| %-9s plain homography %5.2f / %5.2f px, through the estimated lens %5.2f / %5.2f px; lens kept %d "
            "of %zu\n",
            name.c_str(), median_of(b.plain_worst), *std::max_element(b.plain_worst.begin(), b.plain_worst.end()),
            median_of(b.fitted_worst), *std::max_element(b.fitted_worst.begin(), b.fitted_worst.end()), b.lens_kept,
            b.plain_worst.size());
      std::printf("  lens estimate: median %.0f ms per image\n", median_of(r.corner_fit.estimate_ms));
    }
    report.reads = std::move(r.tally);
    report.breakdowns = std::move(r.breakdowns);
    report.notes = std::move(r.notes);
  }

  std::vector<fs::path> video_dirs(videos_in.begin(), videos_in.end());
  if (simulations > 0) {
    const uint64_t seed = seed_option(args, 1);
    const int moves = args.int_value("--moves", 10, 1, 300);
    const double fps = args.double_value("--fps", 30, 5, 60);
    const std::string faults = args.value_or("--faults", "illegal,takeback,nudge,light");
    const fs::path work = args.value_or(
        "--work", (fs::temp_directory_path() / ("smartboard-eval-" + game + "-" + std::to_string(seed))).string());
    std::error_code ec;
    fs::create_directories(work, ec);
    if (!fs::is_directory(work)) throw InputError("eval-vision --work: cannot create '" + work.string() + "'");
    std::set<std::string> faults_wanted;
    {
      std::stringstream ss(faults);
      for (std::string f; std::getline(ss, f, ',');)
        if (!f.empty() && f != "none") faults_wanted.insert(f);
    }
    for (int i = 0; i < simulations; ++i) {
      const fs::path dir = work / ("game" + std::to_string(i + 1));
      const uint64_t game_seed = simulation_seed(seed, i);
      if (fs::is_regular_file(dir / "game.json")) {
        // Kept from an earlier run: scored again only when it is the game asked for (a folder of another seed or
        // length was once scored silently in its place).
        const nlohmann::json kept = read_json(dir / "game.json");
        const bool same = kept.value("game", "") == game && kept.value("seed", uint64_t{0}) == game_seed &&
                          std::abs(kept.value("fps", 0.0) - fps) < 1e-6 && kept.value("moves_asked", moves) == moves &&
                          kept.value("faults_asked", faults_wanted) == faults_wanted;
        if (!same)
          throw InputError(
              "eval-vision --work: '" + dir.string() + "' holds " + kept.value("game", "?") + " seed " +
              std::to_string(kept.value("seed", uint64_t{0})) +
              (kept.contains("moves_asked") ? " --moves " + std::to_string(kept.value("moves_asked", 0)) : "") +
              ", not " + game + " seed " + std::to_string(game_seed) + " --moves " + std::to_string(moves) +
              ": give a fresh --work folder");
      } else {
        Words sim = {game,
                     "--out",
                     dir.string(),
                     "--seed",
                     std::to_string(game_seed),
                     "--moves",
                     std::to_string(moves),
                     "--fps",
                     std::to_string(fps)};
        if (!faults.empty() && faults != "none") {
          sim.push_back("--faults");
          sim.push_back(faults);
        }
        if (stderr_tty()) std::fprintf(stderr, "eval-vision: simulating game %d/%d\n", i + 1, simulations);
        cmd_simulate(sim);
      }
      video_dirs.push_back(dir);
    }
  }
  if (!video_dirs.empty()) {
    VideoResult v;
    std::ofstream trace_file;
    if (auto path = args.value("--trace")) {
      trace_file.open(*path);
      if (!trace_file) throw InputError("eval-vision --trace: cannot write '" + *path + "'");
    }
    std::optional<fs::path> gate_debug;
    if (auto dir = args.value("--gate-debug")) {
      std::error_code ec;
      fs::create_directories(*dir, ec);
      if (!fs::is_directory(*dir)) throw InputError("eval-vision --gate-debug: cannot create directory '" + *dir + "'");
      gate_debug = *dir;
    }
    for (const fs::path& d : video_dirs)
      evaluate_video(game, d, v, trace_file.is_open() ? &trace_file : nullptr, gate_debug);
    const vision::GateFigures g = v.gate.figures();
    const vision::ReadFigures rf = v.reads.figures();
    std::vector<vision::TargetLine> T;
    T.push_back({"videos / frames", std::to_string(g.videos) + " / " + std::to_string(g.frames), "", true});
    T.push_back({"frames settled while a hand is over the board",
                 std::to_string(g.false_settled) + " of " + std::to_string(g.unstable_frames), "0",
                 g.false_settled == 0});
    char lat[64];
    std::snprintf(lat, sizeof lat, "%.0f ms", g.median_latency_ms());
    T.push_back({"settle latency after the hand leaves (median)", lat, "≤ 300 ms",
                 !g.latency_ms.empty() && g.median_latency_ms() <= 300});
    std::snprintf(lat, sizeof lat, "%.0f ms", g.percentile_latency_ms(0.9));
    T.push_back({"settle latency, 90th percentile", lat, "", true});
    T.push_back({"hands leaving that never settled",
                 std::to_string(g.never_settled) + " of " + std::to_string(g.leaves), "", true});
    T.push_back({"videos whose set was learnt from the start",
                 std::to_string(v.learnt) + " of " + std::to_string(g.videos), "", true});
    T.push_back({"settled reads: per-site error",
                 pct(rf.site_error_rate()) + " (" + std::to_string(rf.images) + " reads)", "", true});
    const vision::ReadFigures learnt_rf = v.reads_learnt.figures();
    T.push_back({"  of them read with the learnt set",
                 pct(learnt_rf.site_error_rate()) + " (" + std::to_string(learnt_rf.images) + " reads)", "", true});
    std::printf("eval-vision %s: %zu simulated videos\n", game.c_str(), video_dirs.size());
    print_targets(T);
    report.targets.insert(report.targets.end(), T.begin(), T.end());
    report.gate = g;
    report.gate_notes = v.gate.notes();
    report.video_reads = std::move(v.reads);
    if (report.data.empty())
      report.data = std::to_string(video_dirs.size()) + " simulated videos";
    else
      report.data += "; " + std::to_string(video_dirs.size()) + " simulated videos";

    if (!args.has("--no-referee")) {
      int right = 0, false_illegal = 0;
      for (const fs::path& d : video_dirs) {
        if (stderr_tty()) std::fprintf(stderr, "eval-vision: referee --source %s\n", d.c_str());
        vision::GameCheck c = referee_check(game, d);
        right += c.right();
        false_illegal += c.false_illegal;
        std::printf("  %-10s %3d plies, recorded %3d, %s%s\n", c.name.c_str(), c.true_plies, c.recorded_plies,
                    c.right() ? "right" : "WRONG: ", c.right() ? "" : c.note.c_str());
        report.games.push_back(std::move(c));
      }
      std::vector<vision::TargetLine> R = {
          {"games recorded entirely right", std::to_string(right) + " of " + std::to_string(video_dirs.size()), "all",
           right == static_cast<int>(video_dirs.size())},
          {"illegal moves announced that did not happen", std::to_string(false_illegal), "0", false_illegal == 0}};
      print_targets(R);
      report.targets.insert(report.targets.end(), R.begin(), R.end());
    }
  }
  std::fflush(stdout);
  if (auto path = args.value("--report")) {
    std::ofstream out(*path);
    if (!out || !(out << vision::eval_report_html(report)))
      throw InputError("eval-vision --report: cannot write '" + *path + "'");
  }
  return 0;
}

}  // namespace sb::cli
