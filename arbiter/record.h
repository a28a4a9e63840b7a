// Game records from what the referee kept: a JSON record for every game, a text
// record in each game's own notation (Rules::record_notation: Cờ toán with each
// capture's calculation, Cờ tư lệnh with the seed's symbols), and PDN for the
// draughts family (the draughts engine's writer, readable by other draughts
// software).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arbiter/referee.h"

namespace sb::arbiter {

// What the record says about the occasion (PDN's seven tags, less the result).
struct RecordTags {
  std::string event = "smartboard referee";
  std::string site = "?";
  std::string date = "????.??.??";
  std::string first_player = "?";   // White / Red
  std::string second_player = "?";  // Black / Blue
};

enum class RecordFormat { Json, Text, Pdn };
// .json → JSON, .pdn → PDN, anything else → text.
RecordFormat record_format_for(const std::string& path);
// Throws InputError when `rules` cannot be written in `format` (PDN is for draughts only).
void check_record_format(RecordFormat format, const Rules& rules);

nlohmann::json json_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags = {});
std::string text_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags = {});
// PDN 3.0 through the draughts engine's writer. Throws InputError for a game that
// is not of the draughts family.
std::string pdn_record(const Rules& rules, const std::vector<GameSummary>& games, const RecordTags& tags = {});

std::string write_record(RecordFormat format, const Rules& rules, const std::vector<GameSummary>& games,
                         const RecordTags& tags = {});

}  // namespace sb::arbiter
