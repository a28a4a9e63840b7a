#include "arbiter/simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

namespace sb::arbiter {

namespace {

// The simulated camera: the true board, each site misread now and then.
class Camera {
 public:
  Camera(const SimulationOptions& o, std::mt19937_64& rng, std::vector<Token> palette)
      : o_(o), rng_(rng), palette_(std::move(palette)) {}

  Frame look(const Observation& truth, int64_t t) {
    Frame f;
    f.t = t;
    f.board = truth;
    f.conf.resize(truth.sites.size());
    std::uniform_real_distribution<float> sure(o_.sure_conf_low, 1.0f), unsure(o_.misread_conf_low, o_.misread_conf_high);
    std::uniform_real_distribution<double> chance(0, 1);
    for (size_t i = 0; i < truth.sites.size(); ++i) {
      if (o_.misread_rate > 0 && chance(rng_) < o_.misread_rate) {
        f.board.sites[i] = misread(truth.sites[i]);
        f.conf[i] = unsure(rng_);
      } else {
        f.conf[i] = sure(rng_);
      }
    }
    return f;
  }

 private:
  Token misread(const Token& right) {
    std::uniform_int_distribution<size_t> pick(0, palette_.size() - 1);
    if (!right.empty() && (palette_.size() < 2 || rng_() % 2 == 0)) return Token{};
    for (int tries = 0; tries < 16; ++tries) {
      Token t = palette_[pick(rng_)];
      if (!(t == right)) return t;
    }
    return Token{};
  }

