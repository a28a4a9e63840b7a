#include "engines/draughts/draughts_options.h"

#include "engines/common/options.h"

namespace sb::draughts {

DraughtsOptions default_options(const Variant& variant) {
  DraughtsOptions o;
  o.draw_rules = variant.kind == VariantKind::International ? DrawRules::Fmjd : DrawRules::Seed;
  return o;
}

std::string draw_rules_name(DrawRules rules) {
  switch (rules) {
    case DrawRules::Seed:
      return "seed";
    case DrawRules::Fmjd64:
      return "fmjd64";
    case DrawRules::Fmjd:
      return "fmjd";
  }
  return "seed";
}

DraughtsOptions options_from_json(const Json& json, const Variant& variant) {
  DraughtsOptions o = default_options(variant);
  OptionReader reader(json, variant.id);
  const std::string draw = reader.get_choice("draw_rules", draw_rules_name(o.draw_rules), {"seed", "fmjd64", "fmjd"});
  o.draw_rules = draw == "fmjd64" ? DrawRules::Fmjd64 : draw == "fmjd" ? DrawRules::Fmjd : DrawRules::Seed;
  o.algebraic = reader.get_choice("notation", "numeric", {"numeric", "algebraic"}) == "algebraic";
  reader.finish();
  return o;
}

Json options_to_json(const DraughtsOptions& options) {
  Json j = Json::object();
  j["draw_rules"] = draw_rules_name(options.draw_rules);
  j["notation"] = options.algebraic ? "algebraic" : "numeric";
  return j;
}

}  // namespace sb::draughts
