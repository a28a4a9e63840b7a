#include "app/bench_vision.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <opencv2/core/utility.hpp>
#include <random>
#include <sstream>

#include "calibration/synthetic_view.h"
#include "calibration/tracker.h"
#include "engines/common/errors.h"

namespace sb::cli {

namespace {

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

double wall_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The fixed conditions every game is photographed under: the spread calibration must cope with.
struct Condition {
  const char* name;
  double tilt, rotation, px_per_26mm, blur, noise, light;
  int covered;
};
const std::vector<Condition>& conditions() {
  static const std::vector<Condition> c = {
      {"straight down, 40 px/square", 0, 3, 40, 0.7, 2, 0.1, 0},
      {"tilt 30, turned 40, 55 px/square, dim side", 30, 40, 55, 0.9, 3, 0.4, 0},
      {"tilt 45, 35 px/square, 3 markers under hands", 45, 200, 35, 0.8, 3, 0.3, 3},
      {"tilt 20, turned 90, 30 px/square, noisy, 4 markers under hands", 20, 90, 30, 1.1, 5, 0.2, 4},
  };
  return c;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5))];
}

struct StageResult {
  std::string name;
  double target_ms = 0;
  std::vector<double> cpu_ms, wall_ms;
  long signature = 0;
};

void write_report(const std::string& path, const std::vector<StageResult>& results, int frames, double accuracy_median,
                  double accuracy_max) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write report '" + path + "'");
  double scale = 0;
  for (const auto& r : results) scale = std::max({scale, percentile(r.cpu_ms, 0.9), r.target_ms});
  out << "<!doctype html><meta charset=utf-8><title>smartboard bench vision</title>"
         "<style>body{font-family:sans-serif}td,th{padding:2px 10px;text-align:right}td:first-child{text-align:left}"
         ".bar{height:14px;background:#4a7}.target{border-left:2px solid #c33;height:14px;position:relative;top:-14px}"
         "</style><h1>bench vision</h1><p>"
      << frames
      << " synthetic 1280×720 frames (every game under fixed conditions), one core. Times are processor time "
         "per frame of the calling thread; wall time beside it.</p><table><tr><th>stage<th>median cpu ms"
         "<th>p90 cpu ms<th>median wall ms<th>target ms<th><th style='width:320px'>median (bar) and target (red)</tr>";
  for (const auto& r : results) {
    double m = median(r.cpu_ms);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<tr><td>%s<td>%.2f<td>%.2f<td>%.2f<td>%s<td>%s<td><div class=bar style='width:%.0fpx'></div>"
                  "<div class=target style='left:%.0fpx;width:0'></div></tr>",
                  r.name.c_str(), m, percentile(r.cpu_ms, 0.9), median(r.wall_ms),
                  r.target_ms > 0 ? std::to_string(r.target_ms).substr(0, 4).c_str() : "",
                  r.target_ms > 0 ? (m <= r.target_ms ? "met" : "<b>missed</b>") : "", scale > 0 ? 300 * m / scale : 0,
                  scale > 0 && r.target_ms > 0 ? 300 * r.target_ms / scale : 0);
    out << buf;
  }
  char acc[200];
  std::snprintf(acc, sizeof acc, "</table><p>site accuracy of the located fits: median %.3f px, worst %.3f px</p>",
                accuracy_median, accuracy_max);
  out << acc << "\n";
}

