#include "display/position_view.h"

#include <cctype>

#include "engines/common/errors.h"

namespace sb::display {

namespace {

[[noreturn]] void bad_fen(const std::string& fen, const std::string& what, size_t column) {
  throw InputError("FEN '" + fen + "': " + what + " at column " + std::to_string(column + 1));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Draughts (PDN): "W:W21-32,K5:B1-12", optionally wrapped in quotes or ending in '.'.
PositionView draughts_view(const std::string& fen) {
  std::string text = trim(fen);
  if (!text.empty() && text.back() == '.') text.pop_back();
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  std::vector<std::string> fields = split(text, ':');
  if (fields.empty() || (fields[0] != "W" && fields[0] != "B")) bad_fen(fen, "expected W or B to move", 0);
  PositionView v;
  v.to_move = fields[0] == "W" ? "white" : "black";
  size_t column = 2;
  for (size_t f = 1; f < fields.size(); ++f) {
    const std::string& field = fields[f];
    if (field.empty()) bad_fen(fen, "empty field", column);
    const char colour = field[0];
    if (colour != 'W' && colour != 'B') {
      // Tags after the piece lists (":H0:F1") carry counters, not pieces.
      if (std::isalpha(static_cast<unsigned char>(colour))) {
        column += field.size() + 1;
        continue;
      }
      bad_fen(fen, "expected W or B before a piece list", column);
    }
    const std::string side = colour == 'W' ? "white" : "black";
    std::string list = field.substr(1);
    size_t item_column = column + 1;
    if (!list.empty()) {
      for (std::string item : split(list, ',')) {
        bool king = false;
        if (!item.empty() && item[0] == 'K') {
          king = true;
          item = item.substr(1);
        }
        size_t dash = item.find('-');
        std::string a = dash == std::string::npos ? item : item.substr(0, dash);
        std::string b = dash == std::string::npos ? item : item.substr(dash + 1);
        if (!all_digits(a) || !all_digits(b) || a.size() > 3 || b.size() > 3)
          bad_fen(fen, "bad square '" + item + "'", item_column);
        int lo = std::stoi(a), hi = std::stoi(b);
        if (lo < 1 || hi < lo || hi > 100) bad_fen(fen, "bad square range '" + item + "'", item_column);
        for (int sq = lo; sq <= hi; ++sq) v.pieces.push_back({std::to_string(sq), side, "", king, false, {}});
        item_column += item.size() + 1 + (king ? 1 : 0);
      }
    }
    column += field.size() + 1;
  }
  return v;
}

// Morris: "<board> <w|b> <white in hand> <black in hand>", the board in reading order.
PositionView morris_view(const std::string& fen, const std::vector<std::string>& order) {
  std::vector<std::string> fields;
  for (const std::string& f : split(trim(fen), ' '))
    if (!f.empty()) fields.push_back(f);
  if (fields.size() != 4) bad_fen(fen, "expected '<board> <w|b> <white in hand> <black in hand>'", 0);
  const std::string& board = fields[0];
  if (board.size() != order.size())
    bad_fen(fen, "the board has " + std::to_string(board.size()) + " points, expected " + std::to_string(order.size()), 0);
  PositionView v;
  for (size_t i = 0; i < board.size(); ++i) {
    char c = board[i];
    if (c == '.') continue;
    if (c != 'W' && c != 'B') bad_fen(fen, std::string("unexpected '") + c + "'", i);
    v.pieces.push_back({order[i], c == 'W' ? "white" : "black", "", false, false, {}});
  }
  if (fields[1] != "w" && fields[1] != "b") bad_fen(fen, "expected w or b to move", board.size() + 1);
  v.to_move = fields[1] == "w" ? "white" : "black";
  for (int k = 0; k < 2; ++k) {
    const std::string& n = fields[2 + k];
    if (!all_digits(n) || n.size() > 2) bad_fen(fen, "bad count of pieces in hand '" + n + "'", 0);
    v.in_hand[k == 0 ? "white" : "black"] = std::stoi(n);
  }
  return v;
}

bool is_square_name(const std::string& s) {
  if (s.size() < 2 || s.size() > 3 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return all_digits(s.substr(1));
}

// Cờ toán: "R:R0e2,1a1,...:B0e10,1i11,..."
PositionView cotoan_view(const std::string& fen) {
  std::vector<std::string> fields = split(trim(fen), ':');
  if (fields.empty() || (fields[0] != "R" && fields[0] != "B")) bad_fen(fen, "expected R or B to move", 0);
  PositionView v;
  v.to_move = fields[0] == "R" ? "red" : "blue";
  size_t column = 2;
  for (size_t f = 1; f < fields.size(); ++f) {
    const std::string& field = fields[f];
    if (field.empty() || (field[0] != 'R' && field[0] != 'B')) bad_fen(fen, "expected R or B before a piece list", column);
    const std::string side = field[0] == 'R' ? "red" : "blue";
    size_t item_column = column + 1;
    if (field.size() > 1) {
      for (const std::string& item : split(field.substr(1), ',')) {
        if (item.size() < 3 || !std::isdigit(static_cast<unsigned char>(item[0])) || !is_square_name(item.substr(1)))
          bad_fen(fen, "bad piece '" + item + "' (expected a digit and a square, e.g. 5e1)", item_column);
        v.pieces.push_back({item.substr(1), side, item.substr(0, 1), false, false, {}});
        item_column += item.size() + 1;
      }
    }
    column += field.size() + 1;
  }
  return v;
}

// Cờ tư lệnh: ranks from the top ("6c4/1n2fh1hf2/.../6C4 r"), files a..k; a digit
// run counts empty points; upper case is Red, lower case Blue; "(TI)" is a stack,
// bottom piece first; '+' before a piece marks a hero ("+T", "(T+I)"). Points and
// losses after the side to move are not the screen's concern.
PositionView cotulenh_view(const std::string& fen) {
  std::vector<std::string> fields;
  for (const std::string& f : split(trim(fen), ' '))
    if (!f.empty()) fields.push_back(f);
  if (fields.empty()) bad_fen(fen, "empty", 0);
  std::vector<std::string> ranks = split(fields[0], '/');
  if (ranks.size() != 12) bad_fen(fen, "expected 12 ranks, found " + std::to_string(ranks.size()), 0);
  const std::string kLetters = "CHIETAGSFNM";
  PositionView v;
  v.to_move = "red";
  if (fields.size() > 1) {
    if (fields[1] == "r" || fields[1] == "R") v.to_move = "red";
    else if (fields[1] == "b" || fields[1] == "B") v.to_move = "blue";
    else bad_fen(fen, "expected r or b to move", fields[0].size() + 1);
  }
  size_t column = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const std::string& rank = ranks[r];
    const int rank_number = 12 - static_cast<int>(r);
    int file = 0;
    size_t i = 0;
    auto site_at = [&](int f) { return std::string(1, static_cast<char>('a' + f)) + std::to_string(rank_number); };
    auto read_piece = [&](size_t& k, std::string& side) -> std::string {
      char c = rank[k];
      char up = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (kLetters.find(up) == std::string::npos) bad_fen(fen, std::string("unknown piece '") + c + "'", column + k);
      std::string piece_side = std::isupper(static_cast<unsigned char>(c)) ? "red" : "blue";
      if (!side.empty() && side != piece_side) bad_fen(fen, "a stack mixes both sides", column + k);
      side = piece_side;
      ++k;
      return std::string(1, up);
    };
    while (i < rank.size()) {
      char c = rank[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t j = i;
        while (j < rank.size() && std::isdigit(static_cast<unsigned char>(rank[j]))) ++j;
        int n = std::stoi(rank.substr(i, j - i));
        if (n < 1) bad_fen(fen, "bad empty count", column + i);
        file += n;
        i = j;
        continue;
      }
      if (file >= 11) bad_fen(fen, "rank " + std::to_string(rank_number) + " is longer than 11 points", column + i);
      PieceView p;
      p.site = site_at(file);
      if (c == '+') {  // a hero's letter follows
        p.hero = true;
        if (++i >= rank.size()) bad_fen(fen, "'+' must be followed by a piece", column + i);
        c = rank[i];
      }
      if (c == '(') {
        ++i;
        while (i < rank.size() && rank[i] != ')') {
          if (rank[i] == '+') {
            p.hero = true;
            ++i;
            continue;
          }
          p.stack.push_back(read_piece(i, p.side));
        }
        if (i >= rank.size()) bad_fen(fen, "unclosed stack", column + i);
        ++i;  // ')'
        if (p.stack.empty()) bad_fen(fen, "empty stack", column + i);
      } else {
        p.stack.push_back(read_piece(i, p.side));
      }
      // The camera sees the top piece: the last one of the stack.
      p.label = p.stack.back();
      v.pieces.push_back(p);
      ++file;
    }
    if (file != 11)
      bad_fen(fen, "rank " + std::to_string(rank_number) + " has " + std::to_string(file) + " points, expected 11",
              column);
    column += rank.size() + 1;
  }
  return v;
}

}  // namespace

std::string game_family(const std::string& game) {
  if (game == "brazilian" || game == "international" || game == "english") return "draughts";
  if (game == "morris9" || game == "morris3" || game == "morris6" || game == "morris12") return "morris";
  if (game == "cotoan" || game == "cotulenh") return game;
  throw InputError("unknown game '" + game + "'");
}

std::vector<std::string> side_names(const std::string& game) {
  std::string family = game_family(game);
  if (family == "draughts" || family == "morris") return {"white", "black"};
  return {"red", "blue"};
}

PositionView position_view(const std::string& game, const std::string& fen,
                           const std::vector<std::string>& sites_in_reading_order) {
  const std::string family = game_family(game);
  if (family == "draughts") return draughts_view(fen);
  if (family == "morris") return morris_view(fen, sites_in_reading_order);
  if (family == "cotoan") return cotoan_view(fen);
  return cotulenh_view(fen);
}

nlohmann::json to_json(const PositionView& v) {
  nlohmann::json pieces = nlohmann::json::array();
  for (const PieceView& p : v.pieces) {
    nlohmann::json j = {{"site", p.site}, {"side", p.side}};
    if (!p.label.empty()) j["label"] = p.label;
    if (p.king) j["king"] = true;
    if (p.hero) j["hero"] = true;
    if (p.stack.size() > 1) j["stack"] = p.stack;
    pieces.push_back(j);
  }
  nlohmann::json j = {{"to_move", v.to_move}, {"pieces", pieces}};
  if (!v.in_hand.empty()) j["in_hand"] = v.in_hand;
  return j;
}

}  // namespace sb::display
