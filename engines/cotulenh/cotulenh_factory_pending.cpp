// Until the Cờ tư lệnh engine lands (issue 5) the registry reports the game as not built.
#include <memory>
#include <string>
#include <string_view>

#include "engines/common/errors.h"
#include "engines/common/rules.h"

namespace sb {
std::unique_ptr<Rules> make_cotulenh_rules(const Json&) {
  throw InputError("game 'cotulenh' has no rules engine in this build yet");
}
}  // namespace sb
