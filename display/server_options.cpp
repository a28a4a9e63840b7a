#include "display/server_options.h"

#include <cctype>

#include "engines/common/errors.h"

namespace sb::display {

ListenAddress parse_listen_address(const std::string& text, const std::string& default_address) {
  ListenAddress a{default_address, 0};
  std::string port_text = text;
  if (!text.empty() && text[0] == '[') {
    size_t close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
      throw InputError("--http '" + text + "': expected [ADDR]:PORT");
    a.address = text.substr(1, close - 1);
    port_text = text.substr(close + 2);
  } else if (size_t colon = text.rfind(':'); colon != std::string::npos) {
    a.address = text.substr(0, colon);
    port_text = text.substr(colon + 1);
    if (a.address.find(':') != std::string::npos)
      throw InputError("--http '" + text + "': write an IPv6 address in brackets, [::1]:8080");
  }
  if (a.address.empty()) throw InputError("--http '" + text + "': empty address");
  if (port_text.empty() || port_text.size() > 5) throw InputError("--http '" + text + "': bad port '" + port_text + "'");
  for (char c : port_text)
    if (!std::isdigit(static_cast<unsigned char>(c))) throw InputError("--http '" + text + "': bad port '" + port_text + "'");
  int port = std::stoi(port_text);
  if (port > 65535) throw InputError("--http '" + text + "': port " + port_text + " is above 65535");
  a.port = static_cast<unsigned short>(port);
  return a;
}

}  // namespace sb::display
