// Algebraic site names ("a1", "k12"): file letter from 'a', rank number from 1.
// Morris, Cờ toán and Cờ tư lệnh name their sites this way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sb {

struct FileRank {
  int file = 0;  // 0 = 'a'
  int rank = 0;  // 0 = rank 1
  bool operator==(const FileRank&) const = default;
};

std::string algebraic(int file, int rank);
// Parses "a1".."z99" within the given board size; nullopt on anything else
// (including leading zeros such as "a01").
std::optional<FileRank> parse_algebraic(std::string_view name, int files, int ranks);

}  // namespace sb
