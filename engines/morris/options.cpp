#include "engines/morris/options.h"

#include "engines/common/options.h"

namespace sb::morris {

namespace {

const char* remove_name(RemoveFromMill r) {
  return r == RemoveFromMill::Always ? "always" : "only_if_all_in_mills";
}

}  // namespace

MorrisOptions MorrisOptions::defaults(Variant v) {
  MorrisOptions o;
  if (v == Variant::Three) o.flying = false;
  return o;
}

MorrisOptions MorrisOptions::from_json(const Json& options, Variant v) {
  const MorrisOptions d = defaults(v);
  OptionReader r(options, geometry(v).id);
  MorrisOptions o = d;
  o.flying = r.get_bool("flying", d.flying);
  if (v != Variant::Three) {
    const std::string remove =
        r.get_choice("remove_from_mill", remove_name(d.remove_from_mill), {"only_if_all_in_mills", "always"});
    o.remove_from_mill = remove == "always" ? RemoveFromMill::Always : RemoveFromMill::OnlyIfAllInMills;
    o.double_mill_removals = r.get_int("double_mill_removals", d.double_mill_removals, 1, 2);
  }
  o.move_limit_plies = r.get_int("move_limit_plies", d.move_limit_plies, 0, 10000);
  r.finish();
  return o;
}

Json MorrisOptions::to_json(Variant v) const {
  Json j = Json::object();
  j["flying"] = flying;
  if (v != Variant::Three) {
    j["remove_from_mill"] = remove_name(remove_from_mill);
    j["double_mill_removals"] = double_mill_removals;
  }
  j["move_limit_plies"] = move_limit_plies;
  return j;
}

}  // namespace sb::morris
