#include "engines/common/squares.h"

namespace sb {

std::string algebraic(int file, int rank) { return std::string(1, static_cast<char>('a' + file)) + std::to_string(rank + 1); }

std::optional<FileRank> parse_algebraic(std::string_view name, int files, int ranks) {
  if (name.size() < 2 || name.size() > 3) return std::nullopt;
  int file = name[0] - 'a';
  if (file < 0 || file >= files) return std::nullopt;
  if (name[1] < '1' || name[1] > '9') return std::nullopt;
  int rank = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    rank = rank * 10 + (name[i] - '0');
  }
  if (rank < 1 || rank > ranks) return std::nullopt;
  return FileRank{file, rank - 1};
}

}  // namespace sb
