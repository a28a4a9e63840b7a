// The plain HTTP answers: the JSON API and the page's files. The long-lived and
// asynchronous ones (/ws, the camera stream, speech) are the HTTP session's.
#pragma once

#include <string>

#include "display/beast.h"
#include "display/request_target.h"
#include "display/shared_state.h"

namespace sb::display {

// A JSON answer {"error": message} with `status`.
Response error_response(http::status status, const std::string& message, const Request& request);
Response json_response(const nlohmann::json& body, const Request& request, http::status status = http::status::ok);

// Answers one request whose target parsed into `target`.
Response route(SharedState& state, const Request& request, const RequestTarget& target);

}  // namespace sb::display
