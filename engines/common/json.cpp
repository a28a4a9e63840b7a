#include "engines/common/json.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "engines/common/errors.h"

namespace sb {

namespace {

const char* type_name(const Json& j) {
  if (j.is_null()) return "null";
  if (j.is_bool()) return "a boolean";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_array()) return "an array";
  return "an object";
}

[[noreturn]] void type_error(const Json& j, const char* wanted) {
  throw InputError(std::string("JSON value is ") + type_name(j) + ", expected " + wanted);
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : s_(text), source_(source) {}

  Json parse_document() {
    skip_ws();
    Json v = parse_value(0);
    skip_ws();
    if (i_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 256;  // hostile input must not exhaust the stack

  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, col = 1;
    for (size_t k = 0; k < i_ && k < s_.size(); ++k) {
      if (s_[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw InputError(std::string(source_) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
                     what);
  }

  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  bool consume(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  void expect_word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) fail("invalid literal");
    i_ += w.size();
  }

  Json parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 256 levels");
    if (i_ >= s_.size()) fail("unexpected end of input");
    char c = s_[i_];
    switch (c) {
      case '{': return parse_object(depth);
      case '[': return parse_array(depth);
      case '"': return Json(parse_string());
      case 't': expect_word("true"); return Json(true);
      case 'f': expect_word("false"); return Json(false);
      case 'n': expect_word("null"); return Json(nullptr);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return Json(parse_number());
        fail(std::string("unexpected character '") + c + "'");
    }
  }

  Json parse_object(int depth) {
    ++i_;  // '{'
    Json::Object obj;
    skip_ws();
    if (consume('}')) return Json(std::move(obj));
    for (;;) {
      skip_ws();
      if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string key");
      std::string key = parse_string();
      skip_ws();
      if (!consume(':')) fail("expected ':'");
      skip_ws();
      Json v = parse_value(depth + 1);
      obj[std::move(key)] = std::move(v);
      skip_ws();
      if (consume('}')) break;
      if (!consume(',')) fail("expected ',' or '}'");
    }
    return Json(std::move(obj));
  }

  Json parse_array(int depth) {
    ++i_;  // '['
    Json::Array arr;
    skip_ws();
    if (consume(']')) return Json(std::move(arr));
    for (;;) {
      skip_ws();
      arr.push_back(parse_value(depth + 1));
      skip_ws();
      if (consume(']')) break;
      if (!consume(',')) fail("expected ',' or ']'");
    }
    return Json(std::move(arr));
  }

  static void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  uint32_t parse_hex4() {
    if (i_ + 4 > s_.size()) fail("truncated \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  std::string parse_string() {
    ++i_;  // '"'
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp = parse_hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!(consume('\\') && consume('u'))) fail("lone high surrogate");
            uint32_t lo = parse_hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("lone low surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default: fail(std::string("bad escape '\\") + e + "'");
      }
    }
    return out;
  }

  double parse_number() {
    size_t start = i_;
    consume('-');
    if (consume('0')) {
      // no leading zeros
    } else {
      if (i_ >= s_.size() || s_[i_] < '1' || s_[i_] > '9') fail("bad number");
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    }
    if (consume('.')) {
      if (i_ >= s_.size() || s_[i_] < '0' || s_[i_] > '9') fail("bad number: digit expected after '.'");
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!consume('+')) consume('-');
      if (i_ >= s_.size() || s_[i_] < '0' || s_[i_] > '9') fail("bad number: digit expected in exponent");
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    }
    std::string text(s_.substr(start, i_ - start));
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (!std::isfinite(d)) fail("number out of range");
    return d;
  }

  std::string_view s_;
  std::string_view source_;
  size_t i_ = 0;
};

void dump_to(const Json& j, std::string& out) {
  if (j.is_null()) {
    out += "null";
  } else if (j.is_bool()) {
    out += j.as_bool() ? "true" : "false";
  } else if (j.is_number()) {
    double d = j.as_number();
    if (std::floor(d) == d && std::fabs(d) < 9e15) {
      out += std::to_string(static_cast<long long>(d));
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", d);
      out += buf;
    }
  } else if (j.is_string()) {
    out += json_quote(j.as_string());
  } else if (j.is_array()) {
    out += '[';
    bool first = true;
    for (const Json& e : j.as_array()) {
      if (!first) out += ',';
      first = false;
      dump_to(e, out);
    }
    out += ']';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [k, v] : j.as_object()) {
      if (!first) out += ',';
      first = false;
      out += json_quote(k);
      out += ':';
      dump_to(v, out);
    }
    out += '}';
  }
}

}  // namespace

bool Json::as_bool() const {
  if (!is_bool()) type_error(*this, "a boolean");
  return std::get<bool>(v_);
}

double Json::as_number() const {
  if (!is_number()) type_error(*this, "a number");
  return std::get<double>(v_);
}

int Json::as_int() const {
  double d = as_number();
  if (std::floor(d) != d || d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max())
    throw InputError("JSON number " + dump() + " is not an integer");
  return static_cast<int>(d);
}

const std::string& Json::as_string() const {
  if (!is_string()) type_error(*this, "a string");
  return std::get<std::string>(v_);
}

const Json::Array& Json::as_array() const {
  if (!is_array()) type_error(*this, "an array");
  return std::get<Array>(v_);
}

Json::Array& Json::as_array() {
  if (!is_array()) type_error(*this, "an array");
  return std::get<Array>(v_);
}

const Json::Object& Json::as_object() const {
  if (!is_object()) type_error(*this, "an object");
  return std::get<Object>(v_);
}

Json::Object& Json::as_object() {
  if (!is_object()) type_error(*this, "an object");
  return std::get<Object>(v_);
}

const Json* Json::find(const std::string& key) const {
  if (!is_object()) return nullptr;
  const auto& o = std::get<Object>(v_);
  auto it = o.find(key);
  return it == o.end() ? nullptr : &it->second;
}

const Json& Json::at(const std::string& key) const {
  const Json* j = find(key);
  if (!j) throw InputError("JSON object has no key '" + key + "'");
  return *j;
}

Json& Json::operator[](const std::string& key) {
  if (is_null()) v_ = Object{};
  return as_object()[key];
}

void Json::push_back(Json v) {
  if (is_null()) v_ = Array{};
  as_array().push_back(std::move(v));
}

std::string Json::dump() const {
  std::string out;
  dump_to(*this, out);
  return out;
}

Json Json::parse(std::string_view text, std::string_view source) { return Parser(text, source).parse_document(); }

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

}  // namespace sb
