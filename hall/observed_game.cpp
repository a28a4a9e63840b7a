#include "hall/observed_game.h"

#include <random>

#include <nlohmann/json.hpp>

#include "arbiter/frame.h"

namespace sb::hall {

ObservedGame random_observed_game(const Rules& rules, const ObservedGameOptions& options) {
  ObservedGame g;
  std::mt19937_64 rng(options.seed * 7919ULL + 17);
  std::uniform_int_distribution<int64_t> think(options.think_ms_low, std::max(options.think_ms_low, options.think_ms_high));
  State s = rules.start();
  int64_t t = 0;
  auto frame = [&](const State& position) {
    nlohmann::json line = {{"t", t}, {"board", arbiter::board_json(rules, rules.observe(position))}};
    g.lines.push_back(line.dump());
  };
  frame(s);  // the set-up board
  t += 1000;
  frame(s);
  while (static_cast<int>(g.notations.size()) < options.max_plies && !rules.outcome(s).over()) {
    std::vector<Move> moves = rules.legal_moves(s);
    if (moves.empty()) break;
    const Move& m = moves[rng() % moves.size()];
    g.notations.push_back(m.notation);
    s = rules.apply(s, m);
    t += think(rng);
    frame(s);
  }
  g.final_fen = rules.fen(s);
  g.over = rules.outcome(s).over();
  return g;
}

}  // namespace sb::hall
