#include "engines/cotulenh/options.h"

#include "engines/common/options.h"

namespace sb::cotulenh {

Json Options::to_json() const {
  Json j = Json::object();
  j["mode"] = mode == Mode::Battle ? "battle" : "full";
  j["win_bonus"] = win_bonus;
  j["commander_facing"] = facing == Facing::Capturable ? "capturable" : "illegal";
  j["commander_safety"] = safety == Safety::None ? "none" : "must_escape";
  j["hq_shelters_commander"] = hq_shelters_commander;
  j["zone_shape"] = zone_shape == ZoneShape::Circle ? "circle" : "square";
  j["hero_extends_air_defence"] = hero_extends_air_defence;
  j["last_defender_hero"] = last_defender_hero;
  j["diagonal_fords"] = diagonal_fords;
  j["air_targets"] = air_targets == AirTargets::All ? "all" : "air_defence";
  j["air_force_over_sea"] = air_force_over_sea;
  return j;
}

Options Options::from_json(const Json& j) {
  OptionReader r(j, "cotulenh");
  Options o;
  o.mode = r.get_choice("mode", "battle", {"battle", "full"}) == "battle" ? Mode::Battle : Mode::Full;
  o.win_bonus = r.get_int("win_bonus", 100, 0, 10000);
  o.facing = r.get_choice("commander_facing", "capturable", {"capturable", "illegal"}) == "capturable"
                 ? Facing::Capturable
                 : Facing::Illegal;
  o.safety =
      r.get_choice("commander_safety", "none", {"none", "must_escape"}) == "none" ? Safety::None : Safety::MustEscape;
  o.hq_shelters_commander = r.get_bool("hq_shelters_commander", true);
  o.zone_shape =
      r.get_choice("zone_shape", "circle", {"circle", "square"}) == "circle" ? ZoneShape::Circle : ZoneShape::Square;
  o.hero_extends_air_defence = r.get_bool("hero_extends_air_defence", true);
  o.last_defender_hero = r.get_bool("last_defender_hero", true);
  o.diagonal_fords = r.get_bool("diagonal_fords", false);
  o.air_targets =
      r.get_choice("air_targets", "all", {"all", "air_defence"}) == "all" ? AirTargets::All : AirTargets::AirDefence;
  o.air_force_over_sea = r.get_bool("air_force_over_sea", true);
  r.finish();
  return o;
}

}  // namespace sb::cotulenh
