// The evaluation report as one self-contained HTML page: the figures against their targets, the confusion
// table as a heat map, the error rate per kind of look (bar charts), the motion gate's latency histogram, the
// whole-pipeline games, and the images read wrong.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vision/eval/gate_tally.h"
#include "vision/eval/read_tally.h"

namespace sb::vision {

// A figure and its target, as printed and reported.
struct TargetLine {
  std::string name;    // "per-site error"
  std::string value;   // "0.042 %"
  std::string target;  // "≤ 0.1 %"; empty: no target
  bool met = true;
};

// The site error rate per value of one property of the look ("camera tilt": "0–15°", "15–30°", …).
struct Breakdown {
  std::string title;
  std::vector<std::pair<std::string, ReadFigures>> buckets;
};

// One simulated game through the whole pipeline (vision → referee).
struct GameCheck {
  std::string name;           // the simulation's folder
  std::string faults;         // injected faults, comma-separated
  int true_plies = 0;
  int recorded_plies = 0;
  int first_wrong_ply = 0;    // 0: every move recorded right
  int illegal_injected = 0;   // illegal moves the simulation made (each should be announced)
  int illegal_announced = 0;
  int false_illegal = 0;      // announcements beyond the injected ones
  int unclear = 0;            // "unclear" events
  std::string note;           // the first difference, for the report
  bool right() const { return first_wrong_ply == 0 && true_plies == recorded_plies && false_illegal == 0; }
};

struct EvalReport {
  std::string game;
  std::string command;  // the command line that made it
  std::string data;     // what it ran on
  std::vector<TargetLine> targets;
  std::optional<ReadTally> reads;          // the dataset's stills
  std::vector<Breakdown> breakdowns;
  std::optional<GateFigures> gate;          // simulated videos
  std::vector<std::string> gate_notes;
  std::optional<ReadTally> video_reads;     // settled reads in the videos
  std::vector<GameCheck> games;
  std::vector<std::string> notes;           // anything else worth saying (fits that failed, skipped images)
};

std::string eval_report_html(const EvalReport& report);

}  // namespace sb::vision
