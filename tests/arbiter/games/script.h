// Scripted observation sequences on the real engines: a referee, the true
// position, and frames made from what a camera would see (Rules::observe),
// edited square by square for half-made moves and faults.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arbiter/referee.h"
#include "engines/common/rules.h"
#include "engines/registry.h"
#include "tests/arbiter/support.h"

namespace sb::testing {

class Script {
 public:
  explicit Script(const std::string& game, arbiter::RefereeOptions options = {}, const Json& rule_options = Json::object())
      : rules(make_rules(game, rule_options)), referee(rules, options) {
    state = options.start_fen.empty() ? rules->start() : rules->from_fen(options.start_fen);
  }

  // The board of `s`, to edit.
  Observation board(const State& s) const { return rules->observe(s); }
  Observation board() const { return board(state); }
  // `b` with `square` showing `token` ("" for empty).
  Observation with(Observation b, const std::string& square, const std::string& token) const {
    const int site = rules->site_index(square);
    EXPECT_GE(site, 0) << square;
    if (site >= 0) b.sites[static_cast<size_t>(site)] = token.empty() ? Token{} : parse_token(token);
    return b;
  }
  State after(const std::string& moves) const { return rules->play(state, moves); }

  // One frame of `b`, a second after the previous one.
  std::vector<arbiter::Event> see(const Observation& b, int64_t gap = 1000) {
    arbiter::Frame f;
    f.t = t += gap;
    f.board = b;
    f.conf.assign(b.sites.size(), 1.0f);
    return referee.on_frame(f);
  }
  // One frame of `b` whose `doubtful` squares are read at confidence `conf`.
  std::vector<arbiter::Event> see_doubting(const Observation& b, const std::vector<std::string>& doubtful, float conf,
                                           int64_t gap = 1000) {
    arbiter::Frame f;
    f.t = t += gap;
    f.board = b;
    f.conf.assign(b.sites.size(), 1.0f);
    for (const std::string& square : doubtful) f.conf[static_cast<size_t>(rules->site_index(square))] = conf;
    return referee.on_frame(f);
  }
  // The board after `moves` (space-separated) from the current true position,
  // which becomes the true position.
  std::vector<arbiter::Event> play(const std::string& moves, int64_t gap = 1000) {
    state = after(moves);
    return see(board(), gap);
  }
  std::vector<arbiter::Event> command(nlohmann::json c, int64_t gap = 100) { return referee.on_command(c, t += gap); }
  std::vector<arbiter::Event> start() { return see(board()); }

  std::shared_ptr<const Rules> rules;
  arbiter::Referee referee;
  State state;
  int64_t t = 0;
};

}  // namespace sb::testing
