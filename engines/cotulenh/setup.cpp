#include "engines/cotulenh/setup.h"

#include "engines/common/errors.h"
#include "engines/cotulenh/cotulenh_rules.h"

namespace sb::cotulenh {

namespace {

std::string side_word(int s) {
  return s == 0 ? "red" : "blue";
}

std::string count_words(int n, Kind k) {
  return std::to_string(n) + " " + (n == 1 ? kind_name(k) : kind_name_plural(k));
}

}  // namespace

std::vector<IllegalChange> check_free_setup(const Observation& board, const Options& o) {
  std::vector<IllegalChange> c;
  if (board.sites.size() != static_cast<size_t>(kSites)) {
    c.push_back({"the board has " + std::to_string(board.sites.size()) + " sites, expected 132", {}});
    return c;
  }
  std::array<std::array<int, kKindCount>, 2> count{};
  std::array<std::array<std::vector<int>, kKindCount>, 2> where{};
  for (int s = 0; s < kSites; ++s) {
    const Token& t = board.sites[s];
    if (t.empty()) continue;
    const int k = t.kind ? kind_of_letter(t.kind) : -1;
    if ((t.side != 'R' && t.side != 'B') || k < 0 || t.kind < 'A' || t.kind > 'Z') {
      c.push_back({site_name(s) + ": '" + t.str() + "' is not a Cờ tư lệnh piece", {s}});
      continue;
    }
    const int side = t.side == 'R' ? 0 : 1;
    const Kind kind = static_cast<Kind>(k);
    ++count[side][kind];
    where[side][kind].push_back(s);
    const std::string piece = "the " + side_word(side) + " " + kind_name(kind) + " on " + site_name(s);
    if (!may_stand(kind, s, o.air_force_over_sea)) {
      c.push_back({piece + " cannot stand there (" +
                       (Geometry::get().sea[s] ? std::string("open sea") : std::string("land")) + ")",
                   {s}});
    }
    if (red_half(s) != (side == 0)) {
      c.push_back(
          {piece + " is outside " + side_word(side) + "'s half (" + (side == 0 ? "ranks 1-6" : "ranks 7-12") + ")",
           {s}});
    }
  }
  for (int side = 0; side < 2; ++side)
    for (int k = 0; k < kKindCount; ++k) {
      const Kind kind = static_cast<Kind>(k);
      const int n = count[side][k], want = kStartCount[k];
      if (n < want) {
        c.push_back({side_word(side) + " is missing " + count_words(want - n, kind) + " (a side has " +
                         std::to_string(want) + ")",
                     {}});
      } else if (n > want) {
        c.push_back({side_word(side) + " has " + count_words(n, kind) + ", a side has " + std::to_string(want),
                     where[side][k]});
      }
    }
  return c;
}

Position setup_position(const Observation& board, Side first, const Options& o) {
  const std::vector<IllegalChange> c = check_free_setup(board, o);
  if (!c.empty()) throw InputError("setup: " + c.front().reason);
  Position p;
  p.to_move = first;
  for (int s = 0; s < kSites; ++s) {
    const Token& t = board.sites[s];
    if (t.empty()) continue;
    p.at[s].n = 1;
    p.at[s].p[0] = Piece::make(static_cast<Kind>(kind_of_letter(t.kind)), t.side == 'R' ? Side::First : Side::Second);
  }
  return p;
}

State setup_state(const CotulenhRules& rules, const Observation& board, Side first) {
  return rules.make_state(setup_position(board, first, rules.rule_options()));
}

}  // namespace sb::cotulenh
