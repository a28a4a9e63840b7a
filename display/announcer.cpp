#include "display/announcer.h"

#include <cctype>

#include "engines/common/errors.h"

namespace sb::display {

namespace {

struct Words {
  Language lang;
  bool en() const { return lang == Language::English; }
  std::string pick(const char* e, const char* v) const { return en() ? e : v; }
};

std::string side_word(const std::string& side, const Words& w) {
  if (side == "white") return w.pick("White", "Trắng");
  if (side == "black") return w.pick("Black", "Đen");
  if (side == "red") return w.pick("Red", "Đỏ");
  if (side == "blue") return w.pick("Blue", "Xanh");
  return side;
}

std::string join(const nlohmann::json& list, const std::string& sep) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& x : list) {
    if (!x.is_string()) continue;
    if (!out.empty()) out += sep;
    out += x.get<std::string>();
  }
  return out;
}

std::string str(const nlohmann::json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Notation read aloud: "22x13" → "22 takes 13", "8:e3-e5" → "8 from e3 to e5".
std::string spoken_notation(const std::string& notation, const Words& w) {
  std::string text = notation.substr(0, notation.find('('));
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool between = i > 0 && i + 1 < text.size() && std::isalnum(static_cast<unsigned char>(text[i - 1])) &&
                   std::isalnum(static_cast<unsigned char>(text[i + 1]));
    if (c == '-' && between) out += w.pick(" to ", " đến ");
    else if (c == 'x' && between && std::isdigit(static_cast<unsigned char>(text[i - 1]))) out += w.pick(" takes ", " ăn ");
    else if (c == '@' && between) out += w.pick(" strikes ", " bắn ");
    else if (c == ':' && between) out += w.pick(" from ", " từ ");
    else out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string op_word(const std::string& op, const Words& w) {
  if (op == "+") return w.pick("plus", "cộng");
  if (op == "-") return w.pick("minus", "trừ");
  if (op == "*") return w.pick("times", "nhân");
  return w.pick("divided by", "chia");
}

std::string calc_text(const nlohmann::json& calc, const Words& w) {
  const std::string op = calc.value("op", "+");
  const char* symbol = op == "+" ? "+" : op == "-" ? "\u2212" : op == "*" ? "\u00d7" : "\u00f7";
  int a = calc.value("a", 0), b = calc.value("b", 0), result = calc.value("result", 0);
  int remainder = calc.value("remainder", 0), value = calc.value("value", 0);
  std::string s = std::to_string(a) + " " + symbol + " " + std::to_string(b) + " = " + std::to_string(result);
  if (op == "/" && remainder != 0) s += w.pick(" r ", " dư ") + std::to_string(remainder);
  if (value != result || (op == "/" && remainder != 0)) s += " \u2192 " + std::to_string(value);
  return s;
}

std::string calc_speech(const nlohmann::json& calc, const Words& w) {
  const std::string op = calc.value("op", "+");
  int a = calc.value("a", 0), b = calc.value("b", 0), result = calc.value("result", 0);
  int remainder = calc.value("remainder", 0), value = calc.value("value", 0);
  std::string s = std::to_string(a) + " " + op_word(op, w) + " " + std::to_string(b) + w.pick(" equals ", " bằng ") +
                  std::to_string(result);
  if (op == "/" && remainder != 0) s += w.pick(" remainder ", " dư ") + std::to_string(remainder);
  if (value != result || (op == "/" && remainder != 0)) s += w.pick(", counts ", ", được ") + std::to_string(value);
  return s;
}

std::string points_text(int points, const Words& w) {
  if (w.en()) return std::to_string(points) + (points == 1 ? " point" : " points");
  return std::to_string(points) + " điểm";
}

std::string winner_text(const std::string& result, const std::vector<std::string>& sides, const Words& w) {
  if (result == "1/2-1/2") return w.pick("Draw", "Hòa");
  if (sides.size() == 2 && (result == "1-0" || result == "0-1")) {
    const std::string& side = result == "1-0" ? sides[0] : sides[1];
    return side_word(side, w) + w.pick(" wins", " thắng");
  }
  return result;
}

std::string info_title(const std::string& reason, const nlohmann::json& e, const Words& w) {
  const std::string who = side_word(str(e, "side"), w);
  if (reason == "new_game") return w.pick("New game", "Ván mới");
  if (reason == "start") return w.pick("Game started", "Bắt đầu ván đấu");
  if (reason == "draw_offered") return who + w.pick(" offers a draw", " đề nghị hòa");
  if (reason == "draw_declined") return w.pick("Draw declined", "Từ chối hòa");
  if (reason == "language") return str(e, "lang") == "vi" ? "Tiếng Việt" : "English";
  if (reason == "board_moved") return w.pick("The board moved: recalibrating", "Bàn cờ bị xê dịch: đang hiệu chỉnh lại");
  if (reason == "camera_lost") return w.pick("Camera lost", "Mất tín hiệu camera");
  return reason;
}

}  // namespace

Language language_from_code(const std::string& code) {
  if (code == "en") return Language::English;
  if (code == "vi") return Language::Vietnamese;
  throw InputError("language '" + code + "': expected en or vi");
}

const char* language_code(Language l) { return l == Language::English ? "en" : "vi"; }

Announcement announce(const nlohmann::json& e, const std::vector<std::string>& sides, Language lang) {
  const Words w{lang};
  const std::string type = str(e, "type");
  Announcement a;
  if (type == "move") {
    const std::string who = side_word(str(e, "side"), w);
    const std::string notation = str(e, "notation");
    const bool capture = e.contains("captured") && e["captured"].is_array() && !e["captured"].empty();
    const int points = e.value("points", 0);
    a.kind = capture ? "capture" : "move";
    a.title = who + "  " + notation.substr(0, notation.find(" ("));
    a.speech = who + ", " + spoken_notation(notation, w) + ".";
    if (capture) {
      std::string detail = w.pick("takes ", "ăn ") + join(e["captured"], ", ");
      if (e.contains("calc") && e["calc"].is_object()) {
        detail += "  \u00b7  " + calc_text(e["calc"], w);
        a.speech += " " + calc_speech(e["calc"], w) + ".";
      }
      // Draughts and Morris (white and black) score the pieces taken, which "takes …" says already.
      const bool counts_pieces = sides.size() == 2 && sides[0] == "white" && sides[1] == "black";
      if (points > 0 && !counts_pieces) {
        detail += "  \u00b7  +" + points_text(points, w);
        a.speech += " " + points_text(points, w) + ".";
      }
      a.detail = detail;
    }
  } else if (type == "illegal") {
    a.kind = "illegal";
    a.title = w.pick("Illegal move", "Nước đi không hợp lệ");
    std::string reason = w.en() ? str(e, "reason") : str(e, "reason_vi");
    if (reason.empty()) reason = str(e, "reason");
    a.detail = reason;
    std::string squares = join(e.value("squares", nlohmann::json::array()), ", ");
    if (!squares.empty()) a.detail += (a.detail.empty() ? "" : "  \u00b7  ") + squares;
    a.speech = a.title + ". " + reason + (reason.empty() ? "" : ".");
  } else if (type == "restored") {
    a.kind = "restored";
    a.title = w.pick("Position restored", "Đã đặt lại thế cờ");
    a.speech = a.title + ".";
  } else if (type == "takeback") {
    a.kind = "takeback";
    a.title = w.pick("Move taken back", "Đã lùi nước đi");
    a.detail = w.pick("back to ply ", "trở lại nước ") + std::to_string(e.value("ply", 0));
    a.speech = a.title + ".";
  } else if (type == "game_over") {
    a.kind = "over";
    const std::string result = str(e, "result");
    a.title = w.pick("Game over", "Kết thúc ván đấu") + ": " + result;
    a.detail = winner_text(result, sides, w);
    std::string reason = w.en() ? str(e, "reason") : str(e, "reason_vi");
    if (reason.empty()) reason = str(e, "reason");
    if (!reason.empty()) a.detail += " \u2014 " + reason;
    a.speech = w.pick("Game over. ", "Kết thúc ván đấu. ") + winner_text(result, sides, w) + ".";
  } else if (type == "setup_ok") {
    a.kind = "setup";
    a.title = w.pick("Board ready", "Bàn cờ đã sẵn sàng");
    a.speech = w.pick("The board is set up. Ready to play.", "Bàn cờ đã xếp đúng. Bắt đầu.");
  } else if (type == "setup_mismatch") {
    a.kind = "mismatch";
    a.title = w.pick("Check the setup", "Kiểm tra cách xếp quân");
    a.detail = join(e.value("squares", nlohmann::json::array()), ", ");
  } else if (type == "unclear") {
    a.kind = "unclear";
    a.title = w.pick("Unclear change", "Thay đổi không rõ");
    a.detail = join(e.value("squares", nlohmann::json::array()), ", ");
    a.speech = w.pick("Please check the board.", "Xin kiểm tra lại bàn cờ.");
  } else if (type == "refused") {
    // The operator's command was not taken; its reason is the referee's own words (English).
    a.kind = "refused";
    const nlohmann::json command = e.value("command", nlohmann::json::object());
    const std::string name = command.is_object() ? str(command, "command") : "";
    a.title = w.pick("Command refused", "Lệnh bị từ chối") + (name.empty() ? "" : ": " + name);
    a.detail = str(e, "reason");
  } else if (type == "info") {
    const std::string reason = str(e, "reason");
    if (reason.empty()) return a;
    a.kind = "info";
    a.title = info_title(reason, e, w);
    a.detail = w.en() ? str(e, "detail") : str(e, "detail_vi");
    if (reason == "draw_offered" || reason == "new_game" || reason == "start") a.speech = a.title + ".";
  }
  return a;
}

nlohmann::json announcement_json(const nlohmann::json& event, const std::vector<std::string>& sides) {
  Announcement en = announce(event, sides, Language::English);
  if (en.kind.empty()) return nullptr;
  Announcement vi = announce(event, sides, Language::Vietnamese);
  auto part = [](const Announcement& a) {
    return nlohmann::json{{"title", a.title}, {"detail", a.detail}, {"speech", a.speech}};
  };
  return {{"kind", en.kind}, {"en", part(en)}, {"vi", part(vi)}};
}

}  // namespace sb::display
