#include "display/routes.h"

#include <fstream>
#include <sstream>

#include "display/static_files.h"
#include "display/token.h"
#include "engines/common/errors.h"

namespace sb::display {

namespace {

void common_headers(Response& res, const Request& req) {
  res.set(http::field::server, "smartboard");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
}

Response text_response(http::status status, std::string body, const std::string& content_type, const Request& req) {
  Response res{status, req.version()};
  common_headers(res, req);
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

Response serve_file(SharedState& state, const Request& req, const RequestTarget& target) {
  StaticFile file = resolve_static(state.options().www_root, target.path);
  if (file.status == StaticFile::Status::Forbidden) return error_response(http::status::forbidden, "forbidden path", req);
  if (file.status == StaticFile::Status::NotFound) return error_response(http::status::not_found, "not found: " + target.path, req);
  std::error_code ec;
  auto size = std::filesystem::file_size(file.path, ec);
  if (ec || size > state.options().max_file_bytes) return error_response(http::status::forbidden, "file too large", req);
  std::ifstream in(file.path, std::ios::binary);
  std::ostringstream body;
  body << in.rdbuf();
  if (!in && !in.eof()) return error_response(http::status::internal_server_error, "cannot read file", req);
  Response res = text_response(http::status::ok, body.str(), file.content_type, req);
  res.set(http::field::cache_control, "no-cache");
  return res;
}

Response record_response(SharedState& state, const Request& req, const std::string& format) {
  if (format != "pdn" && format != "txt" && format != "json")
    return error_response(http::status::bad_request, "record format '" + format + "': expected pdn, txt or json", req);
  std::optional<Record> record = state.host().record(format);
  if (!record) {
    const std::string game = state.host().game();
    if (format == "txt") record = Record{"text/plain; charset=utf-8", game + ".txt", state.text_record()};
    else if (format == "json") record = Record{"application/json", game + ".json", state.json_record().dump(2)};
    else return error_response(http::status::not_found, "no PDN record for this game", req);
  }
  Response res = text_response(http::status::ok, std::move(record->body), record->content_type, req);
  res.set(http::field::content_disposition, "attachment; filename=\"" + record->filename + "\"");
  return res;
}

Response command_response(SharedState& state, const Request& req) {
  if (!bearer_matches(std::string(req[http::field::authorization]), state.token())) {
    Response res = error_response(http::status::unauthorized, "operator token required (Authorization: Bearer <token>)", req);
    res.set(http::field::www_authenticate, "Bearer");
    return res;
  }
  nlohmann::json command = nlohmann::json::parse(req.body(), nullptr, false);
  if (command.is_discarded()) return error_response(http::status::bad_request, "command: the body is not JSON", req);
  // {"command": "resign", ...} as the referee reads it; "cmd" is accepted for the same.
  if (command.is_object() && !command.contains("command") && command.contains("cmd")) {
    command["command"] = command["cmd"];
    command.erase("cmd");
  }
  if (!command.is_object() || !command.contains("command") || !command["command"].is_string())
    return error_response(http::status::bad_request, "command: expected {\"command\": \"...\", ...}", req);
  try {
    if (command["command"] == "language") {
      if (!command.contains("lang") || !command["lang"].is_string())
        return error_response(http::status::bad_request, "command language: expected \"lang\": \"en\" or \"vi\"", req);
      state.set_language(language_from_code(command["lang"]));
      return json_response({{"ok", true}, {"language", command["lang"]}}, req);
    }
    CommandReply reply = state.host().command(command);
    return json_response(reply.body, req, static_cast<http::status>(reply.status));
  } catch (const InputError& e) {
    return error_response(http::status::bad_request, e.what(), req);
  } catch (const std::exception& e) {
    return error_response(http::status::internal_server_error, std::string("command failed: ") + e.what(), req);
  }
}

Response moves_response(SharedState& state, const Request& req, const RequestTarget& target) {
  MoveQuery q;
  auto it = target.query.find("fen");
  q.fen = it != target.query.end() ? it->second : state.state()["fen"].get<std::string>();
  if (auto f = target.query.find("from"); f != target.query.end()) q.from = f->second;
  if (auto c = target.query.find("captures"); c != target.query.end()) q.captures_only = c->second == "1" || c->second == "true";
  try {
    nlohmann::json moves = state.host().legal_moves(q);
    return json_response({{"fen", q.fen}, {"from", q.from}, {"captures_only", q.captures_only}, {"moves", moves}}, req);
  } catch (const InputError& e) {
    return error_response(http::status::bad_request, e.what(), req);
  } catch (const std::exception& e) {
    return error_response(http::status::internal_server_error, std::string("legal moves: ") + e.what(), req);
  }
}

}  // namespace

Response error_response(http::status status, const std::string& message, const Request& request) {
  return json_response({{"error", message}}, request, status);
}

Response json_response(const nlohmann::json& body, const Request& request, http::status status) {
  return text_response(status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json",
                       request);
}

Response route(SharedState& state, const Request& req, const RequestTarget& target) {
  const std::string& path = target.path;
  if (path == "/api/command") {
    if (req.method() != http::verb::post) {
      Response res = error_response(http::status::method_not_allowed, "use POST for commands", req);
      res.set(http::field::allow, "POST");
      return res;
    }
    return command_response(state, req);
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    Response res = error_response(http::status::method_not_allowed, "method not allowed", req);
    res.set(http::field::allow, "GET, HEAD");
    return res;
  }
  if (path == "/api/state") return json_response(state.state(), req);
  if (path == "/api/board") return json_response(state.board_model(), req);
  if (path == "/api/moves") return moves_response(state, req, target);
  if (path == "/api/auth") {
    if (!bearer_matches(std::string(req[http::field::authorization]), state.token()))
      return error_response(http::status::unauthorized, "wrong or missing operator token", req);
    return json_response({{"ok", true}}, req);
  }
  if (path == "/api/events") {
    int64_t since = 0;
    if (auto it = target.query.find("since"); it != target.query.end()) {
      try {
        since = std::stoll(it->second);
      } catch (const std::exception&) {
        return error_response(http::status::bad_request, "since: expected a number", req);
      }
    }
    return json_response({{"events", state.events_since(since)}}, req);
  }
  if (path == "/api/record") {
    auto it = target.query.find("format");
    return record_response(state, req, it == target.query.end() ? "json" : it->second);
  }
  if (path.rfind("/api/record.", 0) == 0) return record_response(state, req, path.substr(12));
  if (path == "/api/camera.jpg") {
    auto frame = state.camera_frame();
    if (!frame) return error_response(http::status::not_found, "no camera frame yet", req);
    return text_response(http::status::ok, *frame, "image/jpeg", req);
  }
  if (path.rfind("/api/", 0) == 0 || path == "/api") return error_response(http::status::not_found, "no such API: " + path, req);
  return serve_file(state, req, target);
}

}  // namespace sb::display
