#include "engines/cotulenh/record.h"

namespace sb::cotulenh {

namespace {

const char* const kSeedLetters[kKindCount] = {"TL", "SCH", "B", "CB", "T", "P", "CX", "TLPK", "K", "H", "DQ"};

// Upper-case ASCII letters as Unicode mathematical bold capitals (U+1D400...), the
// seed's "ký hiệu đậm nét" for heroes.
std::string bold(const std::string& letters) {
  std::string out;
  for (char c : letters) {
    if (c < 'A' || c > 'Z') {
      out += c;
      continue;
    }
    const unsigned cp = 0x1D400u + static_cast<unsigned>(c - 'A');
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

std::string piece_letters(Piece p, const RecordStyle& st) {
  const std::string l = st.seed_letters ? kSeedLetters[p.kind()] : std::string(1, kKindLetter[p.kind()]);
  return p.hero() ? bold(l) : l;
}

std::string group_letters(const Stack& g, const RecordStyle& st) {
  std::string out;
  for (int i = 0; i < g.n; ++i) out += piece_letters(g.p[i], st);
  return g.n > 1 ? "(" + out + ")" : out;
}

}  // namespace

std::string record_square(int site, const RecordStyle& style) {
  if (!style.seed_squares) return site_name(site);
  return std::to_string(rank_of(site)) + "." + std::to_string(file_of(site));
}

std::string record_turn(const Position& before, const Turn& t, const Options& o, const RecordStyle& st) {
  std::vector<std::pair<int, int>> promoted;
  const Position after = apply_turn(before, t, o, &promoted);
  return record_turn(before, t, after, promoted, o, st);
}

std::string record_turn(const Position& before, const Turn& t, const Position& after,
                        const std::vector<std::pair<int, int>>& heroes, const Options& o, const RecordStyle& st) {
  const Stack& src = before.at[t.from];
  const unsigned full = (1u << src.n) - 1;
  std::string out;
  // A stack splitting is introduced by the whole stack, as in the seed's (HTK)H9.2@H11.2/T9.2_9.4.
  const bool split = src.n > 1 && !(t.n == 1 && t.a[0].group == full);
  if (split) out += group_letters(src, st);
  const std::string from = record_square(t.from, st);
  for (int i = 0; i < t.n; ++i) {
    const Action& a = t.a[i];
    if (i) out += '/';
    out += group_letters(src.subset(a.group), st) + from;
    const char* symbol = "_";
    bool target = true;
    switch (a.kind) {
      case ActionKind::Move:
      case ActionKind::Board:
        target = false;
        break;
      case ActionKind::Capture:
        symbol = "@";
        break;
      case ActionKind::Strike:
        symbol = "@\u0332";
        break;
      case ActionKind::ShotDown:
        symbol = "@\u201D";
        target = false;
        break;
      case ActionKind::Trade:
        symbol = "><";
        break;
    }
    out += symbol;
    if (target) out += group_letters(before.at[a.target], st);
    out += record_square(target ? a.target : a.to, st);
  }
  const Side us = before.to_move;
  const bool over = battle_ending(after, o).over;
  for (int s = 0; s < kSites && !over; ++s) {
    const Stack& a = after.at[s];
    if (!a.empty() && a.side() != us && a.has(kCommander) && commander_attacked(after, us, o))
      out += ">*" + record_square(s, st);
  }
  std::string promoted;
  for (auto [s, i] : heroes) {
    if (!promoted.empty()) promoted += ',';
    promoted += piece_letters(after.at[s].p[i], st) + record_square(s, st);
  }
  if (!promoted.empty()) out += "{" + promoted + "}";
  if (over) out += "^";
  return out;
}

std::string record_violation(std::string_view attempted) {
  return std::string("$").append(attempted);
}

std::string record_result(const Outcome& outcome, Side side) {
  if (outcome.status == Outcome::Status::Draw) return "=";
  if (outcome.status == Outcome::Status::Win && outcome.winner != side) return "!!";
  return "";
}

}  // namespace sb::cotulenh
