#include "vision/game_vision.h"

#include <algorithm>

#include "engines/common/errors.h"

namespace sb::vision {

PieceVocabulary vocabulary_for(const std::string& game) {
  PieceVocabulary v;
  if (game == "brazilian" || game == "international" || game == "english") {
    v.sides = "WB";
    v.max_stack = 2;
  } else if (game.rfind("morris", 0) == 0 &&
             (game == "morris3" || game == "morris6" || game == "morris9" || game == "morris12")) {
    v.sides = "WB";
  } else if (game == "cotoan") {
    v.sides = "RB";
    v.kinds = "0123456789";
    // One piece of each count (RULES.md): a blurred 8 read as a 9 yields the 9 to the side's surer 9.
    v.most_per_side = std::vector<int>(10, 1);
    v.face = PieceVocabulary::Face::Dots;
  } else if (game == "cotulenh") {
    v.sides = "RB";
    v.kinds = "CHIETAGSFNM";
    // The start's army: one commander, one missile, one militia, two of every other kind.
    v.most_per_side = {1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1};
    v.face = PieceVocabulary::Face::Symbols;
    v.max_stack = 3;
  } else {
    throw InputError("unknown game '" + game + "'");
  }
  return v;
}

std::vector<SideModel> default_sides_for(const GameArt& art, const PieceVocabulary& vocab) {
  // The board's brightest paint stands for the frame's white reference.
  const BoardColours& b = art.board;
  double white = 0.05;
  for (const Rgb& c : {b.sheet, b.light, b.land}) white = std::max(white, c.luma());
  auto rel = [&](const Rgb& c) {
    return cv::Vec3f(static_cast<float>(c.b / white), static_cast<float>(c.g / white), static_cast<float>(c.r / white));
  };
  std::vector<SideModel> out;
  for (char s : vocab.sides) {
    const auto it = std::find_if(art.pieces.sides.begin(), art.pieces.sides.end(),
                                 [&](const SideColours& c) { return c.side == s; });
    if (it == art.pieces.sides.end()) continue;
    SideModel m;
    m.side = s;
    m.body = rel(it->body);
    m.mark = vocab.face == PieceVocabulary::Face::Plain ? m.body : rel(it->mark);
    out.push_back(m);
  }
  return out;
}

Pipeline make_pipeline(const std::string& game, PipelineParams params, std::optional<calib::Lens> lens) {
  PieceVocabulary vocab = vocabulary_for(game);
  GameArt art = load_game_art(game);
  if (params.reader.nominal_radius_pitch <= 0)
    params.reader.nominal_radius_pitch = static_cast<float>(art.pieces.diameter_pitch / 2);
  Pipeline p(calib::load_board_model(game), vocab, default_sides_for(art, vocab), params, std::move(lens));
  PieceSet set;
  set.game = game;
  set.top_height_mm = art.pieces.height_mm;
  p.set_piece_set(std::move(set));
  return p;
}

}  // namespace sb::vision
