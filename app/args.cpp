#include "app/args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "engines/common/errors.h"

namespace sb::cli {

Args::Args(const std::string& command, const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
           size_t min_positional, size_t max_positional)
    : command_(command) {
  auto find_spec = [&](const std::string& name) -> const OptionSpec* {
    for (const OptionSpec& s : specs)
      if (s.name == name) return &s;
    return nullptr;
  };
  bool only_positional = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (only_positional || word.size() < 2 || word.rfind("--", 0) != 0) {
      if (word == "--") {
        only_positional = true;
        continue;
      }
      positional_.push_back(word);
      continue;
    }
    std::string name = word;
    std::optional<std::string> inline_value;
    if (auto eq = word.find('='); eq != std::string::npos) {
      name = word.substr(0, eq);
      inline_value = word.substr(eq + 1);
    }
    const OptionSpec* spec = find_spec(name);
    if (!spec) throw InputError(command + ": unknown option '" + name + "'");
    if (values_.count(name) && !spec->repeatable) throw InputError(command + ": option '" + name + "' given twice");
    if (!spec->takes_value) {
      if (inline_value) throw InputError(command + ": option '" + name + "' takes no value");
      values_[name].push_back("");
      continue;
    }
    if (inline_value) {
      values_[name].push_back(*inline_value);
    } else {
      if (i + 1 >= argv.size()) throw InputError(command + ": option '" + name + "' needs a value");
      values_[name].push_back(argv[++i]);
    }
  }
  if (positional_.size() < min_positional)
    throw InputError(command + ": expected " + std::to_string(min_positional) + " argument(s), got " +
                     std::to_string(positional_.size()));
  if (positional_.size() > max_positional)
    throw InputError(command + ": unexpected argument '" + positional_[max_positional] + "'");
}

std::optional<std::string> Args::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::value_or(const std::string& name, const std::string& fallback) const {
  auto v = value(name);
  return v ? *v : fallback;
}

int Args::int_value(const std::string& name, int fallback, int min, int max) const {
  auto v = value(name);
  return v ? parse_int(*v, command_ + " " + name, min, max) : fallback;
}

double Args::double_value(const std::string& name, double fallback, double min, double max) const {
  auto v = value(name);
  return v ? parse_double(*v, command_ + " " + name, min, max) : fallback;
}

int parse_int(const std::string& text, const std::string& what, int min, int max) {
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < min || v > max)
    throw InputError(what + ": expected an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got '" + text + "'");
  return static_cast<int>(v);
}

double parse_double(const std::string& text, const std::string& what, double min, double max) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v) || v < min || v > max)
    throw InputError(what + ": expected a number from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got '" + text + "'");
  return v;
}

std::vector<std::string> Args::list_value(const std::string& name, std::vector<std::string> fallback) const {
  std::optional<std::string> given = value(name);
  if (!given) return fallback;
  std::vector<std::string> items;
  std::stringstream ss(*given);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

}  // namespace sb::cli
