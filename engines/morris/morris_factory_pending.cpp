// Until the Morris engine lands (issue 3) the registry reports the game as not built.
#include <memory>
#include <string>
#include <string_view>

#include "engines/common/errors.h"
#include "engines/common/rules.h"

namespace sb {
std::unique_ptr<Rules> make_morris_rules(std::string_view id, const Json&) {
  throw InputError("game '" + std::string(id) + "' has no rules engine in this build yet");
}
}  // namespace sb
