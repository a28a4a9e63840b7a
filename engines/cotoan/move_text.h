// Reading a move as a player or a program writes it: `3:c1-c4`, `8:e3xe7`,
// `e3xe7`, `8:e3xe7(8+5)`, `8:e3xe7 (8−5=3)`. Only the form is checked here; the
// rules decide whether the move is legal.
#pragma once

#include <optional>
#include <string_view>

#include "engines/cotoan/calculation.h"

namespace sb::cotoan {

struct CalculationText {
  int rear = 0;
  Op op = Op::Add;
  int front = 0;
};

struct MoveText {
  int piece = -1;  // the number written before ':'; -1 when none
  int from = 0;
  int to = 0;
  bool capture_sign = false;  // written with 'x' rather than '-'
  std::optional<CalculationText> calculation;
};

// Throws InputError naming the move and what is wrong with its form.
MoveText parse_move_text(std::string_view text);

}  // namespace sb::cotoan
