#include "engines/draughts/pdn.h"

#include <cctype>

#include "engines/common/errors.h"
#include "engines/draughts/fen.h"

namespace sb::draughts {

const std::string* PdnGame::tag(std::string_view name) const {
  for (const PdnTag& t : tags)
    if (t.name == name) return &t.value;
  return nullptr;
}

void PdnGame::set_tag(const std::string& name, const std::string& value) {
  for (PdnTag& t : tags)
    if (t.name == name) {
      t.value = value;
      return;
    }
  tags.push_back({name, value});
}

namespace {

bool is_result(std::string_view w) {
  return w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*" || w == "2-0" || w == "0-2" || w == "1-1" || w == "0-0";
}

class PdnReader {
 public:
  PdnReader(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  std::vector<PdnGame> read() {
    std::vector<PdnGame> games;
    PdnGame game;
    bool open = false;      // something of the current game has been read
    bool in_moves = false;  // its move text has begun
    std::string pending_comment;
    bool saw_marker = false;
    const auto finish = [&] {
      if (!saw_marker)
        if (const std::string* r = game.tag("Result"); r && is_result(*r)) game.result = *r;
      saw_marker = false;
      if (!pending_comment.empty()) {
        if (game.moves.empty())
          game.intro = pending_comment;
        else
          game.moves.back().comment = pending_comment;
        pending_comment.clear();
      }
      games.push_back(std::move(game));
      game = PdnGame();
      open = in_moves = false;
    };
    const auto begin_game = [&] {
      if (!open) {
        open = true;
        game.line = line_;
      }
    };
    while (true) {
      skip_blanks();
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_];
      if (c == '%' && column_ == 1) {
        skip_line();
        continue;
      }
      if (c == '[') {
        if (in_moves) finish();  // a game without a result marker ends where the next one's tags begin
        begin_game();
        game.tags.push_back(read_tag());
        continue;
      }
      begin_game();
      if (c == '{' || c == ';') {
        std::string comment = c == '{' ? read_brace_comment() : read_line_comment();
        if (!pending_comment.empty() && !comment.empty()) pending_comment += ' ';
        pending_comment += comment;
        continue;
      }
      if (c == '(') {
        skip_variation();
        continue;
      }
      if (c == ')' || c == '}' || c == ']') fail(std::string("unexpected '") + c + "'");
      if (c == '$') {
        read_word();  // a numeric annotation glyph
        continue;
      }
      const int line = line_;
      int column = column_;
      std::string word = read_word();
      if (is_result(word)) {
        game.result = word;
        saw_marker = true;
        finish();
        continue;
      }
      in_moves = true;
      // A move number "12." or "12..." may stand alone or stick to the move.
      size_t digits = 0;
      while (digits < word.size() && word[digits] >= '0' && word[digits] <= '9') ++digits;
      if (digits > 0 && digits < word.size() && word[digits] == '.') {
        size_t dots = digits;
        while (dots < word.size() && word[dots] == '.') ++dots;
        if (game.moves.empty()) {
          game.first_move_number = std::stoi(word.substr(0, std::min<size_t>(digits, 6)));
          game.starts_with_second_half = dots - digits >= 2;
        }
        word = word.substr(dots);
        column += static_cast<int>(dots);
        if (word.empty()) continue;
      }
      while (!word.empty() && (word.back() == '!' || word.back() == '?')) word.pop_back();
      if (word.empty() || !looks_like_move(word))
        fail_at(line, column, "expected a move, a move number or a result, got '" + word + "'");
      if (!pending_comment.empty()) {
        if (game.moves.empty())
          game.intro = pending_comment;
        else
          game.moves.back().comment = pending_comment;
        pending_comment.clear();
      }
      game.moves.push_back({word, "", line, column});
    }
    if (open) finish();
    return games;
  }

