// The cell reader: per site, whether a piece stands there, whose it is, and what its top face shows (Cờ toán's
// dot count, Cờ tư lệnh's symbol), each with a probability.
//
// Stages of read(): discs (every edge of the top-plane image votes for circle centres at the top face's radius;
// per site the strongest centre near it, refined along rays; stacks are looked for in the planes of taller
// stacks too) → occupancy (the share of the circle that shows an edge, against the set's threshold) → faces
// (each occupied site's top face cut out at a normalised size) → sides (nearest learnt side colours; without a
// learnt set, the occupied faces split in two by colour and matched to the config's side colours) → identities
// (learnt pictures of each kind compared at every rotation, backed by a count of dot-like blobs; defaults: the
// blob count; symbols: vision/symbol_reader.h).
//
// learn() runs the same stages on a board whose tokens are known and builds a PieceSet from it.
#pragma once

#include <array>
#include <memory>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "vision/board_appearance.h"
#include "vision/face.h"
#include "vision/observation.h"
#include "vision/piece_set.h"
#include "vision/rectifier.h"
#include "vision/symbol_reader.h"

namespace sb::vision {

// Cờ toán: the softmax temperature that turns a face's count scores into the count's probability, for a set that
// learnt none of its own (PieceSet::count_temperature).
constexpr float kCountTemperature = 0.05f;
// Cờ toán: how much the count of dot-like blobs backs the pictures' match, for a set that learnt none of its own
// (PieceSet::count_blob_weight).
constexpr float kCountBlobWeight = 0.08f;
// PieceSet::piece_disc is learnt only from a board showing at least this many pieces.
constexpr size_t kPieceDiscMinPieces = 8;

struct ReaderParams {
  float search_pitches = 0.3f;     // a top face is looked for this far from where the site's centre projects
  float radius_min_pitch = 0.25f;  // unknown sets: the top face's radius is searched in this range ...
  float radius_max_pitch = 0.46f;  // ... of the pitch
  // Occupancy without a learnt set: σ(w0 + w1·disc score + w2·foreign share).
  std::array<float, 3> default_occupancy{-13.3f, 22.6f, 59.f};
  float centre_pitches = 0.22f;  // the foreign share is measured this far round the site's centre
  float texture_pitches = 0.3f;  // SiteDetail::texture is measured this far round the site's centre (0: never)
  // A site whose disc scores below this share of the learnt pieces' (PieceSet::piece_disc) is judged without its
  // foreign share, unless its centre is at least 1 − disc / piece_disc foreign (decide_occupancy).
  float piece_disc_floor = 0.5f;
  float level_margin = 0.06f;      // a taller stack's plane must beat the lower one's score by this much ...
  float stack_min_score = 0.4f;    // ... and show at least this much of its rim, its centre at most
  float stack_max_offset = 0.24f;  // this many pitches from the site's (pieces lie up to 0.2 pitch off);
  float stack_min_support = 0.3f;  // and the level-1 plane must show this foreign a share of the site's centre
  // Stack planes are searched only at sites whose level-1 disc scores at least this much.
  float stack_search_min = 0.25f;
  // The board's paint is measured again without the sites whose centre is this foreign or whose rim scores this
  // high (plainly pieces).
  float repaint_foreign = 0.35f;
  float repaint_score = 0.5f;
  // ... and, without a learnt paint, without those pieces' sides down to their base (piece_cover).
  bool repaint_sides = true;
  // Learning from a board of at least kPieceDiscMinPieces pieces: when they all read above its empty sites, the
  // occupancy bias leaves the empty sites at least this much (logit) below even, or half the gap when that is
  // less. The fit's prior alone left an empty square 0.4 below even (international seed 9702101 image 29: dark
  // squares 0.13–0.17 foreign at the start, 0.16–0.26 in the next picture, read as men) while the men stood 37
  // above it.
  float learnt_empty_margin = 8.f;
  // Against the empty board learnt from (PieceSet::empty_board), a pixel is foreign when its brightness over the
  // board's differs by more than this factor either way, or its chroma by more than change_chroma.
  float change_brightness = 1.2f;
  float change_chroma = 0.035f;
  // A site whose centre still shows the kept empty board's drawing (its brightness correlates with the empty
  // board's there at least this much, SiteDetail::empty_likeness) holds no piece: neither its foreign share nor its
  // rim counts. A lamp's glare spot brightens a drawn point and the sheet round it alike and changes their colour
  // and brightness by more than change_brightness, and a neighbour's side or shadow draws part of a rim round it,
  // yet both leave the point's ink where it was, while a piece hides it (0: not used).
  float empty_likeness_min = 0.9f;
  // ... when the empty board shows a drawing there at all: the brightness' spread over the centre at least this
  // share of its mean.
  float empty_contrast_min = 0.15f;
  // The other way round: a site whose centre no longer shows the kept empty board's drawing (likeness below
  // empty_unlike_max, where it was measured) has had it hidden, as a piece hides a point's ink, and gains
  // empty_unlike_gain log-odds per unit of likeness below that. A light man on a light sheet shows little rim
  // and leaves little of its centre foreign (morris6 seed 9706121 image 40: a3 at disc 0.28, foreign 0.11, read
  // empty at log-odds −0.5) yet hides the ink dot as plainly as any piece (likeness 0.08) (0: not used).
  // On the 8,000 Morris stills of 2026-12-07 (seeds 9714001, 9715001, 9716001, 9717001) every empty point showed
  // its ink at 0.89 or more and no man at more than 0.84, so the term starts at 0.75, and a point wholly hidden
  // (likeness 0) is a piece on that alone (15 log-odds, past the default bias of −13.3): at 0.5 and 10, 18 light
  // men of morris3's 2,000 stills read empty.
  float empty_unlike_max = 0.75f;
  float empty_unlike_gain = 20.f;
  // A lamp's glare on the paint round a site (glare_near: the glare_share quantile within glare_reach pitches)
  // of at least glare_min grey levels lets the site's centre be its paint brightened by as much (a dark square
  // under the glare doubles its brightness: no piece).
  float glare_reach = 1.0f;
  float glare_share = 0.75f;
  float glare_min = 12.f;
  // The glare is also measured on the site's own paint round its centre (GlareField::near_own: the
  // own_glare_share quantile between own_glare_inner and own_glare_outer pitches, where a piece on the site leaves
  // the paint bare), and own_glare_gain times it allowed when that is more: a light paint clipped white round a
  // dark square bounds glare_near at a few grey levels while the square's own corners show the glare, and a spot
  // brightens the square's middle more than its corners (0: not measured). Three times: a small spot centred on
  // an empty dark square of a glossy board (brazilian seed 2496200025050103, 22 under a warm lamp) showed its
  // corners 30 grey levels of glare and its centre about 90; twice the corners left 0.59 of the centre foreign
  // and the round spot's edge (disc 0.31) made it a man, three times leaves 0.11.
  float own_glare_inner = 0.47f;
  float own_glare_outer = 0.75f;
  float own_glare_share = 0.25f;
  float own_glare_gain = 3.f;
  // Those corners are bare only round pieces seen from above: a tilted view shows a piece's side down to its
  // base, over its own square's corners on the side away from the camera and over its diagonal neighbours' facing
  // it, and a light man's side there passes for glare that explains his own face (international seed 9702101
  // image 32: stone men at a 43° tilt, their squares' corners 8-81 grey levels "glared", every white man of the
  // start read empty and the set refused). Not counted: what a piece at the site or at another within
  // own_glare_neighbours pitches may show (its top face and side, 1.15 times the disc's radius). A piece is one
  // known when learning; when reading, a site whose centre looks more like a learnt side's body than like the
  // paint (SiteDetail::body above 0) and lies within own_glare_piece_sd of that body (the root of the summed
  // squares of its colour features' deviations over SideModel::body_sd). A glare on an empty square does not give
  // its paint a side's colour: the spot of SpotGlare's square 22, brighter than its paint by more than a shadow
  // explains, is nearer the green men's body than its wood (body above 0) yet 15 deviations from it; the men of
  // that test, of OwnGlare's and of image 32 lie within 3.3 of their side's (black men on near-black squares the
  // farthest), a few of CotoanLamp's pieces under its lamp up to 5.5 (not left out: the glare read as before).
  float own_glare_neighbours = 1.5f;
  float own_glare_piece_sd = 4.f;
  // A learnt set predicts its roles' colours from the least covered role's (correct_paint); in a channel of that
  // role learnt unclipped where this share more of its pixels are now clipped at white than in its least newly
  // clipped channel (a coloured lamp switched on), a role keeps its own measured colour when that is more (above
  // 1: never).
  float clipped_ref_share = 0.05f;
  // centre_stray_discs: morris9 seed 9704101 image 37, black stones on a light sheet under a low lamp: the
  // circles found for the men on g7 and g4 lay a radius and more off them, on the sheet, whose colour was nearer
  // the white men's than the black's and the men read white (their faces 7.9 and 6.7 deviations from the
  // nearest side's body, faces cut round the sites' centres 2.8 and 3.0). A face cut round the site's centre is
  // taken when the disc's face fits no learnt side's body within stray_disc_fit_sd deviations, the centre's
  // within stray_centre_fit_sd, and stray_disc_better times better. The centre's bound is the looser: a lamp of
  // another colour switched on after the set was learnt takes a face away from its side's learnt colours
  // (morris3 seed 8822003 game 1, a 2,718 K lamp at 1.5 times the exposure: the white men's rims lost against
  // the cream card, their discs found on their shadows 12.4 to 15.6 deviations off, the faces round the sites'
  // centres 4.4 to 6.1, and every white man put down after the lamp read black).
  float stray_disc_offset = 0.5f;
  float stray_disc_fit_sd = 4.f;
  float stray_centre_fit_sd = 8.f;
  float stray_disc_better = 2.f;
  float min_mark_contrast = 14.f;  // grey levels between body and marks for a face to show marks at all
  // The top face's radius as the game's config draws its pieces (0: not known), used while a set of unknown size
  // shows fewer than two pieces to measure: the board's own drawn circles (Morris' points) would be measured
  // instead, and a light piece on a light sheet is told from the paint by its rim only, at the right radius.
  float nominal_radius_pitch = 0;
  // Cờ toán: a face is matched with both sides' learnt pictures of each count (the better match counts).
  bool dots_from_both_sides = true;
  // Cờ tư lệnh: a face's symbol is matched about nine centres round its marks' (SymbolReader::pictures), each
  // kind at the one that suits it best; off, about the marks' centre alone.
  bool symbol_centre_search = true;
  // The centre searches (Cờ toán's counts when PieceSet::count_search, Cờ tư lệnh's symbols) are skipped for a
  // face whose picture about its centre alone puts its best kind far ahead of the next (counts: this many times
  // the look's count temperature; symbols: by this much), at a score of at least search_skip_score (0: never
  // skipped).
  float count_search_skip_temperatures = 6.f;
  float symbol_search_skip_margin = 0.2f;
  float search_skip_score = 0.85f;
};

// Everything the reader found at one site (for learning, evaluation and the debug overlay).
struct SiteDetail {
  Disc disc;          // best disc (centre in top-plane pixels of its level)
  float foreign = 0;  // share of the site's centre that the empty board does not explain
  // How much more the site's centre looks like a learnt side's body than like the paint there (a log-likelihood
  // ratio over 6, in −1..1; 0 without learnt sides): a piece whose body the paint model explains as the paint in
  // a shadow (dark olive on tan card) is still seen by its own colour.
  float body = 0;
  // How much the site's centre shows besides a plane of light: the spread of its brightness about a fitted plane,
  // in percent of the white reference. A man of the squares' own colour (black on near-black) still shows his
  // top's shading there (weighed when the set learnt to: PieceSet::occupancy_texture).
  float texture = 0;
  float illum = 1;  // the light here against the board's centre (the paint model's falloff)
  // The correlation of the centre's brightness with the kept empty board's (PieceSet::empty_board) there, −1..1
  // (0: not measured: no empty board kept, or it shows no drawing there).
  float empty_likeness = 0;
  float p_occupied = 0;
  float occupancy_logit = 0;  // the sum p_occupied is the sigmoid of (it tells apart sites p_occupied rounds to 1)
  bool occupied = false;
  Face face;                     // when occupied
  cv::Vec3f body_rel, mark_rel;  // face colours relative to the frame's white
  int side = -1;                 // index into the vocabulary's sides
  float side_p = 0;
  char kind = 0;
  float kind_p = 0;
  DotCount dots;
  std::vector<std::pair<char, float>> kind_scores;  // learnt / default template matches, best first
};

// How well the pictures learnt from a start hold up: each start face's kind read with the pictures of the other
// side's pieces alone (a set draws a kind alike on both sides). A picture of the very frame a kind was learnt
// from always matches itself; a picture of the same kind on the other side's piece matches it only when both show
// the piece's marks, not what the frame did to them (a motion streak undone where there was none rings every
// face differently).
struct LearnReport {
  int faces = 0;               // start faces with an identity (dots, symbols)
  int read_by_other_side = 0;  // of those, read right with the other side's pictures alone
};

struct ReadResult {
  std::vector<SiteReading> sites;
  std::vector<SiteDetail> details;
  double radius_px = 0;  // the top faces' radius used
  // Processor milliseconds per named stage of read(), in order.
  std::vector<std::pair<std::string, double>> stage_ms;
};

// What a read leaves for the next read of the same board under the same geometry and set (Pipeline keeps one):
// per site a small picture of its neighbourhood in the top-plane image and what was read there, and the board's
// paint model. A site whose picture has not changed since it was last read is taken from here; only the others
// are read again (a move changes two or three sites). Reads of a set that does not know its radius and sides
// (the defaults: every site's reading depends on the others) do not use it.
struct ReadCache {
  bool valid = false;
  cv::Size top_size;
  cv::Vec3f white;  // the frame's white reference when the pictures were taken
  float radius_px = 0;
  BoardPaint paint;                 // measured on the last read of every site
  std::vector<cv::Mat> pictures;    // per site, kCachePicture² BGR float, taken when the site was last read
  std::vector<SiteDetail> details;  // per site, as last read
  // Per site, the occupancy logits of its reads since its picture last changed (a site read in doubt is read
  // again at every read, and its occupancy is their mean), and how many.
  std::vector<float> logit_sum;
  std::vector<int> reads;
  int reused = 0;  // sites the latest read took from here
  void clear() { *this = ReadCache{}; }
};
constexpr int kCachePicture = 8;

class CellReader {
 public:
  // `default_sides`: per side letter of `vocab`, the body and mark colours the game's config gives (relative to
  // white), used only to tell which colour group is which side when no set was learnt.
  CellReader(PieceVocabulary vocab, std::vector<SideModel> default_sides, ReaderParams params = {});

