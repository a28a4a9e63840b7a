#include "engines/cotulenh/notation.h"

#include <algorithm>
#include <cctype>

#include "engines/common/errors.h"

namespace sb::cotulenh {

std::string turn_notation(const Position& pos, const Turn& t) {
  const Stack& src = pos.at[t.from];
  std::string out;
  for (int i = 0; i < t.n; ++i) {
    const Action& a = t.a[i];
    if (i) out += '/';
    out += stack_letters(src.subset(a.group), false, false);
    out += site_name(t.from);
    switch (a.kind) {
      case ActionKind::Move:
      case ActionKind::Board:
      case ActionKind::ShotDown:
        out += '-' + site_name(a.to);
        break;
      case ActionKind::Capture:
      case ActionKind::Trade:
        out += 'x' + site_name(a.target);
        break;
      case ActionKind::Strike:
        out += '@' + site_name(a.target);
        break;
    }
  }
  return out;
}

namespace {

[[noreturn]] void bad(std::string_view whole, const std::string& what) {
  throw InputError("'" + std::string(whole) + "' is not a Cờ tư lệnh move (" + what +
                   "; write e.g. Tf4-f6, Ae3xe7, Ne3@e7, (TI)f4-f6)");
}

int read_site(std::string_view whole, std::string_view s, size_t& i) {
  size_t j = i;
  if (j < s.size() && std::islower(static_cast<unsigned char>(s[j]))) ++j;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
  const std::string_view name = s.substr(i, j - i);
  const int site = site_from_name(name);
  if (site < 0) bad(whole, name.empty() ? "a site is missing" : "no site '" + std::string(name) + "' on the board");
  i = j;
  return site;
}

}  // namespace

std::vector<WrittenAction> read_notation(std::string_view text) {
  if (text.empty()) throw InputError("empty move");
  std::vector<WrittenAction> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('/', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view s = text.substr(start, end - start);
    WrittenAction w;
    w.text = std::string(s);
    size_t i = 0;
    auto letter = [&](char c) {
      const int k = kind_of_letter(c);
      if (k < 0 || !std::isalpha(static_cast<unsigned char>(c)))
        bad(text, std::string("'") + c + "' is no piece letter");
      w.pieces.push_back(static_cast<Kind>(k));
    };
    if (s.empty()) bad(text, "an empty part between '/'");
    if (s[0] == '(') {
      i = 1;
      while (i < s.size() && s[i] != ')') letter(s[i++]);
      if (i >= s.size()) bad(text, "'(' without ')'");
      ++i;
      if (w.pieces.size() < 2) bad(text, "parentheses hold two or more pieces");
    } else {
      letter(s[i++]);
    }
    w.from = read_site(text, s, i);
    if (i >= s.size()) bad(text, "'-', 'x' or '@' and the destination are missing");
    w.sep = s[i++];
    if (w.sep != '-' && w.sep != 'x' && w.sep != '@') bad(text, "expected '-', 'x' or '@' after the site");
    w.to = read_site(text, s, i);
    if (i != s.size()) bad(text, "unexpected '" + std::string(s.substr(i)) + "' at the end");
    if (!out.empty() && out.front().from != w.from) bad(text, "the parts of one move must start from one site");
    out.push_back(std::move(w));
    start = end + 1;
  }
  return out;
}

std::string canonical_key(const std::vector<WrittenAction>& actions) {
  std::vector<std::string> parts;
  for (const WrittenAction& w : actions) {
    std::string p;
    std::vector<Kind> ks = w.pieces;
    std::sort(ks.begin(), ks.end());
    for (Kind k : ks) p += kKindLetter[k];
    p += '|' + site_name(w.from) + w.sep + site_name(w.to);
    parts.push_back(p);
  }
  std::sort(parts.begin(), parts.end());
  std::string key;
  for (const std::string& p : parts) key += p + ";";
  return key;
}

}  // namespace sb::cotulenh
