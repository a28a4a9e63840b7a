// Cờ tư lệnh's piece symbols: which of the eleven kinds a top face shows, whatever way the piece is turned.
// A face's marks (mark_map) become a polar picture (face.h) centred on the marks' own centre of mass, so that a
// face cut a pixel or two off its true centre (the disc found on a blurred or tilted view) gives the same
// picture: letters like H and N differ only in a stroke through the middle, which an off-centre picture blurs
// away. The picture is compared at every rotation with each kind's template: the set's learnt templates (from the start
// position or an enrollment layout) first, then the symbols the renderer draws in both its styles for kinds the set
// does not know.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "vision/face.h"
#include "vision/piece_set.h"

namespace sb::vision {

// One kind and how well a face matches it (rotational_match, −1..1).
using KindScore = std::pair<char, float>;

// One kind's template from its exemplars (faces of known kind, a set being learnt): the exemplar most like the
// others is the reference; exemplars far less like it than the rest (a face cut off-centre, a piece set down on
// the wrong site) are dropped; the rest are turned to match it and averaged. `kept` (optional) gets, per
// exemplar, whether it went into the average.
Polar consensus_polar(const std::vector<Polar>& exemplars, std::vector<bool>* kept = nullptr);

class SymbolReader {
 public:
  // `kinds`: the piece letters ("CHIETAGSFNM").
  explicit SymbolReader(std::string kinds);

  const std::string& kinds() const { return kinds_; }
  // The polar picture of a face's mark map (face.h mark_map) about the marks' centre (marks_centre: the symbol's
  // own marks, not a border ring drawn round it).
  static Polar picture(const cv::Mat& marks, int passes = kCentrePasses);
  // picture() about the marks' centre and about the eight points kShiftStep face pixels round it (a 3 × 3
  // grid). The marks' centre of mass is not the symbol's: it lies wherever the cut leaves a crescent of rim or
  // takes a stroke away, and on a blurred face the one stroke that tells two kinds apart (H's bar, N's
  // diagonal) is pictured sharply only about the true centre. rank() of these pictures takes, per kind, the
  // centre that matches it best.
  static constexpr float kShiftStep = 2.f;
  static std::vector<Polar> pictures(const cv::Mat& marks);
  // The same about a centre marks_centre() gave, whose picture (picture_about) is `middle`.
  static std::vector<Polar> pictures_round(const cv::Mat& marks, cv::Point2f centre, Polar middle);
  // The polar picture of a mark map about a given point of the face patch.
  static Polar picture_about(const cv::Mat& marks, cv::Point2f centre);
  // Where picture() centres a face's marks: their centre of mass within 0.78 of the face's radius of its centre,
  // then again within that radius of the centre so found, a few times over (the window follows the symbol), the
  // marks kept inside 0.85 of the face's radius. A face cut off its true centre shows its rim's shading or the
  // ground as a crescent of "marks" on one side; a window fixed on the cut's centre takes that crescent in and
  // leaves the symbol's far strokes out, one moved onto the symbol does the reverse.
  // `passes`: the passes after the first (0: one window on the face's centre, as Cờ toán's dots are pictured).
  static constexpr int kCentrePasses = 3;
  static cv::Point2f marks_centre(const cv::Mat& marks, int passes = kCentrePasses);
  // Each symbol as the renderer draws it, in both styles (tokens "?K").
  const std::vector<KindModel>& defaults() const { return defaults_; }

  // Every kind's best match for the marks of a face of `side`, best first. Kinds with learnt templates in `set`
  // are scored against those (the side's own, or the other side's a little discounted: a set draws a kind alike
  // on both sides, and a kind seen once per side gains a second exemplar), each exemplar's picture on its own
  // when the set kept them (KindModel::exemplar_pictures: the best match counts); the others against the
  // defaults, discounted when the set is learnt.
  std::vector<KindScore> rank(const Polar& marks, const PieceSet& set, char side) const;
  // The same for pictures of one face about several centres (pictures()): each kind scores its best over them.
  // `middle_matches` (optional): a rank of one picture keeps there its match with each template, and a rank of
  // the nine pictures about the same centre (pictures_round) with the same set and side takes the middle one's
  // from there instead of matching it again (the same scores, to the bit).
  std::vector<KindScore> rank(const std::vector<Polar>& marks, const PieceSet& set, char side,
                              std::vector<float>* middle_matches = nullptr) const;

 private:
  std::string kinds_;
  std::vector<KindModel> defaults_;
};

}  // namespace sb::vision
