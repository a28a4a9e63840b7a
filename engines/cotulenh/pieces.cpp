#include "engines/cotulenh/pieces.h"

#include <cctype>

namespace sb::cotulenh {

namespace {
const char* const kNames[kKindCount] = {"commander", "headquarters",      "infantry", "engineer",  "tank",
                                        "artillery", "anti-aircraft gun", "missile",  "air force", "navy",
                                        "militia"};
const char* const kPlural[kKindCount] = {"commanders", "headquarters",       "infantry", "engineers",  "tanks",
                                         "artillery",  "anti-aircraft guns", "missiles", "air forces", "navies",
                                         "militia"};
}  // namespace

const char* kind_name(Kind k) {
  return kNames[k];
}
const char* kind_name_plural(Kind k) {
  return kPlural[k];
}

int kind_of_letter(char c) {
  char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int k = 0; k < kKindCount; ++k)
    if (kKindLetter[k] == u) return k;
  return -1;
}

Stack Stack::subset(unsigned mask) const {
  Stack s;
  for (int i = 0; i < n; ++i)
    if (mask & (1u << i)) s.p[s.n++] = p[i];
  return s;
}

Stack Stack::merged(const Stack& other) const {
  Stack s = *this;
  for (int i = 0; i < other.n && s.n < kMaxStack; ++i) {
    // Insertion keeps the canonical bottom-to-top order.
    Piece q = other.p[i];
    int j = s.n++;
    while (j > 0 && stack_layer(s.p[j - 1].kind()) > stack_layer(q.kind())) {
      s.p[j] = s.p[j - 1];
      --j;
    }
    s.p[j] = q;
  }
  return s;
}

bool stack_allowed(const Stack& s) {
  if (s.n == 0) return true;
  if (s.n == 1) return true;
  for (int i = 1; i < s.n; ++i)
    if (s.p[i].side() != s.p[0].side()) return false;
  const Kind carrier = s.p[0].kind();
  auto only = [&](bool (*ok)(Kind)) { return s.n == 2 && ok(s.p[1].kind()); };
  switch (carrier) {
    case kTank:
    case kAirForce:
      return only([](Kind k) { return is_foot(k); });
    case kEngineer:
      return only([](Kind k) { return is_heavy(k); });
    case kHeadquarters:
      return only([](Kind k) { return k == kCommander; });
    case kNavy: {
      int tanks = 0, air = 0, foot = 0;
      for (int i = 1; i < s.n; ++i) {
        Kind k = s.p[i].kind();
        if (k == kTank)
          ++tanks;
        else if (k == kAirForce)
          ++air;
        else if (is_foot(k))
          ++foot;
        else
          return false;
      }
      return tanks <= 1 && air <= 1 && foot <= 1;
    }
    default:
      return false;
  }
}

std::string stack_letters(const Stack& s, bool heroes, bool case_by_side) {
  std::string out;
  if (s.n > 1) out += '(';
  for (int i = 0; i < s.n; ++i) {
    if (heroes && s.p[i].hero()) out += '+';
    char c = kKindLetter[s.p[i].kind()];
    if (case_by_side && s.p[i].side() == Side::Second)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += c;
  }
  if (s.n > 1) out += ')';
  return out;
}

}  // namespace sb::cotulenh