// Accuracy over random conditions (--sweep N: N photos per board): tilt 0–45°, any rotation, 30–100 px per
// 26 mm (a draughts square), blur, noise, uneven light, 0–4 of the 8 markers under hands. Not timed; it says how
// far from the truth the worst located site lies, and on what.
void accuracy_sweep(const std::vector<std::string>& games, int per_board, bool progress) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> errors;
  int photos = 0, missed = 0, over = 0;
  double worst = 0;
  std::string worst_where = "-";
  for (const std::string& game : games) {
    calib::BoardModel m = calib::load_board_model(game);
    calib::BoardLocator locator(m);
    for (int i = 0; i < per_board; ++i) {
      calib::SyntheticViewParams p;
      p.tilt_deg = 45 * unit(rng), p.rotation_deg = 360 * unit(rng);
      double px_per_square = 30 + 70 * unit(rng);
      p.px_per_pitch = px_per_square * m.pitch_mm / 26;
      p.blur_sigma_px = 0.5 + unit(rng), p.noise_sigma = 6 * unit(rng);
      p.light_falloff = 0.5 * unit(rng), p.light_angle_deg = 360 * unit(rng);
      p.seed = rng() % 1000000;
      std::vector<int> ids;
      for (const calib::Marker& mk : m.markers.markers) ids.push_back(mk.id);
      std::shuffle(ids.begin(), ids.end(), rng);
      ids.resize(std::min<size_t>(ids.size(), static_cast<size_t>(5 * unit(rng))));
      p.covered_markers = ids;
      calib::SyntheticView view = calib::synthetic_view(m, p);
      while (!view.sheet_inside && p.px_per_pitch > 30 * m.pitch_mm / 26) {
        p.px_per_pitch = std::max(30 * m.pitch_mm / 26, p.px_per_pitch * 0.92);
        view = calib::synthetic_view(m, p);
      }
      if (!view.sheet_inside) continue;
      ++photos;
      char condition[200];
      std::snprintf(condition, sizeof condition,
                    "%s, tilt %.1f°, turned %.0f°, %.0f px/square, blur %.2f, noise %.1f, light %.2f, %zu covered",
                    game.c_str(), p.tilt_deg, p.rotation_deg, p.px_per_pitch * 26 / m.pitch_mm, p.blur_sigma_px,
                    p.noise_sigma, p.light_falloff, ids.size());
      auto fit = locator.locate(view.image);
      if (!fit) {
        ++missed;
        std::printf("sweep: not located: %s\n", condition);
        continue;
      }
      double frame_worst = 0;
      std::string site;
      for (const calib::Site& s : m.sites) {
        double e = cv::norm(locator.project(*fit, {s.centre})[0] - view.sites.at(s.name));
        errors.push_back(e);
        if (e > frame_worst) frame_worst = e, site = s.name;
      }
      over += frame_worst > 0.5;
      if (frame_worst > worst) worst = frame_worst, worst_where = "site " + site + " of " + condition;
      if (progress) std::fprintf(stderr, "\rbench vision: sweep %d", photos + missed);
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  std::printf(
      "sweep: %d photos, %d not located, %d with a site over 0.5 px; site error median %.3f px, p99 %.3f px, "
      "worst %.3f px (%s)\n",
      photos, missed, over, median(errors), percentile(errors, 0.99), worst, worst_where.c_str());
}

}  // namespace

std::vector<VisionStage> vision_stages() {
  return {
      {"markers: detect", 0, [](const VisionFrame& f) { return static_cast<long>(f.locator->detect(f.gray).size()); }},
      {"markers: detect + fit + refine", 15,
       [](const VisionFrame& f) {
         auto fit = f.locator->locate(f.gray);
         return fit ? static_cast<long>(fit->marker_ids.size()) : 0L;
       }},
      {"re-check (markers in place)", 2,
       [](const VisionFrame& f) {
         if (f.fit.method.empty()) return 0L;
         // The tracker is built once per frame outside the timing would be fairer, but building it is a few
         // dictionary look-ups; the check itself dominates.
         static thread_local std::map<const calib::BoardModel*, std::unique_ptr<calib::BoardTracker>> trackers;
         auto& t = trackers[f.model];
         if (!t) t = std::make_unique<calib::BoardTracker>(*f.locator);
         return static_cast<long>(t->markers_in_place(f.gray, f.fit));
       }},
  };
}

