#include "app/physical_board.h"

#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engines/common/errors.h"

namespace sb::cli {

namespace {

bool is_draughts(const std::string& id) { return id == "brazilian" || id == "international" || id == "english"; }
bool is_morris(const std::string& id) { return id.rfind("morris", 0) == 0; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep)) out.push_back(item);
  return out;
}

// Kings in a PDN FEN ("W:W21-32,K5:B1-12"): the squares written with a K.
std::set<std::string> draughts_kings(const std::string& fen) {
  std::set<std::string> kings;
  for (const std::string& section : split(fen, ':')) {
    if (section.empty() || (section[0] != 'W' && section[0] != 'B') || section.size() < 2) continue;
    for (std::string item : split(section.substr(1), ',')) {
      while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.pop_back();
      if (item.empty() || item[0] != 'K') continue;
      item = item.substr(1);
      auto dash = item.find('-');
      if (dash == std::string::npos) {
        kings.insert(item);
      } else {
        int a = std::stoi(item.substr(0, dash)), b = std::stoi(item.substr(dash + 1));
        for (int k = a; k <= b; ++k) kings.insert(std::to_string(k));
      }
    }
  }
  return kings;
}

// Stacks in a Cờ tư lệnh FEN: site → letters bottom to top (case gives the side).
std::map<std::string, std::string> cotulenh_stacks(const std::string& fen) {
  std::map<std::string, std::string> stacks;
  std::string board = fen.substr(0, fen.find(' '));
  std::vector<std::string> rows = split(board, '/');
  int nrows = static_cast<int>(rows.size());
  for (int r = 0; r < nrows; ++r) {
    int rank = nrows - r, file = 0;
    const std::string& row = rows[r];
    for (size_t i = 0; i < row.size(); ++i) {
      char c = row[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        int n = c - '0';
        while (i + 1 < row.size() && std::isdigit(static_cast<unsigned char>(row[i + 1]))) n = n * 10 + (row[++i] - '0');
        file += n;
      } else if (c == '+') {
        continue;  // a hero; the camera does not see it
      } else if (c == '(') {
        std::string letters;
        while (++i < row.size() && row[i] != ')')
          if (std::isalpha(static_cast<unsigned char>(row[i]))) letters += row[i];
        stacks[std::string(1, static_cast<char>('a' + file)) + std::to_string(rank)] = letters;
        ++file;
      } else if (std::isalpha(static_cast<unsigned char>(c))) {
        ++file;
      }
    }
  }
  return stacks;
}

std::multiset<std::string> all_layers(const vision::BoardContents& c) {
  std::multiset<std::string> out;
  for (const auto& [site, layers] : c) out.insert(layers.begin(), layers.end());
  return out;
}

}  // namespace

int player_of(const Rules& rules, const std::string& token) {
  return !token.empty() && token[0] == rules.side_letter(Side::First) ? 0 : 1;
}

vision::BoardContents board_contents(const Rules& rules, const State& state) {
  Observation obs = rules.observe(state);
  vision::BoardContents out;
  const std::string id = rules.id();
  std::set<std::string> kings;
  std::map<std::string, std::string> stacks;
  std::string fen = rules.fen(state);
  if (is_draughts(id)) kings = draughts_kings(fen);
  if (id == "cotulenh") stacks = cotulenh_stacks(fen);
  for (int i = 0; i < static_cast<int>(obs.sites.size()); ++i) {
    const Token& t = obs.sites[i];
    if (t.empty()) continue;
    std::string name = rules.site_name(i), token = t.str();
    std::vector<std::string> layers{token};
    if (kings.count(name)) layers = {token, token};
    if (auto it = stacks.find(name); it != stacks.end() && it->second.size() > 1) {
      std::vector<std::string> s;
      for (char letter : it->second) {
        char side = std::isupper(static_cast<unsigned char>(letter)) ? rules.side_letter(Side::First)
                                                                      : rules.side_letter(Side::Second);
        s.push_back(std::string(1, side) + static_cast<char>(std::toupper(static_cast<unsigned char>(letter))));
      }
      // Trust the FEN for the stack only when its top is what the engine says the camera sees.
      if (s.back() == token) layers = s;
    }
    out[name] = layers;
  }
  return out;
}

OffBoard off_board(const Rules& rules, const State& state) {
  OffBoard off;
  vision::BoardContents now = board_contents(rules, state);
  std::multiset<std::string> on_board = all_layers(now);
  if (is_morris(rules.id())) {
    // "<board> <w|b> <white in hand> <black in hand>"
    auto in_hand = [](const std::string& fen) {
      std::istringstream in(fen);
      std::string board, side;
      int w = 0, b = 0;
      in >> board >> side >> w >> b;
      return std::array<int, 2>{w, b};
    };
    std::array<int, 2> start = in_hand(rules.fen(rules.start())), hand = in_hand(rules.fen(state));
    for (int p = 0; p < 2; ++p) {
      std::string token(1, rules.side_letter(p == 0 ? Side::First : Side::Second));
      int placed = static_cast<int>(on_board.count(token));
      for (int k = 0; k < hand[p]; ++k) off.reserve[p].push_back(token);
      int lost = start[p] - hand[p] - placed;
      for (int k = 0; k < lost; ++k) off.captured[1 - p].push_back(token);
    }
    return off;
  }
  std::multiset<std::string> at_start = all_layers(board_contents(rules, rules.start()));
  for (const std::string& token : at_start) {
    auto it = on_board.find(token);
    if (it != on_board.end()) {
      on_board.erase(it);
      continue;
    }
    off.captured[1 - player_of(rules, token)].push_back(token);
  }
  return off;
}

vision::BoardContents parse_board_json(const std::string& text, const calib::BoardModel& model, const Rules* rules) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("--board: not valid JSON (") + e.what() + ")");
  }
  if (!j.is_object()) throw InputError("--board: expected a JSON object {\"site\": \"token\", …}");
  vision::BoardContents out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& site = it.key();
    if (model.site_index(site) < 0) throw InputError("--board: " + model.game + " has no site '" + site + "'");
    std::vector<std::string> layers;
    if (it->is_string()) layers.push_back(it->get<std::string>());
    else if (it->is_array())
      for (const auto& v : *it) {
        if (!v.is_string()) throw InputError("--board: site " + site + ": tokens must be strings");
        layers.push_back(v.get<std::string>());
      }
    else throw InputError("--board: site " + site + ": expected a token or a list of tokens");
    if (layers.empty()) throw InputError("--board: site " + site + ": empty stack");
    for (const std::string& tok : layers) {
      Token t = parse_token(tok);
      if (t.empty()) throw InputError("--board: site " + site + ": empty token");
      if (rules && !rules->valid_token(t))
        throw InputError("--board: site " + site + ": '" + tok + "' is not a piece of " + rules->id());
    }
    out[site] = layers;
  }
  return out;
}

}  // namespace sb::cli
