// Command-line arguments of one subcommand: declared options, clear errors.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sb::cli {

struct OptionSpec {
  std::string name;  // with the dashes: "--fen"
  bool takes_value = true;
  bool repeatable = false;
};

class Args {
 public:
  // Parses argv (the words after the subcommand). Throws InputError for an unknown
  // option, a missing value, a repeated option or a wrong number of positionals.
  Args(const std::string& command, const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs,
       size_t min_positional, size_t max_positional);

  const std::vector<std::string>& positional() const { return positional_; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;
  std::string value_or(const std::string& name, const std::string& fallback) const;
  // Numeric options, range-checked; errors name the option.
  int int_value(const std::string& name, int fallback, int min, int max) const;
  double double_value(const std::string& name, double fallback, double min, double max) const;
  // A comma-separated list (`--games a,b`), empty items dropped; `fallback` when the option is absent.
  std::vector<std::string> list_value(const std::string& name, std::vector<std::string> fallback) const;
  const std::string& command() const { return command_; }

 private:
  std::string command_;
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>> values_;
};

// Strict conversions shared by the subcommands; `what` names the input in errors.
int parse_int(const std::string& text, const std::string& what, int min, int max);
double parse_double(const std::string& text, const std::string& what, double min, double max);

}  // namespace sb::cli
