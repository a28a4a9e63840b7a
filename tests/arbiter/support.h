// Helpers shared by the arbiter's tests: frames from boards, event summaries.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/event.h"
#include "arbiter/frame.h"
#include "arbiter/referee.h"
#include "engines/common/rules.h"

namespace sb::testing {

// A perfectly read frame of what the camera sees in `s`.
inline arbiter::Frame frame_of(const Rules& rules, const State& s, int64_t t) {
  arbiter::Frame f;
  f.t = t;
  f.board = rules.observe(s);
  f.conf.assign(f.board.sites.size(), 1.0f);
  return f;
}

// A frame from one character per site ('.' empty, else the side letter), for
// games whose tokens are a side letter only.
inline arbiter::Frame frame_of(const Rules& rules, const std::string& cells, int64_t t) {
  arbiter::Frame f;
  f.t = t;
  f.board.sites.resize(rules.site_count());
  for (int i = 0; i < rules.site_count() && i < static_cast<int>(cells.size()); ++i)
    if (cells[i] != '.') f.board.sites[i].side = cells[i];
  f.conf.assign(f.board.sites.size(), 1.0f);
  return f;
}

inline arbiter::Frame command(int64_t t, nlohmann::json body) {
  arbiter::Frame f;
  f.t = t;
  f.command = std::move(body);
  return f;
}

// "move:c3-c4 game_over:1-0" — the types of the events with their main field.
inline std::string summary(const std::vector<arbiter::Event>& events) {
  std::string s;
  for (const arbiter::Event& e : events) {
    if (!s.empty()) s += ' ';
    s += arbiter::to_string(e.type);
    switch (e.type) {
      case arbiter::EventType::Move: s += ":" + e.notation; break;
      case arbiter::EventType::GameOver:
      case arbiter::EventType::MatchOver: s += ":" + e.result; break;
      case arbiter::EventType::Takeback: s += ":" + std::to_string(e.ply); break;
      default: break;
    }
  }
  return s;
}

// Feeds every frame; returns all events.
inline std::vector<arbiter::Event> feed(arbiter::Referee& referee, const std::vector<arbiter::Frame>& frames) {
  std::vector<arbiter::Event> all;
  for (const arbiter::Frame& f : frames) {
    std::vector<arbiter::Event> ev = referee.on_frame(f);
    all.insert(all.end(), ev.begin(), ev.end());
  }
  return all;
}

inline std::vector<arbiter::Event> operator+(std::vector<arbiter::Event> a, const std::vector<arbiter::Event>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace sb::testing
