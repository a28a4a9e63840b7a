// Capture by calculation: what a pair of own pieces computes. The rear piece R
// stands behind the front piece F on a line; R+F, R−F, R×F and R÷F give a
// distance k, and the target is the square k steps beyond F.
//
// The seed's arithmetic: a result of 10 or more counts by its units digit
// (8+5 = 13 → 3); a units digit of 0 is worthless (5×8 = 40); subtraction counts
// only when positive (RULES.md); division counts its remainder when there is one
// (8÷5 = 1 rest 3 → 3), else its quotient (8÷4 → 2), or, with division "both",
// either number that is not 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engines/cotoan/options.h"

namespace sb::cotoan {

enum class Op : uint8_t { Add, Sub, Mul, Div };

// The operation as written in JSON and in move input: "+", "-", "*", "/".
const char* op_code(Op op);

struct Calculation {
  // Which number of a division serves as the distance; Whole for + − ×.
  enum class Part : uint8_t { Whole, Quotient, Remainder };

  Op op = Op::Add;
  Part part = Part::Whole;
  int rear = 0;
  int front = 0;
  int value = 0;         // sum, difference, product, or quotient
  int remainder = 0;     // division only
  int distance = 0;      // 1…9, or 0 when the calculation reaches nothing
  std::string why_none;  // when distance is 0: "worthless: its units digit is 0", …

  bool reaches() const { return distance > 0; }
  // As a player writes it: "8+5=13→3", "8−5=3", "5×8=40", "8÷5=1 rest 3→3".
  std::string text() const;
};

// Every calculation of the pair, in the seed's order + − × ÷, including those that
// reach nothing (for explanations). With division "both" a division appears twice,
// once for its quotient and once for its remainder. Empty when rear is 0: the 0
// never moves, so it is never the rear piece.
std::vector<Calculation> calculations(int rear, int front, Division division);

// Bit k (1…9) set when some calculation of the pair reaches distance k, under the
// options (a front 0 counts only with zero_partner).
uint16_t distance_mask(int rear, int front, const Options& options);

}  // namespace sb::cotoan
