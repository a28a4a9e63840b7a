#include "vision/pipeline.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <opencv2/imgproc.hpp>

#include "vision/first_placements.h"
#include "vision/thread_clock.h"

namespace sb::vision {

Pipeline::Pipeline(calib::BoardModel model, PieceVocabulary vocab, std::vector<SideModel> default_sides,
                   PipelineParams params, std::optional<calib::Lens> lens)
    : model_(model),
      vocab_(vocab),
      params_(params),
      locate_(std::move(model), std::move(lens), params.locate),
      reader_(std::make_shared<const CellReader>(std::move(vocab), std::move(default_sides), params.reader)) {
  set_.game = model_.game;
}

void Pipeline::use_fit(const calib::BoardFit& fit, cv::Size image_size, std::optional<calib::Lens> lens) {
  locate_.use_fit(fit, image_size, std::move(lens));
}

void Pipeline::set_piece_set(PieceSet set) {
  set_ = std::move(set);
  cache_.reset();
  pending_stale_ = true;
  geometry_revision_ = 0;  // the top planes' height may have changed
  pooled_.clear();
  last_read_ms_ = -1;
}

void Pipeline::rebuild_geometry() {
  const calib::Calibration& c = *locate_.calibration();
  // What the set learnt in the top-plane frame (the empty board a set keeps from its start) is pixel for pixel: a
  // new fit of the board (a knocked camera, a board turned) keeps the frame's scale, so that the frame's size and
  // origin stay the same. Taken anew from the view's scale, a frame a pixel larger left the empty board out, and an
  // ivory stone on cream card went unseen (morris6 seed 8400006, game 2).
  RectifyParams rectify = params_.rectify;
  if (rect_)
    rectify.read_px_per_pitch_min = rectify.read_px_per_pitch_max = rect_->top_frame().px_per_mm * model_.pitch_mm;
  std::optional<Rectifier> before;
  before.swap(rect_);
  rect_.emplace(model_, c, set_.top_height_mm, std::max(1, vocab_.max_stack), rectify);
  // A set learnt anew (the colours of a side from its first placement) changes the read planes, not the gate's
  // view of the board: the gate keeps its settled scene. Started anew, it took the next still frame whole for the
  // scene, with the next player's arm already reaching in beside the board, and held the board unsettled for a
  // minute when the arm had gone (morris6 seed 8822006, game 5: 10 of 13 hands never settled).
  if (!gate_ || !before || !before->same_gate_view(*rect_))
    gate_.emplace(rect_->zone_mask(), rect_->ring_mask(), rect_->gate_cells(), params_.gate, rect_->gate_unseen_mask());
  geometry_revision_ = locate_.revision();
  cache_.reset();
  pending_stale_ = true;
  pooled_.clear();
  last_read_ms_ = -1;
}

void Pipeline::pool(const ReadResult& r, BoardObservation& obs) {
  pooled_.push_back(r);
  if (static_cast<int>(pooled_.size()) > params_.max_pooled) pooled_.erase(pooled_.begin());
  const size_t n = model_.sites.size();
  current_.assign(n, SiteReading{});
  for (size_t i = 0; i < n; ++i) {
    std::map<std::string, float> votes;
    float occupied = 0, evidence = 0;
    for (const ReadResult& p : pooled_) {
      votes[p.sites[i].token] += p.sites[i].conf;
      occupied += p.sites[i].occupied;
      evidence += p.sites[i].evidence;
    }
    auto best =
        std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    SiteReading& s = current_[i];
    s = r.sites[i];
    s.token = best->first;
    s.conf = best->second / static_cast<float>(pooled_.size());
    s.occupied = occupied / static_cast<float>(pooled_.size());
    s.evidence = evidence / static_cast<float>(pooled_.size());
  }
  (void)obs;
}

BoardObservation Pipeline::process(const Frame& frame) {
  const double t_start = thread_cpu_ms();
  BoardObservation obs;
  obs.t_ms = frame.t_ms;
  LocateResult loc = locate_.update(frame.image);
  obs.times.locate_ms = loc.ms;
  obs.board_state = loc.state;
  obs.located = loc.located;
  GateResult g;
  if (!loc.located) {
    obs.sites.assign(model_.sites.size(), SiteReading{});
    obs.times.total_ms = thread_cpu_ms() - t_start;
    if (params_.debug) draw_debug(frame, obs, g);
    return obs;
  }
  if (!rect_ || geometry_revision_ != locate_.revision() || loc.state == "moved") rebuild_geometry();

  double t0 = thread_cpu_ms();
  pyramid_.reset(frame.image, rect_->frame_roi());
  rect_->gate_image(pyramid_, gate_image_);
  obs.times.rectify_ms = thread_cpu_ms() - t0;

  t0 = thread_cpu_ms();
  g = gate_->update(gate_image_, frame.t_ms);
  obs.times.gate_ms = thread_cpu_ms() - t0;
  // A plain board's fit is checked once the board is still: a knocked camera shows it elsewhere. The gate then
  // waits for stillness again in the new geometry, and the board is read the next time it settles. A still
  // scene the gate holds unsettled for a change across the board's edge may be that too (everything moved),
  // so it is checked as well, every recheck_ms.
  const bool still_blocked = g.ring_blocked && frame.t_ms - g.last_motion_ms >= params_.gate.still_ms &&
                             (last_recheck_ms_ < 0 || frame.t_ms - last_recheck_ms_ >= params_.recheck_ms);
  // A live camera's check runs on a worker thread (it costs a few frames' time): its outcome comes with a later
  // frame, and no read is taken before it has told whether the camera moved. A check wanted while one runs
  // waits for it, then for a still frame.
  std::optional<Registration> check;
  const bool check_due = g.just_settled || still_blocked;
  if (check_due) last_recheck_ms_ = frame.t_ms;
  if (!params_.read_in_background) {
    if (check_due) check = locate_.recheck(frame.image, g.just_settled);
  } else {
    if (pending_check_.valid() && pending_check_.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
      check = locate_.finish_recheck(pending_check_.get());
    check_wanted_ = check_wanted_ || check_due;
    const bool still = frame.t_ms - g.last_motion_ms >= params_.gate.still_ms;
    if (check_wanted_ && still && !pending_check_.valid()) {
      check_wanted_ = false;
      if (std::optional<BoardLocate::RecheckJob> job = locate_.begin_recheck(frame.image, g.settled)) {
        job->frame = frame.image.clone();  // a camera may reuse its buffer
        pending_check_ =
            std::async(std::launch::async, [job = std::move(*job)] { return BoardLocate::run_recheck(job); });
      }
    }
  }
  if (check) {
    if (!params_.read_in_background) obs.times.locate_ms += check->ms;
    if (check->moved) {
      rebuild_geometry();
      obs.board_state = "moved";
      g.settled = g.just_settled = false;
    }
  }
  obs.settled = g.settled;
  obs.edge_blocked = g.ring_blocked;
  if (g.just_settled) obs.settle_latency_ms = g.settle_latency_ms;
  if (!g.settled) {
    pooled_.clear();
    pending_stale_ = true;
  }

  const bool read_due =
      g.settled && (g.just_settled || last_read_ms_ < 0 || frame.t_ms - last_read_ms_ >= params_.reread_ms);
  if (params_.read_in_background) {
    take_background_read(obs);
    if (read_due && !pending_.valid()) start_background_read(frame);
  } else if (read_due) {
    t0 = thread_cpu_ms();
    last_white_ = white_reference(gate_image_, rect_->zone_mask());
    if (params_.reuse_unchanged_sites && !cache_) cache_ = std::make_shared<ReadCache>();
    cv::Mat image = frame.image;
    last_streak_ = MotionStreak{};
    if (undoes_streaks()) {
      image = undo_motion_streak(frame.image, rect_->frame_roi(), params_.streak, &last_streak_);
      if (image.data != frame.image.data) pyramid_.reset(image, rect_->frame_roi());
    }
    last_read_ =
        reader_->read(*rect_, pyramid_, set_, last_white_, params_.reuse_unchanged_sites ? cache_.get() : nullptr);
    obs.times.read_ms = thread_cpu_ms() - t0;
    last_read_ms_ = frame.t_ms;
    last_read_frame_ = image;
    last_streaked_frame_ = image.data != frame.image.data ? frame.image : cv::Mat();
    pool(last_read_, obs);
    obs.read = true;
  }
  if (current_.size() != model_.sites.size()) current_.assign(model_.sites.size(), SiteReading{});
  obs.sites = current_;
  for (size_t i = 0; i < obs.sites.size() && i < g.site_motion.size(); ++i) obs.sites[i].disturbed = g.site_motion[i];
  obs.times.total_ms = thread_cpu_ms() - t_start;
  if (params_.debug) draw_debug(frame, obs, g);
  return obs;
}

bool Pipeline::undoes_streaks() const {
  return params_.undo_motion_streak && vocab_.face != PieceVocabulary::Face::Plain;
}

void Pipeline::start_background_read(const Frame& frame) {
  // The worker has its own copies: the frame (a camera may reuse its buffer), the geometry and the set (both
  // may be replaced while it reads); the reader is shared and reads without changing anything.
  cv::Mat image = frame.image.clone();
  const cv::Vec3f white = white_reference(gate_image_, rect_->zone_mask());
  pending_stale_ = false;
  last_read_ms_ = frame.t_ms;
  if (params_.reuse_unchanged_sites && !cache_) cache_ = std::make_shared<ReadCache>();
  std::shared_ptr<ReadCache> cache = params_.reuse_unchanged_sites ? cache_ : nullptr;
  pending_ = std::async(std::launch::async, [reader = reader_, rect = *rect_, set = set_, image, white, cache,
                                             undo = undoes_streaks(), streak = params_.streak]() mutable {
    const double t0 = thread_cpu_ms();
    BackgroundRead b;
    if (undo) {
      cv::Mat undone = undo_motion_streak(image, rect.frame_roi(), streak, &b.streak);
      if (undone.data != image.data) b.streaked = image;
      image = undone;
    }
    FramePyramid pyr;
    pyr.reset(image, rect.frame_roi());
    b.result = reader->read(rect, pyr, set, white, cache.get());
    b.ms = thread_cpu_ms() - t0;
    b.frame = image;
    b.white = white;
    return b;
  });
}

void Pipeline::take_background_read(BoardObservation& obs) {
  if (pending_check_.valid()) return;  // a read of a board that may have moved waits for the check
  if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  BackgroundRead b = pending_.get();
  if (pending_stale_ || !obs.settled) return;
  last_read_ = std::move(b.result);
  last_read_frame_ = b.frame;
  last_streaked_frame_ = b.streaked;
  last_streak_ = b.streak;
  last_white_ = b.white;
  obs.times.read_ms = b.ms;
  pool(last_read_, obs);
  obs.read = true;
}

bool Pipeline::learn(const std::vector<std::string>& expected, std::vector<std::string>* problems) {
  return learn_checked(expected, problems, false);
}

bool Pipeline::learn_start(const std::vector<std::string>& start, const std::vector<SiteReading>& seen,
                           std::vector<std::string>* problems) {
  return learn_checked(start, problems, !looks_like_start(start, seen));
}

bool Pipeline::learn_checked(const std::vector<std::string>& expected, std::vector<std::string>* problems,
                             bool confirm) {
  if (!rect_ || last_read_frame_.empty() || expected.size() != model_.sites.size()) {
    if (problems) *problems = {"no settled frame of the board has been read yet"};
    return false;
  }
  std::vector<std::string> wrong;
  FramePyramid pyr;
  pyr.reset(last_read_frame_, rect_->frame_roi());
  // How well its pictures hold up matters only against a second set learnt from the frame as seen.
  LearnReport report;
  PieceSet learnt = reader_->learn(*rect_, pyr, expected, last_white_, set_, &wrong,
                                   last_streaked_frame_.empty() ? nullptr : &report);
  // The frame the set is learnt from: as read, or as seen when a motion streak was taken out of it and the
  // pictures learnt from the frame as seen hold up clearly better. A start's rows of like pieces can put a notch in the
  // spectrum where no streak is (Cờ toán 9400032 image 982's look: a 6.5 px "streak" undone from a sharp start
  // rang every face, and the set learnt from it misread 14 of the 20 counts of a sharp position).
  cv::Mat frame = last_read_frame_;
  if (!last_streaked_frame_.empty()) {
    FramePyramid seen;
    seen.reset(last_streaked_frame_, rect_->frame_roi());
    LearnReport seen_report;
    std::vector<std::string> seen_wrong;
    PieceSet seen_set = reader_->learn(*rect_, seen, expected, last_white_, set_, &seen_wrong, &seen_report);
    // Clearly better: by two faces at least, and a tenth of them. A face or two is noise (Cờ toán 9400031 image 669, a
    // real 6.75 px streak: 14 of 20 faces against 15 as seen; Cờ tư lệnh 9500042 image 725, a real 7 px streak: 35 of
    // 38 against 37; the sets learnt as seen misread 8 counts and 11 symbols of the undone reads).
    if (seen_report.read_by_other_side >= report.read_by_other_side + std::max(2, (report.faces + 9) / 10)) {
      learnt = std::move(seen_set);
      wrong = std::move(seen_wrong);
      frame = last_streaked_frame_;
    }
  }
  if (problems) *problems = wrong;
  if (!wrong.empty()) {
    // A set that misreads a few sites of the start still knows this set's colours, radius and marks far better
    // than the defaults: keep it when it reads the start better than the set in use does, with at most one
    // piece in eight (a quarter for sets with faces, whose defaults are poorest) missed, seen where none stands
    // or given to the wrong side. An identity misread (a symbol, a dot count) is a lesser fault: two look-alike
    // kinds (Cờ tư lệnh's H and N in some fonts, a blurred 8 and 9) must not throw away a set whose sides and
    // occupancy are right, for defaults that may not even tell its sides apart (two Cờ toán sets of one body
    // colour with marks of two hues: the defaults give a whole side to the other).
    const bool faces = vocab_.face == PieceVocabulary::Face::Symbols || vocab_.face == PieceVocabulary::Face::Dots;
    size_t pieces = 0;
    for (const std::string& t : expected) pieces += !t.empty();
    auto faults = [&](const PieceSet& set) {
      FramePyramid p;
      p.reset(frame, rect_->frame_roi());
      const ReadResult r = reader_->read(*rect_, p, set, last_white_);
      size_t serious = 0, identity = 0;
      for (size_t i = 0; i < expected.size(); ++i) {
        const std::string& got = r.sites[i].token;
        if (got.substr(0, 1) != expected[i].substr(0, 1) || (!faces && got != expected[i]))
          ++serious;
        else if (got != expected[i])
          ++identity;
      }
      return std::pair<size_t, size_t>{serious, identity};
    };
    const auto [serious, identity] = faults(learnt);
    if (confirm) {
      if (serious > 1 || identity * 10 > std::max<size_t>(pieces, 10)) return false;
      set_piece_set(std::move(learnt));
      return true;
    }
    // With one in ten, 7 of 80 Cờ tư lệnh tuning images were read with the defaults instead (140 pieces given
    // to the wrong side); and draughts sets that misread 3 of 24 men (English 9711001: 7 of its 10 sets not
    // learnt, image 967 then misread 23 squares with the defaults, 2 with the set).
    if (serious * (faces ? 4 : 8) > std::max<size_t>(pieces, 10)) return false;
    const auto [serious_now, identity_now] = faults(set_);
    if (4 * serious + identity >= 4 * serious_now + identity_now) return false;
  }
  set_piece_set(std::move(learnt));
  return true;
}

int Pipeline::orient(const std::vector<std::string>& expected) {
  if (locate_.orientation_known() || !locate_.calibration() || last_read_frame_.empty() ||
      expected.size() != model_.sites.size())
    return 0;
  int best_turn = 0;
  long best_score = -1;
  for (int k : locate_.possible_turns()) {
    locate_.turn(k);
    Rectifier rect(model_, *locate_.calibration(), set_.top_height_mm, std::max(1, vocab_.max_stack), params_.rectify);
    FramePyramid pyr;
    pyr.reset(last_read_frame_, rect.frame_roi());
    cv::Mat gate;
    rect.gate_image(pyr, gate);
    ReadResult r = reader_->read(rect, pyr, set_, white_reference(gate, rect.zone_mask()));
    locate_.turn(-k);
    // Occupancy counts once, the whole token again.
    long score = 0;
    for (size_t i = 0; i < expected.size(); ++i)
      score += (r.sites[i].token.empty() == expected[i].empty()) + (r.sites[i].token == expected[i]);
    if (score > best_score) best_score = score, best_turn = k;
  }
  if (best_turn != 0) {
    locate_.turn(best_turn);
    rebuild_geometry();  // the gate waits for stillness again; learn() reads the same frame the new way round
    current_.clear();
  }
  return best_turn;
}

void Pipeline::draw_debug(const Frame& frame, const BoardObservation& obs, const GateResult& g) {
  debug_ = frame.image.clone();
  const cv::Scalar green(60, 200, 60), red(40, 40, 230), amber(0, 170, 255), white(255, 255, 255);
  if (rect_) {
    std::vector<cv::Point> zone;
    for (const auto& p : rect_->zone_outline_frame()) zone.emplace_back(static_cast<int>(p.x), static_cast<int>(p.y));
    cv::polylines(debug_, zone, true, obs.settled ? green : red, 2, cv::LINE_AA);
    for (size_t i = 0; i < model_.sites.size() && i < obs.sites.size(); ++i) {
      const SiteReading& s = obs.sites[i];
      const double h = s.level > 0 ? rect_->top_height_mm() * s.level : 0;
      cv::Point2d p = rect_->frame_point(model_.sites[i].centre, h);
      cv::Point ip(static_cast<int>(p.x), static_cast<int>(p.y));
      if (s.disturbed > 0.05f) cv::circle(debug_, ip, 6, amber, 2, cv::LINE_AA);
      if (s.token.empty()) {
        cv::circle(debug_, ip, 2, s.conf > 0.8f ? white : red, cv::FILLED, cv::LINE_AA);
        continue;
      }
      const cv::Scalar c = s.conf > 0.8f ? green : s.conf > 0.5f ? amber : red;
      cv::putText(debug_, s.token, ip + cv::Point(-8, 5), cv::FONT_HERSHEY_SIMPLEX, 0.45, cv::Scalar(0, 0, 0), 3,
                  cv::LINE_AA);
      cv::putText(debug_, s.token, ip + cv::Point(-8, 5), cv::FONT_HERSHEY_SIMPLEX, 0.45, c, 1, cv::LINE_AA);
    }
  }
  char line[200];
  std::snprintf(line, sizeof line, "t %lld ms  %s  board %s  moving %d px  noise %.1f  gate %.2f ms  read %.1f ms",
                static_cast<long long>(obs.t_ms), obs.settled ? "SETTLED" : "unsettled", obs.board_state.c_str(),
                g.moving_px, g.noise, obs.times.gate_ms, obs.times.read_ms);
  cv::putText(debug_, line, {10, 24}, cv::FONT_HERSHEY_SIMPLEX, 0.55, cv::Scalar(0, 0, 0), 4, cv::LINE_AA);
  cv::putText(debug_, line, {10, 24}, cv::FONT_HERSHEY_SIMPLEX, 0.55, obs.settled ? green : red, 1, cv::LINE_AA);
}

}  // namespace sb::vision