 private:
  static bool looks_like_move(std::string_view w) {
    bool sep = false;
    for (char c : w) {
      if (c == '-' || c == 'x' || c == 'X' || c == ':')
        sep = true;
      else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'j')))
        return false;
    }
    return sep;
  }

  [[noreturn]] void fail_at(int line, int column, const std::string& what) const {
    throw InputError(std::string(source_) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, column_, what); }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\f' || text_[pos_] == '\v'))
      advance();
    // A UTF-8 byte order mark at the start of the file.
    if (pos_ == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") {
      pos_ = 3;
      skip_blanks();
    }
  }
  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') advance();
  }

  std::string read_word() {
    const size_t start = pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' ||
          c == ']' || c == ';')
        break;
      advance();
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  PdnTag read_tag() {
    const int line = line_, column = column_;
    advance();  // '['
    skip_blanks();
    PdnTag tag;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      tag.name += text_[pos_];
      advance();
    }
    if (tag.name.empty()) fail("expected a tag name after '['");
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected '\"' after the tag name " + tag.name);
    advance();
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') fail_at(line, column, "unterminated value of tag " + tag.name);
      const char c = text_[pos_];
      advance();
      if (c == '"') break;
      if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\')) {
        tag.value += text_[pos_];
        advance();
        continue;
      }
      tag.value += c;
    }
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != ']') fail("expected ']' to close tag " + tag.name);
    advance();
    return tag;
  }

  std::string read_brace_comment() {
    const int line = line_, column = column_;
    advance();  // '{'
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '}') advance();
    if (pos_ >= text_.size()) fail_at(line, column, "unterminated comment");
    std::string body(text_.substr(start, pos_ - start));
    advance();  // '}'
    return trim(body);
  }

  std::string read_line_comment() {
    advance();  // ';'
    const size_t start = pos_;
    skip_line();
    return trim(std::string(text_.substr(start, pos_ - start)));
  }

  void skip_variation() {
    const int line = line_, column = column_;
    int depth = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{') {
        read_brace_comment();
        continue;
      }
      advance();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return;
    }
    fail_at(line, column, "unterminated variation");
  }

  static std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    std::string out;
    bool space = false;  // runs of blanks and line breaks become one space
    for (size_t i = b; i < e; ++i) {
      if (std::isspace(static_cast<unsigned char>(s[i]))) {
        space = true;
        continue;
      }
      if (space) out += ' ';
      space = false;
      out += s[i];
    }
    return out;
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
  int line_ = 1, column_ = 1;
};

std::string quote_tag_value(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

std::string comment_text(const std::string& c) {
  std::string out;
  for (char ch : c) out += ch == '}' ? ')' : ch;  // a '}' would end the comment early
  return "{" + out + "}";
}

}  // namespace

std::vector<PdnGame> read_pdn(std::string_view text, std::string_view source) {
  return PdnReader(text, source).read();
}

std::string normalized_result(const std::string& r) {
  if (r == "1-0" || r == "2-0") return "1-0";
  if (r == "0-1" || r == "0-2") return "0-1";
  if (r == "1/2-1/2" || r == "1-1") return "1/2-1/2";
  return "*";
}

std::string write_pdn(const PdnGame& game) {
  std::string out;
  bool has_result = false;
  for (const PdnTag& t : game.tags) {
    std::string value = t.value;
    if (t.name == "Result") {
      value = game.result;
      has_result = true;
    }
    out += "[" + t.name + " \"" + quote_tag_value(value) + "\"]\n";
  }
  if (!has_result) out += "[Result \"" + game.result + "\"]\n";
  out += "\n";

  std::string line;
  const auto emit = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 80) {
      out += line + "\n";
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  };
  const auto emit_comment = [&](const std::string& c) {
    // Comments are split at blanks so that lines stay short; PDN reads them whole.
    std::string text = comment_text(c);
    size_t pos = 0;
    while (pos < text.size()) {
      size_t sp = text.find(' ', pos);
      if (sp == std::string::npos) sp = text.size();
      emit(text.substr(pos, sp - pos));
      pos = sp + 1;
    }
  };
  if (!game.intro.empty()) emit_comment(game.intro);
  int number = game.first_move_number;
  bool second = game.starts_with_second_half;
  for (size_t i = 0; i < game.moves.size(); ++i) {
    const PdnMove& m = game.moves[i];
    if (!second)
      emit(std::to_string(number) + ".");
    else if (i == 0 || !game.moves[i - 1].comment.empty())
      emit(std::to_string(number) + "...");
    emit(m.text);
    if (!m.comment.empty()) emit_comment(m.comment);
    if (second) ++number;
    second = !second;
  }
  emit(game.result);
  out += line + "\n\n";
  return out;
}

std::string write_pdn(const std::vector<PdnGame>& games) {
  std::string out;
  for (const PdnGame& g : games) out += write_pdn(g);
  return out;
}

