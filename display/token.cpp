#include "display/token.h"

#include <random>

namespace sb::display {

std::string make_token() {
  std::random_device device;  // /dev/urandom on Linux
  static const char kHex[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 4; ++i) {
    uint32_t word = device();
    for (int k = 0; k < 8; ++k) token += kHex[(word >> (4 * k)) & 0xf];
  }
  return token;
}

bool bearer_matches(std::string_view authorization, std::string_view token) {
  constexpr std::string_view kScheme = "Bearer ";
  if (token.empty() || authorization.size() < kScheme.size()) return false;
  for (size_t i = 0; i < kScheme.size(); ++i)
    if ((authorization[i] | 0x20) != (kScheme[i] | 0x20)) return false;  // the scheme is case-insensitive
  std::string_view given = authorization.substr(kScheme.size());
  // Compare every character whatever the first difference, so time tells nothing.
  unsigned diff = given.size() != token.size();
  for (size_t i = 0; i < token.size(); ++i) diff |= static_cast<unsigned char>(i < given.size() ? given[i] : 0) ^
                                                 static_cast<unsigned char>(token[i]);
  return diff == 0;
}

}  // namespace sb::display
