#include "engines/cotoan/options.h"

#include "engines/common/options.h"

namespace sb::cotoan {

Json Options::to_json() const {
  Json j = Json::object();
  j["zero_partner"] = zero_partner;
  j["block_by"] = block_by == BlockBy::Any ? "any" : "enemy";
  j["division"] = division == Division::One ? "one" : "both";
  j["target_score"] = target_score;
  j["first"] = first == Side::First ? "red" : "blue";
  j["compulsory_capture"] = compulsory_capture;
  return j;
}

Options Options::from_json(const Json& j) {
  OptionReader r(j, "cotoan");
  Options o;
  o.zero_partner = r.get_bool("zero_partner", o.zero_partner);
  o.block_by = r.get_choice("block_by", "any", {"any", "enemy"}) == "any" ? BlockBy::Any : BlockBy::Enemy;
  o.division = r.get_choice("division", "one", {"one", "both"}) == "one" ? Division::One : Division::Both;
  // Each side holds 1+…+9 = 45 points of pieces; a higher target could never be reached.
  o.target_score = r.get_int("target_score", o.target_score, 0, 45);
  o.first = r.get_choice("first", "red", {"red", "blue"}) == "red" ? Side::First : Side::Second;
  o.compulsory_capture = r.get_bool("compulsory_capture", o.compulsory_capture);
  r.finish();
  return o;
}

}  // namespace sb::cotoan
