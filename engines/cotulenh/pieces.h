// The pieces of Cờ tư lệnh and the stacks they form. A site holds nothing, one
// piece, or a stack: a carrier with the pieces riding on it, kept bottom to top in
// one canonical order so that equal stacks are equal bytes and the top piece is
// what a camera sees.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engines/common/types.h"

namespace sb::cotulenh {

enum Kind : uint8_t {
  kCommander,
  kHeadquarters,
  kInfantry,
  kEngineer,
  kTank,
  kArtillery,
  kAntiAir,
  kMissile,
  kAirForce,
  kNavy,
  kMilitia,
  kKindCount
};

// Notation letters (RULES.md §4), indexed by Kind.
inline constexpr char kKindLetter[kKindCount + 1] = "CHIETAGSFNM";
// How many of each kind one side starts with (the seed: 19 pieces).
inline constexpr std::array<int, kKindCount> kStartCount = {1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1};
// Points for taking a piece (the seed's table; headquarters and commander 0, the
// commander's fall is rewarded by the game's bonus instead). A hero is worth 10 more.
inline constexpr std::array<int, kKindCount> kKindPoints = {0, 0, 10, 10, 20, 30, 10, 20, 40, 80, 10};

const char* kind_name(Kind k);         // "tank"
const char* kind_name_plural(Kind k);  // "tanks"
// -1 when `c` (either case) is no piece letter.
int kind_of_letter(char c);

// Foot soldiers ride tanks, air forces and navies; heavy weapons ride engineers.
constexpr bool is_foot(Kind k) {
  return k == kCommander || k == kInfantry || k == kMilitia;
}
constexpr bool is_heavy(Kind k) {
  return k == kArtillery || k == kAntiAir || k == kMissile;
}

// One piece: 0 is "no piece". Bits 0-3 kind+1, bit 4 side (1 = Blue), bit 5 hero.
struct Piece {
  uint8_t v = 0;

  static constexpr Piece make(Kind k, Side s, bool hero = false) {
    return Piece{static_cast<uint8_t>((k + 1) | (s == Side::Second ? 16 : 0) | (hero ? 32 : 0))};
  }
  constexpr bool none() const { return v == 0; }
  constexpr Kind kind() const { return static_cast<Kind>((v & 15) - 1); }
  constexpr Side side() const { return (v & 16) ? Side::Second : Side::First; }
  constexpr bool hero() const { return (v & 32) != 0; }
  constexpr Piece with_hero() const { return Piece{static_cast<uint8_t>(v | 32)}; }
  constexpr int points() const { return kKindPoints[kind()] + (hero() ? 10 : 0); }
  bool operator==(const Piece&) const = default;
};

// Where a piece sits in a stack, bottom (0) to top: the carrier first, then a tank,
// then an air force, then the foot soldier or heavy weapon on top.
constexpr int stack_layer(Kind k) {
  switch (k) {
    case kNavy:
    case kEngineer:
    case kHeadquarters:
      return 0;
    case kTank:
      return 1;
    case kAirForce:
      return 2;
    default:
      return 3;
  }
}

inline constexpr int kMaxStack = 4;

// The pieces on one site, bottom to top. All of one side.
struct Stack {
  uint8_t n = 0;
  std::array<Piece, kMaxStack> p{};

  bool empty() const { return n == 0; }
  Side side() const { return p[0].side(); }
  const Piece& carrier() const { return p[0]; }
  const Piece& top() const { return p[n - 1]; }
  bool has(Kind k) const {
    for (int i = 0; i < n; ++i)
      if (p[i].kind() == k) return true;
    return false;
  }
  int points() const {
    int t = 0;
    for (int i = 0; i < n; ++i) t += p[i].points();
    return t;
  }
  // The pieces whose bits are set in `mask` (bit i = p[i]), in canonical order.
  Stack subset(unsigned mask) const;
  // This stack with `other`'s pieces added, in canonical order (not checked).
  Stack merged(const Stack& other) const;
  bool operator==(const Stack&) const = default;
};

// Whether these pieces may form one stack: a lone piece; a tank or an air force
// carrying one foot soldier; an engineer carrying one heavy weapon; a headquarters
// sheltering its commander; a navy carrying at most one tank, one air force and one
// foot soldier. All must be of one side.
bool stack_allowed(const Stack& s);

// "T", or "(NTF)" for several pieces, bottom to top; `heroes` marks each hero "+".
std::string stack_letters(const Stack& s, bool heroes, bool case_by_side);

}  // namespace sb::cotulenh
