// Test data for the display tests, made by code: a Cờ toán board model (9×11
// squares), a short Cờ toán game as events (moves, an illegal move, a capture
// reached by 7 + 4 = 11 → 1), and a host that answers from them.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "display/host.h"
#include "engines/common/errors.h"

namespace sb::display::testing {

// Squares of 40 mm, a1 bottom-left (Red's side), y down; e2 and e10 marked.
inline nlohmann::json cotoan_board_model() {
  const double cell = 40, margin = 20;
  nlohmann::json sites = nlohmann::json::object();
  nlohmann::json shapes = nlohmann::json::array();
  shapes.push_back({{"kind", "rect"}, {"x", 0}, {"y", 0}, {"w", 9 * cell + 2 * margin}, {"h", 11 * cell + 2 * margin},
                    {"style", "board"}});
  for (int f = 0; f < 9; ++f)
    for (int r = 0; r < 11; ++r) {
      double x = margin + f * cell, y = margin + (10 - r) * cell;
      std::string name = std::string(1, static_cast<char>('a' + f)) + std::to_string(r + 1);
      sites[name] = {x + cell / 2, y + cell / 2};
      bool marked = name == "e2" || name == "e10";
      shapes.push_back({{"kind", "rect"}, {"x", x}, {"y", y}, {"w", cell}, {"h", cell},
                        {"style", marked ? "marked" : "light"}});
      if (marked) shapes.push_back({{"kind", "line"}, {"from", {x, y}}, {"to", {x + cell, y + cell}}, {"style", "line"}});
    }
  return {{"game", "cotoan"}, {"width_mm", 9 * cell + 2 * margin}, {"height_mm", 11 * cell + 2 * margin},
          {"piece_mm", 32}, {"sites", sites}, {"shapes", shapes}};
}

inline const char* kCotoanStart =
    "R:R0e2,1a1,2b1,3c1,4d1,5e1,6f1,7g1,8h1,9i1:B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";

// A short game: 4:d1-d5, 6:d11-d6, an illegal attempt to move the 0, restored,
// 7:g1-d4, 1:i11-i10, then 7:d4xd6 by 7 + 4 = 11 → 1 (pair d4, d5) taking the 6.
inline std::vector<nlohmann::json> cotoan_short_game() {
  const std::string r = "R0e2,1a1,2b1,3c1,", rest = "5e1,6f1,8h1,9i1";
  const std::string blue = "B0e10,1i11,2h11,3g11,4f11,5e11,6d11,7c11,8b11,9a11";
  const std::string blue2 = "B0e10,1i11,2h11,3g11,4f11,5e11,6d6,7c11,8b11,9a11";
  const std::string blue4 = "B0e10,1i10,2h11,3g11,4f11,5e11,6d6,7c11,8b11,9a11";
  const std::string blue5 = "B0e10,1i10,2h11,3g11,4f11,5e11,7c11,8b11,9a11";
  return {
      {{"type", "setup_ok"}, {"t", 0}, {"fen", kCotoanStart}},
      {{"type", "move"}, {"t", 1000}, {"ply", 1}, {"side", "red"}, {"notation", "4:d1-d5"}, {"captured", nlohmann::json::array()},
       {"points", 0}, {"score", {{"red", 0}, {"blue", 0}}}, {"fen", "B:" + r + "4d5," + rest + ",7g1:" + blue}},
      {{"type", "move"}, {"t", 2000}, {"ply", 2}, {"side", "blue"}, {"notation", "6:d11-d6"}, {"captured", nlohmann::json::array()},
       {"points", 0}, {"score", {{"red", 0}, {"blue", 0}}}, {"fen", "R:" + r + "4d5," + rest + ",7g1:" + blue2}},
      {{"type", "illegal"}, {"t", 3000}, {"side", "red"}, {"reason", "the 0 never moves"}, {"reason_vi", "quân 0 không bao giờ di chuyển"},
       {"squares", {"e2", "e3"}}},
      {{"type", "restored"}, {"t", 4000}},
      {{"type", "move"}, {"t", 5000}, {"ply", 3}, {"side", "red"}, {"notation", "7:g1-d4"}, {"captured", nlohmann::json::array()},
       {"points", 0}, {"score", {{"red", 0}, {"blue", 0}}}, {"fen", "B:" + r + "4d5," + rest + ",7d4:" + blue2}},
      {{"type", "move"}, {"t", 6000}, {"ply", 4}, {"side", "blue"}, {"notation", "1:i11-i10"}, {"captured", nlohmann::json::array()},
       {"points", 0}, {"score", {{"red", 0}, {"blue", 0}}}, {"fen", "R:" + r + "4d5," + rest + ",7d4:" + blue4}},
      {{"type", "move"}, {"t", 7000}, {"ply", 5}, {"side", "red"}, {"notation", "7:d4xd6"}, {"captured", {"d6"}},
       {"points", 6}, {"score", {{"red", 6}, {"blue", 0}}}, {"pair", {"d4", "d5"}}, {"op", "+"},
       {"fen", "B:" + r + "4d5," + rest + ",7d6:" + blue5}},
  };
}

// Answers from the fixtures: legal moves from a fixed list, commands recorded.
class FixtureHost : public GameHost {
 public:
  std::string game() const override { return "cotoan"; }
  nlohmann::json board_model() const override { return cotoan_board_model(); }
  std::string start_fen() const override { return kCotoanStart; }
  nlohmann::json legal_moves(const MoveQuery& q) const override {
    const nlohmann::json all = {
        {{"notation", "4:d5-d6"}, {"from", "d5"}, {"to", "d6"}, {"captured", nlohmann::json::array()}},
        {{"notation", "7:d4xd6"}, {"from", "d4"}, {"to", "d6"}, {"captured", {"d6"}}, {"pair", {"d4", "d5"}}, {"op", "+"}},
        {{"notation", "1:a1-a2"}, {"from", "a1"}, {"to", "a2"}, {"captured", nlohmann::json::array()}},
    };
    if (q.fen.empty()) throw InputError("empty FEN");
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : all) {
      if (!q.from.empty() && m["from"] != q.from) continue;
      if (q.captures_only && m["captured"].empty()) continue;
      out.push_back(m);
    }
    return out;
  }
  CommandReply command(const nlohmann::json& c) override {
    std::lock_guard<std::mutex> lock(mutex);
    commands.push_back(c);
    if (c["command"] == "resign") return CommandReply::ok({{"ok", true}, {"result", "0-1"}});
    return CommandReply::error(400, "unknown command '" + c["command"].get<std::string>() + "'");
  }
  nlohmann::json state_extra() const override { return {{"phase", "playing"}, {"game", "not this"}}; }
  std::optional<Record> record(const std::string& format) const override {
    // No records of its own: the display writes the text and JSON ones.
    (void)format;
    return std::nullopt;
  }

  mutable std::mutex mutex;
  std::vector<nlohmann::json> commands;
};

}  // namespace sb::display::testing
