#include "arbiter/frame.h"

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) { throw InputError(where + ": " + what); }

int site_of(const Rules& rules, const std::string& name, const std::string& where, const char* field) {
  int site = rules.site_index(name);
  if (site < 0) fail(where, std::string("unknown square '") + name + "' in \"" + field + "\" (game " + rules.id() + ")");
  return site;
}

}  // namespace

Frame parse_frame(const Rules& rules, std::string_view line, const std::string& where,
                  std::optional<int64_t> previous_t) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    std::string msg = e.what();
    if (auto pos = msg.find("parse error"); pos != std::string::npos) msg = msg.substr(pos);
    fail(where, "not a JSON line (" + msg + ")");
  }
  if (!j.is_object()) fail(where, "expected a JSON object");
  Frame f;
  auto t = j.find("t");
  if (t == j.end()) fail(where, "missing \"t\" (milliseconds)");
  if (!t->is_number_integer()) {
    if (t->is_number_float() && t->get<double>() == static_cast<double>(static_cast<int64_t>(t->get<double>())))
      f.t = static_cast<int64_t>(t->get<double>());
    else
      fail(where, "\"t\" must be a whole number of milliseconds, got " + t->dump());
  } else {
    f.t = t->get<int64_t>();
  }
  if (f.t < 0) fail(where, "\"t\" must not be negative, got " + std::to_string(f.t));
  if (previous_t && f.t < *previous_t)
    fail(where, "time " + std::to_string(f.t) + " is earlier than the previous line's " + std::to_string(*previous_t));

  const bool has_board = j.contains("board");
  const bool has_command = j.contains("command");
  if (has_board == has_command) fail(where, "expected either \"board\" or \"command\"");
  if (has_command) {
    if (!j["command"].is_string()) fail(where, "\"command\" must be a string");
    f.command = j;
    f.command.erase("t");
    return f;
  }
  // Other fields are left alone: simulate's truth lines carry "corners", a reader's
  // lines may carry diagnostics, and neither should stop a referee.
  const nlohmann::json& board = j["board"];
  if (!board.is_object()) fail(where, "\"board\" must be an object from square to token");
  f.board.sites.assign(rules.site_count(), Token{});
  for (const auto& [square, token] : board.items()) {
    int site = site_of(rules, square, where, "board");
    if (!token.is_string()) fail(where, "the token on " + square + " must be a string, got " + token.dump());
    Token tok;
    try {
      tok = parse_token(token.get<std::string>());
    } catch (const InputError& e) {
      fail(where, "square " + square + ": " + e.what());
    }
    if (!rules.valid_token(tok))
      fail(where, "square " + square + ": token '" + tok.str() + "' is not a piece of " + rules.id());
    f.board.sites[site] = tok;
  }
  f.conf.assign(rules.site_count(), 1.0f);
  if (auto c = j.find("conf"); c != j.end()) {
    if (!c->is_object()) fail(where, "\"conf\" must be an object from square to a number in 0..1");
    for (const auto& [square, value] : c->items()) {
      int site = site_of(rules, square, where, "conf");
      if (!value.is_number()) fail(where, "conf of " + square + " must be a number, got " + value.dump());
      double v = value.get<double>();
      if (!(v >= 0.0 && v <= 1.0)) fail(where, "conf of " + square + " must be in 0..1, got " + value.dump());
      f.conf[site] = static_cast<float>(v);
    }
  }
  if (auto s = j.find("stable"); s != j.end()) {
    if (!s->is_boolean()) fail(where, "\"stable\" must be true or false, got " + s->dump());
    f.stable = s->get<bool>();
  }
  return f;
}

nlohmann::json board_json(const Rules& rules, const Observation& board) {
  nlohmann::json j = nlohmann::json::object();
  for (int i = 0; i < static_cast<int>(board.sites.size()); ++i)
    if (!board.sites[i].empty()) j[rules.site_name(i)] = board.sites[i].str();
  return j;
}

nlohmann::json frame_json(const Rules& rules, const Frame& f) {
  nlohmann::json j;
  j["t"] = f.t;
  if (f.is_command()) {
    for (const auto& [k, v] : f.command.items()) j[k] = v;
    return j;
  }
  j["board"] = board_json(rules, f.board);
  nlohmann::json conf = nlohmann::json::object();
  for (int i = 0; i < static_cast<int>(f.conf.size()); ++i)
    if (f.conf[i] < 1.0f) conf[rules.site_name(i)] = std::round(f.conf[i] * 1000.0) / 1000.0;
  if (!conf.empty()) j["conf"] = conf;
  if (!f.stable) j["stable"] = false;
  return j;
}

}  // namespace sb::arbiter
