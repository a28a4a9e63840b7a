// The operator's token: random at start-up, checked in constant time.
#pragma once

#include <string>
#include <string_view>

namespace sb::display {

// 32 hexadecimal characters from the system's random source.
std::string make_token();

// Whether an Authorization header value is "Bearer <token>" for this token.
bool bearer_matches(std::string_view authorization, std::string_view token);

}  // namespace sb::display
