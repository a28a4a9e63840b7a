#include "arbiter/record.h"

#include <cstdio>

#include "engines/common/errors.h"
#include "engines/draughts/draughts_rules.h"
#include "engines/draughts/pdn.h"

namespace sb::arbiter {

namespace {

nlohmann::json to_nlohmann(const Json& j) {
  if (j.is_null()) return nullptr;
  return nlohmann::json::parse(j.dump());
}

nlohmann::json site_or_null(const Rules& rules, int site) {
  return site >= 0 ? nlohmann::json(rules.site_name(site)) : nlohmann::json(nullptr);
}

nlohmann::json score_json(const Rules& rules, const Score& s) {
  return {{rules.side_name(Side::First), s[0]}, {rules.side_name(Side::Second), s[1]}};
}

std::string clock_text(int64_t ms) {
  if (ms < 0) ms = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(ms / 60000),
                static_cast<long long>(ms / 1000 % 60));
  return buf;
}

}  // namespace

RecordFormat record_format_for(const std::string& path) {
  auto ends = [&](const char* ext) {
    std::string e = ext;
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".json")) return RecordFormat::Json;
  if (ends(".pdn")) return RecordFormat::Pdn;
  return RecordFormat::Text;
}

void check_record_format(RecordFormat format, const Rules& rules) {
  if (format == RecordFormat::Pdn && !dynamic_cast<const draughts::DraughtsRules*>(&rules))
    throw InputError("a PDN record is for draughts; " + rules.id() + " has a text or JSON record");
}

nlohmann::json json_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags) {
  nlohmann::json j;
  j["game"] = rules.id();
  j["rules"] = to_nlohmann(rules.options());
  j["event"] = tags.event;
  j["site"] = tags.site;
  j["date"] = tags.date;
  j["players"] = {{rules.side_name(Side::First), tags.first_player},
                  {rules.side_name(Side::Second), tags.second_player}};
  nlohmann::json list = nlohmann::json::array();
  for (const GameSummary& g : games) {
    nlohmann::json game;
    game["game_no"] = g.game_no;
    game["start_fen"] = g.start_fen;
    game["result"] = g.result;
    game["reason"] = g.reason;
    game["score"] = score_json(rules, g.over ? g.score : (g.moves.empty() ? Score{0, 0} : g.moves.back().score));
    if (g.absolute) game["absolute"] = true;
    game["started_t"] = g.started_t;
    game["ended_t"] = g.ended_t;
    nlohmann::json moves = nlohmann::json::array();
    Score before = g.start_fen.empty() ? Score{0, 0} : rules.score(rules.from_fen(g.start_fen));
    for (const PlayedMove& m : g.moves) {
      nlohmann::json mj = m.move.details.is_object() ? to_nlohmann(m.move.details) : nlohmann::json::object();
      mj["ply"] = m.ply;
      mj["side"] = rules.side_name(m.side);
      mj["notation"] = m.move.notation;
      mj["record"] = m.record;
      mj["from"] = site_or_null(rules, m.move.from);
      mj["to"] = site_or_null(rules, m.move.to);
      nlohmann::json captured = nlohmann::json::array();
      for (int c : m.move.captured) captured.push_back(rules.site_name(c));
      mj["captured"] = captured;
      // What the move added to the mover's score (for draughts and Morris: the pieces it took).
      mj["points"] = m.score[index_of(m.side)] - before[index_of(m.side)];
      before = m.score;
      mj["score"] = score_json(rules, m.score);
      mj["fen"] = m.fen;
      mj["t"] = m.t;
      if (m.clock)
        mj["clock"] = {{rules.side_name(Side::First), (*m.clock)[0]}, {rules.side_name(Side::Second), (*m.clock)[1]}};
      moves.push_back(mj);
    }
    game["moves"] = moves;
    list.push_back(game);
  }
  j["games"] = list;
  return j;
}

std::string text_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags) {
  std::string out;
  const std::string first = rules.side_name(Side::First), second = rules.side_name(Side::Second);
  const std::string start_fen = rules.fen(rules.start());
  for (const GameSummary& g : games) {
    out += rules.id() + " - " + tags.event + ", game " + std::to_string(g.game_no) + "\n";
    out += "Site: " + tags.site + "   Date: " + tags.date + "\n";
    out += first + ": " + tags.first_player + "   " + second + ": " + tags.second_player + "\n";
    if (g.start_fen != start_fen) out += "Start: " + g.start_fen + "\n";
    if (!g.moves.empty() && g.moves.front().side == Side::Second) out += "(" + second + " moved first)\n";
    // Two plies a line, numbered, each with its clock reading when each side had a clock.
    for (size_t i = 0; i < g.moves.size(); i += 2) {
      char number[32];
      std::snprintf(number, sizeof number, "%3zu. ", i / 2 + 1);
      std::string line = number;
      for (size_t k = i; k < i + 2 && k < g.moves.size(); ++k) {
        const PlayedMove& m = g.moves[k];
        std::string cell = m.record;
        if (m.clock) cell += " [" + clock_text((*m.clock)[static_cast<size_t>(m.side)]) + "]";
        if (k == i && cell.size() < 28) cell.resize(28, ' ');
        line += cell + (k == i ? " " : "");
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    out += "Result: " + g.result;
    if (!g.reason.empty()) out += " (" + g.reason + ")";
    out += "\n";
    Score s = g.over ? g.score : (g.moves.empty() ? Score{0, 0} : g.moves.back().score);
    out += std::string(rules.keeps_score() ? "Points: " : "Pieces taken: ") + first + " " + std::to_string(s[0]) +
           ", " + second + " " + std::to_string(s[1]) + "\n\n";
  }
  return out;
}

std::string pdn_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags) {
  check_record_format(RecordFormat::Pdn, rules);
  const auto* draughts_rules = dynamic_cast<const draughts::DraughtsRules*>(&rules);
  std::vector<draughts::PdnGame> out;
  for (const GameSummary& g : games) {
    std::vector<Move> moves;
    for (const PlayedMove& m : g.moves) moves.push_back(m.move);
    std::vector<draughts::PdnTag> pdn_tags = {{"Event", tags.event},
                                              {"Site", tags.site},
                                              {"Date", tags.date},
                                              {"Round", std::to_string(g.game_no)},
                                              {"White", tags.first_player},
                                              {"Black", tags.second_player}};
    out.push_back(draughts::record_pdn(*draughts_rules, rules.from_fen(g.start_fen), moves, g.result, pdn_tags));
  }
  return draughts::write_pdn(out);
}

std::string write_record(RecordFormat format, const Rules& rules, const std::vector<GameSummary>& games,
                         const RecordTags& tags) {
  switch (format) {
    case RecordFormat::Json: return json_record(rules, games, tags).dump(2) + "\n";
    case RecordFormat::Text: return text_record(rules, games, tags);
    case RecordFormat::Pdn: return pdn_record(rules, games, tags);
  }
  return text_record(rules, games, tags);
}

}  // namespace sb::arbiter
