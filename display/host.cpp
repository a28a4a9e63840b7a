#include "display/host.h"

namespace sb::display {

CommandReply CommandReply::ok(nlohmann::json extra) {
  CommandReply r;
  r.body = extra.is_object() ? std::move(extra) : nlohmann::json::object();
  r.body["ok"] = true;
  return r;
}

CommandReply CommandReply::error(int status, const std::string& message) {
  CommandReply r;
  r.status = status;
  r.body = {{"error", message}};
  return r;
}

}  // namespace sb::display
