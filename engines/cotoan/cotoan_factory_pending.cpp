// Until the Cờ toán engine lands (issue 4) the registry reports the game as not built.
#include <memory>
#include <string>
#include <string_view>

#include "engines/common/errors.h"
#include "engines/common/rules.h"

namespace sb {
std::unique_ptr<Rules> make_cotoan_rules(const Json&) {
  throw InputError("game 'cotoan' has no rules engine in this build yet");
}
}  // namespace sb
