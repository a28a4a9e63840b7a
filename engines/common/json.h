// A small JSON value for the engines, which may use only the standard library.
// Rule options and the game-specific details of a move travel as this type; the
// app and the arbiter convert it to nlohmann::json at their edge.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sb {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::map<std::string, Json>;  // sorted keys: dumps are canonical

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : v_(b) {}
  Json(int i) : v_(static_cast<double>(i)) {}
  Json(int64_t i) : v_(static_cast<double>(i)) {}
  Json(double d) : v_(d) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(std::string_view s) : v_(std::string(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_number() const { return std::holds_alternative<double>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_array() const { return std::holds_alternative<Array>(v_); }
  bool is_object() const { return std::holds_alternative<Object>(v_); }

  // Accessors throw sb::InputError naming the expected type when the value is another.
  bool as_bool() const;
  double as_number() const;
  int as_int() const;  // rejects non-integral numbers
  const std::string& as_string() const;
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;
  Object& as_object();

  // Object helpers. `at` throws when the key is missing; `find` returns nullptr.
  const Json* find(const std::string& key) const;
  const Json& at(const std::string& key) const;
  Json& operator[](const std::string& key);  // makes null into an object
  void push_back(Json v);                     // makes null into an array

  bool operator==(const Json& o) const { return v_ == o.v_; }

  // Compact text, keys sorted, numbers without a trailing ".0" when integral.
  std::string dump() const;

  // Strict RFC 8259 parsing. Errors throw sb::InputError naming `source` and the
  // line:column of the problem, e.g. "config.json:3:14: expected ',' or '}'".
  static Json parse(std::string_view text, std::string_view source = "json");

 private:
  std::variant<std::monostate, bool, double, std::string, Array, Object> v_;
};

// JSON string literal for s, with the quotes.
std::string json_quote(std::string_view s);

}  // namespace sb
