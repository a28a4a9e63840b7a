// The rule options of Cờ tư lệnh: every point where the seed leaves room and a club
// might play its own way (engines/cotulenh/RULES.md gives the reasons). A plain value
// with a JSON round trip; the defaults are the engine's reading of the seed.
#pragma once

#include "engines/common/json.h"

namespace sb::cotulenh {

struct Options {
  // "battle": the game ends when a side loses a battle (naval, air, land or raid);
  // "full": only when a commander falls.
  enum class Mode { Battle, Full } mode = Mode::Battle;
  // Points for the winner of a decisive ending (a battle won, or the commander taken).
  int win_bonus = 100;
  // A move that leaves the commanders facing on an open line: the opponent may take
  // the exposed commander along it ("capturable"), or the move is not allowed ("illegal").
  enum class Facing { Capturable, Illegal } facing = Facing::Capturable;
  // Whether a side may leave its own commander where it can be taken ("none", the seed:
  // the game ends when a commander is taken) or must keep it safe ("must_escape", as in
  // chess: moves that leave it attacked are illegal, and a side with none left loses).
  enum class Safety { None, MustEscape } safety = Safety::None;
  // A commander inside its headquarters does not face the enemy commander.
  bool hq_shelters_commander = true;
  // Air-defence zones are discs ("circle": within the radius as the crow flies) or
  // squares ("square": within the radius along both axes).
  enum class ZoneShape { Circle, Square } zone_shape = ZoneShape::Circle;
  // A hero anti-aircraft gun, missile or navy covers one step more.
  bool hero_extends_air_defence = true;
  // The last piece a side has besides its commander and headquarters becomes a hero.
  bool last_defender_hero = true;
  // A diagonal step across the river with one end on file f or h uses the ford.
  bool diagonal_fords = false;
  // Who may take an air force: every piece ("all") or only air defence (anti-aircraft
  // guns, missiles, navies) and air forces ("air_defence").
  enum class AirTargets { All, AirDefence } air_targets = AirTargets::All;
  // An air force may stand over open sea (files a-b) without a ship under it.
  bool air_force_over_sea = true;

  Json to_json() const;
  // Missing keys take the defaults; unknown keys and bad values throw InputError.
  static Options from_json(const Json& j);
  bool operator==(const Options&) const = default;
};

}  // namespace sb::cotulenh
