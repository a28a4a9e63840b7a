#include "engines/draughts/notation.h"

#include "engines/common/errors.h"

namespace sb::draughts {

WrittenMove read_move_text(std::string_view text, const Geometry& g) {
  const auto fail = [&](const std::string& what, size_t pos) {
    throw InputError("move '" + std::string(text) + "': " + what + " at column " + std::to_string(pos + 1));
  };
  if (text.empty()) throw InputError("empty move");
  WrittenMove w;
  char sep = 0;
  size_t pos = 0;
  while (true) {
    size_t stop = pos;
    while (stop < text.size() && text[stop] != '-' && text[stop] != 'x' && text[stop] != 'X' && text[stop] != ':')
      ++stop;
    std::string_view name = text.substr(pos, stop - pos);
    if (name.empty()) fail("expected a square", pos);
    const int s = g.parse(name);
    if (s < 0) {
      std::string what(1, '\'');
      what.append(name).append("' is not a square of this board (1-").append(std::to_string(g.squares())).append(")");
      fail(what, pos);
    }
    w.squares.push_back(s);
    if (stop == text.size()) break;
    char c = text[stop] == 'X' || text[stop] == ':' ? 'x' : text[stop];
    if (sep && c != sep) fail("mixes '-' and 'x'", stop);
    sep = c;
    pos = stop + 1;
  }
  if (w.squares.size() < 2) fail("expected two squares such as 22-18 or 22x13", text.size());
  if (sep == '-' && w.squares.size() > 2) fail("a step has two squares; write a capture with 'x'", 0);
  w.capture = sep == 'x';
  return w;
}

std::string write_move_text(int from, const std::vector<int>& landings, bool capture, bool full_path, const Geometry& g,
                            bool algebraic) {
  std::string out = g.name(from, algebraic);
  const char sep = capture ? 'x' : '-';
  if (full_path) {
    for (int s : landings) out += sep + g.name(s, algebraic);
  } else {
    out += sep + g.name(landings.back(), algebraic);
  }
  return out;
}

}  // namespace sb::draughts
