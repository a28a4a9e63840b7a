// What is in front of the camera at one moment: the pieces (on their sites, lifted in a hand, or lying on the
// table beside the board) and the players' hands. The renderer draws a Scene; the simulation changes it.
#pragma once

#include <map>
#include <opencv2/core.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/board_model.h"
#include "vision/render/look.h"
#include "vision/render/rng.h"

namespace sb::vision {

// A board as the game sees it: site name → the tokens of its stack from bottom to top (one for a single
// piece; a draughts king is two men of its colour; a Cờ tư lệnh stack lists its pieces). The camera sees the
// top one.
using BoardContents = std::map<std::string, std::vector<std::string>>;

struct PieceInstance {
  std::vector<std::string> layers;  // tokens bottom to top; never empty
  cv::Point2d xy;                   // centre of the base, board frame (mm)
  double base_mm = 0;               // height of the base above the board surface (negative: on the table)
  double turn_deg = 0;              // rotation about its axis
  double shade = 1;                 // this piece's own shade (the batch it came from)
  std::string site;                 // the site it stands on, "" when it is not on one
  const std::string& top() const { return layers.back(); }
};

struct HandPose {
  int player = 0;      // 0: reaches in from the first player's side (y beyond the sheet), 1: the far side
  cv::Vec3d shoulder;  // where the arm comes from (board frame, mm; z negative is up)
  cv::Vec3d grip;      // the point between thumb and fingertips
  double pinch = 0;    // 0: fingers open, 1: closed on a piece
  double rest = 0;     // 1: lying flat and still (a resting hand), 0: reaching
  cv::Vec3d motion;    // how far the grip moved while the shutter was open (mm): the hand is blurred
  std::optional<PieceInstance> held;  // a piece between the fingers (its xy/base_mm follow the grip)
};

struct Scene {
  std::vector<PieceInstance> pieces;
  std::vector<HandPose> hands;
};

// Lays pieces on their sites: each off-centre by up to look.max_offset of a pitch in a random direction and
// turned at random, no two touching. The first player's pieces face that player, the second's face theirs.
std::vector<PieceInstance> place_pieces(const calib::BoardModel& model, const PieceLook& look,
                                        const BoardContents& board, Rng& rng);

// One piece put down on `site` among `others` (not touching any of them).
PieceInstance place_piece(const calib::BoardModel& model, const PieceLook& look, const std::string& site,
                          std::vector<std::string> layers, const std::vector<PieceInstance>& others, char first_side,
                          Rng& rng);

// Pieces lying on the table beside the board, in loose rows: `player`'s captures to that player's right
// (player 0 sits at the near side), or (`reserve`) the pieces they have yet to place to their left. `index`
// counts the pieces already there.
PieceInstance beside_board(const calib::BoardModel& model, const PieceLook& look, const BoardLook& board, int player,
                           int index, std::vector<std::string> layers, Rng& rng, bool reserve = false);

// The piece radius in mm for a look on a board.
double piece_radius_mm(const calib::BoardModel& model, const PieceLook& look);

// Board contents the camera sees: site → top token.
std::map<std::string, std::string> visible_tokens(const std::vector<PieceInstance>& pieces);

}  // namespace sb::vision
