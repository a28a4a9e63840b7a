// The registry's entry point for Cờ toán (declared in engines/registry.cpp).
#include <memory>

#include "engines/cotoan/rules.h"

namespace sb {

std::unique_ptr<Rules> make_cotoan_rules(const Json& options) {
  return std::make_unique<cotoan::CotoanRules>(cotoan::Options::from_json(options));
}

}  // namespace sb
