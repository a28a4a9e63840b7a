#include "vision/eval/gate_tally.h"

#include <algorithm>

namespace sb::vision {

namespace {
constexpr size_t kMaxNotes = 300;
}

double GateFigures::median_latency_ms() const { return percentile_latency_ms(0.5); }

double GateFigures::percentile_latency_ms(double q) const {
  if (latency_ms.empty()) return -1;
  std::vector<double> v = latency_ms;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

void GateTally::begin_video() {
  end_video();
  in_video_ = true;
  ++f_.videos;
}

void GateTally::end_video() {
  if (!in_video_) return;
  if (have_prev_ && prev_stable_) close_spell(last_t_);
  in_video_ = false;
  have_prev_ = false;
  prev_stable_ = true;
  prev_false_settled_ = false;
  seen_unstable_ = false;
  spell_start_ms_ = spell_settled_ms_ = -1;
}

// A stable spell ends (a new disturbance, or the video's end): if it followed a disturbance and lasted long
// enough to be a real pause, it is a hand leaving, and it either settled (latency) or not.
void GateTally::close_spell(int64_t end_ms) {
  if (!seen_unstable_ || spell_start_ms_ < 0) return;
  if (end_ms - spell_start_ms_ < min_still_ms_) return;
  ++f_.leaves;
  if (spell_settled_ms_ >= 0) {
    f_.latency_ms.push_back(static_cast<double>(spell_settled_ms_ - spell_start_ms_));
  } else {
    ++f_.never_settled;
    if (notes_.size() < kMaxNotes)
      notes_.push_back("video " + std::to_string(f_.videos) + " t " + std::to_string(spell_start_ms_) +
                       " ms: still for " + std::to_string(end_ms - spell_start_ms_) + " ms and never settled");
  }
}

void GateTally::add_frame(int64_t t_ms, bool truth_stable, bool settled) {
  if (!in_video_) begin_video();
  ++f_.frames;
  if (!truth_stable) {
    ++f_.unstable_frames;
    if (settled) {
      ++f_.false_settled;
      if (!prev_false_settled_) {
        ++f_.false_settled_spells;
        if (notes_.size() < kMaxNotes)
          notes_.push_back("video " + std::to_string(f_.videos) + " t " + std::to_string(t_ms) +
                           " ms: settled while a hand is over the board");
      }
    }
    prev_false_settled_ = settled;
    if (have_prev_ && prev_stable_) close_spell(t_ms);
    seen_unstable_ = true;
    spell_start_ms_ = spell_settled_ms_ = -1;
  } else {
    prev_false_settled_ = false;
    if (!have_prev_ || !prev_stable_) {
      spell_start_ms_ = t_ms;
      spell_settled_ms_ = -1;
    }
    if (settled && spell_settled_ms_ < 0) spell_settled_ms_ = t_ms;
  }
  prev_stable_ = truth_stable;
  have_prev_ = true;
  last_t_ = t_ms;
}

}  // namespace sb::vision
