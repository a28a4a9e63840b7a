// A piece set as the reader knows it: how big the top faces are and how high they stand, when a site counts as
// occupied, the colours of each side, and the look of each identity (each dot count, each symbol) as this set
// draws it. Learnt from a board whose tokens are known (the start position when a game begins, or an enrollment
// layout), saved as JSON and reused, so a club's own set reads without tuning. Without one the reader falls back
// on defaults (generic dot counting, symbols drawn by the renderer, side colours from the game's config).
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>

#include "vision/face.h"

namespace sb::vision {

// Colours are relative to the board's white reference of the frame they were seen in (1.0 = that white), so a
// set learnt under one lamp reads under another.
struct SideModel {
  char side = 0;
  cv::Vec3f body;   // the top face's own colour
  cv::Vec3f mark;   // its dots or symbols (== body for plain faces)
  // How much one piece's colours vary, per component of colour_features(): brightness and two chromas.
  cv::Vec3f body_sd{0.08f, 0.03f, 0.03f};
  cv::Vec3f mark_sd{0.15f, 0.06f, 0.06f};
  // The hue of the marks as a direction (unit, relative BGR) away from the body colour, across the body's own
  // direction (mark_hue()): blur mixes a small dot with the body and gloss or glare brightens the face, yet
  // neither turns that direction, so two sides that share a body colour are told apart by their marks' hue
  // even on a 1-dot face. Zero when not known (plain faces, marks of the body's own hue: black on ivory).
  cv::Vec3f hue{0, 0, 0};
  float hue_sd = 0.3f;  // how far one face's hue lies from it (unit-vector distance)
  int exemplars = 0;
};

// The hue of a face's marks (see SideModel::hue): the sum, over the pixels within 0.85 of its radius, of each
// pixel's difference from the body colour (both relative to `white`) with its part along the body colour taken
// off, where what is left is longer than kHueMin (camera noise and JPEG stay below it); normalised. `strength` gets the
// summed length of those differences (0 when the face shows no marks of another hue). On a body at least
// kHueLightBody of white bright, only pixels darker than the body count.
constexpr float kHueMin = 0.06f;
constexpr float kHueLightBody = 0.6f;
// A face shows its marks' hue when mark_hue()'s strength reaches this (a dozen pixels of clear mark).
constexpr float kHueStrength = 1.5f;
cv::Vec3f mark_hue(const Face& face, const cv::Vec3f& white, const cv::Vec3f& body_rel, float* strength);

// A colour (relative to white) as the side test compares it: log-brightness, then red−green and green−blue over
// brightness. Lighting and a piece's gloss move the first; the chromas tell colours apart under any lamp.
cv::Vec3f colour_features(const cv::Vec3f& rel_bgr);

struct KindModel {
  std::string token;  // "R5", "BT"
  Polar polar;        // the mark picture, averaged over the exemplars after turning them to match
  // Each exemplar's own picture (Cờ tư lệnh's symbols): a face is compared with each and its best match counts.
  // Blur from a moving camera lies one way in the image, so each exemplar shows its strokes smeared another way
  // about the symbol; an average of them is smeared every way, and a face turned like one of them matches that
  // one better. Empty for sets saved before these were kept: `polar` serves.
  std::vector<Polar> exemplar_pictures;
  int dots = -1;      // Cờ toán: the dot-like blobs counted when learnt (−1 for symbols)
  int exemplars = 0;
  // Where the polar picture is centred: false, on the face's centre; true, on its marks' centre of mass (Cờ tư
  // lệnh's symbols, symbol_reader.h). Sets saved before symbols were centred on their marks have false.
  bool marks_centred = false;
};

struct PieceSet {
  std::string game;
  bool learnt = false;
  double radius_mm = 0;        // the top face's radius; 0: not known, the reader searches a range
  double top_height_mm = 7;    // one piece's height above the board
  // Occupancy: the probability that a piece stands on a site is σ(w0 + w1·disc score + w2·foreign share), the
  // share of the site's centre the empty board does not explain. All zero: the reader's defaults.
  std::array<float, 3> occupancy{0, 0, 0};
  // Added to that sum: this weight times SiteDetail::body, how much the site's centre looks like a learnt side's
  // body rather than the paint (0: not used; learnt for Cờ toán only for now).
  float occupancy_body = 0;
  // Added too: this weight times the excess of SiteDetail::texture over `texture_empty`, the median of the start's
  // empty sites (0: not used). Learnt only for a start of pieces that the other evidence does not tell from its
  // empty sites (men of the squares' own colour).
  float occupancy_texture = 0;
  float texture_empty = 0;
  // How plainly the pieces learnt from showed their top face's rim: the 20th percentile of their disc scores, from
  // a board of at least kPieceDiscMinPieces pieces (0: not known). A site whose rim shows far less is not taken
  // for a piece on its foreign share alone (CellReader::decide_occupancy).
  float piece_disc = 0;
  std::vector<SideModel> sides;
  std::vector<KindModel> kinds;
  // Cờ toán: how sure a count read under this look is. The temperature of the softmax over a face's count scores,
  // learnt from the start: each start face matched with the other side's pictures alone (a second picture of
  // every count, taken apart from its own) and the temperature chosen that makes those matches' probabilities
  // honest. Blur that merges dots makes the start's own counts unsure, and every read count is then held less
  // sure. 0: not learnt (kCountTemperature).
  float count_temperature = 0;
  // Cờ toán: how much a face's count of dot-like blobs backs the match of its picture (added to a count's score
  // when the blobs agree with that count's picture, taken off when not). Learnt from the start: as much as its
  // faces' blob counts are right under this look. Sharp dots are counted right (a blank 0 whose noise pictures
  // like four dice dots is then told by its blobs), merged ones are not (the pictures then decide). 0: not
  // learnt (kCountBlobWeight).
  float count_blob_weight = 0;
  // Cờ toán: whether a face's count is matched from its pictures about the points round its centre too (the best
  // of 13, CellReader's count_pictures), or from the one about its centre. Learnt from the start: searched when
  // that reads at least as many of its faces right (blurred rings of dots, nearly round, can match a wrong count
  // better from a centre moved off theirs). false for sets saved before it.
  bool count_search = false;
  // How the empty board looked in the picture learnt from (level-1 top-plane image, each pixel's colour over
  // the paint's main colour and light falloff there; −1 where a piece stood or off the board), so that what
  // differs from it is seen however closely a piece matches the paint (a light piece on a light sheet) and
  // the board's own drawing never is. Kept for the session only (not saved: another camera, another picture).
  cv::Mat empty_board;
  int empty_board_role = -1;  // the paint role its colours are relative to
  // The board's paint as the picture learnt from showed it with its pieces left out: each role's colour over the
  // colour of `paint_ref_role` (the role the start's pieces covered least). A start whose pieces cover most of a
  // role (draughts' men on 24 of 32 dark squares) leaves too little of it in a reading for its colour to be
  // measured there: the pieces' colour would be taken for the paint's, and the empty squares for pieces. A
  // reading takes each role's colour from these ratios and its own reference role. Kept for the session only,
  // as empty_board.
  std::array<cv::Vec3f, 6> paint_ratio{};
  std::array<bool, 6> paint_known{};
  int paint_ref_role = -1;
  // Per channel, the share of the reference role's pixels clipped at white in that picture (BoardPaint::clipped):
  // a ratio learnt from a clipped reference holds for readings clipped alike.
  cv::Vec3f paint_ref_clipped{};

  const SideModel* side(char s) const;
  const KindModel* kind(const std::string& token) const;

  nlohmann::json to_json() const;
  // Throws InputError naming `where` and the field for anything malformed.
  static PieceSet from_json(const nlohmann::json& j, const std::string& where);
};

constexpr int kPieceSetVersion = 1;

void save_piece_set(const PieceSet& set, const std::filesystem::path& path);
// Throws InputError for a missing or corrupt file, another version, or a set of another game (when `game` is
// not empty).
PieceSet load_piece_set(const std::filesystem::path& path, const std::string& game = "");

}  // namespace sb::vision
