#include "app/vision_input.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/render_setup.h"
#include "engines/common/errors.h"
#include "vision/observation.h"
#include "vision/piece_set.h"

namespace sb::cli {

std::vector<OptionSpec> vision_input_option_specs() {
  std::vector<OptionSpec> specs = vision_option_specs();
  specs.push_back({"--source"});
  specs.push_back({"--fps"});
  specs.push_back({"--save-set"});
  specs.push_back({"--observations-out"});
  return specs;
}

namespace {

// A camera or a stream runs in real time: the board is read on a worker thread so that no frame waits for a
// read. A file or a folder is read frame by frame as fast as it goes, each read in its frame (the same records
// every run).
vision::PipelineParams params_for_source(const Args& args) {
  vision::PipelineParams p;
  const std::string spec = args.value_or("--source", "");
  const bool camera = !spec.empty() && spec.size() < 4 && spec.find_first_not_of("0123456789") == std::string::npos;
  p.read_in_background = camera || spec.find("://") != std::string::npos;
  return p;
}

}  // namespace

VisionInput::VisionInput(const Args& args, const Rules& rules, const State& start, bool learn)
    : VisionInput(args, rules, start, learn, nullptr, params_for_source(args)) {}

VisionInput::VisionInput(const Args& args, const Rules& rules, const State& start, bool learn,
                         std::unique_ptr<vision::FrameSource> source, vision::PipelineParams params)
    : rules_(rules), game_(rules.id()), setup_(rules.id(), args, params), learn_(learn && !setup_.has_set()) {
  const double fps = args.double_value("--fps", 30, 0.1, 1000);
  save_set_ = args.value("--save-set");
  if (auto path = args.value("--observations-out")) {
    log_.open(*path, std::ios::trunc);
    if (!log_) throw InputError("--observations-out: cannot write '" + *path + "'");
  }
  if (auto dir = args.value("--debug")) {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    if (!std::filesystem::is_directory(*dir)) throw InputError("--debug: cannot create directory '" + *dir + "'");
    debug_dir_ = *dir;
  }
  const calib::BoardModel& model = setup_.pipeline().model();
  start_tokens_.assign(model.sites.size(), "");
  Observation seen = rules.observe(start);
  for (int k = 0; k < rules.site_count(); ++k) {
    const int i = model.site_index(rules.site_name(k));
    if (i < 0) throw std::logic_error("board model of " + game_ + " has no site " + rules.site_name(k));
    start_tokens_[static_cast<size_t>(i)] = seen.sites[static_cast<size_t>(k)].str();
  }
  source_ = source ? std::move(source) : vision::open_source(*args.value("--source"), fps);
}

bool VisionInput::try_learn(const vision::BoardObservation& obs) {
  // Which way round a board found by its outline lies: the turn that reads most like the start.
  if (!setup_.pipeline().orientation_known()) {
    const int turns = setup_.pipeline().orient(start_tokens_);
    if (turns) {
      std::cerr << "referee: the board lies turned by " << turns * 90 << " degrees; following the start position\n";
      return true;  // read again the right way round
    }
  }
  // A board the set in use does not read as the start may still be the start, in a set unlike the defaults: the
  // set learnt from it must then confirm it (Pipeline::learn_start).
  if (!vision::looks_like_start(start_tokens_, obs.sites) &&
      ++unconfirmed_tries_ > vision::Pipeline::kUnconfirmedStartTries)
    return false;
  std::vector<std::string> problems;
  ++learn_attempts_;
  if (!setup_.pipeline().learn_start(start_tokens_, obs.sites, &problems)) {
    if (learn_attempts_ <= 3)
      std::cerr << "referee: could not learn the piece set from this view of the start (" << problems.size()
                << " sites read wrong" << (problems.empty() ? "" : ": " + problems.front())
                << "); reading with the defaults\n";
    return false;
  }
  std::cerr << "referee: piece set learnt from the start position";
  if (!problems.empty())
    std::cerr << " (" << problems.size() << " sites of the start still read wrong: " << problems.front() << ")";
  std::cerr << '\n';
  if (save_set_) vision::save_piece_set(setup_.pipeline().piece_set(), *save_set_);
  learnt_ = true;
  placements_.emplace(start_tokens_, setup_.pipeline().reader().vocabulary().sides);
  return true;
}

bool VisionInput::try_learn_placement(const vision::BoardObservation& obs) {
  if (!placements_ || !placements_->pending()) return false;
  if (placements_->gone_past(obs.sites)) {
    std::cerr << "referee: the side colours could not be learnt from the first placements; reading with the "
                 "colours as guessed\n";
    placements_->give_up();
    return false;
  }
  const std::optional<std::vector<std::string>> board = placements_->board_to_learn(obs.sites);
  if (!board) return false;
  std::vector<std::string> problems;
  if (!setup_.pipeline().learn(*board, &problems)) return false;
  const calib::BoardModel& model = setup_.pipeline().model();
  for (size_t i = 0; i < board->size(); ++i)
    if ((*board)[i] != placements_->placed()[i])
      std::cerr << "referee: the colours of " << (*board)[i] << " learnt from its first piece, placed on "
                << model.sites[i].name << '\n';
  placements_->learnt(*board);
  if (save_set_) vision::save_piece_set(setup_.pipeline().piece_set(), *save_set_);
  return true;
}

std::optional<std::string> VisionInput::next() {
  vision::Pipeline& pipeline = setup_.pipeline();
  for (;;) {
    std::optional<vision::Frame> frame = source_->next();
    for (const vision::SourceEvent& e : source_->take_events())
      std::cerr << "referee: " << source_->describe() << ": " << vision::source_event_name(e.kind) << ": " << e.message
                << '\n';
    if (!frame) return std::nullopt;
    if (frame_time_) frame_time_(frame->t_ms);
    if (!started_) {
      const std::string note = setup_.start(frame->image);
      if (!note.empty()) std::cerr << "referee: " << note << '\n';
      started_ = true;
    }
    vision::BoardObservation obs = pipeline.process(*frame);
    if (obs.located != was_located_) {
      std::cerr << "referee: " << (obs.located ? "board found (" + obs.board_state + ")" : "board not found") << " at "
                << frame->t_ms << " ms\n";
      was_located_ = obs.located;
    }
    if (!obs.located) continue;
    if (obs.read && debug_dir_) {
      char name[32];
      std::snprintf(name, sizeof name, "%08lld.png", static_cast<long long>(frame->t_ms));
      write_image((std::filesystem::path(*debug_dir_) / name).string(), pipeline.debug_image());
    }
    if (obs.read && learn_ && !learnt_ && try_learn(obs)) continue;  // the next settled frame reads anew
    if (obs.read && learnt_ && try_learn_placement(obs)) continue;
    const bool settled_changed = obs.settled != was_settled_;
    was_settled_ = obs.settled;
    if (!obs.read && !settled_changed) continue;
    if (!obs.settled && !settled_changed) continue;
    std::string line = vision::observation_json(pipeline.model(), obs).dump();
    if (log_.is_open()) log_ << line << std::endl;
    return line;
  }
}

}  // namespace sb::cli
