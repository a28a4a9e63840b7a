#include "engines/common/options.h"

#include "engines/common/errors.h"

namespace sb {

OptionReader::OptionReader(const Json& options, std::string game) : options_(options), game_(std::move(game)) {
  if (options_.is_null()) options_ = Json::object();
  if (!options_.is_object()) throw InputError(game_ + " rule options: expected a JSON object, got " + options_.dump());
}

const Json* OptionReader::lookup(const std::string& key) {
  seen_.insert(key);
  return options_.find(key);
}

void OptionReader::fail(const std::string& key, const std::string& what) const {
  throw InputError(game_ + " rule option '" + key + "': " + what);
}

bool OptionReader::get_bool(const std::string& key, bool fallback) {
  const Json* v = lookup(key);
  if (!v) return fallback;
  if (!v->is_bool()) fail(key, "expected true or false, got " + v->dump());
  return v->as_bool();
}

int OptionReader::get_int(const std::string& key, int fallback, int min, int max) {
  const Json* v = lookup(key);
  if (!v) return fallback;
  if (!v->is_number()) fail(key, "expected a number, got " + v->dump());
  double d = v->as_number();
  if (d != static_cast<double>(static_cast<long long>(d)) || d < min || d > max)
    fail(key, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got " +
                  v->dump());
  return static_cast<int>(d);
}

std::string OptionReader::get_choice(const std::string& key, const std::string& fallback,
                                     std::initializer_list<const char*> allowed) {
  const Json* v = lookup(key);
  if (!v) return fallback;
  std::string list;
  for (const char* a : allowed) {
    if (v->is_string() && v->as_string() == a) return a;
    list += list.empty() ? "" : ", ";
    list += std::string("\"") + a + "\"";
  }
  fail(key, "expected one of " + list + ", got " + v->dump());
}

void OptionReader::finish() const {
  for (const auto& [key, value] : options_.as_object())
    if (!seen_.count(key)) throw InputError(game_ + " rule options: unknown option '" + key + "'");
}

}  // namespace sb
