// Reading a game's rule options from JSON with clear errors. Every engine keeps
// its options as a plain struct with to_json/from_json built on this reader, so
// an unknown key or a wrong value is reported, never silently ignored.
#pragma once

#include <initializer_list>
#include <set>
#include <string>

#include "engines/common/json.h"

namespace sb {

class OptionReader {
 public:
  // `options` must be an object (or null, meaning all defaults); `game` names the
  // game in error messages.
  OptionReader(const Json& options, std::string game);

  bool get_bool(const std::string& key, bool fallback);
  int get_int(const std::string& key, int fallback, int min, int max);
  std::string get_choice(const std::string& key, const std::string& fallback,
                         std::initializer_list<const char*> allowed);
  // Throws InputError naming the first key that no get_* asked for.
  void finish() const;

 private:
  const Json* lookup(const std::string& key);
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;

  Json options_;
  std::string game_;
  std::set<std::string> seen_;
};

}  // namespace sb