  const PieceVocabulary& vocabulary() const { return vocab_; }
  const ReaderParams& params() const { return params_; }

  // Reads every site. `white`: the frame's white reference (BGR, grey levels), see white_reference(). With a
  // `cache` of the previous read of this geometry and set, sites that did not change are taken from it (and it
  // is updated).
  ReadResult read(const Rectifier& rect, FramePyramid& pyramid, const PieceSet& set, cv::Vec3f white,
                  ReadCache* cache = nullptr) const;

  // Learns a set from a board whose tokens are known (`expected`: per site, "" or a token). Returns the set;
  // `problems` gets one line per site that the learnt set still reads wrong on this very board (empty: all
  // right). Kinds that the board does not show keep `base`'s models, if any. `report`, when given, gets how well
  // the learnt pictures hold up (LearnReport).
  PieceSet learn(const Rectifier& rect, FramePyramid& pyramid, const std::vector<std::string>& expected,
                 cv::Vec3f white, const PieceSet& base, std::vector<std::string>* problems,
                 LearnReport* report = nullptr) const;

 private:
  struct Planes;
  // `only`: when given, the sites to look at (the others keep their details); the votes are then counted in
  // each of their windows alone.
  // `stage_ms`: when given, gets each plane's milliseconds.
  void find_discs(const Rectifier& rect, FramePyramid& pyramid, float radius_px, float tol, Planes& planes,
                  std::vector<SiteDetail>& details, const std::vector<bool>* only = nullptr,
                  std::vector<std::pair<std::string, double>>* stage_ms = nullptr) const;
  // The per-site pictures a ReadCache compares.
  std::vector<cv::Mat> site_pictures(const Rectifier& rect, const cv::Mat& top) const;
  // The top faces' radius: measured at the sites in `use` (all when empty), keeping those most like discs.
  float estimate_radius(const Rectifier& rect, Planes& planes, const std::vector<bool>& use = {}) const;
  // Sites whose centre the empty board's paint does not explain.
  std::vector<bool> unexplained_sites(const Rectifier& rect, Planes& planes) const;
  // The radius of a set that does not know its own. A set learnt from a start without pieces: the nominal
  // radius (its first pieces may be all of one colour, or light on a light sheet, and a dark piece's measured
  // outline is wider than a light one's rim). Otherwise measured at the unexplained sites when there are two or
  // more, else the nominal one, else measured at every site. The nominal radius comes with a wider `tol`.
  float unknown_radius(const Rectifier& rect, Planes& planes, const PieceSet& set, float* tol) const;
  // `paint`: a paint model already measured (a cache's), used instead of measuring it; `only` as find_discs';
  // `pieces`: the sites known to hold a piece (learning), left out of the paint's measurement.
  void measure_foreign(const Rectifier& rect, Planes& planes, const PieceSet& set, std::vector<SiteDetail>& details,
                       const BoardPaint* paint = nullptr, const std::vector<bool>* only = nullptr,
                       const std::vector<bool>* pieces = nullptr) const;
  // Sites read as stacks whose level-1 plane shows the board at the site's centre take their level-1 disc.
  void keep_supported_stacks(const Rectifier& rect, Planes& planes, std::vector<SiteDetail>& details,
                             const std::vector<bool>* only = nullptr) const;
  // SiteDetail::body of each site (of `only`'s, when given) from the set's learnt side colours; `white` as
  // read_faces'.
  void measure_body(const Rectifier& rect, const Planes& planes, const PieceSet& set, std::vector<SiteDetail>& details,
                    cv::Vec3f white, const std::vector<bool>* only = nullptr) const;
  // SiteDetail::texture of each site (of `only`'s, when given); `white` as read_faces'.
  void measure_texture(const Rectifier& rect, const Planes& planes, std::vector<SiteDetail>& details, cv::Vec3f white,
                       const std::vector<bool>* only = nullptr) const;
  void decide_occupancy(const PieceSet& set, std::vector<SiteDetail>& details) const;
  // A dark man's top shows no rim against his own dark side, and the best circle near his site may lie on the
  // board beside him. An occupied site (`details[k]` of site `sites[k]`) whose level-1 disc lies more than
  // ReaderParams::stray_disc_offset radii off its centre takes a disc round the centre when the disc's face looks
  // like no learnt side's and a face cut round the centre does (ReaderParams::stray_disc_*).
  void centre_stray_discs(const Rectifier& rect, const Planes& planes, const PieceSet& set,
                          std::vector<SiteDetail>& details, const std::vector<size_t>& sites, cv::Vec3f white) const;
  void read_faces(const Rectifier& rect, Planes& planes, std::vector<SiteDetail>& details, cv::Vec3f white) const;
  void assign_sides(const PieceSet& set, std::vector<SiteDetail>& details, cv::Vec3f white) const;
  void assign_kinds(const PieceSet& set, std::vector<SiteDetail>& details) const;
  // Whether a face's kind scores (best first) put the best kind `margin` ahead of the next at a score of at least
  // ReaderParams::search_skip_score: its centre search is skipped.
  bool plainly_ahead(const std::vector<std::pair<char, float>>& cand, float margin) const;
  // Cờ tư lệnh's symbols and Cờ toán's counts: each side's faces take their kinds from the best match down, a
  // kind only while the side owns pieces of it left (PieceVocabulary::most_per_side); a face whose likelier kinds
  // are all taken gets its next. Counts are assigned jointly instead (assign_counts), unless the side shows more
  // faces than it owns pieces. Over the whole board (every site, read now or taken from the previous read), from
  // each site's kind_scores (counts: only faces matched with a learnt picture of every count).
  // `temperature`: the softmax temperature of the kind's probability (counts: of their assignment too).
  void limit_kinds(std::vector<SiteDetail>& details, float temperature) const;
  // Cờ toán: each count's best match of a face's polar pictures (count_pictures in cell_reader.cpp: about its
  // centre and points round it; `dots`: its dot-like blobs) with the set's pictures of `side`'s counts, of the
  // other side's, or both's; best first. `middle_matches`, when given: filled with the matches of the picture about
  // the centre by a call with that picture alone, and taken from there by a call with it and the others.
  enum class Pictures { Own, Other, Both };
  std::vector<std::pair<char, float>> dot_scores(const PieceSet& set, const std::vector<Polar>& pictures, int dots,
                                                 char side, Pictures which,
                                                 std::vector<float>* middle_matches = nullptr) const;

  PieceVocabulary vocab_;
  std::vector<SideModel> default_sides_;
  ReaderParams params_;
  std::shared_ptr<const SymbolReader> symbols_;  // Cờ tư lệnh's symbols (shared: the defaults are drawn once)
};

// Cờ toán: the counts of one side's faces (per face its count scores, as SiteDetail::kind_scores), each count
// at most `most` times (per kind of `kinds`, PieceVocabulary::most_per_side): the assignment under which the
// most faces are expected right, i.e. whose sum of each face's probability of its count (the softmax of its
// scores at `temperature`) is highest. Taking the surest match first instead lets a face take a count another
// needs more: a blurred 8 a shade surer of the 9 than of the 8 takes the side's 9 from its real 9, which was far
// surer of the 9, and leaves that 9 the 8. Per face its count; all 0 when there are more faces than pieces.
std::vector<char> assign_counts(const std::vector<std::vector<std::pair<char, float>>>& scores,
                                const std::string& kinds, const std::vector<int>& most, float temperature);

// The frame's white reference: per channel, the 80th percentile of the gate image inside the board zone.
cv::Vec3f white_reference(const cv::Mat& gate_bgr, const cv::Mat& zone);

}  // namespace sb::vision
