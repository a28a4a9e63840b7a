#include "engines/cotoan/calculation.h"

namespace sb::cotoan {

namespace {

// The distance a whole number gives: its units digit, worthless when that is 0.
void set_distance(Calculation& c, int n) {
  if (n <= 0) {
    c.why_none = n < 0 ? "not allowed: a difference must be positive" : "worthless: the result is 0";
  } else if (n % 10 == 0) {
    c.why_none = "worthless: its units digit is 0";
  } else {
    c.distance = n % 10;
  }
}

Calculation make(Op op, int rear, int front) {
  Calculation c;
  c.op = op;
  c.rear = rear;
  c.front = front;
  return c;
}

}  // namespace

const char* op_code(Op op) {
  switch (op) {
    case Op::Add:
      return "+";
    case Op::Sub:
      return "-";
    case Op::Mul:
      return "*";
    case Op::Div:
      return "/";
  }
  return "?";
}

std::string Calculation::text() const {
  static const char* const kSigns[] = {"+", "\u2212", "\u00d7", "\u00f7"};  // + − × ÷
  std::string t = std::to_string(rear) + kSigns[static_cast<int>(op)] + std::to_string(front);
  if (op == Op::Div && front == 0) return t;
  t += "=";
  if (value < 0) t += "\u2212";
  t += std::to_string(value < 0 ? -value : value);
  if (op == Op::Div && remainder != 0) t += " rest " + std::to_string(remainder);
  if (distance > 0 && (distance != value || remainder != 0)) t += "\u2192" + std::to_string(distance);  // →
  return t;
}

std::vector<Calculation> calculations(int rear, int front, Division division) {
  std::vector<Calculation> out;
  if (rear == 0) return out;
  Calculation add = make(Op::Add, rear, front);
  add.value = rear + front;
  set_distance(add, add.value);
  out.push_back(add);

  Calculation sub = make(Op::Sub, rear, front);
  sub.value = rear - front;
  set_distance(sub, sub.value);
  out.push_back(sub);

  Calculation mul = make(Op::Mul, rear, front);
  mul.value = rear * front;
  set_distance(mul, mul.value);
  out.push_back(mul);

  Calculation div = make(Op::Div, rear, front);
  if (front == 0) {
    div.why_none = "not allowed: no division by 0";
    out.push_back(div);
    return out;
  }
  div.value = rear / front;
  div.remainder = rear % front;
  if (division == Division::One) {
    div.part = div.remainder != 0 ? Calculation::Part::Remainder : Calculation::Part::Quotient;
    set_distance(div, div.remainder != 0 ? div.remainder : div.value);
    out.push_back(div);
  } else {
    Calculation quotient = div, remainder = div;
    quotient.part = Calculation::Part::Quotient;
    set_distance(quotient, quotient.value);
    remainder.part = Calculation::Part::Remainder;
    set_distance(remainder, remainder.remainder);
    if (remainder.remainder == 0) remainder.why_none = "worthless: there is no remainder";
    if (quotient.value == 0) quotient.why_none = "worthless: the quotient is 0";
    out.push_back(quotient);
    out.push_back(remainder);
  }
  return out;
}

uint16_t distance_mask(int rear, int front, const Options& options) {
  if (rear == 0 || (front == 0 && !options.zero_partner)) return 0;
  uint16_t mask = 0;
  for (const Calculation& c : calculations(rear, front, options.division))
    if (c.reaches()) mask |= static_cast<uint16_t>(1u << c.distance);
  return mask;
}

}  // namespace sb::cotoan
