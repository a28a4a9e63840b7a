#include "hall/game_fold.h"

#include "arbiter/event.h"
#include "engines/common/errors.h"

namespace sb::hall {

GameFold::GameFold(std::shared_ptr<const Rules> rules) : rules_(std::move(rules)) {
  games_.push_back(arbiter::GameSummary{});
  begin("");
}

void GameFold::begin(const std::string& fen) {
  State start = fen.empty() ? rules_->start() : rules_->from_fen(fen);
  history_ = {start};
  last_moves_.clear();
  games_.back().start_fen = rules_->fen(start);
  started_ = false;
  alert_ = nullptr;
  last_ = nullptr;
}

std::map<std::string, int> GameFold::score_map() const {
  Score s = rules_->score(position());
  return {{rules_->side_name(Side::First), s[0]}, {rules_->side_name(Side::Second), s[1]}};
}

void GameFold::apply(const nlohmann::json& json) {
  const arbiter::Event e = arbiter::event_from_json(json);
  arbiter::GameSummary& game = games_.back();
  using T = arbiter::EventType;
  switch (e.type) {
    case T::SetupOk: {
      if (!game.moves.empty()) throw InputError("setup_ok in the middle of a game (ply " + std::to_string(ply()) + ")");
      State start = e.fen.empty() ? history_.front() : rules_->from_fen(e.fen);
      history_ = {start};
      game.start_fen = rules_->fen(start);
      game.started_t = e.t;
      started_ = true;
      alert_ = nullptr;
      break;
    }
    case T::SetupMismatch:
    case T::Illegal:
    case T::Unclear:
      alert_ = json;
      break;
    case T::Restored:
      alert_ = nullptr;
      break;
    case T::Move: {
      if (game.over) throw InputError("move '" + e.notation + "' after the game ended (" + game.result + ")");
      if (e.ply != ply() + 1)
        throw InputError("move '" + e.notation + "' numbered ply " + std::to_string(e.ply) + " where ply " +
                         std::to_string(ply() + 1) + " comes next");
      const State& here = position();
      const std::vector<Move> legal = rules_->legal_moves(here);
      const Move* found = nullptr;
      for (const Move& m : legal)
        if (m.notation == e.notation) found = &m;
      if (!found)
        throw InputError("move '" + e.notation + "' is not legal at ply " + std::to_string(e.ply) + " (" +
                         rules_->fen(here) + ")");
      State next = rules_->apply(here, *found);
      const std::string next_fen = rules_->fen(next);
      if (!e.fen.empty() && e.fen != next_fen)
        throw InputError("move '" + e.notation + "' says the position after it is '" + e.fen + "', the rules say '" +
                         next_fen + "'");
      arbiter::PlayedMove played;
      played.ply = e.ply;
      played.side = rules_->side_to_move(here);
      played.move = *found;
      played.record = rules_->record_notation(here, *found);
      played.t = e.t;
      played.score = rules_->score(next);
      played.fen = next_fen;
      if (auto c = e.extra.find("clock"); c != e.extra.end() && c->is_object()) {
        auto first = c->find(rules_->side_name(Side::First)), second = c->find(rules_->side_name(Side::Second));
        if (first != c->end() && first->is_number_integer() && second != c->end() && second->is_number_integer())
          played.clock = std::array<int64_t, 2>{first->get<int64_t>(), second->get<int64_t>()};
        clock_ = *c;
      }
      history_.push_back(std::move(next));
      game.moves.push_back(std::move(played));
      nlohmann::json mark = {{"ply", e.ply}, {"notation", e.notation}, {"captured", e.captured}};
      for (const char* key : {"from", "to", "path"})
        mark[key] = e.extra.contains(key) ? e.extra[key] : nlohmann::json(nullptr);
      last_moves_.push_back(mark);
      last_ = mark;
      alert_ = nullptr;
      break;
    }
    case T::Takeback: {
      if (e.ply < 0 || e.ply > ply())
        throw InputError("takeback to ply " + std::to_string(e.ply) + " in a game of " + std::to_string(ply()) +
                         " plies");
      history_.resize(static_cast<size_t>(e.ply) + 1);
      game.moves.resize(static_cast<size_t>(e.ply));
      last_moves_.resize(static_cast<size_t>(e.ply));
      last_ = last_moves_.empty() ? nlohmann::json(nullptr) : last_moves_.back();
      if (game.over) {
        game.over = false;
        game.result = "*";
        game.reason.clear();
        game.absolute = false;
        game.ended_t = -1;
      }
      alert_ = nullptr;
      break;
    }
    case T::GameOver: {
      if (e.result != "1-0" && e.result != "0-1" && e.result != "1/2-1/2")
        throw InputError("game_over with result '" + e.result + "' (expected 1-0, 0-1 or 1/2-1/2)");
      game.over = true;
      game.result = e.result;
      game.reason = e.reason;
      auto pts = [&](Side s) {
        auto it = e.score.find(rules_->side_name(s));
        return it == e.score.end() ? 0 : it->second;
      };
      game.score = {pts(Side::First), pts(Side::Second)};
      game.absolute = e.extra.value("absolute", false);
      game.ended_t = e.t;
      break;
    }
    case T::NewGame: {
      arbiter::GameSummary next;
      next.game_no = e.extra.value("game_no", game.game_no + 1);
      State start = e.fen.empty() ? rules_->start() : rules_->from_fen(e.fen);  // checked before anything changes
      games_.push_back(next);
      match_over_ = false;
      begin(rules_->fen(start));
      break;
    }
    case T::MatchOver:
      match_over_ = true;
      break;
    case T::Clock:
      if (auto c = e.extra.find("clock"); c != e.extra.end() && c->is_object()) clock_ = *c;
      break;
    case T::DrawOffer:
    case T::DrawDeclined:
    case T::Info:
    case T::Answered:  // what an answer changes in the record comes as its own takeback and moves
      break;
  }
}

}  // namespace sb::hall
