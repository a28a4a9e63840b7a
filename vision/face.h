// A piece's top face as the reader sees it: found as a disc in a top-plane image, cut out at a normalised size,
// split into the body colour and the mark colour (dots, symbols, rings), and described in ways that do not
// change when the piece is turned: the count of dot-like blobs, and a polar picture whose comparison with
// another is the best correlation over all rotations.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <opencv2/core.hpp>
#include <vector>

namespace sb::vision {

// A circle in a top-plane image (pixels).
struct Disc {
  cv::Point2f centre;
  float radius = 0;
  float score = 0;  // how much of the circle shows an edge, 0..1
  int level = 1;    // the stack level of the plane it was found in
};

// Votes for circle centres: every edge pixel of `bgr` inside `roi` votes at ±r along its gradient for each r in
// `radii`; `acc` (float, bgr's size) collects them, smoothed. The vote at a centre, divided by the circle's
// length, is the share of the circle that shows an edge.
// `base` (CV_32FC2, bgr's size, optional): per pixel, where a piece's base lies relative to its top
// (Rectifier::base_offset_map); an edge whose outward side faces the base is the piece's side, not its top's
// rim, and does not vote for that centre.
// `voters` (CV_8U, bgr's size, optional): only pixels where it is non-zero vote (the union of the areas whose
// votes can reach the windows looked at).
void disc_votes(const cv::Mat& bgr, cv::Rect roi, const std::vector<float>& radii, cv::Mat& acc,
                const cv::Mat& base = cv::Mat(), const cv::Mat& voters = cv::Mat());

// The best disc whose centre lies within `window` of `acc`: the peak, then centre and radius measured along rays
// (the edge nearest `radius` on each of 32 rays, a circle fitted through them with outliers dropped). `base`:
// where the piece's base lies relative to its top in this image (Rectifier::base_offset); rays towards it see
// the piece's side, not the top face's rim, and are left out.
Disc find_disc(const cv::Mat& bgr, const cv::Mat& acc, cv::Rect window, float radius, float radius_tolerance,
               cv::Point2f base = {0, 0});

// find_disc in two steps: the peak (its centre and score: the score does not change with the refinement), then
// centre and radius measured along rays. A caller that keeps a disc only for its score refines the few it keeps.
Disc disc_peak(const cv::Mat& acc, cv::Rect window, float radius, cv::Point2f base = {0, 0});
Disc refine_peak(const cv::Mat& bgr, const Disc& peak, float radius_tolerance, cv::Point2f base = {0, 0});

// Rays-only refinement of a disc whose centre is roughly known.
Disc refine_disc(const cv::Mat& bgr, Disc guess, float radius_tolerance, cv::Point2f base = {0, 0});

constexpr int kFaceSize = 48;  // the normalised face patch: the top face's radius is kFaceRadius pixels
constexpr float kFaceRadius = 21.f;
constexpr int kRings = 9;    // polar picture: rings from the centre to 0.9 of the radius ...
constexpr int kAngles = 48;  // ... and angles
constexpr int kPolarFreqs = kAngles / 2 + 1;  // the angular frequencies a ring's spectrum keeps

// Each face-patch pixel's distance from the patch centre, in top-face radii (row-major, kFaceSize² values).
const std::array<float, kFaceSize * kFaceSize>& face_radii();

// One face cut out of a top-plane image.
struct Face {
  cv::Mat patch;   // kFaceSize² BGR float (0..255), centre at the middle, radius kFaceRadius
  cv::Vec3f body;  // the face's own colour (the median inside 0.85 of the radius)
  cv::Vec3f mark;  // the colour of its marks (the far tail of colours from the body); == body if none
  // The same for a symbol: where the far tail lies on both sides of the median (marks covering much of a small
  // or blurred face), the part of it nearer the face's centre.
  cv::Vec3f symbol_mark;
  float mark_contrast = 0;  // |mark − body| in grey levels
  float mark_share = 0;     // share of the face that is mark-coloured
  cv::Vec3f rim;            // mean colour of the outer ring (0.9–1.0 of the radius)
};

Face cut_face(const cv::Mat& top_bgr, const Disc& disc);

// The kFaceSize² patch cut_face samples: cv::warpAffine(bgr, out, m, {kFaceSize, kFaceSize}, INTER_LINEAR |
// WARP_INVERSE_MAP, BORDER_REPLICATE), to the bit, without its per-call set-up (a read cuts a face per piece).
// A scale-and-shift `m` of an 8-bit BGR image whose samples all lie inside it is done here; anything else by
// OpenCV.
void face_patch(const cv::Mat& bgr, const cv::Matx23d& m, cv::Mat& out);

// The face's mark-ness inside the disc (0 body … 1 mark), kFaceSize² float, 0 outside, for a body and a mark
// colour (the face's own, or a side's learnt colours).
cv::Mat mark_map(const Face& face, const cv::Vec3f& body, const cv::Vec3f& mark);

// Dot-like blobs of a mark map: connected parts above one half, round, of like size, within 0.8 of the radius.
struct DotCount {
  int dots = 0;
  int blobs = 0;            // all mark parts, dots or not
  float largest_share = 0;  // the largest part's area as a share of the face (a ring, a cross, a star, a letter)
  float regularity = 0;     // 0..1: how alike the dots are in size
};
// `every_pixel`: the difference of Gaussians measured at every pixel, not only round the bright ones (the same
// count, slower: the reference the shortcut is tested against).
DotCount count_dots(const cv::Mat& marks, bool every_pixel = false);

// The polar picture of a mark map: kRings × kAngles samples. Compared in two parts: the radial profile (each
// ring's mean: where the marks lie from the centre out) and the angular pattern (each ring less its mean: dots
// round a ring, a letter's strokes), whose best match over all rotations is found through each ring's DFT.
struct Polar {
  std::vector<float> values;  // raw samples, ring-major (what is saved and averaged)
  std::vector<float> radial;  // ring means, mean removed, unit norm
  // Per ring, the DFT of its angular pattern (unit norm overall) at frequencies 0 … kAngles / 2: the
  // kPolarFreqs real parts, then the kPolarFreqs imaginary parts (one block, so a match reads it in lanes).
  std::vector<float> spectra;
  bool empty() const { return values.empty(); }
};
Polar polar_of(const cv::Mat& marks);

// How alike two polar pictures are (−1..1): 0.35 × the radial profiles' correlation + 0.65 × the angular
// patterns' correlation at the rotation that matches them best; `shift` gets that rotation in angle steps.
float rotational_match(const Polar& a, const Polar& b, int* shift = nullptr);

// Per angular frequency, the root of the summed power of a picture's rings (for match_bound).
using RingPower = std::array<float, kPolarFreqs>;
RingPower ring_power(const Polar& p);
// A bound rotational_match(a, b) never exceeds (its radial part exact, each frequency's correlation at most the
// product of the two pictures' ring powers: Cauchy–Schwarz), with room for rounding: a search for the best
// match skips the pictures whose bound is below the best so far, and finds the same best to the bit. `pa`, `pb`:
// ring_power() of a and b. Costs a tenth of a match.
float match_bound(const Polar& a, const Polar& b, const RingPower& pa, const RingPower& pb);

// `p` turned by `shift` angle steps (for averaging exemplars of one kind).
Polar rotate_polar(const Polar& p, int shift);
// A polar picture from raw samples (ring-major); empty when there are not kRings × kAngles of them.
Polar polar_from_values(std::vector<float> values);

}  // namespace sb::vision
