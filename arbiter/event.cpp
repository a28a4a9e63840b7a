#include "arbiter/event.h"

#include "engines/common/errors.h"

namespace sb::arbiter {

namespace {

struct TypeName {
  EventType type;
  const char* name;
};

constexpr TypeName kTypeNames[] = {
    {EventType::SetupOk, "setup_ok"},
    {EventType::SetupMismatch, "setup_mismatch"},
    {EventType::Move, "move"},
    {EventType::Illegal, "illegal"},
    {EventType::Restored, "restored"},
    {EventType::Takeback, "takeback"},
    {EventType::GameOver, "game_over"},
    {EventType::Unclear, "unclear"},
    {EventType::Clock, "clock"},
    {EventType::Info, "info"},
    {EventType::DrawOffer, "draw_offer"},
    {EventType::DrawDeclined, "draw_declined"},
    {EventType::NewGame, "new_game"},
    {EventType::MatchOver, "match_over"},
    {EventType::Answered, "answered"},
    {EventType::Refused, "refused"},
};

}  // namespace

const char* to_string(EventType t) {
  for (const TypeName& n : kTypeNames)
    if (n.type == t) return n.name;
  return "info";
}

bool journaled(EventType t) {
  return t != EventType::Info && t != EventType::Refused;
}

std::optional<EventType> event_type_from_string(const std::string& s) {
  for (const TypeName& n : kTypeNames)
    if (s == n.name) return n.type;
  return std::nullopt;
}

nlohmann::json to_json(const Event& e) {
  nlohmann::json j = e.extra.is_object() ? e.extra : nlohmann::json::object();
  j["type"] = to_string(e.type);
  j["t"] = e.t;
  switch (e.type) {
    case EventType::SetupMismatch:
    case EventType::Unclear:
      j["squares"] = e.squares;
      if (!e.reason.empty()) j["reason"] = e.reason;
      if (e.extra.value("ask", false)) j["ply"] = e.ply;
      break;
    case EventType::Answered:
      j["ply"] = e.ply;
      j["notation"] = e.notation;
      break;
    case EventType::Move:
      j["ply"] = e.ply;
      j["side"] = e.side;
      j["notation"] = e.notation;
      j["captured"] = e.captured;
      j["points"] = e.points;
      j["score"] = e.score;
      break;
    case EventType::Illegal:
      j["reason"] = e.reason;
      j["squares"] = e.squares;
      if (!e.side.empty()) j["side"] = e.side;
      break;
    case EventType::Takeback:
      j["ply"] = e.ply;
      j["score"] = e.score;
      break;
    case EventType::DrawOffer:
    case EventType::DrawDeclined:
      j["side"] = e.side;
      break;
    case EventType::NewGame:
      break;
    case EventType::GameOver:
    case EventType::MatchOver:
      j["result"] = e.result;
      j["reason"] = e.reason;
      j["score"] = e.score;
      break;
    case EventType::SetupOk:
    case EventType::Restored:
    case EventType::Clock:
    case EventType::Info:
    case EventType::Refused:
      if (!e.reason.empty()) j["reason"] = e.reason;
      break;
  }
  if (!e.fen.empty()) j["fen"] = e.fen;
  return j;
}

Event event_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("event: expected a JSON object");
  Event e;
  try {
    auto type = event_type_from_string(j.at("type").get<std::string>());
    if (!type) throw InputError("event: unknown type " + j.at("type").dump());
    e.type = *type;
    e.t = j.at("t").get<int64_t>();
    nlohmann::json extra = j;
    auto take = [&](const char* key, auto& field) {
      if (auto it = j.find(key); it != j.end()) it->get_to(field);
      extra.erase(key);
    };
    extra.erase("type");
    extra.erase("t");
    take("ply", e.ply);
    take("side", e.side);
    take("notation", e.notation);
    take("captured", e.captured);
    take("squares", e.squares);
    take("reason", e.reason);
    take("result", e.result);
    take("points", e.points);
    take("score", e.score);
    take("fen", e.fen);
    e.extra = extra;
  } catch (const nlohmann::json::exception& ex) {
    throw InputError(std::string("event: ") + ex.what());
  }
  return e;
}

}  // namespace sb::arbiter
