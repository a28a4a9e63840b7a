#include "hall/pairings.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "engines/common/errors.h"
#include "engines/registry.h"
#include "hall/json_bridge.h"
#include "hall/topics.h"

namespace sb::hall {

namespace {

constexpr size_t kMaxFileBytes = 4u << 20;
constexpr size_t kMaxName = 100;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// Checks one pairing's fields; `where` names it ("pairings.csv line 3").
void check_pairing(Pairing& p, const std::string& where) {
  check_board_number(p.board, where);
  for (std::string* name : {&p.first, &p.second}) {
    *name = trim(*name);
    if (name->empty()) throw InputError(where + ": a player's name is empty");
    if (name->size() > kMaxName) throw InputError(where + ": a player's name is longer than 100 characters");
    for (unsigned char c : *name)
      if (c < ' ') throw InputError(where + ": a player's name holds a control character");
  }
  p.game = trim(p.game);
  if (!is_game_id(p.game)) throw InputError(where + ": unknown game '" + p.game + "' (see 'smartboard games')");
  if (!p.options.is_object()) throw InputError(where + ": options must be a JSON object");
  try {
    make_rules(p.game, from_nlohmann(p.options));
  } catch (const InputError& e) {
    throw InputError(where + ": options for " + p.game + ": " + e.what());
  }
}

void add(Pairings& out, Pairing p, const std::string& where) {
  check_pairing(p, where);
  if (out.boards.count(p.board)) throw InputError(where + ": board " + std::to_string(p.board) + " is paired twice");
  out.boards[p.board] = std::move(p);
}

// One CSV record (RFC 4180 quoting), starting at `pos`; advances `pos` and `line`.
std::vector<std::string> csv_record(const std::string& text, size_t& pos, int& line, const std::string& name) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  const int start_line = line;
  while (pos < text.size()) {
    char c = text[pos++];
    if (quoted) {
      if (c == '"') {
        if (pos < text.size() && text[pos] == '"') {
          fields.back() += '"';
          ++pos;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        fields.back() += c;
      }
      continue;
    }
    if (c == '"' && trim(fields.back()).empty()) {
      fields.back().clear();
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++line;
      return fields;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw InputError(name + " line " + std::to_string(start_line) + ": a quoted field is never closed");
  return fields;
}

int parse_board(const std::string& text, const std::string& where) {
  const std::string t = trim(text);
  if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(where + ": board '" + t + "' is not a number");
  return std::stoi(t);
}

std::string json_name(const nlohmann::json& e, std::initializer_list<const char*> keys, const std::string& where) {
  for (const char* k : keys) {
    auto it = e.find(k);
    if (it == e.end()) continue;
    if (!it->is_string()) throw InputError(where + ": \"" + std::string(k) + "\" must be a string");
    return it->get<std::string>();
  }
  return "";
}

}  // namespace

const Pairing* Pairings::find(int board) const {
  auto it = boards.find(board);
  return it == boards.end() ? nullptr : &it->second;
}

Pairings parse_pairings_csv(const std::string& text, const std::string& name) {
  Pairings out;
  size_t pos = 0;
  int line = 1;
  // The header: the first line that is not empty.
  std::vector<std::string> header;
  int header_line = 0;
  while (pos < text.size()) {
    header_line = line;
    header = csv_record(text, pos, line, name);
    if (!(header.size() == 1 && trim(header[0]).empty())) break;
    header.clear();
  }
  if (header.empty()) throw InputError(name + ": empty (expected a header line: board,white,black,game[,options])");
  std::map<std::string, int> column;
  const std::map<std::string, std::string> aliases = {
      {"board", "board"},   {"first", "first"},     {"white", "first"},   {"red", "first"},   {"player1", "first"},
      {"second", "second"}, {"black", "second"},    {"blue", "second"},   {"player2", "second"},
      {"game", "game"},     {"options", "options"}, {"round", "round"}};
  for (size_t i = 0; i < header.size(); ++i) {
    std::string h = lower(trim(header[i]));
    if (i == 0 && h.rfind("\xef\xbb\xbf", 0) == 0) h = h.substr(3);  // a spreadsheet's byte-order mark
    auto a = aliases.find(h);
    if (a == aliases.end())
      throw InputError(name + " line " + std::to_string(header_line) + ": unknown column '" + trim(header[i]) +
                       "' (expected board, white/red/first, black/blue/second, game, options)");
    if (column.count(a->second))
      throw InputError(name + " line " + std::to_string(header_line) + ": column '" + a->second + "' appears twice");
    column[a->second] = static_cast<int>(i);
  }
  for (const char* need : {"board", "first", "second", "game"})
    if (!column.count(need))
      throw InputError(name + " line " + std::to_string(header_line) + ": no '" + std::string(need) + "' column");
  while (pos < text.size()) {
    const int record_line = line;
    std::vector<std::string> f = csv_record(text, pos, line, name);
    if (f.size() == 1 && trim(f[0]).empty()) continue;  // a blank line
    const std::string where = name + " line " + std::to_string(record_line);
    if (f.size() != header.size())
      throw InputError(where + ": " + std::to_string(f.size()) + " fields where the header has " +
                       std::to_string(header.size()));
    Pairing p;
    p.board = parse_board(f[column["board"]], where);
    p.first = f[column["first"]];
    p.second = f[column["second"]];
    p.game = f[column["game"]];
    if (column.count("options")) {
      const std::string o = trim(f[column["options"]]);
      if (!o.empty()) {
        p.options = nlohmann::json::parse(o, nullptr, false);
        if (p.options.is_discarded()) throw InputError(where + ": options are not JSON: " + o);
      }
    }
    if (column.count("round") && out.round.empty()) out.round = trim(f[column["round"]]);
    add(out, std::move(p), where);
  }
  if (out.boards.empty()) throw InputError(name + ": no board is paired (only a header)");
  return out;
}

Pairings parse_pairings_json(const std::string& text, const std::string& name) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError(name + ": not JSON");
  Pairings out;
  const nlohmann::json* list = &j;
  if (j.is_object()) {
    auto boards = j.find("boards");
    if (boards == j.end()) throw InputError(name + ": expected {\"boards\": [...]} or a list of pairings");
    list = &*boards;
    if (auto ev = j.find("event"); ev != j.end()) {
      if (!ev->is_string()) throw InputError(name + ": \"event\" must be a string");
      out.event = ev->get<std::string>();
    }
    if (auto r = j.find("round"); r != j.end()) {
      if (r->is_string()) out.round = r->get<std::string>();
      else if (r->is_number_integer()) out.round = std::to_string(r->get<int64_t>());
      else throw InputError(name + ": \"round\" must be a number or a string");
    }
  }
  if (!list->is_array()) throw InputError(name + ": \"boards\" must be a list");
  size_t index = 0;
  for (const nlohmann::json& e : *list) {
    ++index;
    const std::string where = name + " entry " + std::to_string(index);
    if (!e.is_object()) throw InputError(where + ": expected an object");
    Pairing p;
    auto board = e.find("board");
    if (board == e.end()) throw InputError(where + ": \"board\" is missing");
    if (board->is_number_integer()) {
      const int64_t b = board->get<int64_t>();
      if (b < 1 || b > kMaxBoard) throw InputError(where + ": board " + std::to_string(b) + " is out of 1..9999");
      p.board = static_cast<int>(b);
    } else if (board->is_string()) {
      p.board = parse_board(board->get<std::string>(), where);
    } else {
      throw InputError(where + ": \"board\" must be a number");
    }
    if (auto players = e.find("players"); players != e.end()) {
      if (!players->is_array() || players->size() != 2 || !(*players)[0].is_string() || !(*players)[1].is_string())
        throw InputError(where + ": \"players\" must be a list of two names");
      p.first = (*players)[0].get<std::string>();
      p.second = (*players)[1].get<std::string>();
    } else {
      p.first = json_name(e, {"first", "white", "red"}, where);
      p.second = json_name(e, {"second", "black", "blue"}, where);
    }
    p.game = json_name(e, {"game"}, where);
    if (p.game.empty()) throw InputError(where + ": \"game\" is missing");
    if (auto o = e.find("options"); o != e.end()) p.options = *o;
    add(out, std::move(p), where);
  }
  if (out.boards.empty()) throw InputError(name + ": no board is paired");
  return out;
}

Pairings read_pairings(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("--pairings: cannot read '" + path + "'");
  std::string text;
  text.resize(kMaxFileBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxFileBytes) throw InputError("--pairings '" + path + "': larger than 4 MiB");
  const std::string ext = lower(path.size() >= 5 ? path.substr(path.size() - 5) : path);
  const size_t first = text.find_first_not_of(" \t\r\n");
  const bool json = ext == ".json" || (ext.find(".csv") == std::string::npos && first != std::string::npos &&
                                       (text[first] == '{' || text[first] == '['));
  return json ? parse_pairings_json(text, path) : parse_pairings_csv(text, path);
}

nlohmann::json to_json(const Pairing& p) {
  return {{"board", p.board}, {"first", p.first}, {"second", p.second}, {"game", p.game}, {"options", p.options}};
}

}  // namespace sb::hall