  const SimulationOptions& o_;
  std::mt19937_64& rng_;
  std::vector<Token> palette_;
};

std::string describe(const std::vector<Event>& events, size_t last) {
  std::string s;
  size_t from = events.size() > last ? events.size() - last : 0;
  for (size_t i = from; i < events.size(); ++i) s += " " + to_json(events[i]).dump();
  return s;
}

std::string join_candidates(const Question& q) {
  std::string s;
  for (const std::string& c : q.candidates) {
    if (!s.empty()) s += " / ";
    s += c;
  }
  return s;
}

}  // namespace

SimulationResult simulate(std::shared_ptr<const Rules> rules, const SimulationOptions& options,
                          const RefereeOptions& referee_options, const std::function<void(int)>& progress) {
  SimulationResult result;
  for (int g = options.first_game; g < options.first_game + options.games; ++g) {
    std::mt19937_64 rng(options.seed * 1000003ULL + static_cast<uint64_t>(g));
    // The true game.
    State s = referee_options.start_fen.empty() ? rules->start() : rules->from_fen(referee_options.start_fen);
    std::vector<State> truth{s};
    std::vector<std::string> fens{rules->fen(s)};
    std::vector<std::string> notations;
    std::vector<Token> palette;
    auto collect = [&](const Observation& o) {
      for (const Token& t : o.sites)
        if (!t.empty() && std::find(palette.begin(), palette.end(), t) == palette.end()) palette.push_back(t);
    };
    collect(rules->observe(s));
    while (static_cast<int>(notations.size()) < options.max_plies && !rules->outcome(s).over()) {
      std::vector<Move> moves = rules->legal_moves(s);
      if (moves.empty()) break;
      const Move& m = moves[rng() % moves.size()];
      notations.push_back(m.notation);
      s = rules->apply(s, m);
      truth.push_back(s);
      fens.push_back(rules->fen(s));
      collect(rules->observe(s));
    }
    if (palette.empty()) palette.push_back(Token{rules->side_letter(Side::First), 0});
    const int plies = static_cast<int>(notations.size());

    // The camera and the referee.
    Camera camera(options, rng, palette);
    Referee referee(rules, referee_options);
    std::vector<Event> events;
    const bool trace = g == options.trace_game;
    auto show = [&](const Observation& board, int64_t t, int new_moves) {
      Frame f = camera.look(board, t);
      if (options.prepare) referee.prepare();
      auto t0 = std::chrono::steady_clock::now();
      std::vector<Event> ev = referee.on_frame(f);
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (trace) {
        std::string misread;
        for (size_t i = 0; i < board.sites.size(); ++i)
          if (!(f.board.sites[i] == board.sites[i]))
            misread += " " + rules->site_name(static_cast<int>(i)) + "=" + (f.board.sites[i].empty() ? "." : f.board.sites[i].str()) +
                       "@" + std::to_string(f.conf[i]).substr(0, 4);
        std::fprintf(stderr, "t=%lld new=%d misread:%s\n", static_cast<long long>(t), new_moves, misread.c_str());
        for (const Event& e : ev) {
          nlohmann::json j = to_json(e);
          j.erase("reading");
          j.erase("details");
          j.erase("board");
          std::fprintf(stderr, "    %s\n", j.dump().c_str());
        }
      }
      if (options.time_decisions && new_moves == 1) result.decide_us_one.push_back(us);
      if (options.time_decisions && new_moves == 2) result.decide_us_two.push_back(us);
      events.insert(events.end(), ev.begin(), ev.end());
    };
    int64_t t = 0;
    std::vector<int> refused;  // plies whose answer the referee would not take
    // The operator sees the real board and remembers the game: the oldest open
    // question first (answering it rewrites the later record, which may ask again).
    auto answer_open_questions = [&] {
      for (int round = 0; round < 4 * plies + 20; ++round) {
        const std::vector<Question>& open = referee.questions();
        auto it = std::find_if(open.begin(), open.end(), [&](const Question& q) {
          return std::find(refused.begin(), refused.end(), q.ply) == refused.end();
        });
        if (it == open.end()) break;
        const Question question = *it;
        std::string played;
        for (int k = question.base; k < question.ply && k < plies; ++k)
          played += (played.empty() ? "" : " ") + notations[static_cast<size_t>(k)];
        try {
          std::vector<Event> answer =
              referee.on_command({{"command", "confirm"}, {"move", played}, {"ply", question.ply}}, t);
          if (trace) {
            std::fprintf(stderr, "operator answers ply %d: %s\n", question.ply, played.c_str());
            for (const Event& e : answer) {
              nlohmann::json j = to_json(e);
              for (const char* k : {"reading", "details", "board", "clock", "fen"}) j.erase(k);
              std::fprintf(stderr, "    %s\n", j.dump().c_str());
            }
          }
          events.insert(events.end(), answer.begin(), answer.end());
          // The referee reads the board as it stands from the rewritten record; the
          // input has ended, so what that reading waits on is decided now.
          std::vector<Event> settled = referee.finish(t);
          if (trace)
            for (const Event& e : settled) std::fprintf(stderr, "    %s\n", to_json(e).dump().c_str());
          events.insert(events.end(), settled.begin(), settled.end());
        } catch (const std::exception& e) {
          if (trace) std::fprintf(stderr, "operator answers ply %d: %s: refused: %s\n", question.ply, played.c_str(), e.what());
          refused.push_back(question.ply);  // the answer does not fit the boards seen since: left open, counted below
        }
      }
    };
    show(rules->observe(truth[0]), t, 0);
    std::uniform_real_distribution<double> chance(0, 1);
    bool skipped = false;
    std::vector<bool> unshown(static_cast<size_t>(plies) + 1, false);
    for (int ply = 1; ply <= plies; ++ply) {
      t += options.frame_ms;
      const bool announce = options.operator_answers && rules->observe(truth[static_cast<size_t>(ply)]) ==
                                                            rules->observe(truth[static_cast<size_t>(ply) - 1]);
      if (!skipped && ply < plies && chance(rng) < options.skip_rate && !announce) {
        skipped = true;
        unshown[static_cast<size_t>(ply)] = true;
        continue;
      }
      if (trace) {
        if (skipped)
          std::fprintf(stderr, "ply %d (not shown) %s\n", ply - 1, notations[static_cast<size_t>(ply) - 2].c_str());
        std::fprintf(stderr, "ply %d %s%s -> %s\n", ply, skipped ? "(after a skipped one) " : "",
                     notations[static_cast<size_t>(ply) - 1].c_str(), fens[static_cast<size_t>(ply)].c_str());
      }
      show(rules->observe(truth[static_cast<size_t>(ply)]), t, skipped ? 2 : 1);
      for (int again = 1; again < options.frames_per_position; ++again)
        show(rules->observe(truth[static_cast<size_t>(ply)]), t + again * options.frame_ms / (2 * options.frames_per_position), 0);
      skipped = false;
      if (announce) {
        // The move starts from the true position: questions still open about the
        // moves before it are answered first, as the operator knows them now.
        const std::string& move = notations[static_cast<size_t>(ply) - 1];
        for (int attempt = 0; attempt < 2; ++attempt) {
          try {
            std::vector<Event> entered = referee.on_command({{"command", "confirm"}, {"move", move}}, t);
            if (trace) std::fprintf(stderr, "operator enters the announced move %s\n", move.c_str());
            events.insert(events.end(), entered.begin(), entered.end());
            ++result.announced;
            break;
          } catch (const std::exception& e) {
            if (trace) std::fprintf(stderr, "operator enters the announced move %s: refused: %s\n", move.c_str(), e.what());
            if (attempt > 0 || referee.questions().empty()) break;  // left to the comparison below
            answer_open_questions();
            refused.clear();  // asked again at the end of the game
          }
        }
      }
    }
    for (int extra = 0; extra < 2; ++extra) show(rules->observe(truth.back()), t += options.frame_ms, 0);
    std::vector<Event> last = referee.finish(t);
    events.insert(events.end(), last.begin(), last.end());
    if (options.operator_answers) answer_open_questions();

    // The record against the truth.
    const std::vector<PlayedMove>& recorded = referee.game().moves;
    int right = 0;
    int first_wrong = -1;
    // looks_same_on[i]: the recorded positions from ply i+1 to the end look exactly
    // like the true ones to a camera, so no frame could tell the record wrong.
    std::vector<bool> looks_same_on(static_cast<size_t>(plies) + 1, recorded.size() == static_cast<size_t>(plies));
    for (int i = plies - 1; i >= 0; --i)
      looks_same_on[static_cast<size_t>(i)] =
          looks_same_on[static_cast<size_t>(i) + 1] && i < static_cast<int>(recorded.size()) &&
          rules->observe(rules->from_fen(recorded[static_cast<size_t>(i)].fen)) ==
              rules->observe(truth[static_cast<size_t>(i) + 1]);
    std::vector<bool> asked(static_cast<size_t>(plies) + 1, false);
    for (const Question& q : referee.questions()) {
      std::string played;
      for (int k = q.base; k < q.ply && k < plies; ++k) {
        if (!played.empty()) played += ' ';
        played += notations[static_cast<size_t>(k)];
      }
      if (result.failures.size() < 200)
        result.failures.push_back("game " + std::to_string(g) + " ply " + std::to_string(q.ply) +
                                  ": question left open (played " + played + ", asked " + join_candidates(q) +
                                  (std::find(refused.begin(), refused.end(), q.ply) != refused.end()
                                       ? "; the operator's answer refused)"
                                       : ")"));
    }
    for (const Question& q : referee.questions())
      // The record after the question depends on its answer.
      for (int k = q.base; k < plies; ++k) asked[static_cast<size_t>(k)] = true;
    for (int i = 0; i < plies; ++i) {
      const bool have = i < static_cast<int>(recorded.size());
      bool ok = have && recorded[static_cast<size_t>(i)].fen == fens[static_cast<size_t>(i) + 1];
      right += ok;
      if (!ok && asked[static_cast<size_t>(i)]) {
        ++result.asked;
        continue;
      }
      if (!ok && looks_same_on[static_cast<size_t>(i)]) {
        if (result.failures.size() < 200 && (i == 0 || recorded.size() <= static_cast<size_t>(i) - 1 ||
                                             recorded[static_cast<size_t>(i) - 1].fen == fens[static_cast<size_t>(i)]))
          result.failures.push_back("game " + std::to_string(g) + " ply " + std::to_string(i + 1) +
                                    ": hidden (played " + notations[static_cast<size_t>(i)] + ", recorded " +
                                    recorded[static_cast<size_t>(i)].move.notation + ", no question open)");
        ++result.hidden;
        continue;
      }
      // A position no frame showed, between two moves read from one frame that
      // another pair of moves explains as well, reaching the same next position.
      if (!ok && have && unshown[static_cast<size_t>(i) + 1] && i + 1 < static_cast<int>(recorded.size()) &&
          i + 1 < plies && recorded[static_cast<size_t>(i) + 1].fen == fens[static_cast<size_t>(i) + 2]) {
        ++result.unseen;
        continue;
      }
      if (!ok && first_wrong < 0) first_wrong = i;
    }
    if (static_cast<int>(recorded.size()) > plies && first_wrong < 0) first_wrong = plies;
    result.plies += plies;
    result.right += right;
    result.games_all_right += first_wrong < 0;
    for (const Event& e : events) {
      result.illegal_events += e.type == EventType::Illegal;
      const bool ask = e.type == EventType::Unclear && e.extra.value("ask", false);
      result.unclear_events += e.type == EventType::Unclear && !ask;
      result.questions += ask;
      result.answered_by_board += e.type == EventType::Answered && e.extra.value("by", "") == "board";
      result.answered_by_operator += e.type == EventType::Answered && e.extra.value("by", "") == "operator";
      const bool revised = e.extra.value("revised", false);
      result.takeback_events += e.type == EventType::Takeback && !revised;
      result.revisions += e.type == EventType::Takeback && revised;
    }
    for (const Event& e : events)
      if ((e.type == EventType::Illegal || (e.type == EventType::Unclear && !e.extra.value("ask", false))) &&
          result.failures.size() < 200)
        result.failures.push_back("game " + std::to_string(g) + ": " + to_string(e.type) + " at t=" +
                                  std::to_string(e.t) + " ply " + std::to_string(e.ply) + ": " + e.reason + " " +
                                  nlohmann::json(e.squares).dump());
    Outcome end = rules->outcome(truth.back());
    if (end.over()) {
      ++result.game_over_true;
      const bool end_right = referee.game().over && referee.game().result == end.result();
      result.game_over_right += end_right;
      const bool end_asked = !end_right && !referee.questions().empty();
      result.game_over_asked += end_asked;
      if (!end_right && !end_asked && first_wrong < 0 && result.failures.size() < 200)
        result.failures.push_back("game " + std::to_string(g) + ": ended " + end.result() + " (" + end.reason +
                                  "), announced " + (referee.game().over ? referee.game().result + " (" + referee.game().reason + ")" : "nothing"));
    }
    if (first_wrong >= 0 && result.failures.size() < 200) {
      std::string what = "game " + std::to_string(g) + " ply " + std::to_string(first_wrong + 1) + ": played " +
                         (first_wrong < plies ? notations[static_cast<size_t>(first_wrong)] : "(nothing)") +
                         ", recorded " +
                         (first_wrong < static_cast<int>(recorded.size())
                              ? recorded[static_cast<size_t>(first_wrong)].move.notation
                              : std::string("(nothing)")) +
                         " from " + fens[static_cast<size_t>(std::min(first_wrong, plies))] + "; last events:" +
                         describe(events, 4);
      result.failures.push_back(what);
    }
    ++result.games;
    if (progress) progress(result.games);
  }
  return result;
}

}  // namespace sb::arbiter
