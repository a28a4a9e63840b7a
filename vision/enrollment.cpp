#include "vision/enrollment.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engines/common/errors.h"

namespace sb::vision {

std::vector<std::string> kinds_layout(const calib::BoardModel& model, const PieceVocabulary& vocab) {
  const size_t n = model.sites.size();
  std::vector<std::string> tokens(n);
  std::vector<std::string> per_side;
  const std::string kinds = vocab.has_identity() ? vocab.kinds : std::string(1, '\0');
  if (vocab.sides.size() < 2 || 2 * kinds.size() > n)
    throw InputError("the board of " + model.game + " has too few sites to show each kind of each side once");
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  // Rows: y grows towards the first player; sites of one row lie within a third of a pitch of each other.
  const double row_tol = model.pitch_mm / 3;
  auto row_key = [&](size_t i) { return std::lround(model.sites[i].centre.y / row_tol); };
  std::vector<size_t> near = order, far = order;
  std::sort(near.begin(), near.end(), [&](size_t a, size_t b) {
    if (row_key(a) != row_key(b)) return row_key(a) > row_key(b);
    return model.sites[a].centre.x < model.sites[b].centre.x;
  });
  std::sort(far.begin(), far.end(), [&](size_t a, size_t b) {
    if (row_key(a) != row_key(b)) return row_key(a) < row_key(b);
    return model.sites[a].centre.x < model.sites[b].centre.x;
  });
  for (size_t k = 0; k < kinds.size(); ++k) {
    std::string first(1, vocab.sides[0]), second(1, vocab.sides[1]);
    if (kinds[k]) first += kinds[k], second += kinds[k];
    tokens[near[k]] = first;
    tokens[far[k]] = second;
  }
  return tokens;
}

std::string describe_layout(const calib::BoardModel& model, const std::vector<std::string>& tokens) {
  std::string out;
  for (size_t i = 0; i < model.sites.size() && i < tokens.size(); ++i) {
    if (tokens[i].empty()) continue;
    if (!out.empty()) out += ", ";
    out += model.sites[i].name + " " + tokens[i];
  }
  return out;
}

}  // namespace sb::vision
