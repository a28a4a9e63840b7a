// A request target split into its path and query, percent-decoded.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sb::display {

struct RequestTarget {
  std::string path;                          // decoded, always starting with '/'
  std::map<std::string, std::string> query;  // decoded; a repeated key keeps the last value
};

// nullopt for a target that is not an absolute path, has a bad %-escape, or
// decodes to a NUL byte.
std::optional<RequestTarget> parse_target(std::string_view target);

// Decodes %XX (and '+' as a space when `plus_is_space`); nullopt on a bad escape or NUL.
std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space);

}  // namespace sb::display