std::string pdn_game_id(const PdnGame& game, std::string_view fallback) {
  const std::string* type = game.tag("GameType");
  if (!type) return std::string(fallback);
  // "20" or "20,W,10,10,N2,0": the first number names the game.
  size_t i = 0;
  int n = 0;
  while (i < type->size() && i < 4 && (*type)[i] >= '0' && (*type)[i] <= '9') n = n * 10 + ((*type)[i++] - '0');
  if (i == 0 || (i < type->size() && (*type)[i] != ','))
    throw InputError("PDN game at line " + std::to_string(game.line) + ": bad GameType \"" + *type + "\"");
  const Variant* v = find_variant_by_game_type(n);
  if (!v)
    throw InputError("PDN game at line " + std::to_string(game.line) + ": GameType " + std::to_string(n) +
                     " is not a game this engine plays (26 brazilian, 20 international, 21 english)");
  return v->id;
}

PdnReplay replay_pdn(const PdnGame& game, std::string_view game_id, const Json& options, std::string_view source) {
  std::unique_ptr<Rules> base = make_draughts_rules(game_id, options);
  PdnReplay r;
  r.rules.reset(static_cast<DraughtsRules*>(base.release()));
  State s = r.rules->start();
  if (const std::string* fen = game.tag("FEN")) {
    try {
      s = r.rules->from_fen(*fen);
    } catch (const InputError& e) {
      throw InputError(std::string(source) + ":" + std::to_string(game.line) + ": FEN tag: " + e.what());
    }
  }
  r.states.push_back(s);
  int number = game.first_move_number;
  bool second = game.starts_with_second_half;
  for (const PdnMove& m : game.moves) {
    const std::string where = std::string(source) + ":" + std::to_string(m.line) + ":" + std::to_string(m.column) +
                              " (move " + std::to_string(number) + (second ? "...)" : ".)");
    try {
      Move mv = r.rules->parse_move(s, m.text);
      s = r.rules->apply(s, mv);
      r.moves.push_back(std::move(mv));
      r.states.push_back(s);
    } catch (const IllegalMoveError& e) {
      throw IllegalMoveError(m.text, "at " + where + ": " + e.reason());
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.what());
    }
    if (second) ++number;
    second = !second;
  }
  return r;
}

std::string pdn_game_type_tag(const Variant& variant, bool algebraic) {
  // PDN 3.0 expands a bare type number to its game's usual notation: 20 and 21
  // numeric (square 1 top left for White, resp. bottom right for Black, who starts),
  // 26 algebraic (a1 bottom left). Where the moves are written otherwise, the tag
  // spells the notation out, or another program would read 22-18 as nonsense.
  const std::string type = std::to_string(variant.pdn_game_type);
  const bool usual_is_algebraic = variant.kind == VariantKind::Brazilian;
  if (algebraic == usual_is_algebraic) return type;
  const std::string size = std::to_string(variant.size);
  const bool black_starts = variant.first_to_move == Side::Second;
  // Where square 1 (or a1) lies for the player who starts: 0 bottom left, 1 bottom
  // right, 2 top left, 3 top right. Square 1 is on Black's back row, left as White sees it.
  const char corner = algebraic ? (black_starts ? '3' : '0') : (black_starts ? '1' : '2');
  return type + "," + (black_starts ? "B" : "W") + "," + size + "," + size + "," + (algebraic ? "A" : "N") + corner +
         ",0";
}

PdnGame record_pdn(const DraughtsRules& rules, const State& start, const std::vector<Move>& moves,
                   const std::string& result, const std::vector<PdnTag>& tags) {
  PdnGame g;
  for (const PdnTag& t : tags)
    if (t.name != "GameType" && t.name != "SetUp" && t.name != "FEN" && t.name != "Result") g.tags.push_back(t);
  g.set_tag("GameType", pdn_game_type_tag(rules.variant(), rules.draughts_options().algebraic));
  if (rules.fen(start) != rules.fen(rules.start())) {
    g.set_tag("SetUp", "1");  // PDN (as PGN) marks a game that does not start from the initial position
    g.set_tag("FEN", write_fen(rules.board(start), rules.geometry(), /*ranges=*/false));
  }
  g.result = result;
  g.set_tag("Result", result);
  g.first_move_number = rules.position(start).first_move_number;
  g.starts_with_second_half = rules.side_to_move(start) != rules.variant().first_to_move;
  for (const Move& m : moves) g.moves.push_back({m.notation, "", 0, 0});
  return g;
}

}  // namespace sb::draughts