int bench_vision(const Args& args) {
  const int repeat = args.int_value("--repeat", 5, 1, 1000);
  const std::vector<std::string> games = args.list_value("--games", calib::board_games());
  const bool progress = isatty(STDERR_FILENO);
  cv::setNumThreads(1);  // one core, as the target says

  // Frames: every game under every condition; scales are per 26 mm (a draughts square), so Morris boards with
  // their wide point spacing get the same physical resolution.
  std::vector<std::unique_ptr<calib::BoardModel>> models;
  std::vector<std::unique_ptr<calib::BoardLocator>> locators;
  std::vector<VisionFrame> frames;
  for (const std::string& game : games) {
    models.push_back(std::make_unique<calib::BoardModel>(calib::load_board_model(game)));
    locators.push_back(std::make_unique<calib::BoardLocator>(*models.back()));
    const calib::BoardModel& m = *models.back();
    for (size_t i = 0; i < conditions().size(); ++i) {
      const Condition& c = conditions()[i];
      calib::SyntheticViewParams p;
      p.tilt_deg = c.tilt, p.rotation_deg = c.rotation, p.blur_sigma_px = c.blur, p.noise_sigma = c.noise;
      p.light_falloff = c.light, p.light_angle_deg = 70.0 * i, p.seed = 1000 + i;
      p.px_per_pitch = c.px_per_26mm * m.pitch_mm / 26;
      for (int k = 0; k < c.covered && k < static_cast<int>(m.markers.markers.size()); ++k)
        p.covered_markers.push_back(m.markers.markers[(k * 3 + i) % m.markers.markers.size()].id);
      calib::SyntheticView view = calib::synthetic_view(m, p);
      while (!view.sheet_inside && p.px_per_pitch > 10) {
        p.px_per_pitch *= 0.92;
        view = calib::synthetic_view(m, p);
      }
      VisionFrame f;
      f.game = game;
      f.condition = c.name;
      f.image = view.image;
      f.gray = calib::gray_of(view.image);
      f.model = &m;
      f.locator = locators.back().get();
      f.true_sites = view.sites;
      if (auto fit = f.locator->locate(f.gray)) f.fit = *fit;
      frames.push_back(std::move(f));
      if (progress) std::fprintf(stderr, "\rbench vision: frames %zu", frames.size());
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  if (frames.empty()) throw InputError("bench vision: no frames (no games?)");

  // Accuracy of the located fits against the truth: a bench that got fast by being wrong would show here.
  std::vector<double> errors;
  int located = 0;
  for (const VisionFrame& f : frames) {
    if (f.fit.method.empty()) continue;
    ++located;
    for (const calib::Site& s : f.model->sites)
      errors.push_back(cv::norm(f.locator->project(f.fit, {s.centre})[0] - f.true_sites.at(s.name)));
  }

  std::vector<StageResult> results;
  long signature = 0;
  std::printf("%-34s %12s %12s %12s %10s\n", "stage", "median cpu", "p90 cpu", "median wall", "target");
  for (const VisionStage& stage : vision_stages()) {
    StageResult r;
    r.name = stage.name;
    r.target_ms = stage.target_ms;
    for (const VisionFrame& f : frames) {
      std::vector<double> cpu, wall;
      long value = 0;
      for (int k = 0; k < repeat; ++k) {
        double c0 = thread_cpu_ms(), w0 = wall_ms();
        value = stage.run(f);
        cpu.push_back(thread_cpu_ms() - c0);
        wall.push_back(wall_ms() - w0);
      }
      r.cpu_ms.push_back(median(cpu));
      r.wall_ms.push_back(median(wall));
      r.signature += value;
    }
    signature = signature * 31 + r.signature;
    char target[32] = "";
    if (r.target_ms > 0)
      std::snprintf(target, sizeof target, "%.0f ms %s", r.target_ms,
                    median(r.cpu_ms) <= r.target_ms ? "met" : "MISSED");
    std::printf("%-34s %9.2f ms %9.2f ms %9.2f ms %10s\n", r.name.c_str(), median(r.cpu_ms), percentile(r.cpu_ms, 0.9),
                median(r.wall_ms), target);
    std::fflush(stdout);
    results.push_back(std::move(r));
  }
  std::printf("frames %zu, located %d, site error median %.3f px, worst %.3f px\n", frames.size(), located,
              median(errors), errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end()));
  if (int sweep = args.int_value("--sweep", 0, 0, 100000)) accuracy_sweep(games, sweep, progress);
  std::printf("signature %ld\n", signature);
  if (auto report = args.value("--report"))
    write_report(*report, results, static_cast<int>(frames.size()), median(errors),
                 errors.empty() ? 0.0 : *std::max_element(errors.begin(), errors.end()));
  bench_vision_pipeline(args, args.has("--games") ? games : std::vector<std::string>{});
  return 0;
}

}  // namespace sb::cli
